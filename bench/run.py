"""Benchmark of the generated LPAI kernels against the per-element baseline.

    python bench/run.py [--shapes 1,32,28,28 1,64,112,112] [--specs ...] [--no-count]

Renders each example spec with copier into a temporary directory, builds one driver
per op package (bench/driver.c + the package's inference sources + its host
emulator, system C compiler, -O2) and prints, for every elementwise op, layout and
shape:

    BENCH op=<name> inputs=<1..4> layout=<contig|strided|transposed|broadcast> shape=<...>
          instr_per_elem=<x> baseline_instr_per_elem=<y> ns_per_elem=<t>

and for every custom op (its math from examples/<spec>.user/), layout and shape:

    BENCH op=<name> kind=custom inputs=<n> outputs=<m> layout=<contig|strided|transposed>
          shape=<...> instr_per_elem=<x> user_math_instr_per_elem=<u>
          framework_instr_per_elem=<x - u> scratch_bytes=<b> ns_per_elem=<t>

(one line each). Instructions: valgrind --tool=callgrind, collected around one
executeOp call only (table build included) and around one baseline call; a custom
op's executeOp is split with --toggle-collect on its user function. Time: median of
many plain calls of the kernel, no valgrind. Before any figure, every case is
checked: kernel, baseline and the kernel's reference path must write identical
output buffers, padding included, or the run fails (equal work, correct baseline); a
custom op (one path only) against a recomputation from its dequantized inputs with
the same user function.

docs/benchmark.md describes the method and holds the latest figures.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(REPO))

from hooks import expr as expr_mod  # noqa: E402  (FUNCTION_TABLE's libm estimate)
from hooks import spec as spec_mod  # noqa: E402  (the template's own spec model)

DEFAULT_SPECS = ("examples/scale.yaml", "examples/activations.yaml", "examples/shapes.yaml", "examples/custom.yaml")
# The math a spec's custom ops need, as a user writes it (<QnnType>_math.c), next to the
# spec: examples/<spec>.user/. Copied into the rendered package's user/ folder before
# the build; without it a custom op's stub refuses every node.
USER_MATH_SUFFIX = ".user"
# What LPAI's always-on models run (tens to a few thousand elements) and two large
# feature maps.
DEFAULT_SHAPES = ("1,1", "1,8", "1,16", "1,64", "1,8,8,8", "1,40,49", "1,32,28,28", "1,64,112,112")

# The targets (issues 13, 20 and 41), per size band: (smallest element count, least
# ratio of the baseline's count to the kernel's). Up to SMALL_MAX elements a call is all
# reading and checking the node (docs/benchmark.md, "What the checks cost at one
# element"): there the kernel may cost at most SMALL_PER_CALL times the baseline's
# instructions per call on x86 (HEX_SMALL_PER_CALL times its packets on the DSP), the
# band's "least ratio" is 1 / that. From LARGE elements an op whose math uses a
# transcendental libm function (FUNCTION_TABLE's `libm`: exp, log, pow, tanh, sigmoid,
# sqrt; scalar float on the DSP) needs LIBM_LARGE, any other LARGE's 10.
# Instruction limits apply from LARGE elements on.
SMALL_MAX = 8
SMALL_PER_CALL = 1.7
HEX_SMALL_PER_CALL = 1.3
BANDS = ((0, 1.0 / SMALL_PER_CALL), (SMALL_MAX + 1, 1.0), (512, 3.0), (25_000, 10.0))
LARGE = 25_000
LIBM_LARGE = 4.0
UNARY_CONTIG_MAX = 8.0
UNARY_WALK_MAX = 12.0
BINARY_MAX = 40.0
# Three inputs: a third dequantization and a third operand copy per element.
NARY_MAX = 60.0

# The second build of every driver, counted at the small shapes only: the kernels
# without the checks that do not change what a valid node computes (lpai_glue.h,
# LPAI_MEASURE_UNCHECKED), so that each small call's BENCH line says what share of it
# the checks are (checks_share, x86; hex_checks_share, the scalar DSP build).
UNCHECKED = "-DLPAI_MEASURE_UNCHECKED"

CFLAGS = (
    "-std=c11",
    "-O2",
    "-g",
    "-ffp-contract=off",
    "-DLPAI_HOST_EMULATOR",
    "-DLPAI_INFERENCE_ONLY",
    "-DLPAI_EMU_OWN_DECLS",
)


# The Hexagon side (docs/benchmark.md, "Hexagon packets"): the same driver and sources
# compiled by zig's clang for the DSP target, run under qemu-hexagon with the packet
# counting plugin bench/qemu_count.c. Two builds: scalar (no HVX feature: __HVX__
# undefined) and HVX (128-byte vectors, integer HVX up to v66, what qemu 7.2 runs
# correctly); the baseline and the seed-style kernel are counted in the HVX build, the
# flags the DSP library is built with here.
HEX_TARGET = "hexagon-linux-musl"
HEX_CPUS = {"scalar": "hexagonv79", "hvx": "hexagonv79+hvxv66+hvx_length128b"}
HEX_QEMU_CPU = "v67"
# Both builds link at the scalar CPU with -O2, as the rendered `make hexagon-test` does
# (makefiles/hexagon_test.mk, HEX_LINK): zig builds its musl and compiler-rt once per
# target, -mcpu and mode, about 45 s each on one core (measured), and the HVX objects
# need nothing of theirs. So the HVX build's libc is the scalar build's: the same
# memset for the kernel and the baseline in both columns.
HEX_LINK = ("-target", HEX_TARGET, f"-mcpu={HEX_CPUS['scalar']}", "-O2")
HEX_CFLAGS = tuple(f for f in CFLAGS if f != "-g")
# Targets of issues 20 and 41, in packets per call (equivalently per element at one
# shape): up to SMALL_MAX elements at most HEX_SMALL_PER_CALL times the baseline's, both
# builds; from there never more than the baseline (both builds), and the HVX build (the
# DSP library's flags) at least the band's ratio of BANDS; from LARGE elements the HVX
# build at least 50x fewer for unary ops (the table path), 10x for two inputs and more,
# or LIBM_LARGE when the math is libm.
HEX_UNARY_LARGE = 50.0
HEX_MULTI_LARGE = 10.0
# The Hexagon check (kernel == baseline == reference == seed-style under qemu) runs on
# the shapes up to this many elements: the reference path of the largest feature map
# costs minutes under the emulator, and the host check covers every shape.
HEX_CHECK_MAX = 100_000


class BenchError(RuntimeError):
    pass


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def have_callgrind() -> str | None:
    """None when instructions can be counted, else the reason they cannot."""
    if not shutil.which("valgrind"):
        return "valgrind is not installed (apt-get install -y valgrind)"
    for inc in ("/usr/include", "/usr/local/include"):
        if Path(inc, "valgrind", "callgrind.h").is_file():
            return None
    return "valgrind/callgrind.h is missing (apt-get install -y valgrind)"


def have_hexagon() -> str | None:
    """None when Hexagon packets can be counted, else the reason they cannot."""
    import importlib.util

    if importlib.util.find_spec("ziglang") is None:
        return "ziglang is not installed (pip install ziglang)"
    qemu = shutil.which("qemu-hexagon")
    if not qemu:
        return "qemu-hexagon is not installed (apt-get install -y qemu-user)"
    res = subprocess.run([qemu, "-h"], capture_output=True, text=True)
    if "-plugin" not in res.stdout:
        return f"{qemu} has no TCG plugin support (-plugin)"
    if not shutil.which(os.environ.get("HOSTCC", "cc")):
        return "no host C compiler for the counting plugin (HOSTCC or cc)"
    return None


def elf_symbols(path: Path, names) -> dict[str, tuple[int, int]]:
    """The address and size of each of `names` in the symbol table of a 32-bit
    little-endian ELF file (the Hexagon driver): read here so that no binutils for
    Hexagon are needed."""
    import struct

    data = path.read_bytes()
    if data[:6] != b"\x7fELF\x01\x01":
        raise BenchError(f"{path}: not a 32-bit little-endian ELF file")
    (shoff,) = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x2E)
    sections = [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize) for i in range(shnum)]
    found = {}
    for sec in sections:
        if sec[1] != 2:  # SHT_SYMTAB
            continue
        strtab = sections[sec[6]]
        for off in range(sec[4], sec[4] + sec[5], 16):
            st_name, st_value, st_size = struct.unpack_from("<III", data, off)
            start = strtab[4] + st_name
            name = data[start : data.index(b"\0", start)].decode()
            if name in names:
                found[name] = (st_value, st_size)
    missing = set(names) - set(found)
    if missing:
        raise BenchError(f"{path}: no symbol {', '.join(sorted(missing))}")
    return found


def build_plugin(work: Path) -> Path:
    """bench/qemu_count.c as a shared object for qemu-hexagon -plugin."""
    lib = work / "libqemu_count.so"
    cmd = [os.environ.get("HOSTCC", "cc"), "-shared", "-fPIC", "-O2", "-Wall", "-Wextra", "-Werror"]
    res = subprocess.run([*cmd, "-o", str(lib), str(BENCH / "qemu_count.c")], capture_output=True, text=True)
    if res.returncode != 0:
        raise BenchError(f"the counting plugin does not build:\n{res.stderr}")
    return lib


def hex_count(exe: Path, plugin: Path, shapes, work: Path, env) -> dict:
    """Hexagon packets per call under qemu-hexagon, keyed by (which, op, layout, shape)
    as count(): the plugin's windows paired in order with the driver's WINDOW lines,
    the empty window ("calib": the two marker calls) subtracted from each."""
    sym = elf_symbols(exe, ("bench_count_on", "bench_count_off"))
    fd, log_path = tempfile.mkstemp(prefix="qc-", suffix=".log", dir=work)
    os.close(fd)
    prefix = (
        "qemu-hexagon",
        "-cpu",
        HEX_QEMU_CPU,
        "-d",
        "plugin",
        "-D",
        log_path,
        "-plugin",
        f"{plugin},on={sym['bench_count_on'][0]:#x},off={sym['bench_count_off'][0]:#x}",
    )
    out = run_driver(exe, "count", shapes, env, prefix)
    labels = [line.split(" ", 2)[1:] for line in out.splitlines() if line.startswith("WINDOW ")]
    windows = [dict(KV.findall(line)) for line in Path(log_path).read_text().splitlines() if "qemu_count " in line]
    if len(windows) != len(labels) or not labels or labels[0][0] != "calib":
        raise BenchError(f"{exe.name}: {len(windows)} counted windows for {len(labels)} labels")
    calib = int(windows[0]["packets"])
    counts = {}
    for (which, tag), w in zip(labels[1:], windows[1:]):
        r = dict(KV.findall(tag))
        counts[(which, r["op"], r["layout"], r["shape"])] = (int(w["packets"]) - calib, int(r["elems"]))
    return counts


def build_hexagon(project: Path, work: Path, flavour: str, debug: bool = False, unchecked: bool = False) -> Path:
    """The driver of build() compiled for Hexagon (HEX_CPUS[flavour]) by zig cc; with
    `debug`, with -g as well (bench/profile.py: clang's code does not change with -g);
    `unchecked`: with UNCHECKED (the checks' share of a small call)."""
    pkg_dir = lpai_package_dir(project)
    sources = sorted(pkg_dir.glob("src/*.c")) + sorted(pkg_dir.glob("src/ops/*_inference.c"))
    sources += sorted(pkg_dir.glob("user/*.c"))
    tag = f"{flavour}-g" if debug else flavour
    tag += "-unchecked" if unchecked else ""
    exe = work / f"bench_{pkg_dir.name}.hexagon-{tag}"
    objs = work / f"objs-hexagon-{tag}"
    objs.mkdir(exist_ok=True)
    zig = [sys.executable, "-m", "ziglang", "cc"]
    includes = [f"-I{pkg_dir / 'include'}", f"-I{pkg_dir / 'host'}", f"-I{BENCH}", f"-I{work}"]
    flags = (*HEX_CFLAGS, "-g") if debug else HEX_CFLAGS
    flags += (UNCHECKED,) if unchecked else ()
    compile_flags = ["-target", HEX_TARGET, f"-mcpu={HEX_CPUS[flavour]}", *flags, *includes]
    cmds = [
        [*zig, *compile_flags, "-c", str(src), "-o", str(objs / f"{i:03d}_{src.stem}.o")]
        for i, src in enumerate([*sources, BENCH / "driver.c"])
    ]
    cmds.append([*zig, *HEX_LINK, *(c[-1] for c in cmds), "-o", str(exe), "-lm"])
    for cmd in cmds:
        res = subprocess.run(cmd, capture_output=True, text=True)
        if res.returncode != 0:
            raise BenchError(f"Hexagon build failed:\n{' '.join(cmd)}\n{res.stderr}")
    return exe


def render(spec: Path, dest: Path) -> None:
    # --vcs-ref HEAD: the working tree (uncommitted changes included) rather than the
    # newest tag, so the kernels benchmarked are the ones being edited.
    cmd = [
        sys.executable,
        "-m",
        "copier",
        "copy",
        "--trust",
        "--defaults",
        "--quiet",
        "--vcs-ref",
        "HEAD",
        "--data-file",
        str(spec),
        str(REPO),
        str(dest),
    ]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise BenchError(f"copier failed for {spec}:\n{res.stdout}{res.stderr}")


def prepare(spec: str, work: Path):
    """One spec rendered afresh into work/<Package>/project, its user math copied in and
    its bench_ops.h written into work/<Package>/build: (pkg, project, build dir, ops,
    custom ops). With neither ops nor custom ops, nothing is written but the render."""
    spec_path = (REPO / spec) if not Path(spec).is_absolute() else Path(spec)
    pkg = spec_mod.load(spec_path)
    project = work / pkg.package_name / "project"
    bwork = work / pkg.package_name / "build"
    if project.exists():
        shutil.rmtree(project)
    bwork.mkdir(parents=True, exist_ok=True)
    log(f"render {spec_path.name} -> {project}")
    render(spec_path, project)
    header, ops, custom = ops_header(pkg)
    if ops or custom:
        write_user_math(spec_path, project, pkg, custom)
        (bwork / "bench_ops.h").write_text(header)
    return pkg, project, bwork, ops, custom


def c_double(value) -> str:
    if isinstance(value, bool):
        return "1.0" if value else "0.0"
    return repr(float(value))


def op_signature(op) -> str:
    """The bench_op fields of an op's table entry, less the baseline: name, op type,
    inputs, parameters (how the node serves each one, its spec default, its name)."""
    letter = {"float": "f", "int": "i", "bool": "b"}
    kinds = ", ".join(f"'{letter[p.type]}'" for p in op.params)
    values = ", ".join(c_double(p.default) for p in op.params)
    names = ", ".join(p.c.name for p in op.params)
    return (
        f'"{op.name}", "{op.qnn_type}", {op.n_inputs}u, {op.n_params}u, {{{kinds or "0"}}}, {{{values or "0.0"}}}, '
        f"{{{names or 'NULL'}}}"
    )


def custom_header(ops) -> list[str]:
    """bench_ops.h's part for the custom ops: per op an adapter that hands the driver's
    dense floats (bench_call) to the user's <Op>_compute with the spec's own statements
    (op.c.args_fill, those of the framework's adapter), its output rules, and its table
    entry (bench_custom in bench/driver.c)."""
    out = []
    entries = []
    for i, op in enumerate(ops):
        out += [f'#include "ops/{op.qnn_type}_user.h"', "", f"static int bench_user_{i}(const bench_call *c)", "{"]
        out += [f"    {op.qnn_type}_args args;", "    memset(&args, 0, sizeof args);"]
        out += [f"    {line}" for line in op.c.args_fill]
        out += [f"    return {op.qnn_type}_compute(&args);", "}", ""]
        rules = []
        for o in op.outputs:
            sh = o.shape
            if sh.kind == "reduce":
                dims = ", ".join(str(d) for d in sh.dims)
                rules.append(f"{{'r', {int(sh.keepdim)}u, {len(sh.dims)}u, {{{dims}}}}}")
            else:  # like an input (every input has the benchmark shape; so has a broadcast)
                rules.append("{'l', 0u, 0u, {0}}")
        entries.append(
            f"{{{{{op_signature(op)}, NULL}}, {op.n_outputs}u, {int(op.rowwise)}, "
            f"{{{', '.join(rules)}}}, bench_user_{i}}},"
        )
    if not entries:  # the array needs one entry; BENCH_N_CUSTOM says there are none
        entries = ['{{"", "", 0u, 0u, {0}, {0.0}, NULL}, 0u, 0, {{0, 0u, 0u, {0}}}, NULL},']
    out.append(f"#define BENCH_N_CUSTOM {len(ops)}u")
    out.append("#define BENCH_CUSTOM_OPS \\")
    out += [e + " \\" for e in entries[:-1]] + [entries[-1]]
    out.append("")
    return out


def ops_header(pkg) -> tuple[str, list, list]:
    """bench_ops.h: per elementwise op, its math (the spec's expression rendered to C
    by the template's own renderer), a baseline instantiated with that math inlined,
    and the op's table entry; then the custom ops (custom_header)."""
    ops = [op for op in pkg.ops if op.kind == "elementwise"]
    custom = [op for op in pkg.ops if op.kind == "custom"]
    out = ["/* Generated by bench/run.py from the spec; rebuilt on every run. */"]
    entries = []
    for i, op in enumerate(ops):
        lines = [f"static inline float bench_math_{i}(const float *in, const float *params)", "{"]
        for k, name in enumerate(op.input_names):
            lines.append(f"    const float in_{name} = in[{k}];")
        for p in op.params:
            lines.append(f"    const float p_{p.name} = params[{p.index}];")
        lines += ["    (void)in;", "    (void)params;", f"    return {op.c.expr};", "}", ""]
        lines += [
            f"static void bench_baseline_{i}(const bl_tensor *in, uint32_t nin, const bl_tensor *out,",
            "                                const float *params)",
            "{",
            f"    bl_run(in, nin, out, params, bench_math_{i});",
            "}",
            "",
        ]
        out += lines
        entries.append(f"    {{{op_signature(op)}, bench_baseline_{i}}},")
    out.append("#define BENCH_OPS \\")
    out += [e + " \\" for e in entries[:-1]] + [entries[-1]] if entries else ["/* none */"]
    out.append("")
    out += custom_header(custom)
    return "\n".join(out), ops, custom


def math_kind(op) -> str:
    """`libm` when the op's math uses a transcendental libm function (FUNCTION_TABLE's
    `libm`, hooks/expr.py Cost.libm), else `vector`: the template's estimate, printed
    as each BENCH line's math= and choosing its target from LARGE elements."""
    return "libm" if expr_mod.cost(op.tree).libm else "vector"


def write_user_math(spec_path: Path, project: Path, pkg, custom) -> None:
    """The user math of every custom op (examples/<spec>.user/<QnnType>_math.c) into
    the rendered package's user/ folder, over the stub the template created."""
    folder = spec_path.with_name(spec_path.stem + USER_MATH_SUFFIX)
    for op in custom:
        source = folder / f"{op.qnn_type}_math.c"
        if not source.is_file():
            raise BenchError(f"custom op {op.name}: its math {source} is missing (the stub refuses every node)")
        shutil.copyfile(source, project / "op_package" / pkg.package_name / "user" / source.name)


def lpai_package_dir(project: Path) -> Path:
    """The project's LPAI op package (op_package/htp, the HTP one, is bench/htp.py's)."""
    pkg_dirs = sorted(p for p in (project / "op_package").iterdir() if p.name != "htp")
    if len(pkg_dirs) != 1:
        raise BenchError(f"expected one LPAI op package in {project / 'op_package'}")
    return pkg_dirs[0]


def build(project: Path, work: Path, unchecked: bool = False) -> Path:
    pkg_dirs = [lpai_package_dir(project)]
    pkg_dir = pkg_dirs[0]
    sources = sorted(pkg_dir.glob("src/*.c")) + sorted(pkg_dir.glob("src/ops/*_inference.c"))
    sources += sorted(pkg_dir.glob("user/*.c"))
    exe = work / f"bench_{pkg_dir.name}{'-unchecked' if unchecked else ''}"
    cc = os.environ.get("CC", "cc")
    cmd = [
        cc,
        *CFLAGS,
        *((UNCHECKED,) if unchecked else ()),
        f"-I{pkg_dir / 'include'}",
        f"-I{pkg_dir / 'host'}",
        f"-I{BENCH}",
        f"-I{work}",
        *map(str, sources),
        str(BENCH / "driver.c"),
        "-o",
        str(exe),
        "-lm",
        # Bind libm at load time: the first counted call must not pay the lazy
        # symbol resolution of expf/tanhf.
        "-Wl,-z,now",
    ]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise BenchError(f"build failed:\n{' '.join(cmd)}\n{res.stderr}")
    return exe


KV = re.compile(r"(\w+)=(\([^)]*\)|\S+)")


def records(text: str, kind: str) -> list[dict]:
    return [dict(KV.findall(line)) for line in text.splitlines() if line.startswith(kind + " ")]


def run_driver(exe: Path, mode: str, shapes, env=None, prefix=()) -> str:
    res = subprocess.run([*prefix, str(exe), mode, *shapes], capture_output=True, text=True, env=env)
    if res.returncode != 0:
        raise BenchError(f"{exe.name} {mode} failed (rc {res.returncode}):\n{res.stdout}{res.stderr}")
    return res.stdout


def check_failed(rec: dict) -> bool:
    """An elementwise case: kernel, baseline and reference path wrote different bytes;
    a custom case: the op and its recomputation did (driver.c, custom_ref.h)."""
    if rec.get("kind") == "custom":
        return rec["diff_recompute"] != "0" or rec["rc"] != "0,0"
    return (
        rec["diff_baseline"] != "0"
        or rec["diff_reference"] != "0"
        or rec.get("diff_seed", "0") != "0"
        or rec["rc"] != "0,0"
    )


def check(exe: Path, shapes, env, prefix=()) -> list[dict]:
    # check=False: a failing case must be reported with its CHECK line, not as a crash.
    res = subprocess.run([*prefix, str(exe), "check", *shapes], capture_output=True, text=True, env=env)
    recs = records(res.stdout, "CHECK")
    bad = [r for r in recs if check_failed(r)]
    if bad:
        raise BenchError(
            "outputs disagree (kernel, baseline, reference or recomputation):\n" + "\n".join(map(str, bad))
        )
    if res.returncode != 0:
        raise BenchError(f"{exe.name} check failed (rc {res.returncode}):\n{res.stdout}{res.stderr}")
    return recs  # empty when --ops selects none of this package's ops


def count(exe: Path, shapes, work: Path, env, toggles=()) -> dict:
    """Instructions per call, keyed by (which, op, layout, shape). `toggles`: the
    custom ops' user functions, each given as --toggle-collect (driver.c, do_case)."""
    out_dir = Path(tempfile.mkdtemp(prefix="cg-", dir=work))
    base = out_dir / "cg.out"
    prefix = (
        "valgrind",
        "--tool=callgrind",
        "--collect-atstart=no",
        "--instr-atstart=no",
        "-q",
        f"--callgrind-out-file={base}",
        *(f"--toggle-collect={sym}" for sym in toggles),
    )
    run_driver(exe, "count", shapes, env, prefix)
    counts = {}
    for dump in out_dir.glob("cg.out.*"):
        text = dump.read_text()
        m = re.search(r"^desc: Trigger: Client Request: (\w+) (.*)$", text, re.M)
        t = re.search(r"^totals: (\d+)", text, re.M)
        if not m or not t:
            continue
        r = dict(KV.findall(m.group(2)))
        counts[(m.group(1), r["op"], r["layout"], r["shape"])] = (int(t.group(1)), int(r["elems"]))
    return counts


def band_of(elems: int) -> tuple[int, float]:
    return [b for b in BANDS if elems >= b[0]][-1]


def least_ratio(elems: int, libm: bool, large: float = BANDS[-1][1]) -> float:
    """The least baseline / kernel ratio of a case: its band's, from LARGE elements
    `large` (LIBM_LARGE for libm math)."""
    if elems >= LARGE:
        return LIBM_LARGE if libm else large
    return band_of(elems)[1]


def verdict(rec: dict) -> list[str]:
    """The targets missed by one BENCH record (empty: all met): rec holds instr and
    base (per element), inputs, layout, elems and libm (the op's math, math=libm)."""
    x, y, elems = rec["instr"], rec["base"], rec["elems"]
    missed = []
    if elems <= SMALL_MAX:
        if x > SMALL_PER_CALL * y:
            missed.append(f"{x / y:.2f}x the baseline's instructions per call > {SMALL_PER_CALL:g}x")
        return missed
    if elems >= LARGE:
        if rec["inputs"] >= 3:
            limit = NARY_MAX
        elif rec["inputs"] == 2:
            limit = BINARY_MAX
        else:
            limit = UNARY_CONTIG_MAX if rec["layout"] == "contig" else UNARY_WALK_MAX
        if x > limit:
            missed.append(f"{x:.2f} > {limit:g} instr/elem")
    least = least_ratio(elems, rec["libm"])
    if y / x < least:
        missed.append(f"baseline ratio {y / x:.2f}x < {least:g}x")
    return missed


def hex_verdict(hx: dict, inputs: int, elems: int, libm: bool = False, device: list | None = None) -> list[str]:
    """The Hexagon targets missed by one case (packets per element): up to SMALL_MAX
    elements at most HEX_SMALL_PER_CALL times the baseline of the same build, scalar or
    HVX, and never more from there; the HVX kernel at least its band's ratio (BANDS),
    from LARGE elements HEX_UNARY_LARGE (unary: the table path) or HEX_MULTI_LARGE
    times fewer (LIBM_LARGE when the math is libm). With `device` (a list), a band-ratio
    miss of two inputs and more goes there instead: their blocked loop's float math
    (soft_min, pick_floor) needs HVX float, which no QEMU here runs (issue 50): judged
    on a device, with the figure."""
    missed = []
    most = HEX_SMALL_PER_CALL if elems <= SMALL_MAX else 1.0
    for col, base in (("packets", "base_scalar"), ("hvx", "base")):
        if hx[col] > most * hx[base]:
            missed.append(f"{col} {hx[col]:.2f} > {most:g}x baseline {hx[base]:.2f} packets/elem")
    if elems > SMALL_MAX:
        large = HEX_UNARY_LARGE if inputs == 1 else HEX_MULTI_LARGE
        least = least_ratio(elems, libm and inputs > 1, large)
        if hx["base"] / hx["hvx"] < least:
            why = f"HVX ratio {hx['base'] / hx['hvx']:.2f}x < {least:g}x"
            (device if device is not None and inputs > 1 else missed).append(why)
    return missed


def checks_share(whole, unchecked) -> str:
    """The checks' share of a call: (whole - unchecked) / whole of the two counts per
    call (count()'s (total, elements) pairs), as a percentage."""
    if not whole or not unchecked:
        return "nan"
    return f"{100.0 * (whole[0] - unchecked[0]) / whole[0]:.0f}%"


def targets_line(name: str, missed: list[str]) -> str:
    """TARGETS / HEXTARGETS: `met` only when no case missed a target."""
    return f"{name} " + ("met" if not missed else "missed: " + "; ".join(missed))


def x86_missed(recs: list[dict]) -> list[str]:
    """Every x86 target missed by the records (verdict's fields and a `label`)."""
    return [f"{r['label']}: {w}" for r in recs for w in verdict(r)]


def hex_missed_of(recs: list[dict], device: list | None = None) -> list[str]:
    """Every Hexagon target missed by the records (hex_verdict's `hx`, inputs, elems,
    libm and a `label`); with `device`, the cases judged on a device go there."""
    missed = []
    for r in recs:
        here = [] if device is not None else None
        missed += [f"{r['label']}: {w}" for w in hex_verdict(r["hx"], r["inputs"], r["elems"], r["libm"], here)]
        if device is not None:
            device.extend(f"{r['label']}: {w}" for w in here)
    return missed


def hex_band_summary(rows: list[tuple]) -> list[str]:
    """One HEXBAND line per size band: per kind (unary, binary, n-ary) the worst ratio
    of the baseline's packets to the HVX kernel's, and the most packets per element of
    the scalar and the HVX kernel."""
    lines = []
    for name, _, inside in by_band(rows):
        fields = []
        for kind, label in ((1, "unary"), (2, "binary"), (3, "nary")):
            here = [r for r in inside if min(r[2], 3) == kind]
            if not here:
                continue
            worst = min(here, key=lambda r: r[3]["base"] / r[3]["hvx"])
            worst_scalar = min(here, key=lambda r: r[3]["base_scalar"] / r[3]["packets"])
            fields.append(
                f"worst_ratio_{label}={worst[3]['base'] / worst[3]['hvx']:.2f} ({worst[1]}) "
                f"worst_scalar_ratio_{label}={worst_scalar[3]['base_scalar'] / worst_scalar[3]['packets']:.2f} "
                f"max_packets_per_elem_{label}={max(r[3]['packets'] for r in here):.2f} "
                f"max_hvx_packets_per_elem_{label}={max(r[3]['hvx'] for r in here):.2f}"
            )
        lines.append(f"HEXBAND elems={name} " + " ".join(fields))
    return lines


def by_band(rows: list[tuple]):
    """(band name, its least ratio, its rows) for each size band that has rows; a row's
    first item is its element count."""
    for i, (lo, least) in enumerate(BANDS):
        hi = BANDS[i + 1][0] if i + 1 < len(BANDS) else None
        inside = [r for r in rows if r[0] >= lo and (hi is None or r[0] < hi)]
        if inside:
            yield (f"{lo:,}-{hi - 1:,}" if hi else f">={lo:,}"), least, inside


def band_summary(rows: list[tuple[int, str, int, float, float]]) -> list[str]:
    """One line per size band: the worst ratio and the largest instr/elem, per kind."""
    lines = []
    for name, least, inside in by_band(rows):
        worst = min(inside, key=lambda r: r[4] / r[3])
        most = {
            k: max(r[3] for r in inside if min(r[2], 3) == k)
            for k in (1, 2, 3)
            if any(min(r[2], 3) == k for r in inside)
        }
        if least < 1.0:  # up to SMALL_MAX elements: the kernel's count per call over the baseline's
            target = f"target_per_call<={SMALL_PER_CALL:g} worst_per_call={worst[3] / worst[4]:.2f}"
        elif inside[0][0] >= LARGE:
            target = f"target_ratio>={least:g} (libm {LIBM_LARGE:g}) worst_ratio={worst[4] / worst[3]:.2f}"
        else:
            target = f"target_ratio>={least:g} worst_ratio={worst[4] / worst[3]:.2f}"
        lines.append(
            f"BAND elems={name} {target} "
            f"({worst[1]}) max_instr_per_elem_unary={most.get(1, float('nan')):.2f} "
            f"max_instr_per_elem_binary={most.get(2, float('nan')):.2f} "
            f"max_instr_per_elem_nary={most.get(3, float('nan')):.2f}"
        )
    return lines


def custom_summary(rows: list[tuple[int, str, str, float]]) -> list[str]:
    """One CUSTOM line per size band: the largest framework instr/elem (executeOp less
    the user's function: gather, scatter, requantization, the call) per layout. No
    target: there is no per-element baseline of the user's math to compare with."""
    lines = []
    for name, _, inside in by_band(rows):
        fields = []
        for layout in ("contig", "strided", "transposed"):
            here = [r for r in inside if r[2] == layout]
            if here:
                top = max(here, key=lambda r: r[3])
                fields.append(f"max_framework_instr_per_elem_{layout}={top[3]:.2f} ({top[1]})")
        lines.append(f"CUSTOM elems={name} " + " ".join(fields))
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--specs", nargs="+", default=list(DEFAULT_SPECS))
    ap.add_argument("--shapes", nargs="+", default=list(DEFAULT_SHAPES))
    ap.add_argument("--ops", help="comma-separated op names (default: every elementwise and custom op)")
    ap.add_argument("--check-only", action="store_true", help="only the output equality check")
    ap.add_argument("--print-checks", action="store_true", help="print a CHECK line per case")
    ap.add_argument("--no-count", action="store_true", help="skip callgrind (instr fields print as nan)")
    ap.add_argument("--time-ms", type=float, default=150.0, help="timing budget per case")
    ap.add_argument("--workdir", help="keep renders and builds here instead of a temp dir")
    ap.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    ap.add_argument("--no-hexagon", action="store_true", help="skip the Hexagon builds and packet counts")
    ap.add_argument(
        "--path",
        choices=("auto", "direct", "table"),
        default="auto",
        help="force one of the kernel's paths (table: unary ops only; binary ops run direct)",
    )
    args = ap.parse_args(argv)

    env = dict(os.environ, BENCH_TIME_MS=str(args.time_ms))
    if args.ops:
        env["BENCH_OPS"] = args.ops
    if args.path != "auto":
        env["BENCH_PATH"] = args.path
    counting = not (args.check_only or args.no_count)
    if counting:
        why = have_callgrind()
        if why:
            raise BenchError(f"cannot count instructions: {why} (or pass --no-count)")
    hexagon = not args.no_hexagon
    if hexagon:
        why = have_hexagon()
        if why:
            print(f"bench: Hexagon columns skipped: {why}")
            hexagon = False

    tmp = None
    if args.workdir:
        work = Path(args.workdir).resolve()
        work.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="lpai-bench-")
        work = Path(tmp.name)
    try:
        exes = []
        unchecked_exes = []  # (exe, build dir): the drivers built with UNCHECKED
        small_shapes = [sh for sh in args.shapes if math.prod(int(v) for v in sh.split(",")) <= SMALL_MAX]
        math_of = {}  # op name -> "libm" or "vector": the template's estimate (FUNCTION_TABLE)
        for spec_path in args.specs:
            pkg, project, bwork, ops, custom = prepare(spec_path, work)
            math_of.update((op.name, math_kind(op)) for op in ops)
            if not ops and not custom:
                continue
            log(f"build {pkg.package_name}")
            exes.append((build(project, bwork), bwork, [f"{op.qnn_type}_compute" for op in custom]))
            if ops and counting and small_shapes:
                unchecked_exes.append((build(project, bwork, unchecked=True), bwork))

        hex_exes = []  # (flavour, exe, build dir)
        hex_unchecked = []  # (exe, build dir): the scalar Hexagon drivers built with UNCHECKED
        pool = ThreadPoolExecutor(max_workers=max(1, min(2, os.cpu_count() or 1)))
        if hexagon:
            log("build Hexagon drivers (zig cc " + ", ".join(HEX_CPUS.values()) + ")")
            jobs = [(f, e[1]) for e in exes for f in HEX_CPUS]
            built = pool.map(lambda j: build_hexagon(j[1].parent / "project", j[1], j[0]), jobs)
            hex_exes = [(f, exe, bwork) for (f, bwork), exe in zip(jobs, built)]
            if unchecked_exes:
                hex_unchecked = list(
                    pool.map(
                        lambda b: (build_hexagon(b.parent / "project", b, "scalar", unchecked=True), b),
                        [b for _, b in unchecked_exes],
                    )
                )

        checked = []
        for exe, _, _ in exes:
            log(f"check {exe.name}")
            checked += check(exe, args.shapes, env)
        if hex_exes:
            # The same check on Hexagon (both builds): kernel, baseline, reference
            # path and seed-style kernel write the same bytes there too.
            hex_shapes = [sh for sh in args.shapes if math.prod(int(v) for v in sh.split(",")) <= HEX_CHECK_MAX]
            log("check " + ", ".join(e.name for _, e, _ in hex_exes) + f" (qemu-hexagon) on {' '.join(hex_shapes)}")
            if hex_shapes:
                prefix = ("qemu-hexagon", "-cpu", HEX_QEMU_CPU)
                list(pool.map(lambda h: check(h[1], hex_shapes, env, prefix), hex_exes))
        if not checked:
            raise BenchError("no case ran (--ops selects no op of the specs)")
        if args.check_only or args.print_checks:
            for r in checked:
                if r.get("kind") == "custom":
                    print(
                        f"CHECK op={r['op']} kind=custom inputs={r['inputs']} outputs={r['outputs']} "
                        f"layout={r['layout']} shape={r['shape']} path={r['path']} bytes={r['bytes']} "
                        "kernel==recomputation"
                    )
                    continue
                print(
                    f"CHECK op={r['op']} inputs={r['inputs']} layout={r['layout']} shape={r['shape']} "
                    f"path={r['path']} bytes={r['bytes']} kernel==baseline==reference==seed"
                )
        if args.check_only:
            return 0
        log(
            f"check: {len(checked)} cases, kernel == baseline == reference == seed-style (custom ops: == recomputation), "
            "byte for byte"
        )

        times = {}
        for exe, _, _ in exes:  # one at a time and before callgrind: nothing else runs
            log(f"time {exe.name}")
            for r in records(run_driver(exe, "time", args.shapes, env), "TIME"):
                times[(r["op"], r["layout"], r["shape"])] = float(r["ns_per_elem"])

        counts = {}
        unchecked_counts = {}
        hex_counts = {f: {} for f in HEX_CPUS}
        hex_unchecked_counts = {}
        if counting:
            log("count (callgrind) " + ", ".join(e.name for e, _, _ in exes))
            jobs = [lambda e=e: counts.update(count(e[0], args.shapes, e[1], env, e[2])) for e in exes]
            if small_shapes:
                jobs += [
                    lambda e=e: unchecked_counts.update(count(e[0], small_shapes, e[1], env)) for e in unchecked_exes
                ]
            if hex_exes:
                log("count (qemu-hexagon, bench/qemu_count.c) " + ", ".join(e.name for _, e, _ in hex_exes))
                plugin = build_plugin(work)
                jobs += [
                    lambda h=h: hex_counts[h[0]].update(hex_count(h[1], plugin, args.shapes, h[2], env))
                    for h in hex_exes
                ]
                jobs += [
                    lambda h=h: hex_unchecked_counts.update(hex_count(h[0], plugin, small_shapes, h[1], env))
                    for h in hex_unchecked
                ]
            list(pool.map(lambda job: job(), jobs))
        pool.shutdown()

        recs = []
        hex_recs = []
        rows = []
        hex_rows = []
        custom_rows = []

        def per_elem(table, which, key):
            v = table.get((which,) + key)
            return v[0] / v[1] if v else float("nan")

        for r in checked:
            key = (r["op"], r["layout"], r["shape"])
            if r.get("kind") == "custom":
                # "fast": executeOp less the user's function (counted with
                # --toggle-collect on it), "user": that function alone; no target.
                frame, user = counts.get(("fast",) + key), counts.get(("user",) + key)
                f = frame[0] / frame[1] if frame else float("nan")
                u = user[0] / user[1] if user else float("nan")
                hex_fields = ""
                if hex_exes:  # the whole executeOp (no toggle on Hexagon)
                    hex_fields = (
                        f" hex_packets_per_elem={per_elem(hex_counts['scalar'], 'fast', key):.2f}"
                        f" hex_hvx_packets_per_elem={per_elem(hex_counts['hvx'], 'fast', key):.2f}"
                    )
                print(
                    f"BENCH op={r['op']} kind=custom inputs={r['inputs']} outputs={r['outputs']} "
                    f"layout={r['layout']} shape={r['shape']} instr_per_elem={f + u:.2f} "
                    f"user_math_instr_per_elem={u:.2f} framework_instr_per_elem={f:.2f} "
                    f"scratch_bytes={r['scratch_bytes']} ns_per_elem={times[key]:.3f}{hex_fields}"
                )
                if frame and user:
                    custom_rows.append((frame[1], f"{r['op']} {r['shape']}", r["layout"], f))
                continue
            fast = counts.get(("fast",) + key)
            base = counts.get(("baseline",) + key)
            x = fast[0] / fast[1] if fast else float("nan")
            y = base[0] / base[1] if base else float("nan")
            shape = r["shape"]
            hex_fields = ""
            if hex_exes:
                hx = {
                    "packets": per_elem(hex_counts["scalar"], "fast", key),
                    "hvx": per_elem(hex_counts["hvx"], "fast", key),
                    "base": per_elem(hex_counts["hvx"], "baseline", key),
                    "seed": per_elem(hex_counts["hvx"], "seed", key),
                    "base_scalar": per_elem(hex_counts["scalar"], "baseline", key),
                }
                hex_fields = (
                    f" hex_packets_per_elem={hx['packets']:.2f} hex_hvx_packets_per_elem={hx['hvx']:.2f}"
                    f" hex_baseline_packets_per_elem={hx['base']:.2f} hex_seed_packets_per_elem={hx['seed']:.2f}"
                    f" hex_scalar_baseline_packets_per_elem={hx['base_scalar']:.2f}"
                )
                if counting and all(v == v for v in hx.values()):
                    elems = hex_counts["hvx"][("fast",) + key][1]
                    label = f"{r['op']} {r['layout']} {shape}"
                    libm = math_of[r["op"]] == "libm"
                    hex_recs.append(
                        {"label": label, "hx": hx, "inputs": int(r["inputs"]), "elems": elems, "libm": libm}
                    )
                    hex_rows.append((elems, f"{r['op']} {r['layout']} {shape}", int(r["inputs"]), hx))
            share = ""
            if ("fast",) + key in unchecked_counts:
                share = f" checks_share={checks_share(fast, unchecked_counts[('fast',) + key])}"
                if ("fast",) + key in hex_unchecked_counts:
                    whole = hex_counts["scalar"].get(("fast",) + key)
                    share += f" hex_checks_share={checks_share(whole, hex_unchecked_counts[('fast',) + key])}"
            print(
                f"BENCH op={r['op']} inputs={r['inputs']} layout={r['layout']} shape={shape} "
                f"math={math_of[r['op']]} instr_per_elem={x:.2f} baseline_instr_per_elem={y:.2f} "
                f"seed_instr_per_elem={per_elem(counts, 'seed', key):.2f} "
                f"ns_per_elem={times[key]:.3f}{hex_fields}{share}"
            )
            if fast and base:
                rec = {
                    "instr": x,
                    "base": y,
                    "inputs": int(r["inputs"]),
                    "layout": r["layout"],
                    "elems": fast[1],
                    "libm": math_of[r["op"]] == "libm",
                    "label": f"{r['op']} {r['layout']} {shape}",
                }
                recs.append(rec)
                rows.append((fast[1], f"{r['op']} {r['layout']} {shape}", int(r["inputs"]), x, y))
        missed = x86_missed(recs)
        hex_device: list[str] = []
        hex_missed = hex_missed_of(hex_recs, hex_device)
        if counting:
            for line in band_summary(rows) + custom_summary(custom_rows):
                print(line)
            print(targets_line("TARGETS", missed))
            if hex_rows:
                for line in hex_band_summary(hex_rows):
                    print(line)
                if hex_device:
                    print("HEXDEVICE judged on a device (float math, no HVX float here): " + "; ".join(hex_device))
                print(targets_line("HEXTARGETS", hex_missed))
        return 1 if ((missed or hex_missed) and args.strict) else 0
    finally:
        if tmp is not None:
            tmp.cleanup()


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as e:
        print(f"bench: {e}", file=sys.stderr)
        sys.exit(1)
