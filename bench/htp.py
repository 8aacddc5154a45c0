"""Benchmark of the generated HTP kernels against a per-element HTP-style baseline.

    python bench/htp.py [--specs examples/scale.yaml ...] [--shapes 1,32,28,28 ...] [--no-count]

Renders each example spec with `backends: [lpai, htp]` into a temporary folder, builds
one driver (bench/htp_driver.cpp) per project from its HTP op sources (compiled against
the template's stand-in of the HTP API) for x86_64 (the system C++ compiler, -O2) and
twice as Hexagon v79 code (zig's clang: scalar, and with integer HVX v66, run under
qemu-hexagon). The driver calls the package's engine (include/htp_engine.h,
htp_elementwise_run, through the op's own <Op>_run: on x86 its SSE4.1 copy where the op
has one and the CPU has SSE4.1) on views of its buffers, and the
baseline, and prints, for every elementwise op, element type and shape (1, 8, 64, 512
and 25,088 elements unless --shapes):

    BENCH_HTP op=<name> inputs=<n> dtype=<uint8|uint16|float32> shape=<b>x<h>x<w>x<d> elems=<n>
              math=<vector|libm> x86_instr_per_elem=<k> x86_baseline_per_elem=<b> x86_ratio=<b/k>
              x86=<met|missed> hex_packets_per_elem=<scalar build> hex_hvx_packets_per_elem=<k>
              hex_baseline_per_elem=<b, HVX build> hex_ratio=<b/k> hex=<met|missed|device>

then HTPDEVICE (the Hexagon misses of float math, judged on a device) and `HTPTARGETS
met` or the misses (the targets: docs/benchmark.md, "HTP"). Before any count, every case
is checked: the kernel and the baseline must write the same bytes (CHECK lines), on
x86_64 and in both Hexagon builds, or the run fails. The baseline (bench/htp_bench_ops.h)
is the op's own generated math called once per element with every input read through a
per-element accessor t(b, h, w, d) and the result quantized and stored element by
element, as ExecuTorch's HTP example and Qualcomm's examples write an op. Counts:
callgrind client requests on x86 (one call each), bench/qemu_count.c on Hexagon, as
bench/run.py counts the LPAI kernels. Custom ops are not measured here (their cost is
the user's math).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(REPO))

import run as lpai_bench  # noqa: E402  (render, the counting plugin, the tool checks)

from hooks import spec as spec_mod  # noqa: E402

DEFAULT_SPECS = ("examples/scale.yaml", "examples/activations.yaml")
# HTP_NO_PATH_ENV: the engine chooses its path by size, as on the device (the host
# builds of the package's tests read HTP_ENGINE_PATH).
CXXFLAGS = (
    "-std=c++17",
    "-O2",
    "-g",
    "-ffp-contract=off",
    "-fno-exceptions",
    "-fno-rtti",
    "-DHTP_STANDIN",
    "-DHTP_NO_PATH_ENV",
)
# The two Hexagon builds, bench/run.py's: scalar, and HVX (128-byte vectors, integer HVX up
# to v66, what qemu-hexagon runs); both linked at the scalar CPU.
HEX_CPUS = lpai_bench.HEX_CPUS

# The targets (issue 50), per element type, in one run against the per-element baseline:
# up to SMALL_MAX elements the kernel may cost at most SMALL_PER_CALL (x86 instructions)
# or HEX_SMALL_PER_CALL (Hexagon packets, HVX build) times the baseline per call; then
# the least ratio baseline / kernel of the band; from LARGE elements a one-input 8-bit op
# (the table path) needs U8_UNARY_LARGE, any other LARGE_RATIO, or LIBM_LARGE when its
# math calls libm (math=libm).
SMALL_MAX = lpai_bench.SMALL_MAX
SMALL_PER_CALL = {"x86": lpai_bench.SMALL_PER_CALL, "hex": lpai_bench.HEX_SMALL_PER_CALL}
BANDS = ((SMALL_MAX + 1, 1.0), (512, 3.0))
LARGE = lpai_bench.LARGE
U8_UNARY_LARGE = {"x86": 20.0, "hex": 50.0}
LARGE_RATIO = 10.0
LIBM_LARGE = lpai_bench.LIBM_LARGE
# From this many elements a one-input 8-bit op takes the table (HTP_TABLE_MIN,
# include/htp_engine.h): its DSP cost is integer (vlut32); every other case above
# SMALL_MAX runs its float math on the DSP, which HVX float would vectorise and no QEMU
# here runs: a Hexagon miss there is printed "judged on a device", not missed.
TABLE_MIN = 512


def least_ratio(where: str, elems: int, dtype: str, inputs: int, libm: bool) -> float:
    """The least baseline / kernel ratio of a case (`where`: x86 or hex)."""
    if elems <= SMALL_MAX:
        return 1.0 / SMALL_PER_CALL[where]
    if elems >= LARGE:
        if dtype == "uint8" and inputs == 1:
            return U8_UNARY_LARGE[where]
        return LIBM_LARGE if libm else LARGE_RATIO
    return [least for start, least in BANDS if elems >= start][-1]


def judge(where: str, elems: int, dtype: str, inputs: int, libm: bool, ratio: float) -> str:
    """`met`, `missed` or (Hexagon, float math on the DSP) `device`."""
    if ratio >= least_ratio(where, elems, dtype, inputs, libm):
        return "met"
    table = dtype == "uint8" and inputs == 1 and elems >= TABLE_MIN
    return "device" if where == "hex" and elems > SMALL_MAX and not table else "missed"


def unity_file(op, source: Path) -> str:
    """One op's source, with its kernel and baseline entries and its BenchOp."""
    params = ", ".join(f"{float(p.default)!r}f" for p in op.params) or "0.0f"
    name = op.qnn_type
    return (
        f"// Written by bench/htp.py: {op.name}\n"
        '#include "htp_bench_ops.h"\n'
        f'#include "{source}"\n'
        "namespace {\n"
        f"htp_rc {name}_bench_kernel(const htp_view &o, const htp_view *v, uint32_t nin, const float *params)\n"
        "{\n"
        f"    (void)nin;  // the op's input count is a constant in its own file\n"
        f"    return {name}_run(o, v, params);  // the engine, or on x86 its SSE4.1 copy\n"
        "}\n"
        f"htp_rc {name}_bench_baseline(BenchTensor &out, const BenchReader *const *ins, uint32_t nin,"
        " const float *params)\n"
        "{\n"
        f"    return bench_baseline(out, ins, nin, params, {name}_math_v);\n"
        "}\n"
        "} // namespace\n"
        f'extern const BenchOp bench_op_{name} = {{"{op.name}", {len(op.inputs)}u, {len(op.params)}u, {{{params}}},\n'
        f"    {name}_bench_kernel, {name}_bench_baseline}};\n"
    )


def prepare(spec: str, work: Path):
    """The spec rendered with both backends, and the driver's sources: (ops, sources, include dirs)."""
    raw = yaml.safe_load((REPO / spec).read_text())
    raw["backends"] = ["lpai", "htp"]
    pkg = spec_mod.validate(raw)
    spec_file = work / f"{pkg.package_name}.yaml"
    spec_file.write_text(yaml.safe_dump(raw))
    project = work / pkg.package_name
    lpai_bench.log(f"render {spec} with backends [lpai, htp] -> {project}")
    lpai_bench.render(spec_file, project)
    htp = project / "op_package" / "htp"
    ops = pkg.elementwise_ops
    build = work / f"{pkg.package_name}-bench"
    build.mkdir()
    sources = []
    for op in ops:
        path = build / f"bench_{op.qnn_type}.cpp"
        path.write_text(unity_file(op, htp / "src" / "ops" / f"{op.qnn_type}.cpp"))
        sources.append(path)
    table = build / "bench_table.cpp"
    table.write_text(
        '#include "htp_bench_ops.h"\n'
        + "".join(f"extern const BenchOp bench_op_{op.qnn_type};\n" for op in ops)
        + "const BenchOp *const kBenchOps[] = {"
        + ", ".join(f"&bench_op_{op.qnn_type}" for op in ops)
        + "};\n"
        + f"const size_t kBenchOpCount = {len(ops)};\n"
    )
    sources += [table, htp / "standin" / "htp_standin.cpp", BENCH / "htp_driver.cpp"]
    includes = [f"-I{BENCH}", f"-I{htp / 'include'}", f"-I{htp / 'host'}"]
    includes.append(f"-I{project / 'op_package' / pkg.package_name / 'include'}")
    return pkg, sources, includes, build


def compile_all(cmds: list[list[str]], jobs: int = 2) -> None:
    """Every command but the last two at a time (the objects), then the last (the link)."""

    def one(cmd):
        res = subprocess.run(cmd, capture_output=True, text=True)
        if res.returncode != 0:
            raise lpai_bench.BenchError(f"build failed:\n{' '.join(cmd)}\n{res.stderr}")

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(one, cmds[:-1]))
    one(cmds[-1])


def build_x86(sources, includes, build: Path) -> Path:
    exe = build / "htp_bench"
    # -z now: libm bound at load time, so that the first counted call does not pay the
    # lazy resolution of powf or tanhf (bench/run.py links its driver the same way).
    compile_all([["c++", *CXXFLAGS, *includes, *map(str, sources), "-o", str(exe), "-lm", "-Wl,-z,now"]])
    return exe


def build_hexagon(sources, includes, build: Path, mode: str) -> Path:
    exe = build / f"htp_bench.{mode}.hexagon"
    zig = [sys.executable, "-m", "ziglang"]
    flags = ["-target", lpai_bench.HEX_TARGET, f"-mcpu={HEX_CPUS[mode]}", *(f for f in CXXFLAGS if f != "-g")]
    objs = [build / f"hex_{mode}_{i:02d}.o" for i in range(len(sources))]
    cmds = [[*zig, "c++", *flags, *includes, "-c", str(s), "-o", str(o)] for s, o in zip(sources, objs)]
    cmds.append([*zig, "cc", *lpai_bench.HEX_LINK, *map(str, objs), "-o", str(exe), "-lm"])
    compile_all(cmds)
    return exe


def check(exe: Path, shapes, prefix=()) -> None:
    res = subprocess.run([*prefix, str(exe), "check", *shapes], capture_output=True, text=True)
    bad = [line for line in res.stdout.splitlines() if line.startswith("CHECK ") and not line.endswith("rc=0,0 diff=0")]
    if res.returncode != 0 or bad:
        raise lpai_bench.BenchError(f"{exe.name}: kernel and baseline disagree:\n" + "\n".join(bad[:10]) + res.stderr)


def x86_counts(exe: Path, shapes, work: Path) -> dict:
    out = Path(tempfile.mkdtemp(prefix="cg-", dir=work))
    cmd = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--instr-atstart=no", "-q"]
    subprocess.run(
        [*cmd, f"--callgrind-out-file={out / 'cg.out'}", str(exe), "count", *shapes], capture_output=True, check=True
    )
    counts = {}
    for dump in out.glob("cg.out.*"):
        text = dump.read_text()
        m = re.search(r"^desc: Trigger: Client Request: (\w+) (.*)$", text, re.M)
        t = re.search(r"^totals: (\d+)", text, re.M)
        if m and t:
            r = dict(lpai_bench.KV.findall(m.group(2)))
            counts[(m.group(1), r["op"], r["dtype"], r["shape"])] = int(t.group(1)) / int(r["elems"])
    return counts


def hex_counts(exe: Path, shapes, plugin: Path, work: Path) -> dict:
    sym = lpai_bench.elf_symbols(exe, ("bench_count_on", "bench_count_off"))
    log_path = work / f"{exe.name}.qc.log"
    plugin_arg = f"{plugin},on={sym['bench_count_on'][0]:#x},off={sym['bench_count_off'][0]:#x}"
    prefix = [
        "qemu-hexagon",
        "-cpu",
        lpai_bench.HEX_QEMU_CPU,
        "-d",
        "plugin",
        "-D",
        str(log_path),
        "-plugin",
        plugin_arg,
    ]
    res = subprocess.run([*prefix, str(exe), "count", *shapes], capture_output=True, text=True)
    if res.returncode != 0:
        raise lpai_bench.BenchError(f"{exe.name} count failed under qemu-hexagon:\n{res.stderr}")
    labels = [line.split(" ", 2)[1:] for line in res.stdout.splitlines() if line.startswith("WINDOW ")]
    windows = [dict(lpai_bench.KV.findall(x)) for x in log_path.read_text().splitlines() if "qemu_count " in x]
    if len(windows) != len(labels) or labels[0] != ["calib"]:
        raise lpai_bench.BenchError(f"{exe.name}: {len(windows)} counted windows for {len(labels)} labels")
    calib = int(windows[0]["packets"])
    counts = {}
    for (which, tag), w in zip(labels[1:], windows[1:]):
        r = dict(lpai_bench.KV.findall(tag))
        counts[(which, r["op"], r["dtype"], r["shape"])] = (int(w["packets"]) - calib) / int(r["elems"])
    return counts


def elems_of(shape: str) -> int:
    n = 1
    for d in shape.split("x"):
        n *= int(d)
    return n


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--specs", nargs="+", default=list(DEFAULT_SPECS))
    parser.add_argument("--no-count", action="store_true", help="check only")
    parser.add_argument(
        "--shapes", nargs="+", default=[], metavar="B,H,W,D", help="instead of 1, 8, 64, 512 and 25,088 elements"
    )
    args = parser.parse_args(argv)
    no_cg = lpai_bench.have_callgrind()
    no_hex = lpai_bench.have_hexagon()
    for why in (no_cg, no_hex):
        if why and not args.no_count:
            lpai_bench.log(f"htp bench: not counted: {why}")
    missed: list[str] = []
    device: list[str] = []
    with tempfile.TemporaryDirectory(prefix="htp-bench-") as tmp:
        work = Path(tmp)
        plugin = lpai_bench.build_plugin(work) if not no_hex and not args.no_count else None
        for spec in args.specs:
            pkg, sources, includes, build = prepare(spec, work)
            if not pkg.elementwise_ops:
                continue
            exe = build_x86(sources, includes, build)
            check(exe, args.shapes)
            hexes = {}
            if not no_hex:
                prefix = ("qemu-hexagon", "-cpu", lpai_bench.HEX_QEMU_CPU)
                for mode in HEX_CPUS:
                    hexes[mode] = build_hexagon(sources, includes, build, mode)
                    check(hexes[mode], args.shapes, prefix)
            print(
                f"CHECKED {pkg.package_name}: kernel == baseline on every case"
                + (", x86_64 and Hexagon (scalar and HVX)" if hexes else "")
            )
            if args.no_count:
                continue
            x86 = x86_counts(exe, args.shapes, work) if not no_cg else {}
            hexc = {mode: hex_counts(h, args.shapes, plugin, work) for mode, h in hexes.items()} if plugin else {}
            keys = {k[1:] for k in x86} | {k[1:] for c in hexc.values() for k in c}
            for op, dtype, shape in sorted(keys, key=lambda k: (k[0], k[1], elems_of(k[2]))):
                o = next(o for o in pkg.ops if o.name == op)
                ninputs, math = len(o.inputs), lpai_bench.math_kind(o)
                elems = elems_of(shape)
                line = f"BENCH_HTP op={op} inputs={ninputs} dtype={dtype} shape={shape} elems={elems} math={math}"
                label = f"{op} {dtype} {shape}"
                k, b = x86.get(("kernel", op, dtype, shape)), x86.get(("baseline", op, dtype, shape))
                if k is not None and b is not None:
                    verdict = judge("x86", elems, dtype, ninputs, math == "libm", b / k)
                    line += (
                        f" x86_instr_per_elem={k:.2f} x86_baseline_per_elem={b:.2f} x86_ratio={b / k:.2f} x86={verdict}"
                    )
                    if verdict != "met":
                        missed.append(f"{label} x86 ratio {b / k:.2f}")
                if hexc:
                    key = ("kernel", op, dtype, shape)
                    k, kh = hexc["scalar"][key], hexc["hvx"][key]
                    b = hexc["hvx"][("baseline", op, dtype, shape)]
                    verdict = judge("hex", elems, dtype, ninputs, math == "libm", b / kh)
                    line += (
                        f" hex_packets_per_elem={k:.2f} hex_hvx_packets_per_elem={kh:.2f}"
                        f" hex_baseline_per_elem={b:.2f} hex_ratio={b / kh:.2f} hex={verdict}"
                    )
                    least = least_ratio("hex", elems, dtype, ninputs, math == "libm")
                    if verdict == "device":
                        device.append(f"{label} HVX ratio {b / kh:.2f} (target {least:g})")
                    elif verdict == "missed":
                        missed.append(f"{label} HVX ratio {b / kh:.2f} < {least:g}")
                print(line, flush=True)
    counted = not args.no_count and not (no_cg and no_hex)
    if counted:
        if device:
            print("HTPDEVICE judged on a device (float math on the DSP, no HVX float under QEMU): " + "; ".join(device))
        print("HTPTARGETS " + ("met" if not missed else "missed: " + "; ".join(missed)))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except lpai_bench.BenchError as exc:
        print(f"htp bench: {exc}", file=sys.stderr)
        sys.exit(1)
