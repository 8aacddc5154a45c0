"""The benchmark harness (bench/run.py) on a tiny shape.

The benchmark checks no timing here: timing in tests only makes them flaky. What it
must guarantee is that its figures compare equal work, so every case is checked to
write the very same output buffer (padding included) from the generated kernel, the
per-element baseline and the kernel's reference path; a custom op (one path only)
writes what a recomputation from its dequantized inputs with the same user function
writes, and a broken gather or scatter fails that check; and the callgrind part
produces a BENCH line per (op, layout, shape), a custom op's split into its user
function and the framework adding up to the whole call. One test runs two ops at
25,000 elements, where make bench's x86 targets (exact instruction counts) catch a
dense loop that stopped vectorising.
"""

from __future__ import annotations

import importlib.util
import math
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

from conftest import once_per_run, run_budgeted

ROOT = Path(__file__).resolve().parents[1]
RUN = ROOT / "bench" / "run.py"
# Rank 4 for the channels-last layout; odd extents so the four-wide loops run their
# tails and no two dimensions of the padded layout merge.
TINY = "1,3,5,7"
# Elementwise ops of examples/scale.yaml (1 unary), examples/activations.yaml (4 unary,
# 3 binary), examples/shapes.yaml (1 binary, 1 of three inputs) and examples/custom.yaml
# (1 unary): every op runs in three layouts, the ops of two or more inputs also with
# their other inputs broadcast.
N_OPS = 11
N_MULTI_INPUT = 5
LAYOUTS = {"contig", "strided", "transposed", "broadcast"}
N_CASES = N_OPS * 3 + N_MULTI_INPUT
# The ops whose expression uses a transcendental function (read off the specs):
# scaled_tanh (tanh), soft_min (sigmoid), power_compress (**); every other op's math is
# arithmetic, clamp, round, floor, ceil, where and sign: math=vector.
LIBM_OPS = {"scaled_tanh", "soft_min", "power_compress"}
# The custom ops (examples/custom.yaml, examples/shapes.yaml), in three layouts each, and
# the scratch each asks getTempBuffer for at TINY, from the spec's output rules: every
# input and output as 4-byte floats (docs/spec.md); none for the rowwise ones (their
# rows are on their stack: rms_norm, pcen). Element counts at TINY: x 105, a mean over
# dim 1 35, over the last dim 15.
CUSTOM_SCRATCH = {
    "my_norm": 4 * (105 + 105),
    "channel_mean": 4 * (105 + 35),
    "center": 4 * (105 + 15 + 105),
    "rms_norm": 0,
    "pcen": 0,
}
CUSTOM_LAYOUTS = {"contig", "strided", "transposed"}
N_CUSTOM_CASES = len(CUSTOM_SCRATCH) * 3

BENCH_RE = re.compile(
    r"^BENCH op=(\w+) inputs=([1-4]) layout=(contig|strided|transposed|broadcast) shape=\(([\d,]+)\) "
    r"math=(vector|libm) instr_per_elem=(\S+) baseline_instr_per_elem=(\S+) seed_instr_per_elem=(\S+) ns_per_elem=(\S+)"
    r"(?P<hex> hex_packets_per_elem=(\S+) hex_hvx_packets_per_elem=(\S+) hex_baseline_packets_per_elem=(\S+) "
    r"hex_seed_packets_per_elem=(\S+) hex_scalar_baseline_packets_per_elem=(\S+))?$"
)
CUSTOM_RE = re.compile(
    r"^BENCH op=(\w+) kind=custom inputs=(\d) outputs=(\d) layout=(contig|strided|transposed) "
    r"shape=\(([\d,]+)\) instr_per_elem=(\S+) user_math_instr_per_elem=(\S+) "
    r"framework_instr_per_elem=(\S+) scratch_bytes=(\d+) ns_per_elem=(\S+)"
    r"(?: hex_packets_per_elem=\S+ hex_hvx_packets_per_elem=\S+)?$"
)


def callgrind_missing() -> str | None:
    if not shutil.which("valgrind"):
        return "valgrind is not installed"
    if not any(Path(p, "valgrind", "callgrind.h").is_file() for p in ("/usr/include", "/usr/local/include")):
        return "valgrind/callgrind.h is missing"
    return None


@pytest.fixture(scope="module")
def bench_run(tmp_path_factory):
    """One harness run for the whole module, whichever workers run its tests (rendering
    and building dominate): its output and its work folder, which the tests copy."""

    def build(work: Path) -> tuple[str, Path]:
        args = [sys.executable, str(RUN), "--shapes", TINY, "--time-ms", "1", "--print-checks", "--workdir", str(work)]
        args.append("--no-hexagon")  # the Hexagon columns: test_hexagon_columns, on one spec
        if callgrind_missing():
            args.append("--no-count")
        res = run_budgeted(args, 300)
        assert res.returncode == 0, f"bench/run.py failed:\n{res.stdout}\n{res.stderr}"
        return res.stdout, work

    return once_per_run(tmp_path_factory, "bench", build)


def load_run():
    """bench/run.py as a module: its build and check, for the cases below."""
    spec = importlib.util.spec_from_file_location("bench_run", RUN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_kernel_output_equals_baseline_byte_for_byte(bench_run):
    out, _ = bench_run
    checks = [line for line in out.splitlines() if line.startswith("CHECK ") and "kind=custom" not in line]
    assert len(checks) == N_CASES, out
    inputs = {re.search(r"op=(\w+) inputs=(\d)", line).groups() for line in checks}
    assert ("fma3", "3") in inputs and ("add_scaled", "2") in inputs
    assert {line.split()[1] for line in checks if "layout=broadcast" in line} == {
        "op=add_scaled",
        "op=soft_min",
        "op=pick_floor",
        "op=add_bias",
        "op=fma3",
    }
    for line in checks:
        assert line.endswith("kernel==baseline==reference==seed"), line
    # The layouts really exercise both loops of the kernels.
    paths = {re.search(r"path=(\S+)", line).group(1) for line in checks}
    # 105 elements: below the unary table's crossover, so every op takes the direct loop.
    assert {"direct-dense", "direct-walk"} == paths


def test_custom_op_output_equals_recomputation(bench_run):
    out, _ = bench_run
    checks = [line for line in out.splitlines() if line.startswith("CHECK ") and "kind=custom" in line]
    assert len(checks) == N_CUSTOM_CASES, out
    seen = {(re.search(r"op=(\w+)", line).group(1), re.search(r"layout=(\w+)", line).group(1)) for line in checks}
    assert seen == {(op, layout) for op in CUSTOM_SCRATCH for layout in CUSTOM_LAYOUTS}
    for line in checks:
        assert line.endswith("kernel==recomputation"), line
        path = re.search(r"path=(\S+)", line).group(1)
        rowwise = "op=rms_norm" in line or "op=pcen" in line
        assert path == ("custom-rowwise" if rowwise else "custom"), line


# A broken framework must fail the check: the gather that ignores the strides (rows
# of step 1 back to back, right for dense tensors only, so their cases must still
# pass: the check compares, it does not just fail), and a rowwise scatter one code off
# (its offset one more). (file, text, broken text, cases that must fail, cases that
# must pass)
MUTATIONS = {
    "gather-ignores-strides": (
        "include/lpai_elementwise.h",
        "lpai_dequant_row(p, step, len, &d, dst);\n        p += lpai_logical_step(&outer, coord);",
        "lpai_dequant_row(p, 1, len, &d, dst);\n        p += len;",
        {("channel_mean", "strided"), ("channel_mean", "transposed"), ("center", "strided")},
        {("channel_mean", "contig"), ("center", "contig")},
    ),
    "rowwise-scatter-one-code-off": (
        "include/lpai_drivers.h",
        "rq[j] = lpai_requant_u8_from(&x.rq[j]);",
        "rq[j] = lpai_requant_u8_from(&x.rq[j]);\n        rq[j].offset_u += 1u;",
        {("rms_norm", "contig"), ("rms_norm", "strided"), ("rms_norm", "transposed")},
        {("channel_mean", "contig"), ("center", "strided")},
    ),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_broken_custom_framework_fails_the_check(name, bench_run, tmp_path):
    _, work = bench_run
    run = load_run()
    header, old, new, must_fail, must_pass = MUTATIONS[name]
    project = tmp_path / "project"
    shutil.copytree(work / "ShapesOpPackage" / "project" / "op_package", project / "op_package")
    path = project / "op_package" / "ShapesOpPackage" / header
    text = path.read_text()
    assert text.count(old) == 1, f"{header} changed: update the mutation {name}"
    path.write_text(text.replace(old, new))
    build = tmp_path / "build"
    build.mkdir()
    shutil.copy(work / "ShapesOpPackage" / "build" / "bench_ops.h", build)
    exe = run.build(project, build)
    env = dict(os.environ, BENCH_OPS="channel_mean,center,rms_norm")
    with pytest.raises(run.BenchError) as err:
        run.check(exe, [TINY], env)
    # The failing cases, from the CHECK records the error lists.
    failed = set(re.findall(r"'op': '(\w+)', 'kind': 'custom'.*?'layout': '(\w+)'", str(err.value)))
    assert must_fail <= failed, str(err.value)
    assert not must_pass & failed, str(err.value)


def test_custom_split_adds_up_to_the_whole_call(bench_run):
    """The user's share is counted with --toggle-collect on its function: the framework
    dump (executeOp with that function toggled out) plus the user dump must equal the
    whole executeOp counted without the toggle."""
    why = callgrind_missing()
    if why:
        pytest.skip(f"instruction counts need callgrind: {why}")
    _, work = bench_run
    run = load_run()
    exe = work / "ShapesOpPackage" / "build" / "bench_ShapesOpPackage"
    env = dict(os.environ, BENCH_OPS="center,rms_norm")
    split = run.count(exe, [TINY], work, env, ("Center_compute", "RmsNorm_compute"))
    whole = run.count(exe, [TINY], work, env)
    for op in ("center", "rms_norm"):
        for layout in CUSTOM_LAYOUTS:
            key = (op, layout, f"({TINY})")
            frame, user = split[("fast", *key)][0], split[("user", *key)][0]
            assert user > 0 and frame > 0, (op, layout)
            assert frame + user == whole[("fast", *key)][0], (op, layout, frame, user, whole[("fast", *key)])


def test_bench_lines_have_instruction_counts(bench_run):
    why = callgrind_missing()
    if why:
        pytest.skip(f"instruction counts need callgrind: {why}")
    out, _ = bench_run
    lines = [line for line in out.splitlines() if line.startswith("BENCH ") and "kind=custom" not in line]
    assert len(lines) == N_CASES, out
    seen = set()
    for line in lines:
        m = BENCH_RE.match(line)
        assert m, f"malformed: {line}"
        op, inputs, layout, shape, math_, x, y, sd, t = m.groups()[:9]
        assert shape == TINY
        assert math_ == ("libm" if op in LIBM_OPS else "vector"), line
        assert m.group("hex") is None, line  # --no-hexagon
        x, y, sd, t = float(x), float(y), float(sd), float(t)
        assert all(math.isfinite(v) and v > 0 for v in (x, y, sd, t)), line
        # The seed-style kernel is the baseline plus its width and scale-form reading.
        assert sd > y, line
        seen.add((op, layout))
    assert {layout for _, layout in seen} == LAYOUTS


def test_large_dense_loops_meet_their_x86_targets(tmp_path):
    """make bench's x86 targets from 25,000 elements (--strict), for a unary and a
    three-input op, every layout: the shape where a kernel whose math stops being
    inlined into its dense loop shows (an 8-lane small path once did that to gcc's
    inliner: mul3 4.71 -> 25.50 instructions per element, fma3 8.51 -> 41.00; the tiny
    shape above did not move). Exact counts, no timing (--time-ms 1 is not checked)."""
    why = callgrind_missing()
    if why:
        pytest.skip(f"instruction counts need callgrind: {why}")
    args = [sys.executable, str(RUN), "--specs", "examples/scale.yaml", "examples/shapes.yaml", "--ops", "mul3,fma3"]
    args += ["--shapes", "1,32,28,28", "--time-ms", "1", "--no-hexagon", "--strict", "--workdir", str(tmp_path)]
    res = run_budgeted(args, 300, cwd=ROOT)
    assert res.returncode == 0 and "\nTARGETS met" in res.stdout, res.stdout[-3000:] + res.stderr[-2000:]
    assert res.stdout.count("BENCH op=") == 7, res.stdout  # mul3 in 3 layouts, fma3 in 4


# ---- the judging (issue 41), on synthetic figures: none comes from a measurement ----


def _rec(elems, instr, base, inputs=2, layout="contig", libm=False):
    return {
        "instr": instr,
        "base": base,
        "inputs": inputs,
        "layout": layout,
        "elems": elems,
        "libm": libm,
        "label": "c",
    }


@pytest.mark.parametrize(
    ("rec", "met"),
    [
        # 1 to 8 elements: at most 1.7x the baseline's count per call.
        (_rec(1, 1700.0, 1000.0), True),
        (_rec(1, 1701.0, 1000.0), False),
        (_rec(8, 169.0, 100.0, inputs=3), True),
        (_rec(8, 171.0, 100.0, inputs=3), False),
        # 9 to 511: ratio at least 1.
        (_rec(9, 100.0, 100.0), True),
        (_rec(16, 101.0, 100.0), False),
        (_rec(511, 101.0, 100.0, libm=True), False),
        # 512 to 24,999: at least 3.
        (_rec(512, 10.0, 30.0), True),
        (_rec(24_999, 10.0, 29.9), False),
        # From 25,000: 10, or 4 for libm math; the absolute limits as before.
        (_rec(25_000, 20.0, 200.0), True),
        (_rec(25_000, 20.0, 199.0), False),
        (_rec(802_816, 21.0, 200.0, libm=True), True),
        (_rec(802_816, 21.0, 83.0, libm=True), False),
        (_rec(25_000, 41.0, 1000.0, libm=True), False),  # binary: at most 40 instr/elem
        (_rec(25_000, 9.0, 1000.0, inputs=1), False),  # unary contig: at most 8
        (_rec(25_000, 9.0, 1000.0, inputs=1, layout="strided"), True),  # strided: 12
    ],
)
def test_x86_targets_judge_every_band(rec, met):
    run = load_run()
    line = run.targets_line("TARGETS", run.x86_missed([_rec(1, 100.0, 100.0), rec, _rec(25_000, 5.0, 100.0)]))
    assert (line == "TARGETS met") is met, line
    if not met:
        assert line.startswith("TARGETS missed: c: "), line


def _hex(elems, scalar, hvx, base, base_scalar, inputs=2, libm=False):
    hx = {"packets": scalar, "hvx": hvx, "base": base, "base_scalar": base_scalar}
    return {"label": "h", "hx": hx, "inputs": inputs, "elems": elems, "libm": libm}


@pytest.mark.parametrize(
    ("rec", "met"),
    [
        # 1 to 8 elements: at most 1.3x the baseline's packets per call, both builds.
        (_hex(1, 520.0, 520.0, 400.0, 400.0), True),
        (_hex(1, 521.0, 500.0, 400.0, 400.0), False),
        (_hex(8, 100.0, 131.0, 100.0, 100.0), False),
        # From 9: never more than the baseline, and the HVX build its band's ratio.
        (_hex(16, 100.0, 100.0, 100.0, 100.0), True),
        (_hex(16, 101.0, 50.0, 100.0, 100.0), False),
        (_hex(512, 30.0, 33.0, 100.0, 100.0), True),
        (_hex(512, 30.0, 34.0, 100.0, 100.0), False),
        # From 25,000: unary 50 (the table path, libm or not), else 10, or 4 for libm.
        (_hex(25_000, 10.0, 2.0, 100.0, 100.0, inputs=1, libm=True), True),
        (_hex(25_000, 10.0, 2.1, 100.0, 100.0, inputs=1, libm=True), False),
        (_hex(25_000, 10.0, 10.0, 100.0, 100.0), True),
        (_hex(25_000, 10.0, 10.1, 100.0, 100.0), False),
        (_hex(25_000, 40.0, 25.0, 100.0, 100.0, libm=True), True),
        (_hex(25_000, 40.0, 26.0, 100.0, 100.0, libm=True), False),
    ],
)
def test_hexagon_targets_judge_every_band(rec, met):
    run = load_run()
    line = run.targets_line("HEXTARGETS", run.hex_missed_of([_hex(25_000, 5.0, 1.0, 100.0, 100.0), rec]))
    assert (line == "HEXTARGETS met") is met, line
    if not met:
        assert line.startswith("HEXTARGETS missed: h: "), line


def test_hexagon_float_math_of_two_inputs_is_judged_on_a_device():
    """soft_min's and pick_floor's blocked float math needs HVX float (issue 50): their
    HVX-ratio misses are printed as judged on a device, with the figure; a unary op's
    (the table path, integer HVX) and a call's set-up stay misses."""
    run = load_run()
    device = []
    recs = [_hex(25_000, 40.0, 20.0, 100.0, 100.0), _hex(25_000, 10.0, 2.1, 100.0, 100.0, inputs=1)]
    recs.append(_hex(8, 100.0, 131.0, 100.0, 100.0))
    missed = run.hex_missed_of(recs, device)
    assert device == ["h: HVX ratio 5.00x < 10x"], device
    assert len(missed) == 2 and "HVX ratio 47.62x < 50x" in missed[0] and "hvx 131.00 > 1.3x" in missed[1], missed


def test_custom_bench_lines(bench_run):
    why = callgrind_missing()
    if why:
        pytest.skip(f"instruction counts need callgrind: {why}")
    out, _ = bench_run
    lines = [line for line in out.splitlines() if line.startswith("BENCH ") and "kind=custom" in line]
    assert len(lines) == N_CUSTOM_CASES, out
    for line in lines:
        m = CUSTOM_RE.match(line)
        assert m, f"malformed: {line}"
        op, _, outputs, _, shape, whole, user, frame, scratch, t = m.groups()
        assert shape == TINY
        assert outputs == ("2" if op in ("center", "pcen") else "1")  # pcen: y and new_state
        whole, user, frame, t = float(whole), float(user), float(frame), float(t)
        assert all(math.isfinite(v) and v > 0 for v in (whole, user, frame, t)), line
        assert abs(whole - (user + frame)) <= 0.011, line  # printed to two decimals each
        assert int(scratch) == CUSTOM_SCRATCH[op], line
    # The custom lines have no ratio target: the summary has CUSTOM lines, and TARGETS
    # names no custom op.
    assert re.search(r"^CUSTOM elems=9-511 max_framework_instr_per_elem_contig=\S+ \(", out, re.M), out
    targets = next(line for line in out.splitlines() if line.startswith("TARGETS "))
    assert not any(op in targets for op in CUSTOM_SCRATCH), targets


# ---- The Hexagon side: the counting plugin and the Hexagon columns ---------------------

LOOP_C = r"""
#include <stdlib.h>
__attribute__((noinline)) void bench_count_on(void) { __asm__ volatile("" ::: "memory"); }
__attribute__((noinline)) void bench_count_off(void) { __asm__ volatile("" ::: "memory"); }
/* n >= 1 iterations of one packet of two instructions (a hardware loop). */
__attribute__((noinline)) void spin(unsigned n)
{
    __asm__ volatile("loop0(1f, %0)\n1:\n{ nop; nop }:endloop0\n" : : "r"(n) : "lc0", "sa0", "memory");
}
int main(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        const unsigned n = (unsigned)atoi(argv[i]); /* outside the window */
        bench_count_on();
        spin(n);
        bench_count_off();
    }
    return 0;
}
"""


def hexagon_missing() -> str | None:
    return load_run().have_hexagon()


def plugin_windows(run, plugin: Path, exe: Path, args, tmp_path, extra="") -> list[tuple[int, int]]:
    sym = run.elf_symbols(exe, ("bench_count_on", "bench_count_off"))
    log = tmp_path / "count.log"
    on, off = sym["bench_count_on"][0], sym["bench_count_off"][0]
    cmd = ["qemu-hexagon", "-cpu", run.HEX_QEMU_CPU, "-d", "plugin", "-D", str(log)]
    cmd += ["-plugin", f"{plugin},on={on:#x},off={off:#x}{extra}", str(exe), *args]
    res = run_budgeted(cmd, 60)
    assert res.returncode == 0, res.stdout + res.stderr
    found = re.findall(r"^qemu_count window=\d+ packets=(\d+) insns=(\d+)$", log.read_text(), re.M)
    return [(int(p), int(i)) for p, i in found]


def test_plugin_counts_a_known_loop(tmp_path):
    """bench/qemu_count.c on a hardware loop of N iterations of one packet of two
    instructions: every further iteration adds exactly one packet and two instructions,
    in the whole window (callees included) and restricted to the loop's function."""
    why = hexagon_missing()
    if why:
        pytest.skip(f"Hexagon packets need zig and qemu-hexagon: {why}")
    run = load_run()
    (tmp_path / "loop.c").write_text(LOOP_C)
    exe = tmp_path / "loop"
    zig = [sys.executable, "-m", "ziglang", "cc", *run.HEX_LINK]  # compiled and linked as the benchmark links
    res = run_budgeted([*zig, str(tmp_path / "loop.c"), "-o", str(exe)], 600)
    assert res.returncode == 0, res.stdout + res.stderr
    plugin = run.build_plugin(tmp_path)
    counts = [1, 11, 1011, 1011]
    whole = plugin_windows(run, plugin, exe, map(str, counts), tmp_path)
    assert len(whole) == len(counts), whole
    assert whole[2] == whole[3]  # the same work counts the same
    assert whole[1][0] - whole[0][0] == 10 and whole[2][0] - whole[1][0] == 1000, whole
    assert whole[2][1] - whole[1][1] == 2000, whole
    lo, size = run.elf_symbols(exe, ("spin",))["spin"]
    inside = plugin_windows(run, plugin, exe, map(str, counts), tmp_path, f",lo={lo:#x},hi={lo + size:#x}")
    assert inside[2][0] - inside[1][0] == 1000 and inside[2][1] - inside[1][1] == 2000, inside
    # spin is the loop set-up, the loop and the return: a few packets beyond N, and
    # fewer than the whole window, which holds the calls around it.
    assert 1011 < inside[2][0] <= 1011 + 4 < whole[2][0], (inside, whole)


def test_hexagon_columns(tmp_path):
    """make bench's Hexagon columns on one spec at the tiny shape: a packet count per
    element for the scalar and the HVX kernel, the baseline and the seed-style kernel,
    each positive; the kernels' outputs checked under qemu first (the run fails else);
    HEXBAND and HEXTARGETS lines."""
    why = hexagon_missing()
    if why:
        pytest.skip(f"Hexagon packets need zig and qemu-hexagon: {why}")
    args = [sys.executable, str(RUN), "--specs", "examples/scale.yaml", "--shapes", TINY, "--time-ms", "1"]
    args += ["--workdir", str(tmp_path)]
    if callgrind_missing():
        pytest.skip("the Hexagon columns print with the instruction counts (callgrind)")
    res = run_budgeted(args, 900)
    assert res.returncode == 0, res.stdout + res.stderr
    lines = [line for line in res.stdout.splitlines() if line.startswith("BENCH ")]
    assert len(lines) == 3, res.stdout  # mul3, in three layouts
    for line in lines:
        m = BENCH_RE.match(line)
        assert m and m.group("hex"), line
        hx = [float(v) for v in m.groups()[-5:]]
        assert all(math.isfinite(v) and v > 0 for v in hx), line
        scalar, hvx, base, seed, base_scalar = hx
        assert seed > base, line  # the seed-style kernel reads more than the baseline
        assert scalar < base_scalar and hvx < base, line  # 105 elements: the kernel is cheaper
    assert re.search(r"^HEXBAND elems=9-511 worst_ratio_unary=\S+ \(mul3 ", res.stdout, re.M), res.stdout
    assert re.search(r"^HEXTARGETS (met|missed: )", res.stdout, re.M), res.stdout


PROFILE = ROOT / "bench" / "profile.py"


def test_profile_names_where_the_packets_of_one_call_go(tmp_path):
    """bench/profile.py on mul3 at one element: its total, from a -singlestep trace, is
    the counting plugin's count of the same call in the same executable (two counters
    that share no code); its tables attribute packets to inlined helpers (the glue), to
    the kernel as compiled and to the stand-in's accessors; a wrong op or shape is one
    line."""
    why = hexagon_missing()
    if why:
        pytest.skip(f"Hexagon packets need zig and qemu-hexagon: {why}")
    spec = importlib.util.spec_from_file_location("bench_profile", PROFILE)
    prof = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(prof)
    if not prof.symbolizer():
        pytest.skip("bench/profile.py needs llvm-symbolizer (apt-get install -y llvm)")
    args = [sys.executable, str(PROFILE), "--op", "mul3", "--shape", "1", "--top", "40", "--workdir", str(tmp_path)]
    res = run_budgeted(args, 600)
    assert res.returncode == 0, res.stdout + res.stderr
    head = re.search(
        r"^PROFILE which=fast op=mul3 layout=contig shape=\(1\) flavour=scalar packets=(\d+) ", res.stdout, re.M
    )
    assert head, res.stdout
    sections = res.stdout.split("\n== ")
    assert len(sections) == 4, res.stdout
    inner, outer = (dict((n, int(c)) for c, n in re.findall(r"^ +(\d+)  (\S+)$", s, re.M)) for s in sections[1:3])
    assert inner.get("lpai_glue_io", 0) > 0 and inner.get("lpai_view_init_bounded", 0) > 0, sections[1]
    assert outer.get("ExampleCustomOp_executeOp", 0) > inner.get("lpai_glue_io", 0), sections[2]
    assert outer.get("emu_layout", 0) > 0 and outer.get("emu_quant", 0) > 0, sections[2]  # the stand-in's accessors

    run = load_run()
    exe = tmp_path / "ScaleOpPackage" / "build" / "bench_ScaleOpPackage.hexagon-scalar-g"
    counts = run.hex_count(exe, run.build_plugin(tmp_path), ["1"], tmp_path, dict(os.environ, BENCH_OPS="mul3"))
    assert counts[("fast", "mul3", "contig", "(1)")][0] == int(head.group(1)), (counts, head.group(0))

    bad = run_budgeted([*args[:3], "no_such_op", *args[4:]], 300)
    assert bad.returncode == 1 and bad.stderr.strip().splitlines()[-1].startswith("profile: --op no_such_op: "), bad
    assert "Traceback" not in bad.stderr
    bad = run_budgeted([*args[:5], "1,x", *args[6:]], 60)
    assert bad.returncode == 2 and "--shape '1,x'" in bad.stderr and "Traceback" not in bad.stderr, bad


def test_htp_kernels_equal_their_per_element_baseline_and_are_counted():
    """bench/htp.py on examples/scale.yaml with both backends at two tiny shapes: every
    HTP kernel writes the per-element baseline's bytes (x86_64, and Hexagon, scalar and
    HVX builds, under qemu-hexagon when zig and qemu are here), each case gets its
    counts, ratio, math kind and verdicts, and the run ends with its HTPTARGETS line."""
    cmd = [sys.executable, str(ROOT / "bench" / "htp.py"), "--specs", "examples/scale.yaml", "--shapes", "1,1,1,1"]
    result = run_budgeted([*cmd, "1,3,5,7"], 900)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "CHECKED ScaleOpPackage: kernel == baseline on every case" in result.stdout
    lines = [line for line in result.stdout.splitlines() if line.startswith("BENCH_HTP ")]
    # mul3: 3 element types x 2 shapes.
    assert len(lines) == 6, result.stdout
    run = load_run()
    counted = run.have_callgrind() is None
    for line in lines:
        fields = dict(run.KV.findall(line))
        assert fields["math"] == "vector" and fields["elems"] in ("1", "105"), line
        if counted:
            assert float(fields["x86_instr_per_elem"]) > 0 and fields["x86"] in ("met", "missed"), line
        if run.have_hexagon() is None:
            assert float(fields["hex_hvx_packets_per_elem"]) > 0 and fields["hex"] in ("met", "missed", "device"), line
    if counted:
        assert re.search(r"^HTPTARGETS (met|missed: .+)$", result.stdout.splitlines()[-1]), result.stdout[-2000:]


def test_htp_targets_by_size_element_type_and_math():
    """The issue's table, read by hand: the least ratio per band and the verdicts."""
    spec = importlib.util.spec_from_file_location("htp_bench", ROOT / "bench" / "htp.py")
    htp = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(htp)
    least = htp.least_ratio
    assert least("x86", 1, "float32", 1, False) == pytest.approx(1 / 1.7)
    assert least("hex", 8, "uint8", 1, False) == pytest.approx(1 / 1.3)
    assert least("x86", 9, "uint8", 1, False) == 1.0 == least("hex", 511, "float32", 2, True)
    assert least("x86", 512, "uint16", 2, False) == 3.0 == least("hex", 24_999, "uint8", 1, False)
    assert least("x86", 25_000, "uint8", 1, False) == 20.0
    assert least("hex", 25_000, "uint8", 1, True) == 50.0
    assert least("x86", 25_088, "uint8", 2, False) == 10.0 == least("hex", 25_088, "float32", 1, False)
    assert least("x86", 25_088, "uint16", 1, True) == 4.0 == least("hex", 25_088, "uint8", 2, True)
    assert htp.judge("x86", 25_088, "float32", 1, False, 9.99) == "missed"
    assert htp.judge("hex", 25_088, "float32", 1, False, 9.99) == "device"
    assert htp.judge("hex", 25_088, "uint8", 1, False, 49.0) == "missed"  # the table: integer HVX
    assert htp.judge("hex", 8, "float32", 1, False, 0.5) == "missed"  # the call's set-up
    assert htp.judge("hex", 600, "uint16", 2, False, 3.0) == "met"
