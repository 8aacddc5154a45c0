"""The kernels' math at the float edges (issue 40): every function of the grammar and
every operator, as the C kernels spell them (hooks/expr.py to_c, include/lpai_expr_math.h),
against eager float32 (torch on the CPU) over the whole float32 range: denormal results,
overflow to infinity, NaN, signed zeros.

Two checks per compiler (gcc, clang; and zig's clang for Hexagon run under
qemu-hexagon, marker `hexagon`):
- on float edge values (+-0, denormals, FLT_MIN, FLT_MAX, +-inf, NaN, the bands where
  exp underflows to denormals and overflows) and every pair of them: the same kind of
  result as torch (NaN, an infinity of the same sign, a zero of the same sign) and a
  finite result within 2 units in the last place;
- exhaustively over the 8-bit codes at input scales that reach those bands (scale 0.5,
  zero point 200: x from -100 to 27.5; scale 0.4, zero point 0: x up to 102; a tiny
  scale): the requantized output codes equal eager's.

The expected values come from torch, never from the C under test. The C program reads
float32 pairs and writes the results, in binary; the same program runs on every
compiler, so a difference of the DSP's float unit or of its compiler (a select turned
into sfmin/sfmax, which drop NaN) shows as a failure of the Hexagon run alone.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
import torch

from hooks import expr

from conftest import hexagon_tools_missing

ROOT = Path(__file__).resolve().parents[1]
HEADER = ROOT / "template" / "op_package" / "{{pkg.package_name}}" / "include" / "lpai_expr_math.h"

# Every function of FUNCTION_TABLE (test_every_function_is_covered holds it to the
# table), every operator, and the two specs of issue 40 that gave wrong codes.
TEXTS = [
    "abs(a)",
    "min(a, b)",
    "max(a, b)",
    "clamp(a, -1.5, b)",
    "clamp(a, b, 1.5)",
    "exp(a)",
    "log(a)",
    "sqrt(a)",
    "tanh(a)",
    "sigmoid(a)",
    "relu(a)",
    "round(a)",
    "floor(a)",
    "ceil(a)",
    "trunc(a)",
    "sign(a)",
    "pow(a, b)",
    "a ** 0.5",
    "where(a < b, b, a)",
    "where(a > b, b, a)",
    "where(a <= b, a, b)",
    "where(a >= 0, a, b)",
    "where(a != a, b, a)",
    "a + b",
    "a - b",
    "a * b",
    "a / b",
    "-a",
]
# The texts allowed 2 units in the last place: exp, log, tanh and the like are not
# correctly rounded on either side (torch's SLEEF or libm, the kernel's polynomial). Every
# other text must equal eager bit for bit (issue 41: round, floor, ceil, trunc, abs, min,
# max, clamp, relu, sign, where and the IEEE operators are exact), the sign of a zero
# included.
APPROXIMATE = {"exp(a)", "log(a)", "sqrt(a)", "tanh(a)", "sigmoid(a)", "pow(a, b)", "a ** 0.5"}
# Compositions, where an input's rounding is amplified (a denormal's last place is a
# large relative step; log(exp(a)) carries exp's): the kind of result and the codes.
COMPOSITES = [
    "exp(a) / (exp(a) + exp(b))",
    "exp(a - 88) * (1e19 * 1e19)",
    "1 / relu(a)",
    "1 / min(a, b)",
    "1 / max(a, b)",
    "log(exp(a))",
    "sigmoid(a) * (1e19 * 1e19)",
    "tanh(a) * 1e30",
]

FLT_MAX = float(np.finfo(np.float32).max)
FLT_MIN = float(np.finfo(np.float32).tiny)
DENORM_MIN = float(np.float32(1e-45))
EDGES = [0.0, DENORM_MIN, 1e-40, FLT_MIN, 0.5, 1.0, 1.5, 44.5, 86.5, 87.0, 87.5, 88.0, 88.72, 88.7228, 88.75]
EDGES += [89.0, 100.0, 103.27, 103.28, 103.97, 104.0, 150.0, 1e30, FLT_MAX, float("inf")]
# The rounding functions' edges: ties, the float below 0.5, both sides of 2^23 (no
# fraction bits left above it) and of 2^31 (int32's range, which lpai_truncf must not
# convert from).
EDGES += [0.49999997, 2.5, 3.5, 4194303.5, 8388607.5, 8388608.0, 8388609.0, 16777217.0, 2147483520.0, 2147483648.0]
EDGES = sorted({float(np.float32(v)) for v in EDGES} | {-float(np.float32(v)) for v in EDGES})
EDGES += [float("nan")]
# (scale, zero point) of the inputs' codes: the denormal band of exp and sigmoid (x
# down to -100), its overflow band (x up to 102) and a scale small enough that the
# products of two inputs are denormal.
INPUT_QUANTS = [(0.5, 200), (0.4, 0), (0.4, 255), (1e-20, 128)]
# The output's (scale, zero point): a probability, a wide range, a small one.
OUTPUT_QUANTS = [(1.0 / 255.0, 0), (0.05, 128), (1e-3, 0)]


def _bits(values: np.ndarray) -> np.ndarray:
    """float32 bit patterns, every NaN as one pattern (their payloads and signs differ
    between targets and mean nothing to the requantization)."""
    v = np.asarray(values, dtype=np.float32).copy()
    v[np.isnan(v)] = np.float32("nan")
    return v.view(np.uint32)


def _sse41_nodes(nodes: list[expr.Node]) -> list[int]:
    """The indices of the nodes whose C has an SSE4.1 form (FUNCTION_TABLE's c_sse41)."""
    return [i for i, n in enumerate(nodes) if expr.to_c(n, sse41=True) != expr.to_c(n)]


def _source(nodes: list[expr.Node], sse41: bool = False) -> str:
    """The C program: one column per node; with `sse41`, then one per node of
    _sse41_nodes in its SSE4.1 form (an op's SSE4.1 copy: roundps), run where the CPU has
    SSE4.1 (the plain form elsewhere, and in a build that has no SSE4.1 copy)."""
    funcs = "\n".join(
        f"static float f{i}(float in_a, float in_b) {{ (void)in_a; (void)in_b; return {expr.to_c(n)}; }}"
        for i, n in enumerate(nodes)
    )
    names = [f"f{i}" for i in range(len(nodes))]
    if sse41:
        for i in _sse41_nodes(nodes):
            funcs += textwrap.dedent(f"""
                #if LPAI_X86_DISPATCH
                static LPAI_TARGET_SSE41 float s{i}_sse41(float in_a, float in_b)
                {{ (void)in_a; (void)in_b; return {expr.to_c(nodes[i], sse41=True)}; }}
                static float s{i}(float in_a, float in_b)
                {{ return lpai_x86_has_sse41() ? s{i}_sse41(in_a, in_b) : f{i}(in_a, in_b); }}
                #else
                #define s{i} f{i}
                #endif""")
            names.append(f"s{i}")
    # The functions are called through a table, so the compiler cannot fold them into
    # the loop: each is compiled once, as a kernel's per-element math is.
    # Binary in and out (both targets are little-endian): qemu-hexagon spends most of
    # a text run in scanf and printf.
    return textwrap.dedent("""\
        #include <math.h>
        #include <stdint.h>
        #include <stdio.h>
        #include <string.h>
        #include "lpai_expr_math.h"
        %s
        typedef float (*fn)(float, float);
        static fn const table[] = { %s };
        #define COUNT (sizeof table / sizeof table[0])
        int main(void) {
            float in[2];
            while (fread(in, sizeof in, 1, stdin) == 1) {
                float out[COUNT];
                for (unsigned i = 0; i < COUNT; ++i) {
                    out[i] = table[i](in[0], in[1]);
                }
                if (fwrite(out, sizeof out, 1, stdout) != 1) {
                    return 1;
                }
            }
            return 0;
        }
        """) % (funcs, ", ".join(names))


def _sse41_differs(got: np.ndarray, nodes: list[expr.Node], a: np.ndarray, b: np.ndarray) -> list[str]:
    """The SSE4.1 columns of a run of _source(nodes, sse41=True) against their plain
    columns, bit for bit (NaN included: both forms return a quiet NaN's bits as they are)."""
    problems = []
    for k, i in enumerate(_sse41_nodes(nodes)):
        bad = got[:, len(nodes) + k] != got[:, i]
        if bad.any():
            j = int(np.flatnonzero(bad)[0])
            plain, fast = (
                got[j, i : i + 1].view(np.float32)[0],
                got[j, len(nodes) + k : len(nodes) + k + 1].view(np.float32)[0],
            )
            problems.append(
                f"{expr.to_c(nodes[i], sse41=True)}: {bad.sum()} differ, ({a[j]:.9g}, {b[j]:.9g}) -> {fast:.9g}, SSE2 form {plain:.9g}"
            )
    return problems


def _cpu_has_sse41() -> bool:
    cpuinfo = Path("/proc/cpuinfo")
    return cpuinfo.exists() and re.search(r"\bsse4_1\b", cpuinfo.read_text()) is not None


def _points() -> tuple[np.ndarray, np.ndarray]:
    """Every pair of edge values, then every pair of codes of each input quantization."""
    edges = np.array(EDGES, dtype=np.float32)
    a = [np.repeat(edges, len(edges))]
    b = [np.tile(edges, len(edges))]
    codes = np.arange(256, dtype=np.float32)
    for scale, zero in INPUT_QUANTS:
        values = ((codes - zero) * np.float32(scale)).astype(np.float32)
        a.append(np.repeat(values, 256))
        b.append(np.tile(values, 256))
    return np.concatenate(a), np.concatenate(b)


def _eager(nodes: list[expr.Node], a: np.ndarray, b: np.ndarray) -> np.ndarray:
    env = {"torch": torch, "a": torch.from_numpy(a), "b": torch.from_numpy(b)}
    columns = [torch.broadcast_to(eval(expr.to_torch(n), env), (len(a),)).numpy() for n in nodes]
    return np.stack(columns, axis=1)


def _codes(values: np.ndarray, scale: float, zero: int) -> np.ndarray:
    """The exported graph's quantize: zero + round-half-even(value * (1 / scale)),
    clamped to [0, 255]; NaN to the lowest code (docs/spec.md, C3)."""
    with np.errstate(all="ignore"):
        scaled = values.astype(np.float32) * np.float32(1.0 / scale)
        codes = np.clip(np.rint(np.clip(scaled, -1e6, 1e6)) + zero, 0, 255)
    codes[np.isnan(values)] = 0
    return codes.astype(np.int64)


def _check(got_bits: np.ndarray, want: np.ndarray, a: np.ndarray, b: np.ndarray, who: str):
    got = got_bits.view(np.float32)
    problems = []
    for i, text in enumerate(TEXTS + COMPOSITES):
        g, w = got[:, i], want[:, i]
        nan = np.isnan(g) != np.isnan(w)
        # Infinities and zeros with their signs, bit for bit; finite values exact, or
        # within 2 units in the last place for APPROXIMATE; denormals included.
        special = ~np.isnan(w) & ((w == 0) | np.isinf(w) | (g == 0) | np.isinf(g))
        kind = special & (_bits(g) != _bits(w))
        finite = ~np.isnan(w) & ~np.isnan(g) & ~special
        ulps = np.abs(g.view(np.int32).astype(np.int64) - w.view(np.int32).astype(np.int64))
        far = finite & (np.sign(g) != np.sign(w))
        if text in TEXTS:
            far |= finite & (ulps > (2 if text in APPROXIMATE else 0))
        bad = nan | kind | far
        for scale, zero in OUTPUT_QUANTS:
            bad |= _codes(g, scale, zero) != _codes(w, scale, zero)
        if bad.any():
            j = np.flatnonzero(bad)[:3]
            shown = ", ".join(f"({a[k]:.9g}, {b[k]:.9g}) -> {g[k]:.9g}, eager {w[k]:.9g}" for k in j)
            problems.append(f"{text}: {bad.sum()} of {len(bad)}: {shown}")
    assert not problems, f"{who}:\n" + "\n".join(problems)


def _run(command: list[str], a: np.ndarray, b: np.ndarray, count: int) -> np.ndarray:
    stdin = np.stack([a, b], axis=1).astype("<f4").tobytes()
    out = subprocess.run(command, input=stdin, capture_output=True, check=True).stdout
    got = np.frombuffer(out, dtype="<u4")
    assert got.size == len(a) * count
    return got.reshape(len(a), count)


@pytest.fixture(scope="module")
def cases():
    texts = TEXTS + COMPOSITES
    nodes = [expr.parse(t, ["a", "b"] if re.search(r"\bb\b", t) else ["a"], []) for t in texts]
    a, b = _points()
    return nodes, a, b, _eager(nodes, a, b)


def test_every_function_is_covered():
    used = {name for t in TEXTS for name in expr.FUNCTIONS if f"{name}(" in t}
    assert used == set(expr.FUNCTIONS)


# The kernels' flags (makefiles/package.mk): -O2, no contraction, no -ffast-math.
HOST_FLAGS = ["-std=c11", "-O2", "-ffp-contract=off", "-Wall", "-Wextra", "-Werror"]


@pytest.mark.parametrize("cc", [c for c in ("gcc", "clang") if shutil.which(c)])
def test_host_math_equals_eager_at_the_float_edges(tmp_path, cc, cases):
    """Every function against eager, and (x86) each SSE4.1 form (roundps: round, floor,
    ceil, trunc in an op's SSE4.1 copy) bit for bit its SSE2 form, on every point."""
    nodes, a, b, want = cases
    (tmp_path / "e.c").write_text(_source(nodes, sse41=True))
    (tmp_path / "lpai_expr_math.h").write_text(HEADER.read_text())
    subprocess.run([cc, *HOST_FLAGS, "e.c", "-o", "e", "-lm"], cwd=tmp_path, check=True)
    got = _run([str(tmp_path / "e")], a, b, len(nodes) + len(_sse41_nodes(nodes)))
    _check(got[:, : len(nodes)], want, a, b, cc)
    assert not _sse41_differs(got, nodes, a, b), f"{cc}: " + "; ".join(_sse41_differs(got, nodes, a, b))


@pytest.mark.skipif(not _cpu_has_sse41() or not shutil.which("gcc"), reason="needs gcc and an x86 CPU with SSE4.1")
def test_a_wrong_sse41_form_is_caught(tmp_path, cases):
    """The comparison above can fail: an SSE4.1 floor that truncates (roundps' other
    mode) differs from the SSE2 floor on the edge pairs alone."""
    nodes, a, b, _ = cases
    edges = len(EDGES) ** 2  # _points puts the pairs of edge values first
    header = HEADER.read_text()
    assert header.count("return __builtin_floorf(x);") == 1
    (tmp_path / "lpai_expr_math.h").write_text(
        header.replace("return __builtin_floorf(x);", "return __builtin_truncf(x);")
    )
    (tmp_path / "e.c").write_text(_source(nodes, sse41=True))
    subprocess.run(["gcc", *HOST_FLAGS, "e.c", "-o", "e", "-lm"], cwd=tmp_path, check=True)
    got = _run([str(tmp_path / "e")], a[:edges], b[:edges], len(nodes) + len(_sse41_nodes(nodes)))
    problems = _sse41_differs(got, nodes, a[:edges], b[:edges])
    assert len(problems) == 1 and problems[0].startswith("lpai_floorf_sse41(in_a)"), problems


@pytest.mark.hexagon
def test_hexagon_math_equals_eager_at_the_float_edges(tmp_path, cases):
    """zig's clang for hexagon-linux-musl at the flags of makefiles/hexagon_test.mk, run
    under qemu-hexagon: the DSP's float unit and its compiler, against eager."""
    missing = hexagon_tools_missing()
    if missing:
        pytest.skip(missing)
    nodes, a, b, want = cases
    (tmp_path / "e.c").write_text(_source(nodes))
    (tmp_path / "lpai_expr_math.h").write_text(HEADER.read_text())
    # As makefiles/hexagon_test.mk builds the C suite it runs: compiled for v79 with
    # HVX v66 (QEMU runs it bit-exact), linked at plain v79 -O2 (one musl per target).
    zig = [sys.executable, "-m", "ziglang", "cc", "-target", "hexagon-linux-musl"]
    flags = ["-mcpu=hexagonv79+hvxv66+hvx_length128b", "-std=c11", "-O2", "-g0", "-ffp-contract=off"]
    flags += ["-Wall", "-Wextra", "-Werror"]
    subprocess.run([*zig, *flags, "-c", "e.c", "-o", "e.o"], cwd=tmp_path, check=True)
    subprocess.run([*zig, "-mcpu=hexagonv79", "-O2", "e.o", "-o", "e"], cwd=tmp_path, check=True)
    got = _run(["qemu-hexagon", "-cpu", "v67", str(tmp_path / "e")], a, b, len(nodes))
    _check(got, want, a, b, "hexagon")
