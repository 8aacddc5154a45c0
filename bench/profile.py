"""Where the Hexagon packets of one benchmarked call go: by function, inlined ones apart.

    python bench/profile.py --op mul3 [--spec examples/scale.yaml] [--layout contig]
                            [--shape 1] [--which fast|baseline|seed] [--flavour scalar|hvx]

Renders the spec and builds make bench's Hexagon driver (bench/run.py, build_hexagon)
with -g, runs it under `qemu-hexagon -singlestep -d exec,nochain` (every executed
packet logged with its address), keeps the packets of the one window asked for (the
driver's bench_count_on .. bench_count_off around one call, as the counting plugin
does), less the empty window's, and names each packet's code with `llvm-symbolizer
--inlining`. It prints the total (the plugin's count of the same call:
tests/test_bench.py holds the two equal), then the packets by innermost function (an
inlined helper counted apart from the function it was inlined into), by outermost
function (the function whose code it is: the kernel, a stand-in accessor, a libc
routine) and by source line.

What it is for: finding what a small call pays for (docs/benchmark.md, "What the
checks cost at one element", was measured with it). Packets, not cycles: QEMU has no
timing model. Needs what make bench's Hexagon columns need, and llvm-symbolizer (it
comes with clang's llvm).
"""

from __future__ import annotations

import argparse
import collections
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402  (make bench's builders)

# One line per executed packet under -singlestep: "Trace 0: 0x... [flags/pc/...] sym".
TRACE_PC = re.compile(r"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/")
# The trace holds a line per packet of every window of the op (kernel, baseline and
# seed-style kernel in each layout): 39 MB for mul3 at (1,1024), measured. The profile
# is for what small calls pay; make bench counts the large ones.
MAX_ELEMS = 1024


class ProfileError(RuntimeError):
    pass


def symbolizer() -> str | None:
    for name in ("llvm-symbolizer", *(f"llvm-symbolizer-{v}" for v in range(20, 13, -1))):
        if shutil.which(name):
            return name
    return None


def windows(trace: Path, on: int, off: int) -> list[list[int]]:
    """The packet addresses executed from each entry of `on` to the next entry of `off`,
    both entries left out (the window of bench/qemu_count.c)."""
    found, cur = [], None
    with trace.open() as f:
        for line in f:
            m = TRACE_PC.match(line)
            if not m:
                continue
            pc = int(m.group(1), 16)
            if pc == on:
                cur = []
            elif pc == off and cur is not None:
                found.append(cur)
                cur = None
            elif cur is not None:
                cur.append(pc)
    return found


def short_location(loc: str) -> str:
    """llvm-symbolizer's /path/to/file.c:LINE:COLUMN as file.c:LINE."""
    path, line, _column = loc.rsplit(":", 2)
    return f"{Path(path).name}:{line}"


def symbolize(tool: str, exe: Path, pcs) -> dict[int, list[tuple[str, str]]]:
    """Each address's frames, innermost first: (function, file:line)."""
    pcs = sorted(set(pcs))
    res = subprocess.run(
        [tool, "--inlining", "--obj", str(exe)],
        input="".join(f"{pc:#x}\n" for pc in pcs),
        capture_output=True,
        text=True,
    )
    if res.returncode != 0:
        raise ProfileError(f"{tool} failed:\n{res.stderr}")
    blocks = res.stdout.strip("\n").split("\n\n")
    if len(blocks) != len(pcs):
        raise ProfileError(f"{tool}: {len(blocks)} answers for {len(pcs)} addresses")
    out = {}
    for pc, block in zip(pcs, blocks):
        lines = block.splitlines()
        out[pc] = [(fn, short_location(loc)) for fn, loc in zip(lines[0::2], lines[1::2])]
    return out


def profile(args, work: Path) -> str:
    why = run.have_hexagon()
    if why:
        raise ProfileError(f"cannot run Hexagon code: {why}")
    tool = symbolizer()
    if not tool:
        raise ProfileError("llvm-symbolizer is not installed (apt-get install -y llvm)")
    pkg, project, bwork, ops, custom = run.prepare(args.spec, work)
    if args.op not in {op.name for op in [*ops, *custom]}:
        raise ProfileError(f"--op {args.op}: {Path(args.spec).name} has no benchmarked op of that name")
    run.log(f"build {pkg.package_name}'s Hexagon driver ({args.flavour}, -g)")
    exe = run.build_hexagon(project, bwork, args.flavour, debug=True)
    sym = run.elf_symbols(exe, ("bench_count_on", "bench_count_off"))
    trace = bwork / "exec.log"
    cmd = ["qemu-hexagon", "-cpu", run.HEX_QEMU_CPU, "-singlestep", "-d", "exec,nochain", "-D", str(trace)]
    env = dict(os.environ, BENCH_OPS=args.op)
    out = run.run_driver(exe, "count", [args.shape], env, cmd)
    labels = [line.split(" ", 2)[1:] for line in out.splitlines() if line.startswith("WINDOW ")]
    found = windows(trace, sym["bench_count_on"][0], sym["bench_count_off"][0])
    trace.unlink()
    if len(found) != len(labels) or not labels or labels[0][0] != "calib":
        raise ProfileError(f"{len(found)} traced windows for {len(labels)} labels")
    shape = "(" + args.shape + ")"
    fields = [(which, dict(run.KV.findall(tag))) for which, tag in labels]
    pick = [
        i
        for i, (which, f) in enumerate(fields)
        if (which, f.get("layout"), f.get("shape")) == (args.which, args.layout, shape)
    ]
    if not pick:
        have = sorted({f"{w} {f.get('layout')}" for w, f in fields[1:]})
        raise ProfileError(f"no window {args.which} {args.op} {args.layout} {shape}; there are: {', '.join(have)}")
    window, empty = found[pick[0]], len(found[0])
    frames = symbolize(tool, exe, window)
    inner, outer, lines = collections.Counter(), collections.Counter(), collections.Counter()
    for pc in window:
        f = frames[pc]
        inner[f[0][0]] += 1
        outer[f[-1][0]] += 1
        lines[f"{f[0][0]} {f[0][1]}"] += 1
    total = len(window) - empty
    report = [
        f"PROFILE which={args.which} op={args.op} layout={args.layout} shape={shape} flavour={args.flavour} "
        f"packets={total} (the window's {len(window)} less the empty window's {empty})"
    ]

    def table(title, counter, top):
        report.append(f"== {title}")
        report.extend(f"{n:7d}  {name}" for name, n in counter.most_common(top))

    table("by function, inlined functions apart (innermost frame)", inner, args.top)
    table("by function as compiled (outermost frame: the kernel, an accessor, libc)", outer, args.top)
    table("by source line (innermost frame)", lines, args.top)
    return "\n".join(report)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spec", default="examples/scale.yaml")
    ap.add_argument("--op", required=True, help="an op of the spec that make bench runs")
    ap.add_argument("--layout", default="contig", choices=("contig", "strided", "transposed", "broadcast"))
    ap.add_argument("--shape", default="1", help="one shape, e.g. 1 or 1,8 (bench/run.py --shapes)")
    ap.add_argument("--which", default="fast", choices=("fast", "baseline", "seed"), help="the kernel, or a reference")
    ap.add_argument("--flavour", default="scalar", choices=tuple(run.HEX_CPUS))
    ap.add_argument("--top", type=int, default=25, help="rows per table")
    ap.add_argument("--workdir", help="keep the render, the build and the trace here")
    args = ap.parse_args(argv)
    if not re.fullmatch(r"[1-9]\d*(,[1-9]\d*)*", args.shape):
        ap.error(f"--shape {args.shape!r}: positive integers separated by commas, e.g. 1,8")
    if math.prod(int(v) for v in args.shape.split(",")) > MAX_ELEMS:
        ap.error(f"--shape {args.shape}: at most {MAX_ELEMS:,} elements (the trace logs every packet of every layout)")
    if args.top < 1:
        ap.error("--top: at least 1")
    try:
        if args.workdir:
            work = Path(args.workdir).resolve()
            work.mkdir(parents=True, exist_ok=True)
            print(profile(args, work))
        else:
            with tempfile.TemporaryDirectory(prefix="lpai-profile-") as tmp:
                print(profile(args, Path(tmp)))
    except (ProfileError, run.BenchError) as exc:
        print(f"profile: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
