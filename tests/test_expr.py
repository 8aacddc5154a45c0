"""The expression grammar: what it accepts, what it rejects, and that its three
renderings (torch, numpy, C) compute the same function."""

from __future__ import annotations

import math
import random
import re
import shutil
import subprocess
import textwrap
from pathlib import Path

import numpy as np
import pytest
import torch

from hooks import expr

ROOT = Path(__file__).resolve().parents[1]
EXPR_MATH_H = ROOT / "template" / "op_package" / "{{pkg.package_name}}" / "include" / "lpai_expr_math.h"


def parse(text, inputs=("x",), params=("k",)):
    return expr.parse(text, list(inputs), list(params))


@pytest.mark.parametrize(
    "text, torch_text, c_text",
    [
        ("input * factor", "(input * factor)", "(in_input * p_factor)"),
        ("-x + 2", "((-x) + 2.0)", "((-in_x) + 2.0f)"),
        ("+x", "x", "in_x"),
        (
            "clamp(x, 0, k)",
            "torch.clamp(x, torch.as_tensor(0.0, dtype=torch.float32), k)",
            "lpai_minf(lpai_maxf(in_x, 0.0f), p_k)",
        ),
        ("sigmoid(x) / 1e-3", "(torch.sigmoid(x) / 0.001)", "(lpai_sigmoidf(in_x) / 0.001f)"),
        ("relu(x) - abs(x)", "(torch.relu(x) - torch.abs(x))", "(lpai_reluf(in_x) - fabsf(in_x))"),
        ("round(x * k)", "torch.round((x * k))", "lpai_roundf((in_x * p_k))"),
        ("floor(x) + ceil(x)", "(torch.floor(x) + torch.ceil(x))", "(lpai_floorf(in_x) + lpai_ceilf(in_x))"),
        ("sign(x)", "torch.sign(x)", "lpai_signf(in_x)"),
        (
            "where(x >= k, x, 0)",
            "torch.where((x >= k), x, torch.as_tensor(0.0, dtype=torch.float32))",
            "lpai_wheref((in_x >= p_k), in_x, 0.0f)",
        ),
        # A constant condition is a 0-d bool tensor for torch.where.
        (
            "where(1 != 2, x, k)",
            "torch.where(torch.as_tensor((1.0 != 2.0)), x, k)",
            "lpai_wheref((1.0f != 2.0f), in_x, p_k)",
        ),
        # a ** b is pow(a, b); Python's precedence: -x ** 2 is -(x ** 2), x ** -1 a negative power.
        ("x ** k", "torch.pow(x, k)", "lpai_powf(in_x, p_k)"),
        (
            "(x + k) ** 0.5",
            "torch.pow((x + k), torch.as_tensor(0.5, dtype=torch.float32))",
            "lpai_powf((in_x + p_k), 0.5f)",
        ),
        ("-x ** 2", "(-torch.pow(x, torch.as_tensor(2.0, dtype=torch.float32)))", "(-lpai_powf(in_x, 2.0f))"),
        ("x ** -k", "torch.pow(x, (-k))", "lpai_powf(in_x, (-p_k))"),
        ("pow(k, x)", "torch.pow(k, x)", "lpai_powf(p_k, in_x)"),
    ],
)
def test_renderings(text, torch_text, c_text):
    node = parse(
        text, inputs=("input",) if "input" in text else ("x",), params=("factor",) if "factor" in text else ("k",)
    )
    assert expr.to_torch(node) == torch_text
    assert expr.to_c(node) == c_text


def test_the_sse41_form_is_roundps_for_the_rounding_functions_only():
    """An op's SSE4.1 copy (x86) calls the _sse41 forms of round, floor, ceil and trunc
    and the plain form of everything else."""
    node = parse("where(x > k, floor(x), ceil(x)) + round(x * k) - trunc(x) + sign(x) + exp(x)")
    assert expr.to_c(node, sse41=True) == (
        "((((lpai_wheref((in_x > p_k), lpai_floorf_sse41(in_x), lpai_ceilf_sse41(in_x))"
        " + lpai_roundf_sse41((in_x * p_k))) - lpai_truncf_sse41(in_x)) + lpai_signf(in_x)) + lpai_expf(in_x))"
    )
    plain = parse("x * k + exp(x) + sign(x)")
    assert expr.to_c(plain, sse41=True) == expr.to_c(plain) == "(((in_x * p_k) + lpai_expf(in_x)) + lpai_signf(in_x))"


@pytest.mark.parametrize(
    "text, rule",
    [
        ("x.exp()", "only plain function calls"),
        ("x.real", "attribute access"),
        ("x[0]", "subscripts"),
        ("x if k else 0", "conditional expressions"),
        ("x and k", "boolean operators"),
        ("x ** x", "the exponent of ** reads the input 'x': a ** exponent is a number, a param"),
        ("x ** (k * x)", "write pow(a, b) for a power that varies per element"),
        ("pow(x)", "takes 2 argument(s), got 1"),
        ("x @ k", "operator MatMult is not allowed (allowed: + - * / ** and unary -)"),
        ("x // 2", "operator FloorDiv"),
        ("x % 2", "operator Mod"),
        ("~x", "operator Invert"),
        ("y", "unknown name 'y'"),
        ("exp", "must be called"),
        ("exp(x, k)", "takes 1 argument(s), got 2"),
        ("exp(x=x)", "takes no keyword arguments"),
        ("max(*x)", "takes no *arguments"),
        ("print(x)", "function 'print' is not allowed"),
        ("__import__('os')", "function '__import__' is not allowed"),
        ("x + 'a'", "only numbers are allowed"),
        ("x + True", "only numbers are allowed"),
        ("x; 1", "not a single expression"),
        ("x\n+1", "must be one line"),
        ("x + 1e39", "outside"),
        ("x * 1e-40", "outside"),
        ("k * 2", "must use every input"),
        ("", "must not be empty"),
        ("x + é", "must be ASCII"),
        ("(" * 40 + "x" + ")" * 40 + " + " + "+".join(["-x"] * 40), "syntax nodes"),
        ("[x]", "lists are not allowed"),
        ("lambda: x", "lambdas are not allowed"),
        ("(y := x)", "assignments are not allowed"),
        ("x # */ int evil; /*", "character '#' is not allowed"),
        ("x\t* 2", "character '\\t' is not allowed"),
        # A comparison only as where's condition, and only one.
        ("x > 0", "comparisons are allowed only as the condition of where(cond, a, b)"),
        ("x * (x < k)", "comparisons are allowed only as the condition of where(cond, a, b)"),
        ("where(x, x, k) + 0", "the condition of where(cond, a, b) must be one comparison"),
        ("where(x < k, x > 0, x)", "comparisons are allowed only as the condition"),
        ("where(0 < x < 1, x, 0)", "not a chain such as a < b < c"),
        ("where(x is k, x, 0)", "Is is not one"),
        ("where(x < 1 and x > 0, x, 0)", "the condition of where(cond, a, b) must be one comparison"),
        ("where(x < 1, x)", "takes 3 argument(s), got 2"),
        ("round(x, 2)", "takes 1 argument(s), got 2"),
    ],
)
def test_rejections(text, rule):
    with pytest.raises(expr.ExprError) as info:
        parse(text)
    assert rule in str(info.value)


def test_deep_nesting_is_rejected():
    with pytest.raises(expr.ExprError, match="nested deeper"):
        parse("exp(" * 40 + "x" + ")" * 40)


def test_non_string():
    with pytest.raises(expr.ExprError, match="must be a string"):
        parse(3)


# --- the three renderings agree -----------------------------------------------------

UNARY = ["abs", "exp", "tanh", "sigmoid", "relu", "sqrt", "log", "**"]
BINARY = ["+", "-", "*", "/"]


def random_expr(rng: random.Random, depth: int) -> str:
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(["a", "b", "k", f"{rng.uniform(-2, 2):.3f}"])
    pick = rng.random()
    if pick < 0.45:
        return f"({random_expr(rng, depth - 1)} {rng.choice(BINARY)} {random_expr(rng, depth - 1)})"
    if pick < 0.75:
        func = rng.choice(UNARY)
        inner = random_expr(rng, depth - 1)
        # Keep sqrt/log/exp in their real, finite domain so that all three agree exactly.
        if func in ("sqrt", "log"):
            inner = f"abs({inner}) + 0.5"
        if func == "exp":
            inner = f"tanh({inner})"
        if func == "**":  # a positive base, a param or constant exponent
            return f"(abs({inner}) + 0.5) ** {rng.choice(['k', '2', '0.5', '-1.5', '(1 / 3)'])}"
        return f"{func}({inner})"
    if pick < 0.9:
        return f"{rng.choice(['min', 'max'])}({random_expr(rng, depth - 1)}, {random_expr(rng, depth - 1)})"
    return f"clamp({random_expr(rng, depth - 1)}, -1.5, 1.5)"


def random_exprs(count: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        text = random_expr(rng, 4)
        # Both inputs used; no division (a random denominator can cross zero).
        if re.search(r"\ba\b", text) and re.search(r"\bb\b", text) and "/" not in text:
            out.append(text)
    return out


POINTS = np.linspace(-2.0, 2.0, 9, dtype=np.float32)
GRID = [(float(a), float(b)) for a in POINTS for b in POINTS]


def test_torch_and_numpy_agree_on_random_expressions():
    for text in random_exprs(60):
        node = expr.parse(text, ["a", "b"], ["k"])
        a = torch.tensor([g[0] for g in GRID])
        b = torch.tensor([g[1] for g in GRID])
        k = torch.tensor(0.75, dtype=torch.float32)
        got = eval(expr.to_torch(node), {"torch": torch, "a": a, "b": b, "k": k})
        want = eval(expr.to_numpy(node), {"np": np, "a": a.double().numpy(), "b": b.double().numpy(), "k": 0.75})
        np.testing.assert_allclose(np.broadcast_to(got.numpy(), want.shape), want, rtol=1e-4, atol=1e-4, err_msg=text)


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_c_rendering_compiles_warning_free_and_agrees_with_numpy(tmp_path):
    texts = random_exprs(40, seed=11)
    nodes = [expr.parse(t, ["a", "b"], ["k"]) for t in texts]
    funcs = "\n".join(
        f"static float f{i}(float in_a, float in_b, float p_k) {{ (void)p_k; return {expr.to_c(n)}; }}"
        for i, n in enumerate(nodes)
    )
    table = ", ".join(f"f{i}" for i in range(len(nodes)))
    source = textwrap.dedent("""\
        #include <math.h>
        #include <stdio.h>
        #include "lpai_expr_math.h"
        %s
        typedef float (*fn)(float, float, float);
        static const fn table[] = { %s };
        int main(void) {
            float a, b;
            while (scanf("%%f %%f", &a, &b) == 2) {
                for (unsigned i = 0; i < sizeof table / sizeof table[0]; ++i) printf("%%.9g ", (double)table[i](a, b, 0.75f));
                printf("\\n");
            }
            return 0;
        }
        """) % (funcs, table)
    (tmp_path / "e.c").write_text(source)
    # The template's own helpers (lpai_expf, lpai_minf, ...): plain C, no Jinja in it.
    (tmp_path / "lpai_expr_math.h").write_text(EXPR_MATH_H.read_text())
    subprocess.run(
        ["gcc", "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "e.c", "-o", "e", "-lm"], cwd=tmp_path, check=True
    )
    stdin = "\n".join(f"{a:.9g} {b:.9g}" for a, b in GRID)
    out = subprocess.run([str(tmp_path / "e")], input=stdin, capture_output=True, text=True, check=True).stdout
    got = np.array([[float(v) for v in line.split()] for line in out.splitlines()])
    a = np.array([g[0] for g in GRID], dtype=np.float64)
    b = np.array([g[1] for g in GRID], dtype=np.float64)
    for i, node in enumerate(nodes):
        want = np.broadcast_to(eval(expr.to_numpy(node), {"np": np, "a": a, "b": b, "k": 0.75}), a.shape)
        np.testing.assert_allclose(got[:, i], want, rtol=1e-4, atol=1e-4, err_msg=texts[i])


@pytest.mark.parametrize(
    "text, value",
    [
        ("x * 1e-6", 1e-6),
        ("x * 1E-6", 1e-6),
        ("x * 1e+3", 1000.0),
        ("x * .5", 0.5),
        ("x * 5.", 5.0),
        ("x * 2.5e-3", 2.5e-3),
        ("x * 1_000", 1000.0),
        ("x * 0x10", 16.0),
        ("x * 1e30", 1e30),
        ("x * 1e-30", 1e-30),
    ],
)
def test_float_literals_in_the_forms_people_write(text, value):
    node = parse(text)
    assert node.right == expr.Num(value)
    # C and Python re-print the value, never the text: the C literal reads back exactly.
    c_literal = expr.to_c(node).split(" * ")[1].rstrip(")")
    assert c_literal.endswith("f") and float(c_literal[:-1]) == value


@pytest.mark.parametrize("digits", [40, 400, 401, 496])
def test_huge_integer_literal_is_one_rule_not_an_overflow(digits):
    with pytest.raises(expr.ExprError, match=r"^literal .* is outside \[1e-30, 1e\+30\] or not finite$"):
        parse("x * 1" + "0" * (digits - 1))


@pytest.mark.parametrize(
    "text",
    [
        "x + 1 / 0",
        "x + .25 / ((0 / 1000) + -0)",
        "x * (2 / (1 - 1))",
        "x + (1 / 0) * x",
        "x + 1 / (1e-30 * 0)",
        "exp(x + 2 / (3 - 3))",
    ],
)
def test_division_by_a_constant_zero_is_refused(text):
    with pytest.raises(expr.ExprError, match=r"^divides by a constant equal to 0"):
        parse(text)


@pytest.mark.parametrize("text", ["x / 0", "x / (x - x)", "1 / relu(-x) + x", "1 / sqrt(x * 0) + x", "x / (k * 0)"])
def test_division_by_a_tensor_that_may_be_zero_is_allowed(text):
    # Tensors divide to inf or NaN in torch and numpy alike: nothing raises.
    node = parse(text)
    x = torch.zeros(3)
    k = torch.tensor(0.0)
    with np.errstate(all="ignore"):
        eval(expr.to_torch(node), {"torch": torch, "x": x, "k": k})
        eval(expr.to_numpy(node), {"np": np, "x": x.numpy().astype(np.float64), "k": 0.0})


def test_each_function_row_uses_every_argument_once_per_form():
    """FUNCTION_TABLE holds every spelling of a function in one row; each form must
    place each of its `arity` arguments (a form that drops or invents one is caught)."""
    for f in expr.FUNCTION_TABLE:
        for form in (f.torch, f.numpy, f.c):
            used = sorted({int(i) for i in re.findall(r"\{(\d+)\}", form)})
            assert used == list(range(f.arity)), (f.name, form)
    assert len({f.name for f in expr.FUNCTION_TABLE}) == len(expr.FUNCTION_TABLE)
    assert {"log", "sqrt"} == expr.LIBRARY_CALLS  # libm calls of the C forms: logf, sqrtf
    # The benchmark's libm class (issue 41): the transcendental functions, inline or not;
    # the rounding functions, abs, min, max, where and sign are exact integer and select work.
    assert {"exp", "log", "sqrt", "pow", "tanh", "sigmoid"} == expr.LIBM


@pytest.mark.parametrize(
    ("text", "libm"),
    [
        ("floor(x) + ceil(x) + round(x) + trunc(x)", False),
        ("where(x >= 0, abs(x), min(x, 1.0)) + max(x, 2.0) + sign(x) + clamp(x, 0.0, 1.0) + relu(x)", False),
        ("x * 2.0 - x / 3.0", False),
        ("floor(x) + 0.1 * sigmoid(x)", True),
        ("-exp(x)", True),
        ("x ** 0.5", True),
        ("where(x > 0, x, tanh(x))", True),
        ("where(log(x) > 0, x, 1.0)", True),
    ],
)
def test_cost_says_whether_the_math_is_libm(text, libm):
    """Cost.libm (what the benchmark's `math=` field prints): any transcendental function
    anywhere in the tree, the condition of where included."""
    assert expr.cost(parse(text)).libm is libm


# --- round, floor, ceil, sign and where ------------------------------------------------

# Ties (k + 0.5, both signs), signed zeros, both sides of 2^23 (where float32 has no
# fraction bits left), the largest float below 0.5, inf, NaN, and a dense random sample.
_EDGES = [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999997, -0.49999997, 8388607.5, -8388607.5]
_EDGES += [8388608.0, 8388609.0, -8388609.0, 4194303.5, 1e30, -1e30, float("inf"), float("-inf"), float("nan")]


def _rounding_points() -> np.ndarray:
    rng = np.random.default_rng(3)
    halves = np.arange(-64, 65) / 4.0
    return np.concatenate([_EDGES, halves, rng.uniform(-5, 5, 4000), rng.uniform(-3e7, 3e7, 1000)]).astype(np.float32)


def _bits(values: np.ndarray) -> np.ndarray:
    """The float32 bit patterns, every NaN as one pattern (their payloads may differ)."""
    v = np.asarray(values, dtype=np.float32).copy()
    v[np.isnan(v)] = np.float32("nan")
    return v.view(np.uint32)


@pytest.mark.parametrize("func", ["round", "floor", "ceil", "trunc", "sign"])
def test_rounding_functions_numpy_form_equals_torch(func):
    """round is half to even (np.rint, torch.round); sign(NaN) is 0, as torch gives."""
    points = _rounding_points()
    node = parse(f"{func}(x)")
    got = eval(expr.to_torch(node), {"torch": torch, "x": torch.from_numpy(points)}).numpy()
    want = eval(expr.to_numpy(node), {"np": np, "x": points.astype(np.float64)})
    np.testing.assert_array_equal(_bits(got), _bits(want.astype(np.float32)), err_msg=func)
    if func == "round":
        assert got[:8].tolist() == [0.0, -0.0, 0.0, -0.0, 2.0, -2.0, 2.0, -2.0]


WHERE_TEXTS = [f"where(a {op} b, a - b, b * 0.5)" for op in ("<", "<=", ">", ">=", "==", "!=")]
WHERE_TEXTS += ["where(a < 0, floor(a), ceil(b)) + sign(a - b) * round(b * k)", "where(k > 0.5, a, b)"]


def test_where_numpy_form_equals_torch():
    a = torch.tensor([g[0] for g in GRID] + [float("nan"), 1.0])
    b = torch.tensor([g[1] for g in GRID] + [1.0, float("nan")])
    for text in WHERE_TEXTS:
        node = expr.parse(text, ["a", "b"], ["k"])
        k = torch.tensor(0.75, dtype=torch.float32)
        got = eval(expr.to_torch(node), {"torch": torch, "a": a, "b": b, "k": k})
        want = eval(expr.to_numpy(node), {"np": np, "a": a.double().numpy(), "b": b.double().numpy(), "k": 0.75})
        np.testing.assert_array_equal(np.broadcast_to(got.numpy(), want.shape), want.astype(np.float32), err_msg=text)


@pytest.mark.parametrize("cc", [c for c in ("gcc", "clang") if shutil.which(c)])
def test_c_forms_of_rounding_and_where_are_bit_identical_to_torch(tmp_path, cc):
    """The C helpers (lpai_roundf, ...) under the kernel's flags (-O2 -ffp-contract=off,
    the default rounding mode): every result bit for bit as torch, the sign of a zero
    included (ceil(-0.7) is -0: 1 / it is -inf), and where() with every comparison."""
    texts = ["round(a)", "floor(a)", "ceil(a)", "trunc(a)", "sign(a)", *(t for t in WHERE_TEXTS)]
    nodes = [expr.parse(t, ["a", "b"] if "b" in t else ["a"], ["k"]) for t in texts]
    funcs = "\n".join(
        f"static float f{i}(float in_a, float in_b, float p_k) {{ (void)in_b; (void)p_k; return {expr.to_c(n)}; }}"
        for i, n in enumerate(nodes)
    )
    source = textwrap.dedent("""\
        #include <stdint.h>
        #include <stdio.h>
        #include <string.h>
        #include "lpai_expr_math.h"
        %s
        typedef float (*fn)(float, float, float);
        static const fn table[] = { %s };
        int main(void) {
            uint32_t ua, ub;
            while (scanf("%%x %%x", &ua, &ub) == 2) {
                float a, b;
                memcpy(&a, &ua, 4);
                memcpy(&b, &ub, 4);
                for (unsigned i = 0; i < sizeof table / sizeof table[0]; ++i) {
                    const float r = table[i](a, b, 0.75f);
                    uint32_t u;
                    memcpy(&u, &r, 4);
                    printf("%%08x ", (unsigned)u);
                }
                printf("\\n");
            }
            return 0;
        }
        """) % (funcs, ", ".join(f"f{i}" for i in range(len(nodes))))
    (tmp_path / "e.c").write_text(source)
    (tmp_path / "lpai_expr_math.h").write_text(EXPR_MATH_H.read_text())
    flags = ["-std=c11", "-O2", "-ffp-contract=off", "-Wall", "-Wextra", "-Werror"]
    subprocess.run([cc, *flags, "e.c", "-o", "e", "-lm"], cwd=tmp_path, check=True)
    a = _rounding_points()
    b = np.roll(a, 7)
    b[::5] = a[::5]  # equal pairs, for == and !=
    stdin = "\n".join(f"{x:08x} {y:08x}" for x, y in zip(a.view(np.uint32), b.view(np.uint32)))
    out = subprocess.run([str(tmp_path / "e")], input=stdin, capture_output=True, text=True, check=True).stdout
    got = np.array([[int(v, 16) for v in line.split()] for line in out.splitlines()], dtype=np.uint32)
    env = {"torch": torch, "a": torch.from_numpy(a), "b": torch.from_numpy(b), "k": torch.tensor(0.75)}
    for i, (text, node) in enumerate(zip(texts, nodes)):
        with np.errstate(all="ignore"):
            want = torch.broadcast_to(eval(expr.to_torch(node), env), (len(a),)).numpy()
        np.testing.assert_array_equal(_bits(got[:, i].view(np.float32)), _bits(want), err_msg=text)


def test_comparisons_cost_one_and_where_keeps_the_loop_vectorising():
    node = parse("where(x < k, round(x), floor(x))")
    assert node.cost == expr.Cost(1 + 2 + 6 + 8, True)


# --- a ** b and pow(a, b) ---------------------------------------------------------------

# Bases and exponents of every IEEE case of C11 F.10.4.4 (signed zeros, negative bases
# with integer and fractional powers, overflow, underflow, infinities, NaN), and the
# power laws a spec writes, on a dense sample of [0.1, 2].
_POW_BASES = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 1e-30, 1e30, -1e30, float("inf"), float("-inf"), float("nan")]
_POW_EXPONENTS = [0.0, -0.0, 1.0, -1.0, 2.0, 3.0, -3.0, 0.5, -0.5, 1 / 3, 2.5, 40.0, -40.0]
_POW_EXPONENTS += [float("inf"), float("-inf"), float("nan")]


def _pow_points() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(5)
    bases, exponents = zip(*[(a, b) for a in _POW_BASES for b in _POW_EXPONENTS])
    laws = rng.uniform(0.1, 2.0, 3000)
    powers = rng.choice([0.25, 0.3, 0.5, 2.0, 3.0, -0.5, -1.0, 1 / 3], 3000)
    return (
        np.concatenate([bases, laws]).astype(np.float32),
        np.concatenate([exponents, powers]).astype(np.float32),
    )


def test_pow_python_form_is_ieee_where_math_pow_raises():
    """The finiteness check's pow (evaluate) gives C's values, never an exception;
    expected values from C11 F.10.4.4, written out."""
    f = expr._BY_NAME["pow"].python
    inf = math.inf
    cases = [
        ((0.0, -1.0), inf),
        ((-0.0, -1.0), -inf),
        ((-0.0, -2.0), inf),
        ((0.0, -0.5), inf),
        ((-8.0, 1 / 3), None),  # NaN: a negative base, a power that is not an integer
        ((-2.0, 3.0), -8.0),
        ((1e30, 40.0), inf),
        ((-1e30, 41.0), -inf),
        ((math.nan, 0.0), 1.0),
        ((1.0, math.nan), 1.0),
        ((2.0, 0.5), math.sqrt(2.0)),
    ]
    for args, want in cases:
        got = f(*args)
        assert math.isnan(got) if want is None else got == want and math.copysign(1, got) == math.copysign(1, want), (
            args,
            got,
        )


def test_pow_python_form_agrees_with_torch_in_float32():
    """evaluate's pow, rounded to float32, against torch.pow: the same class (NaN,
    +-inf, finite) everywhere, and within 1 ulp where finite."""
    bases, exponents = _pow_points()
    torch_pow = torch.pow(torch.from_numpy(bases), torch.from_numpy(exponents)).numpy()
    env = [
        expr.evaluate(expr.parse("pow(a, b)", ["a", "b"], []), {"a": float(a), "b": float(b)})
        for a, b in zip(bases, exponents)
    ]
    mine = np.array(env, dtype=np.float32)
    assert (np.isnan(mine) == np.isnan(torch_pow)).all()
    finite = np.isfinite(torch_pow)
    assert (mine[~finite & ~np.isnan(mine)] == torch_pow[~finite & ~np.isnan(torch_pow)]).all()
    assert (np.abs(mine[finite].view(np.int32) - torch_pow[finite].view(np.int32)) <= 1).all()


def test_pow_numpy_form_agrees_with_torch():
    bases, exponents = _pow_points()
    node = expr.parse("pow(a, b)", ["a", "b"], [])
    got = eval(expr.to_torch(node), {"torch": torch, "a": torch.from_numpy(bases), "b": torch.from_numpy(exponents)})
    with np.errstate(all="ignore"):
        want = eval(expr.to_numpy(node), {"np": np, "a": bases.astype(np.float64), "b": exponents.astype(np.float64)})
        want = want.astype(np.float32)  # beyond float32: inf, as torch
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, atol=0)


@pytest.mark.parametrize("cc", [c for c in ("gcc", "clang") if shutil.which(c)])
def test_c_pow_is_torch_pow_in_float32(tmp_path, cc):
    """lpai_powf (the kernel's form, include/lpai_expr_math.h) against torch.pow on the
    same float32 inputs: NaN and infinities where torch has them, and at most 1 ulp apart
    where finite (a code apart only at a rounding tie, which the rendered kernel tests
    allow)."""
    bases, exponents = _pow_points()
    node = expr.parse("x ** k", ["x"], ["k"])
    source = textwrap.dedent("""\
        #include <math.h>
        #include <stdio.h>
        #include <string.h>
        #include "lpai_expr_math.h"
        static float f(float in_x, float p_k) { return %s; }
        int main(void) {
            unsigned a, b;
            while (scanf("%%u %%u", &a, &b) == 2) {
                float x, k, y;
                unsigned out;
                memcpy(&x, &a, 4);
                memcpy(&k, &b, 4);
                y = f(x, k);
                memcpy(&out, &y, 4);
                printf("%%u\\n", out);
            }
            return 0;
        }
        """) % expr.to_c(node)
    (tmp_path / "p.c").write_text(source)
    (tmp_path / "lpai_expr_math.h").write_text(EXPR_MATH_H.read_text())
    subprocess.run(
        [cc, "-std=c11", "-O2", "-ffp-contract=off", "-Wall", "-Wextra", "-Werror", "p.c", "-o", "p", "-lm"],
        cwd=tmp_path,
        check=True,
    )
    stdin = "\n".join(f"{a} {b}" for a, b in zip(bases.view(np.uint32), exponents.view(np.uint32)))
    out = subprocess.run([str(tmp_path / "p")], input=stdin, capture_output=True, text=True, check=True).stdout
    got = np.array([int(v) for v in out.split()], dtype=np.uint32).view(np.float32)
    want = eval(expr.to_torch(node), {"torch": torch, "x": torch.from_numpy(bases), "k": torch.from_numpy(exponents)})
    want = want.numpy()
    assert (np.isnan(got) == np.isnan(want)).all()
    infinite = np.isinf(want)
    assert (got[infinite] == want[infinite]).all()
    finite = np.isfinite(want)
    apart = np.abs(got[finite].view(np.int32).astype(np.int64) - want[finite].view(np.int32).astype(np.int64))
    assert apart.max() <= 1, (bases[finite][apart.argmax()], exponents[finite][apart.argmax()])


@pytest.mark.parametrize(
    ("text", "finite"),
    [
        ("(x + 1e-6) ** 0.3", True),
        ("x ** -2", True),
        ("x ** k", True),
        ("(x - 1) ** 0.5", False),  # NaN below 1, as sqrt(x - 1)
        ("(x - 1) ** -1", True),  # 1 / 0 at x = 1 is not among the sampled points
        ("(x - 0.1) ** -1", False),  # inf at 0.1
        ("pow(x - 2, 0.5)", False),
        ("x ** 300", False),  # beyond float32 at 2
    ],
)
def test_power_is_checked_for_finiteness_like_log_and_sqrt(text, finite):
    node = parse(text)
    # The positive default domain: these ops are not finite on [-2, 2].
    assert (expr.first_non_finite(node, ["x"], {"k": 2.5}, [(0.1, 2.0)]) is None) == finite


@pytest.mark.parametrize(
    ("text", "named", "why"),
    [
        # Built with ** or a function of constants, as the same step written with * is:
        # the constant and what float32 makes of it, not the input domain.
        ("x * 10.0 ** 400", "(10.0 ** 400.0)", "is infinite in float32"),
        ("x * 1e30 ** 2", "(1e+30 ** 2.0) = 1e+60", "overflows float32"),
        ("x + (-8) ** (1/3)", "((-8.0) ** (1.0 / 3.0))", "is NaN"),
        ("x + 0 ** -1", "(0.0 ** (-1.0))", "is infinite in float32"),
        ("x * 9 ** 9 ** 9", "(9.0 ** (9.0 ** 9.0))", "is infinite in float32"),
        ("x * exp(100)", "exp(100.0) = 2.68812e+43", "overflows float32"),
        ("x + sqrt(-1)", "sqrt((-1.0))", "is NaN"),
        ("1 / relu(-1) + x", "(1.0 / relu((-1.0)))", "is infinite in float32"),
        ("1 / sqrt(0) + x", "(1.0 / sqrt(0.0))", "is infinite in float32"),
        # Underflow to 0 or a denormal: docs/spec.md's rule for a constant's steps.
        ("x * 1e-30 ** 2", "(1e-30 ** 2.0) = 1e-60", "underflows float32"),
        ("x * 2.0 ** -140", "(2.0 ** (-140.0)) = 7.17465e-43", "underflows float32"),
        ("x * 2.0 ** -127", "(2.0 ** (-127.0)) = 5.87747e-39", "underflows float32"),
        ("x * exp(-100)", "exp((-100.0)) = 3.72008e-44", "underflows float32"),
    ],
)
def test_a_constant_power_or_function_out_of_float32_is_named(text, named, why):
    with pytest.raises(expr.ExprError, match=rf"^the constant {re.escape(named)} {why}"):
        parse(text)


@pytest.mark.parametrize("text", ["x * 2 ** 3", "x * 2.0 ** -126", "x * 0 ** 2", "x * exp(1) ** 2", "x ** 0.5"])
def test_a_constant_power_within_float32_is_allowed(text):
    parse(text)


def test_an_int_param_an_expr_reads_is_exact_in_float32_up_to_2_24():
    """float32 holds every whole number up to 2^24 = 16777216; 16777217 is the first it
    rounds (to 16777216), so that `x + (n - 16777216)` at n = 16777217 would be x."""
    assert torch.tensor(16777217, dtype=torch.int64).float().item() == 16777216.0  # the fact itself
    for fine in (0, 1, 255, 16777215, 16777216):
        assert expr.int_param_problem(fine) is None, fine
    for lost in (16777217, 16777219, 2**32 - 1):
        problem = expr.int_param_problem(lost)
        assert problem is not None and problem.startswith(f"{lost} is above 2^24 = 16777216"), problem
    assert "(16777217 would be 16777216)" in expr.int_param_problem(16777217)
