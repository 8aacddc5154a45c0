"""The expression grammar of elementwise ops: parse once, render to torch, numpy and C.

`expr` is the single source of truth of an elementwise op.  It is parsed with
Python's own parser (which never evaluates anything) and then every node is checked
against a whitelist: numbers, the op's input and parameter names, ``+ - * /``, unary
minus/plus, parentheses and a fixed set of functions; ``a ** b`` whose exponent reads
no input (a number, a param, an expression of them), which is ``pow(a, b)``; a
comparison (``< <= > >= == !=``) only as the condition of ``where(cond, a, b)``.
Anything else - attributes, subscripts, other names or calls, strings, a comparison
anywhere else, ``//``, ``%``, keyword arguments - is rejected with a message naming the
construct.  The renderers walk the checked
tree only, so no text of the spec is ever copied into generated code except validated
names and re-printed numbers.
"""

from __future__ import annotations

import ast
import math
import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .names import shown as _shown

MAX_LENGTH = 500
MAX_NODES = 200
MAX_DEPTH = 32
# Literals must survive as finite, normal float32 constants in C (a larger or tinier
# literal is a compile-time overflow/underflow warning, and -Werror turns it fatal).
MAX_LITERAL = 1e30
MIN_LITERAL = 1e-30


def _nan_or(f: Callable[..., float]) -> Callable[..., float]:
    """NaN in, NaN out (torch.minimum, torch.clamp, ...), unlike Python's min and max."""
    return lambda *a: math.nan if any(math.isnan(v) for v in a) else f(*a)


def _finite_or(f: Callable[[float], int]) -> Callable[[float], float]:
    """round, floor, ceil: an infinity or NaN stays as it is (Python's raise on them)."""
    return lambda a: a if math.isnan(a) or math.isinf(a) else float(f(a))


def _exp(a: float) -> float:
    try:
        return math.exp(a)
    except OverflowError:
        return math.inf


def _log(a: float) -> float:
    return math.nan if math.isnan(a) or a < 0 else -math.inf if a == 0 else math.log(a)


def _sqrt(a: float) -> float:
    return math.nan if math.isnan(a) or a < 0 else math.sqrt(a)


def _odd_integer(b: float) -> bool:
    return math.isfinite(b) and b.is_integer() and b % 2 == 1


def _pow(a: float, b: float) -> float:
    """C's powf in IEEE terms (C11 F.10.4.4), where Python's math.pow raises: a
    negative base to a non-integer power is NaN, 0 to a negative power an infinity
    (-inf for -0 and an odd integer power), an overflow an infinity of the result's
    sign. pow(x, 0) is 1 and pow(1, y) is 1 even for NaN, as in C, torch and numpy."""
    try:
        return math.pow(a, b)
    except OverflowError:
        return -math.inf if a < 0 and _odd_integer(b) else math.inf
    except ValueError:
        if a == 0:  # b < 0
            return -math.inf if math.copysign(1.0, a) < 0 and _odd_integer(b) else math.inf
        return math.nan


@dataclass(frozen=True)
class Function:
    """One function of the expression language, every spelling of it in one row."""

    name: str
    arity: int
    torch: str  # str.format template over the rendered arguments
    numpy: str  # float64, written independently of the torch form (tests/reference.py)
    c: str  # float C; the lpai_* helpers live in the rendered C headers
    cost: int  # instructions per evaluation, scalar (callgrind, gcc -O2, host)
    library_call: bool = False  # a libm call: keeps the kernel's blocked loop from vectorising
    # A transcendental libm function (exp, log, pow, tanh, sigmoid, sqrt), whether its C
    # form calls libm or an inline lpai_* polynomial: float math that runs scalar on the
    # DSP here (no HVX float under QEMU), so the benchmark holds an op that uses one to
    # its libm target (docs/benchmark.md, "Targets"). round, floor, ceil, trunc, abs,
    # min, max, where and the operators are exact integer and select work: never libm.
    libm: bool = False
    # IEEE float value in Python (NaN and infinities, never an exception), for the
    # validation's sampling of the op (`evaluate`).
    python: Callable[..., float] | None = None
    # The C form in an op's SSE4.1 copy of its loops (x86 builds, chosen at run time:
    # include/lpai_expr_math.h, "x86"), bit for bit the `c` form; None: `c` there too.
    c_sse41: str | None = None


# lpai_powf per call, scalar: ~145 instructions on the host (callgrind, gcc -O2, one
# element at a time); in the blocked loop it vectorises (SSE2: about 60 per element with
# gcc, 54 with clang). glibc's powf was 70 a call, and kept the loop scalar.
POW_COST = 145

# The one table of functions: parse, to_torch, to_numpy, to_c and cost read it.
FUNCTION_TABLE: tuple[Function, ...] = (
    Function("abs", 1, "torch.abs({0})", "np.abs({0})", "fabsf({0})", 1, python=abs),
    Function(
        "min", 2, "torch.minimum({0}, {1})", "np.minimum({0}, {1})", "lpai_minf({0}, {1})", 4, python=_nan_or(min)
    ),
    Function(
        "max", 2, "torch.maximum({0}, {1})", "np.maximum({0}, {1})", "lpai_maxf({0}, {1})", 4, python=_nan_or(max)
    ),
    Function(
        "clamp",
        3,
        "torch.clamp({0}, {1}, {2})",
        "np.minimum(np.maximum({0}, {1}), {2})",
        "lpai_minf(lpai_maxf({0}, {1}), {2})",
        8,
        python=_nan_or(lambda a, lo, hi: min(max(a, lo), hi)),
    ),
    Function("exp", 1, "torch.exp({0})", "np.exp({0})", "lpai_expf({0})", 24, libm=True, python=_exp),
    Function("log", 1, "torch.log({0})", "np.log({0})", "logf({0})", 30, library_call=True, libm=True, python=_log),
    Function(
        "sqrt", 1, "torch.sqrt({0})", "np.sqrt({0})", "sqrtf({0})", 20, library_call=True, libm=True, python=_sqrt
    ),
    # `a ** b` is this function too (parse). lpai_powf and torch.pow (std::pow, SLEEF's
    # 1-ulp powf, or sqrt and the like for some constant exponents) may differ in the last
    # bit: a code apart only at a rounding tie, which the rendered kernel tests allow, as
    # for log. Inline (include/lpai_expr_math.h): no libm call, the loop vectorises; still
    # transcendental float math (libm), scalar on the DSP here.
    Function(
        "pow",
        2,
        "torch.pow({0}, {1})",
        "np.power({0}, {1})",
        "lpai_powf({0}, {1})",
        POW_COST,
        libm=True,
        python=_pow,
    ),
    Function("tanh", 1, "torch.tanh({0})", "np.tanh({0})", "lpai_tanhf({0})", 40, libm=True, python=math.tanh),
    Function(
        "sigmoid",
        1,
        "torch.sigmoid({0})",
        "(1.0 / (1.0 + np.exp(-({0}))))",
        "lpai_sigmoidf({0})",
        30,
        libm=True,
        python=_nan_or(lambda a: 1.0 / (1.0 + _exp(-a))),
    ),
    Function(
        "relu",
        1,
        "torch.relu({0})",
        "np.maximum({0}, 0.0)",
        "lpai_reluf({0})",
        1,
        python=_nan_or(lambda a: max(a, 0.0)),
    ),
    # Half to even, like torch.round and np.rint (the C helper rounds by adding 2^23
    # under the default rounding mode: no libm call, the same on every target). trunc,
    # floor and ceil convert through int32 below 2^23 (lpai_truncf): no libm call either.
    # On x86 CPUs with SSE4.1, roundps in the op's SSE4.1 copy (c_sse41), the same bits.
    Function(
        "round",
        1,
        "torch.round({0})",
        "np.rint({0})",
        "lpai_roundf({0})",
        6,
        python=_finite_or(round),
        c_sse41="lpai_roundf_sse41({0})",
    ),
    Function(
        "floor",
        1,
        "torch.floor({0})",
        "np.floor({0})",
        "lpai_floorf({0})",
        8,
        python=_finite_or(math.floor),
        c_sse41="lpai_floorf_sse41({0})",
    ),
    Function(
        "ceil",
        1,
        "torch.ceil({0})",
        "np.ceil({0})",
        "lpai_ceilf({0})",
        8,
        python=_finite_or(math.ceil),
        c_sse41="lpai_ceilf_sse41({0})",
    ),
    Function(
        "trunc",
        1,
        "torch.trunc({0})",
        "np.trunc({0})",
        "lpai_truncf({0})",
        6,
        python=_finite_or(math.trunc),
        c_sse41="lpai_truncf_sse41({0})",
    ),
    # torch.sign(NaN) is 0 (np.sign gives NaN): the numpy form maps NaN to 0 first.
    Function(
        "sign",
        1,
        "torch.sign({0})",
        "np.sign(np.nan_to_num({0}, nan=0.0))",
        "lpai_signf({0})",
        4,
        python=lambda a: 0.0 if math.isnan(a) or a == 0 else math.copysign(1.0, a),
    ),
    # The condition is a comparison (Cmp below), nothing else.
    Function(
        "where",
        3,
        "torch.where({0}, {1}, {2})",
        "np.where({0}, {1}, {2})",
        "lpai_wheref({0}, {1}, {2})",
        2,
        python=lambda c, a, b: a if c else b,
    ),
)
_BY_NAME: Mapping[str, Function] = {f.name: f for f in FUNCTION_TABLE}

# name -> number of arguments
FUNCTIONS: Mapping[str, int] = {f.name: f.arity for f in FUNCTION_TABLE}

_ALPHABET = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ .+-*/(),<>=!")

_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}
# The comparisons, allowed only as the condition of where(); the same spelling in
# torch, numpy and C.
_CMPOPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
# The function whose first argument is a condition.
CONDITIONAL = "where"
# The function `a ** b` is.
POW = "pow"


class ExprError(ValueError):
    """The expression broke a rule; the message is the rule (the caller adds the field)."""


class _Costed:
    @property
    def cost(self) -> Cost:
        """The estimate of cost() below; templates read it as op.tree.cost."""
        return cost(self)  # type: ignore[arg-type]


# The checked tree: six node kinds, nothing else (Cmp only as where's condition).
@dataclass(frozen=True)
class Num(_Costed):
    value: float


@dataclass(frozen=True)
class Var(_Costed):
    name: str
    is_input: bool


@dataclass(frozen=True)
class Neg(_Costed):
    operand: Node


@dataclass(frozen=True)
class Bin(_Costed):
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class Call(_Costed):
    func: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class Cmp(_Costed):
    op: str
    left: Node
    right: Node


Node = Num | Var | Neg | Bin | Call | Cmp


def parse(text: object, inputs: list[str], params: list[str]) -> Node:
    """Parse and check `text`; raise ExprError with a one-line reason."""
    if not isinstance(text, str):
        raise ExprError(f"must be a string, got {type(text).__name__}")
    if not text.strip():
        raise ExprError("must not be empty")
    if len(text) > MAX_LENGTH:
        raise ExprError(f"is longer than {MAX_LENGTH} characters")
    if "\n" in text or "\r" in text:
        raise ExprError("must be one line")
    if not text.isascii():
        raise ExprError("must be ASCII")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise ExprError(f"is not a single expression ({exc.msg} at column {exc.offset})") from None
    except (ValueError, RecursionError, MemoryError):
        raise ExprError("cannot be parsed") from None
    count = sum(1 for _ in ast.walk(tree))
    if count > MAX_NODES:
        raise ExprError(f"has more than {MAX_NODES} syntax nodes")
    names = {n: True for n in inputs} | {n: False for n in params}
    node = _convert(tree.body, names, depth=0)
    _check_constant_divisions(node)
    _check_constant_range(node)
    used = _names(node)
    missing = [n for n in inputs if n not in used]
    if missing:
        raise ExprError(f"must use every input; {', '.join(missing)} is never used")
    # The tree is checked, but the text is also echoed into comments of the generated
    # Python and C. Python's parser skips a trailing `# ...`, which could carry `*/`
    # and close a C comment; only the grammar's own characters may remain.
    bad = next((ch for ch in text if ch not in _ALPHABET), None)
    if bad is not None:
        raise ExprError(f"character {bad!r} is not allowed (names, numbers, + - * / ( ) , < > = ! and spaces only)")
    return node


def _convert(node: ast.AST, names: dict[str, bool], depth: int) -> Node:
    if depth > MAX_DEPTH:
        raise ExprError(f"is nested deeper than {MAX_DEPTH} levels")
    d = depth + 1
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ExprError(f"only numbers are allowed as literals, not {type(value).__name__} {value!r:.20}")
        try:
            value = float(value)
        except OverflowError:
            raise ExprError(
                f"literal {_short(node.value)} is outside [{MIN_LITERAL:g}, {MAX_LITERAL:g}] or not finite"
            ) from None
        if not math.isfinite(value) or (value != 0 and not MIN_LITERAL <= abs(value) <= MAX_LITERAL):
            raise ExprError(f"literal {value!r} is outside [{MIN_LITERAL:g}, {MAX_LITERAL:g}] or not finite")
        return Num(value)
    if isinstance(node, ast.Name):
        if node.id in names:
            return Var(node.id, names[node.id])
        if node.id in FUNCTIONS:
            raise ExprError(f"function {_shown(node.id)} must be called")
        allowed = ", ".join(names) or "none"
        raise ExprError(f"unknown name {_shown(node.id)} (allowed: the op's inputs and params: {allowed})")
    if isinstance(node, ast.UnaryOp):
        if isinstance(node.op, ast.USub):
            return Neg(_convert(node.operand, names, d))
        if isinstance(node.op, ast.UAdd):
            return _convert(node.operand, names, d)
        raise ExprError(f"operator {type(node.op).__name__} is not allowed (allowed: + - * / ** and unary -)")
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Pow):
            return _power(node, names, d)
        op = _BINOPS.get(type(node.op))
        if op is None:
            raise ExprError(f"operator {type(node.op).__name__} is not allowed (allowed: + - * / ** and unary -)")
        return Bin(op, _convert(node.left, names, d), _convert(node.right, names, d))
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name):
            raise ExprError("only plain function calls are allowed (no attributes or computed callees)")
        func = node.func.id
        if func not in FUNCTIONS:
            raise ExprError(f"function {_shown(func)} is not allowed (allowed: {', '.join(FUNCTIONS)})")
        if node.keywords:
            raise ExprError(f"function {func!r} takes no keyword arguments")
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise ExprError(f"function {func!r} takes no *arguments")
        if len(node.args) != FUNCTIONS[func]:
            raise ExprError(f"function {func!r} takes {FUNCTIONS[func]} argument(s), got {len(node.args)}")
        if func == CONDITIONAL:
            return Call(func, (_condition(node.args[0], names, d), *(_convert(a, names, d) for a in node.args[1:])))
        return Call(func, tuple(_convert(a, names, d) for a in node.args))
    if isinstance(node, ast.Compare):
        raise ExprError(
            f"comparisons are allowed only as the condition of {CONDITIONAL}(cond, a, b), "
            f"e.g. {CONDITIONAL}(x < 0, -x, x)"
        )
    kinds = {
        ast.Attribute: "attribute access",
        ast.Subscript: "subscripts",
        ast.BoolOp: "boolean operators",
        ast.IfExp: "conditional expressions",
        ast.Lambda: "lambdas",
        ast.JoinedStr: "strings",
        ast.List: "lists",
        ast.Tuple: "tuples",
        ast.Dict: "dicts",
        ast.Set: "sets",
        ast.NamedExpr: "assignments",
    }
    what = next((v for k, v in kinds.items() if isinstance(node, k)), type(node).__name__)
    raise ExprError(
        f"{what} are not allowed (allowed: numbers, input/param names, + - * / **, unary -, parentheses, "
        f"{', '.join(FUNCTIONS)})"
    )


def _power(node: ast.BinOp, names: dict[str, bool], depth: int) -> Call:
    """`a ** b`, which is pow(a, b): its exponent reads no input (a number, a param or
    an expression of them: `x ** 2`, `(x + eps) ** p`, `x ** (1 / 3)`). An exponent
    that varies per element is written pow(a, b), so that `**` reads as the power law
    it is in a spec."""
    base, exponent = _convert(node.left, names, depth), _convert(node.right, names, depth)
    read = sorted(n for n in _names(exponent) if names[n])
    if read:
        raise ExprError(
            f"the exponent of ** reads the input {', '.join(map(_shown, read))}: a ** exponent is a number, a param "
            f"or an expression of them (x ** 2, x ** p); write pow(a, b) for a power that varies per element"
        )
    return Call(POW, (base, exponent))


def _condition(node: ast.AST, names: dict[str, bool], depth: int) -> Cmp:
    """where()'s condition: one comparison of two expressions (no chain, no and/or)."""
    rule = f"the condition of {CONDITIONAL}(cond, a, b) must be one comparison (< <= > >= == !=) of two expressions"
    if not isinstance(node, ast.Compare):
        raise ExprError(f"{rule}, e.g. {CONDITIONAL}(x < 0, -x, x)")
    if len(node.ops) != 1:
        raise ExprError(f"{rule}, not a chain such as a < b < c")
    op = _CMPOPS.get(type(node.ops[0]))
    if op is None:
        raise ExprError(f"{rule}; {type(node.ops[0]).__name__} is not one")
    return Cmp(op, _convert(node.left, names, depth + 1), _convert(node.comparators[0], names, depth + 1))


def _python_constant(node: Node) -> float | None:
    """The value Python computes for a subtree of numbers, + - * / and unary minus
    (the torch and numpy renderings print such a subtree as plain Python floats); None
    when it holds a name or a call (those become tensors, where x / 0 is inf or NaN)."""
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Neg):
        inner = _python_constant(node.operand)
        return None if inner is None else -inner
    if isinstance(node, Bin):
        left, right = _python_constant(node.left), _python_constant(node.right)
        if left is None or right is None:
            return None
        if node.op == "/":
            return math.nan if right == 0 else left / right
        return {"+": left + right, "-": left - right, "*": left * right}[node.op]
    return None


def _check_constant_divisions(node: Node) -> None:
    """Python raises ZeroDivisionError where C gives inf: a division of two constants
    whose divisor is 0 would make the eager op and the reference raise (a tensor
    divided by 0 is inf or NaN in torch and numpy, as in C)."""
    if isinstance(node, Bin):
        if node.op == "/" and _python_constant(node.left) is not None and _python_constant(node.right) == 0:
            raise ExprError(
                "divides by a constant equal to 0 (Python raises ZeroDivisionError where C "
                "gives inf); divide by an input or a param, or write the value meant"
            )
        _check_constant_divisions(node.left)
        _check_constant_divisions(node.right)
    elif isinstance(node, Cmp):
        _check_constant_divisions(node.left)
        _check_constant_divisions(node.right)
    elif isinstance(node, Neg):
        _check_constant_divisions(node.operand)
    elif isinstance(node, Call):
        for arg in node.args:
            _check_constant_divisions(arg)


# float32's range: the C kernel computes every constant subexpression in float.
FLT_MAX = 3.4028234663852886e38
FLT_MIN_NORMAL = 1.1754943508222875e-38


def _constant_value(node: Node) -> float | None:
    """The value of a subtree that reads no name (numbers, operators, functions of them),
    in float64 IEEE arithmetic (NaN and infinities, never an exception): the exact value
    the kernel's float32 folding of it approximates; None when it reads a name."""
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Var):
        return None
    if isinstance(node, Neg):
        inner = _constant_value(node.operand)
        return None if inner is None else -inner
    if isinstance(node, (Bin, Cmp)):
        a, b = _constant_value(node.left), _constant_value(node.right)
        if a is None or b is None:
            return None
        if isinstance(node, Cmp):
            return float({"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[node.op])
        return _divide(a, b) if node.op == "/" else {"+": a + b, "-": a - b, "*": a * b}[node.op]
    args = [_constant_value(a) for a in node.args]
    if any(a is None for a in args):
        return None
    return _BY_NAME[node.func].python(*args)


def _spec_text(node: Node) -> str:
    """A subtree as a spec writes it (`(10.0 ** 400.0)`, `exp(100.0)`), for a message."""

    def call(func: str, args: list[str], nodes: tuple[Node, ...]) -> str:
        return f"({args[0]} ** {args[1]})" if func == POW else f"{func}({', '.join(args)})"

    return _render(node, lambda v: v.name, py_float, call)


def _check_constant_range(node: Node) -> None:
    """Every constant subexpression, each step of it (`*`, `/`, `**` and every function
    of constants), within float32's normal range (or 0), and a number: the kernel folds
    `1e30 * 1e30` and `1e30 ** 2` in float to inf, `1e-30 * 1e-30` and `2.0 ** -140` to 0
    or a denormal (then `x / 0` is inf) and `(-8) ** (1 / 3)` to NaN, where Python,
    torch and numpy fold `*` in float64 to finite values.  The innermost step that leaves
    the range is named (the spec's own mistake, not its inputs')."""
    if isinstance(node, (Bin, Cmp)):
        _check_constant_range(node.left)
        _check_constant_range(node.right)
    elif isinstance(node, Neg):
        _check_constant_range(node.operand)
    elif isinstance(node, Call):
        for arg in node.args:
            _check_constant_range(arg)
    if not isinstance(node, (Bin, Call)):
        return
    value = _constant_value(node)
    if value is None:
        return
    text = _shown(_spec_text(node), 50).strip("'")
    kernel = "in which the kernel computes it; write the value meant"
    if math.isnan(value):
        raise ExprError(f"the constant {text} is NaN (not a number) in float32, {kernel}")
    if math.isinf(value):
        raise ExprError(f"the constant {text} is infinite in float32 (largest {FLT_MAX:.3g}), {kernel}")
    if abs(value) > FLT_MAX:
        raise ExprError(f"the constant {text} = {value:g} overflows float32 (largest {FLT_MAX:.3g}), {kernel}")
    if value != 0 and abs(value) < FLT_MIN_NORMAL:
        raise ExprError(
            f"the constant {text} = {value:g} underflows float32 (smallest normal {FLT_MIN_NORMAL:.3g}), "
            "in which the kernel computes it (to 0 or a denormal); write the value meant"
        )


# The largest whole number below which float32 holds every whole number exactly: an
# expr computes in float32 (eager: params are 0-d float32 tensors; the kernels: float),
# so an int param read by an expr above it is rounded (16777217 becomes 16777216).
MAX_EXACT_INT = 2**24


def int_param_problem(value: int) -> str | None:
    """Why an int param an expr reads cannot take `value`, in one line (the caller names
    the field: a default, a bound of a declared range), or None when it can."""
    if value > MAX_EXACT_INT:
        return (
            f"{value} is above 2^24 = {MAX_EXACT_INT}: the expr computes in float32, which holds whole numbers "
            f"exactly only up to 2^24 ({value} would be {int(_f32(float(value)))}); keep it at most {MAX_EXACT_INT}, "
            "or read the param in a custom op's C math (uint32_t, exact)"
        )
    return None


def _f32(value: float) -> float:
    """`value` rounded to float32 (beyond its range: an infinity), as the kernel holds it."""
    if math.isnan(value) or math.isinf(value):
        return value
    try:
        return struct.unpack("f", struct.pack("f", value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def _divide(a: float, b: float) -> float:
    if b != 0 or math.isnan(b):
        return a / b
    if a == 0 or math.isnan(a):
        return math.nan
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


def evaluate(node: Node, env: Mapping[str, float]) -> float:
    """The value of `node` in float32 IEEE arithmetic (every step rounded to float32; NaN
    and infinities, never an exception), at the inputs and params of `env`."""
    if isinstance(node, Num):
        return _f32(node.value)
    if isinstance(node, Var):
        return _f32(env[node.name])
    if isinstance(node, Neg):
        return -evaluate(node.operand, env)
    if isinstance(node, Bin):
        a, b = evaluate(node.left, env), evaluate(node.right, env)
        if node.op == "/":
            return _f32(_divide(a, b))
        return _f32({"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b}[node.op]())
    if isinstance(node, Cmp):
        # IEEE: every comparison with NaN is false but !=, as in Python, torch and C.
        a, b = evaluate(node.left, env), evaluate(node.right, env)
        return float({"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[node.op])
    if isinstance(node, Call):
        return _f32(_BY_NAME[node.func].python(*(evaluate(a, env) for a in node.args)))
    raise TypeError(node)


def first_non_finite(
    node: Node, inputs: list[str], params: Mapping[str, float], domains: Sequence[tuple[float, float]]
) -> dict[str, float] | None:
    """A point of `domains` (one (low, high) per input, hooks/model.py Op.input_domains)
    at which `node` is NaN or inf at these param values, or None: 41 points at the same
    fraction of every input's domain, every corner, then 64 seeded random tuples, in
    float32 IEEE arithmetic (evaluate).  An op that is not finite there breaks its own
    project: the calibration observer takes NaN for the range (`sqrt(x - 1.9)`), and
    every output code saturates where it is inf."""
    import itertools
    import random

    rng = random.Random(22)
    points = [[lo + (hi - lo) * k / 40 for lo, hi in domains] for k in range(41)]
    points += [list(c) for c in itertools.product(*domains)]
    points += [[rng.uniform(lo, hi) for lo, hi in domains] for _ in range(64)]
    for values in points:
        env = {**params, **dict(zip(inputs, values))}
        if not math.isfinite(evaluate(node, env)):
            return dict(zip(inputs, values))
    return None


def _short(value: int) -> str:
    text = str(value)
    return text if len(text) <= 20 else f"{text[:8]}...({len(text)} digits)"


def names_used(node: Node) -> set[str]:
    """The input and param names an expression reads."""
    return _names(node)


def _names(node: Node) -> set[str]:
    if isinstance(node, Var):
        return {node.name}
    if isinstance(node, Neg):
        return _names(node.operand)
    if isinstance(node, (Bin, Cmp)):
        return _names(node.left) | _names(node.right)
    if isinstance(node, Call):
        return set().union(*(_names(a) for a in node.args))
    return set()


def _is_constant(node: Node) -> bool:
    return not _names(node)


def py_float(value: float) -> str:
    # repr round-trips a Python float exactly.
    return repr(float(value))


def c_float(value: float) -> str:
    # The same digits as a float literal: C needs a '.' or an exponent before the 'f'.
    text = repr(float(value))
    if "e" not in text and "." not in text:
        text += ".0"
    return text + "f"


def _render(
    node: Node,
    var: Callable[[Var], str],
    num: Callable[[float], str],
    call: Callable[[str, list[str], tuple[Node, ...]], str],
) -> str:
    if isinstance(node, Num):
        return num(node.value)
    if isinstance(node, Var):
        return var(node)
    if isinstance(node, Neg):
        return f"(-{_render(node.operand, var, num, call)})"
    if isinstance(node, (Bin, Cmp)):
        return f"({_render(node.left, var, num, call)} {node.op} {_render(node.right, var, num, call)})"
    args = [_render(a, var, num, call) for a in node.args]
    return call(node.func, args, node.args)


def to_torch(node: Node) -> str:
    """torch expression; inputs are float tensors, params are 0-d float32 tensors."""

    def call(func: str, args: list[str], nodes: tuple[Node, ...]) -> str:
        # torch functions need tensors: a purely constant argument becomes a 0-d tensor
        # (a constant condition a 0-d bool tensor).
        args = [
            (f"torch.as_tensor({a})" if isinstance(n, Cmp) else f"torch.as_tensor({a}, dtype=torch.float32)")
            if _is_constant(n)
            else a
            for a, n in zip(args, nodes)
        ]
        return _BY_NAME[func].torch.format(*args)

    return _render(node, lambda v: v.name, py_float, call)


def to_numpy(node: Node) -> str:
    """float64 numpy expression, written independently of the torch mapping."""

    def call(func: str, args: list[str], nodes: tuple[Node, ...]) -> str:
        return _BY_NAME[func].numpy.format(*args)

    return _render(node, lambda v: v.name, py_float, call)


def c_var(name: str, is_input: bool) -> str:
    return f"in_{name}" if is_input else f"p_{name}"


def to_c(node: Node, sse41: bool = False) -> str:
    """float C expression; inputs are `in_<name>`, params `p_<name>`. With `sse41`, the
    form of an op's SSE4.1 copy (Function.c_sse41 where a function has one)."""

    def call(func: str, args: list[str], nodes: tuple[Node, ...]) -> str:
        f = _BY_NAME[func]
        return (f.c_sse41 if sse41 and f.c_sse41 else f.c).format(*args)

    return _render(node, lambda v: c_var(v.name, v.is_input), c_float, call)


# ---- cost estimate, for the kernel's choice of path (lpai_glue.h) -----------------
# Instructions per evaluation of each operator, scalar, measured with callgrind on
# the host (gcc -O2); the functions' costs are in FUNCTION_TABLE.
COSTS: Mapping[str, int] = {
    "num": 0,
    "var": 0,
    "neg": 1,
    "+": 1,
    "-": 1,
    "*": 1,
    "/": 4,
    # A comparison: one instruction (where's select is in its FUNCTION_TABLE cost).
    **dict.fromkeys(_CMPOPS.values(), 1),
    **{f.name: f.cost for f in FUNCTION_TABLE},
}
LIBRARY_CALLS = frozenset(f.name for f in FUNCTION_TABLE if f.library_call)
LIBM = frozenset(f.name for f in FUNCTION_TABLE if f.libm)


@dataclass(frozen=True)
class Cost:
    scalar: int  # instructions per element, one element at a time
    vectorises: bool  # no library call: the blocked loop runs it in SIMD lanes
    libm: bool = False  # a transcendental libm function (Function.libm) somewhere in it


def cost(node: Node) -> Cost:
    """Estimated cost of one evaluation of the checked tree `node`."""
    if isinstance(node, Num):
        return Cost(COSTS["num"], True)
    if isinstance(node, Var):
        return Cost(COSTS["var"], True)
    if isinstance(node, Neg):
        inner = cost(node.operand)
        return Cost(inner.scalar + COSTS["neg"], inner.vectorises, inner.libm)
    if isinstance(node, (Bin, Cmp)):
        left, right = cost(node.left), cost(node.right)
        return Cost(
            left.scalar + right.scalar + COSTS[node.op], left.vectorises and right.vectorises, left.libm or right.libm
        )
    args = [cost(a) for a in node.args]
    return Cost(
        sum(a.scalar for a in args) + COSTS[node.func],
        node.func not in LIBRARY_CALLS and all(a.vectorises for a in args),
        node.func in LIBM or any(a.libm for a in args),
    )
