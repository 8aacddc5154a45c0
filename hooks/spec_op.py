"""The rules of one op of a spec: its name, kind, doc, inputs, params, expression,
outputs and their shapes (hooks/spec.py checks the package around them).
"""

from __future__ import annotations

import math
import re
from typing import Any

from . import expr as expr_mod
from . import names
from .checks import Problems, SpecError, _choice, _given, _name, _require_mapping, _type, _unknown_keys
from .model import (
    KINDS,
    MAX_DOC,
    MAX_INPUTS,
    MAX_OUTPUTS,
    MAX_PARAMS,
    MAX_RANK,
    MODEL_RANK,
    OUT_ARGUMENT,
    PARAM_TYPES,
    UINT32_MAX,
    Input,
    Op,
    Output,
    OutputShape,
    Param,
)
from .reserved import argument_reserved, op_name_reserved

OP_KEYS = ("name", "qnn_type", "kind", "doc", "inputs", "params", "expr", "outputs", "rowwise")
PARAM_KEYS = ("name", "type", "default", "range")
INPUT_KEYS = ("name", "range")
UNSUPPORTED_INPUT_KEYS = ("shape", "dtype")
OUTPUT_KEYS = ("name", "shape")
SHAPE_KEYS = ("like", "reduce", "dims", "keepdim")

# Numbers as people write them in YAML: YAML 1.1 (PyYAML, copier) reads `1e-6` as a
# string (it wants `1.0e-6`), so a float param's default may be such a string.
FLOAT_TEXT_RE = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*\Z")


# What people write that the template does not support: the rule and the workaround,
# so that the refusal reads as a limit, not as a typo ("unknown key").
DTYPE_WORKAROUND = (
    "not supported: every input and output is an 8-bit quantized tensor (activation_dtype "
    "uint8); workaround: return an integer result as a float output and round it on the CPU "
    "after the op (`.round().long()`, exact for up to 256 values), or keep a 16-bit or float "
    "op out of the delegated graph (docs/spec.md, Limits)"
)
SHAPE_WORKAROUND = (
    "workaround: reshape, permute, expand, slice or cat in torch before or after the op (the "
    "QNN backend lowers those itself), and declare the op's own outputs with kind: custom "
    "(docs/spec.md, Limits)"
)
UNSUPPORTED_OP_KEYS = {
    "dtype": DTYPE_WORKAROUND,
    "shape": (
        "not supported: inputs take any shape at run time and an output's shape follows from its "
        "inputs; declare outputs: [{name, shape: {like: <input>}}] or {reduce: <input>, dims: [...]} "
        "with kind: custom; " + SHAPE_WORKAROUND
    ),
    "output": "not supported; the key is `outputs:`, a list (kind: custom only; docs/spec.md)",
}
UNSUPPORTED_OUTPUT_KEYS = {"dtype": DTYPE_WORKAROUND, "type": DTYPE_WORKAROUND}


def _validate_op(path: str, raw: Any, namespace: str | None) -> Op:
    """The op, checked; SpecError naming every independent problem of it (hooks/checks.py
    `Problems`). A field that failed is None below, and the checks that read it are
    skipped: they would only repeat its problem. `namespace` is None when it failed."""
    op = _require_mapping(path, raw)
    problems = Problems()
    with problems.check():
        _unsupported_keys(path, op, UNSUPPORTED_OP_KEYS)
    with problems.check():
        _unknown_keys(path, op, OP_KEYS, ignored=tuple(UNSUPPORTED_OP_KEYS))
    name = qnn_type = kind = None
    with problems.check():
        if op.get("name") in (None, ""):
            raise SpecError(f"{path}.name", "is required")
        checked = _name(f"{path}.name", names.check_snake, op["name"])
        _name(f"{path}.name", names.check_not_builtin, checked)
        _name(f"{path}.name", lambda n: names.check_free(n, op_name_reserved()), checked)
        if checked == namespace:
            raise SpecError(f"{path}.name", "must differ from namespace (the op module would shadow the package)")
        name = checked

    given_qnn_type = _given(op, "qnn_type", None)
    if given_qnn_type is not None or name is not None:
        with problems.check():
            qnn_type = _name(
                f"{path}.qnn_type",
                names.check_camel,
                names.camel_from_snake(name) if given_qnn_type is None else given_qnn_type,
            )

    with problems.check():
        kind = _choice(f"{path}.kind", _given(op, "kind", "elementwise"), KINDS)

    doc = op.get("doc")
    if doc is None:
        doc = f"Custom op {name}." if kind == "custom" else f"Elementwise op {name}."
    with problems.check():
        _check_doc(f"{path}.doc", doc)
    # Stripped: a docstring or comment with trailing spaces is a lint finding (W291) in
    # every rendered file it lands in.
    doc = doc.strip() if isinstance(doc, str) else doc

    inputs_raw = op.get("inputs")
    inputs: list[Input] | None = None
    used: dict[str, str] = {}
    with problems.check():
        if inputs_raw is None:
            raise SpecError(f"{path}.inputs", f"is required (1 to {MAX_INPUTS} tensor names)")
        if not isinstance(inputs_raw, list) or not inputs_raw:
            raise SpecError(
                f"{path}.inputs", f"must be a list of 1 to {MAX_INPUTS} tensor names, got {inputs_raw!r:.60}"
            )
        if len(inputs_raw) > MAX_INPUTS:
            raise SpecError(
                f"{path}.inputs",
                f"more than {MAX_INPUTS} inputs are not supported; workaround: "
                "torch.stack or torch.cat inputs of one shape into one tensor before the op, or "
                "split the op in two (docs/spec.md, Limits)",
            )
        inputs = []
    for j, value in enumerate(inputs_raw if inputs is not None else []):
        fp = f"{path}.inputs[{j}]"
        with problems.check():
            declared = None
            if isinstance(value, dict):
                if set(value) & set(UNSUPPORTED_INPUT_KEYS):
                    raise SpecError(
                        fp,
                        "must be a tensor name or {name, range}: a per-input shape or dtype is not supported "
                        "(every input is an 8-bit tensor of any shape; docs/spec.md, Limits)",
                    )
                _unknown_keys(fp, value, INPUT_KEYS)
                if value.get("name") in (None, ""):
                    raise SpecError(f"{fp}.name", "is required")
                if "range" in value:
                    declared = _input_range(f"{fp}.range", value["range"])
                value = value["name"]
                fp = f"{fp}.name"
            n = _name(fp, names.check_snake, value)
            _name(fp, lambda v: names.check_free(v, argument_reserved()), n)
            _check_not_function(fp, n)
            if n in used:
                raise SpecError(fp, f"duplicate name {n!r} (also {used[n]})")
            used[n] = fp
            inputs.append(Input(n, j, declared))
    if inputs is not None and len(inputs) < len(inputs_raw):
        inputs = None  # one failed: the checks that read the inputs are skipped

    params_raw: list = []
    params: list[Param] | None = None
    with problems.check():
        given_params = _given(op, "params", [])
        if not isinstance(given_params, list):
            raise SpecError(f"{path}.params", f"must be a list, got {_type(given_params)}")
        if len(given_params) > MAX_PARAMS:
            raise SpecError(f"{path}.params", f"at most {MAX_PARAMS} params")
        params_raw, params = given_params, []
    # The expr reads the param names; its finiteness check also the defaults.
    param_names: list[str] | None = None if params is None else []
    for j, praw in enumerate(params_raw):
        fp = f"{path}.params[{j}]"
        p = None
        with problems.check():
            p = _require_mapping(fp, praw)
        if p is None:
            param_names = params = None
            continue
        with problems.check():
            _unknown_keys(fp, p, PARAM_KEYS)
        n = ptype = default = None
        with problems.check():
            if "name" not in p:
                raise SpecError(f"{fp}.name", "is required")
            checked = _name(f"{fp}.name", names.check_snake, p["name"])
            _name(f"{fp}.name", lambda v: names.check_free(v, argument_reserved()), checked)
            _check_not_function(f"{fp}.name", checked)
            if checked in used:
                raise SpecError(f"{fp}.name", f"duplicate name {checked!r} (also {used[checked]})")
            used[checked] = f"{fp}.name"
            n = checked
        with problems.check():
            if "type" not in p:
                raise SpecError(f"{fp}.type", "is required")
            ptype = _choice(f"{fp}.type", p["type"], PARAM_TYPES)
        with problems.check():
            if "default" not in p:
                raise SpecError(f"{fp}.default", "is required")
            if ptype is not None:  # a default is judged by its type
                default = _param_default(f"{fp}.default", ptype, p["default"])
        declared = None
        if "range" in p:
            with problems.check():
                if ptype is not None:  # bounds are judged by the type, like a default
                    declared = _param_range(f"{fp}.range", ptype, p["range"])
            if declared is not None and default is not None and not declared[0] <= default <= declared[1]:
                with problems.check():
                    lo, hi = (names.shown(v) for v in declared)
                    raise SpecError(
                        f"{fp}.default",
                        f"{names.shown(default)} is outside the param's range [{lo}, {hi}] (the values the op is "
                        "meant for): move the default into it or widen the range",
                    )
                default = None
        if n is None:
            param_names = None
        elif param_names is not None:
            param_names.append(n)
        if None in (n, ptype, default) or ("range" in p and declared is None):
            params = None
        elif params is not None:
            params.append(Param(n, ptype, default, j, declared))

    expr_text = op.get("expr")
    tree = None
    with problems.check():
        if kind == "custom" and expr_text is not None:
            raise SpecError(f"{path}.expr", "must be absent for kind: custom (the user writes the math)")
        if kind == "elementwise" and expr_text is None:
            raise SpecError(f"{path}.expr", "is required for an elementwise op (or set kind: custom)")
        if kind == "elementwise" and inputs is not None and param_names is not None:
            try:
                tree = expr_mod.parse(expr_text, [i.name for i in inputs], param_names)
            except expr_mod.ExprError as exc:
                raise SpecError(f"{path}.expr", str(exc)) from None
            expr_text = expr_text.strip()

    outputs = rowwise = None
    if kind is not None and inputs is not None:
        with problems.check():
            outputs = _validate_outputs(path, op, kind, inputs, used)
    if kind is not None and outputs is not None:
        with problems.check():
            rowwise = _validate_rowwise(path, op, kind, outputs)
    problems.raise_any()
    model = Op(namespace, name, qnn_type, kind, doc, tuple(inputs), tuple(params), expr_text, tree, outputs, rowwise)
    if tree is not None:
        _check_exact_int_params(path, model)
        _check_finite(path, model)  # on the op's input domains: every other check passed
    if kind == "custom":
        _check_shape_members(model, used)
    return model


def _check_exact_int_params(path: str, op: Op) -> None:
    """Every int param the expr reads exact in its float32 arithmetic
    (expr.int_param_problem), at its default; every such param named, one line each."""
    problems = Problems()
    read = expr_mod.names_used(op.tree)
    for p in op.params:
        if p.type == "int" and p.name in read:
            with problems.check():
                problem = expr_mod.int_param_problem(p.default)
                if problem:
                    raise SpecError(f"{path}.params[{p.index}].default", problem)
    problems.raise_any()


def _not_finite_where(op: Op, at: dict[str, float], domains: tuple[tuple[float, float], ...]) -> tuple[str, str]:
    """The two parts of a not-finite message: where the expr is not finite ("x=0.5, a=2")
    and the inputs' domains it was evaluated on ("x in [-4, 4], y in [0, 1]")."""
    point = ", ".join(f"{k}={v:.4g}" for k, v in at.items())
    where = ", ".join(f"{i.name} in [{lo:g}, {hi:g}]" for i, (lo, hi) in zip(op.inputs, domains))
    return point, where


def _check_finite(path: str, op: Op) -> None:
    """The op finite on its input domains (Op.input_domains): the values its generated
    tests feed and its calibration draws from; with each param anywhere in its declared
    range too (the tests draw other values from it, Op.param_spans)."""
    domains = op.input_domains
    bad = expr_mod.first_non_finite(op.tree, op.input_names, op.param_defaults, domains)
    if bad is None:
        for p in op.params:
            if p.range is None:
                continue
            at_range = op.first_non_finite_on_span(p, p.range)
            if at_range is not None:
                at, where = _not_finite_where(op, at_range, domains)
                raise SpecError(
                    f"{path}.params[{p.index}].range",
                    f"the expr is not finite (NaN or inf) at {at} (the other params at their defaults, "
                    f"{where}): the generated tests draw {p.name} from its range; narrow the range "
                    "or guard the math (e.g. sqrt(max(x - 1, 0)), log(abs(x) + 1e-3))",
                )
    if bad is not None:
        at, where = _not_finite_where(op, bad, domains)
        raise SpecError(
            f"{path}.expr",
            f"is not finite (NaN or inf) at {at} with the param defaults: an op must be finite on its inputs' "
            f"domain ({where}), the values its generated tests and calibration draw from; declare where the "
            "inputs live (inputs: [{name: x, range: [low, high]}]) or guard the math "
            "(e.g. sqrt(max(x - 1, 0)), log(abs(x) + 1e-3)), or change the param defaults",
        )


def _input_range(fp: str, raw: Any) -> tuple[float, float]:
    """An input's declared `range: [low, high]`: two finite numbers, low < high (in
    float32 too: the project's tensors are float32), magnitudes as a literal's."""
    if not isinstance(raw, list) or len(raw) != 2:
        raise SpecError(fp, f"must be a list of two numbers [low, high], got {raw!r:.40}")
    values = []
    for k, v in enumerate(raw):
        if isinstance(v, str) and FLOAT_TEXT_RE.match(v):
            v = float(v)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise SpecError(fp, f"must be two numbers [low, high], got {raw[k]!r:.40} as {('low', 'high')[k]}")
        try:
            v = float(v)
        except OverflowError:
            v = math.inf
        if not math.isfinite(v) or abs(v) > expr_mod.MAX_LITERAL:
            raise SpecError(
                fp, f"must be finite numbers with magnitude at most {expr_mod.MAX_LITERAL:g}, got {raw[k]!r:.40}"
            )
        values.append(v)
    lo, hi = values
    if not expr_mod._f32(lo) < expr_mod._f32(hi):
        raise SpecError(fp, f"must be [low, high] with low < high (as float32 values), got {raw!r:.60}")
    return (lo, hi)


def _param_range(fp: str, ptype: str, raw: Any) -> tuple[Any, Any]:
    """A param's declared `range: [low, high]`: for float and int params, each bound a
    valid value of the param's type (_param_default: the same rules as a default, so a
    rule on a param's values applies to both), low < high (as float32 values for a float
    param).  The caller checks the default inside it."""
    if ptype == "bool":
        raise SpecError(fp, "is only for float and int params (a bool param takes both values)")
    if not isinstance(raw, list) or len(raw) != 2:
        raise SpecError(fp, f"must be a list of two numbers [low, high], got {raw!r:.40}")
    bounds = []
    for k, v in enumerate(raw):
        try:
            bounds.append(_param_default(fp, ptype, v))
        except SpecError as exc:
            raise SpecError(fp, f"{('low', 'high')[k]}: {exc.rule}") from None
    lo, hi = bounds
    ordered = expr_mod._f32(lo) < expr_mod._f32(hi) if ptype == "float" else lo < hi
    if not ordered:
        as32 = " (as float32 values)" if ptype == "float" else ""
        raise SpecError(fp, f"must be [low, high] with low < high{as32}, got {raw!r:.60}")
    return (lo, hi)


def _unsupported_keys(field_path: str, mapping: dict, unsupported: dict[str, str]) -> None:
    problems = Problems()
    for key in mapping:
        if key in unsupported:
            with problems.check():
                raise SpecError(f"{field_path}.{key}", unsupported[key])
    problems.raise_any()


def _validate_outputs(path: str, op: dict, kind: str, inputs: list[Input], used: dict[str, str]) -> tuple[Output, ...]:
    """The op's outputs; `used` holds the input and param names (output names join it)."""
    outputs_raw = op.get("outputs")
    if kind == "elementwise":
        if outputs_raw is not None:
            raise SpecError(
                f"{path}.outputs",
                "not supported for elementwise ops (their one output has the "
                "broadcast shape of the inputs); workaround: kind: custom, which may declare "
                f"up to {MAX_OUTPUTS} outputs of their own shapes",
            )
        return (Output(OUT_ARGUMENT, 0, OutputShape("broadcast")),)
    if outputs_raw is None:
        return (Output(OUT_ARGUMENT, 0, OutputShape("like", inputs[0])),)
    if not isinstance(outputs_raw, list) or not outputs_raw:
        raise SpecError(
            f"{path}.outputs",
            f"must be a list of 1 to {MAX_OUTPUTS} outputs ({{name, shape}}), got {outputs_raw!r:.60}",
        )
    if len(outputs_raw) > MAX_OUTPUTS:
        raise SpecError(
            f"{path}.outputs",
            f"more than {MAX_OUTPUTS} outputs are not supported; workaround: "
            "split the op into several ops, or torch.stack outputs of one shape into one "
            "(docs/spec.md, Limits)",
        )
    by_name = {i.name: i for i in inputs}
    outputs: list[Output] = []
    problems = Problems()
    for j, oraw in enumerate(outputs_raw):
        with problems.check():
            outputs.append(_validate_output(f"{path}.outputs[{j}]", j, oraw, inputs, by_name, used))
    problems.raise_any()
    return tuple(outputs)


def _validate_output(fp: str, j: int, oraw: Any, inputs: list[Input], by_name: dict, used: dict[str, str]) -> Output:
    o = _require_mapping(fp, oraw)
    _unsupported_keys(fp, o, UNSUPPORTED_OUTPUT_KEYS)
    _unknown_keys(fp, o, OUTPUT_KEYS)
    if "name" not in o:
        raise SpecError(f"{fp}.name", "is required")
    n = _name(f"{fp}.name", names.check_snake, o["name"])
    if n == OUT_ARGUMENT and j != 0:
        # `args->out` is the first output in the C API (user math written before
        # outputs existed writes there).
        raise SpecError(f"{fp}.name", "'out' may only name the first output (args->out in the C API)")
    if n != OUT_ARGUMENT:
        _name(f"{fp}.name", lambda v: names.check_free(v, argument_reserved()), n)
    if n in used:
        raise SpecError(f"{fp}.name", f"duplicate name {n!r} (also {used[n]})")
    used[n] = f"{fp}.name"
    # No shape (or `shape:` with no value): like the first input.
    shape = o.get("shape")
    return Output(
        n,
        j,
        OutputShape("like", inputs[0]) if shape is None else _validate_shape(f"{fp}.shape", shape, by_name),
    )


def _check_shape_members(op: Op, used: dict[str, str]) -> None:
    """The C API of a custom op gives every input and output `args-><name>_shape`
    (include/ops/<qnn_type>_user.h): no other name may be one of those."""
    for n in op.input_names + op.output_names:
        member = f"{n}_shape"
        if member in used:
            raise SpecError(
                used[member],
                f"{member!r} is the member that holds the shape of {n!r} in a custom op's args struct (args->{member})",
            )


def _validate_shape(fp: str, raw: Any, inputs: dict[str, Input]) -> OutputShape:
    forms = "{like: <input>} or {reduce: <input>, dims: [ints], keepdim: bool}"
    if isinstance(raw, list):
        raise SpecError(fp, f"a fixed shape is not supported (a shape is {forms}); {SHAPE_WORKAROUND}")
    if not isinstance(raw, dict):
        raise SpecError(fp, f"must be {forms}, got {raw!r:.40}")
    for key in raw:
        if key not in SHAPE_KEYS:
            raise SpecError(
                f"{fp}.{key}", f"shape form {str(key)!r:.40} is not supported (a shape is {forms}); {SHAPE_WORKAROUND}"
            )
    if ("like" in raw) == ("reduce" in raw):
        raise SpecError(fp, f"must hold exactly one of like, reduce: {forms}")
    form = "like" if "like" in raw else "reduce"
    source = raw[form]
    if not isinstance(source, str) or source not in inputs:
        raise SpecError(f"{fp}.{form}", f"must name an input of the op ({', '.join(inputs)}), got {source!r:.40}")
    if form == "like":
        for key in ("dims", "keepdim"):
            if key in raw:
                raise SpecError(f"{fp}.{key}", "is only for a reduce shape")
        return OutputShape("like", inputs[source])
    if "dims" not in raw:
        raise SpecError(f"{fp}.dims", "is required for a reduce shape (a list of dims, e.g. [-1])")
    dims = raw["dims"]
    if not isinstance(dims, list) or not dims:
        raise SpecError(f"{fp}.dims", f"must be a non-empty list of dims, got {dims!r:.40}")
    for k, d in enumerate(dims):
        if isinstance(d, bool) or not isinstance(d, int) or not -MAX_RANK <= d < MAX_RANK:
            raise SpecError(
                f"{fp}.dims[{k}]",
                f"must be an integer in [{-MAX_RANK}, {MAX_RANK - 1}] "
                f"(tensors have at most {MAX_RANK} dims), got {d!r:.40}",
            )
        if d in dims[:k]:
            raise SpecError(f"{fp}.dims[{k}]", f"duplicate dim {d}")
    keepdim = _given(raw, "keepdim", False)
    if not isinstance(keepdim, bool):
        raise SpecError(f"{fp}.keepdim", f"must be true or false, got {keepdim!r:.40}")
    shape = OutputShape("reduce", inputs[source], tuple(dims), keepdim)
    need = shape.min_rank
    if need is None or need > MODEL_RANK:
        takes = "no input of up to 5 dims" if need is None else f"only an input of {need} dims"
        raise SpecError(
            f"{fp}.dims",
            f"{takes} takes dims {list(dims)}{' with keepdim' if keepdim else ''} (two dims may not be the same "
            f"and a reduction must leave a dim unless keepdim); the project's model and tests run the op at "
            f"{MODEL_RANK} dims: name distinct dims a {MODEL_RANK}-dim input has and keep one (or set keepdim: true)",
        )
    return shape


def _validate_rowwise(path: str, op: dict, kind: str, outputs: tuple[Output, ...]) -> bool:
    rowwise = _given(op, "rowwise", False)
    if not isinstance(rowwise, bool):
        raise SpecError(f"{path}.rowwise", f"must be true or false, got {rowwise!r:.40}")
    if not rowwise:
        return False
    if kind != "custom":
        raise SpecError(f"{path}.rowwise", "is only for kind: custom (an elementwise kernel needs no scratch)")
    for o in outputs:
        if not (o.shape.kind == "like" or (o.shape.kind == "reduce" and o.shape.dims == (-1,))):
            raise SpecError(
                f"{path}.rowwise",
                f"needs every output like an input or reduced over dims [-1] "
                f"(one row in, one row or one value out); output {o.name!r} is {o.shape.text}; "
                "workaround: rowwise: false (whole-tensor scratch)",
            )
    return True


def _check_doc(fp: str, doc: Any) -> None:
    if not isinstance(doc, str):
        raise SpecError(fp, f"must be a string, got {_type(doc)}")
    if len(doc) > MAX_DOC:
        raise SpecError(fp, f"is longer than {MAX_DOC} characters")
    bad = next((ch for ch in doc if not ch.isprintable()), None)
    if bad is not None:
        raise SpecError(
            fp,
            f"character U+{ord(bad):04X} is not allowed (one line of printable text: "
            "no control, line-separator or format characters)",
        )


def _check_not_function(fp: str, n: str) -> None:
    if n in expr_mod.FUNCTIONS:
        raise SpecError(fp, f"{n!r} is an expression function name")


def _param_default(fp: str, ptype: str, value: Any) -> float | int | bool:
    """The default of a `ptype` param; the refusal says what was expected, what was
    given (as YAML read it) and, where another type fits the value, which one."""
    got = str(value).lower() if isinstance(value, bool) else names.shown(value, 40)
    if ptype == "bool":
        if not isinstance(value, bool):
            raise SpecError(fp, f"must be true or false (bool param), got {got}")
        return value
    expected = "a whole number (int param)" if ptype == "int" else "a number (float param)"
    if isinstance(value, bool):
        raise SpecError(fp, f"must be {expected}, got {got}; use type: bool for a true/false param")
    number = float(value) if isinstance(value, str) and FLOAT_TEXT_RE.match(value) else value
    if not isinstance(number, (int, float)):
        raise SpecError(fp, f"must be {expected}, got {got}")
    if ptype == "int":
        if isinstance(number, float):
            if not number.is_integer():
                fits = "; use type: float for a fractional default" if math.isfinite(number) else ""
                raise SpecError(fp, f"must be {expected}, got {names.shown(number)}{fits}")
            if isinstance(value, str):
                # YAML 1.1 reads `1e3` (and anything quoted) as text: an int is written in digits.
                raise SpecError(fp, f"must be {expected}, got the text {got}: write it in digits, {int(number)}")
            number = int(number)
        if not 0 <= number <= UINT32_MAX:
            raise SpecError(
                fp,
                f"must be in [0, {UINT32_MAX}]: ExecuTorch sends an int param to QNN as "
                "UINT_32 and fails on a negative one (use a float param for signed values)",
            )
        return int(number)
    value = number
    try:
        value = float(value)
    except OverflowError:
        value = math.inf
    if not math.isfinite(value) or (value != 0 and not expr_mod.MIN_LITERAL <= abs(value) <= expr_mod.MAX_LITERAL):
        raise SpecError(
            fp, f"must be a finite number with magnitude in [{expr_mod.MIN_LITERAL:g}, {expr_mod.MAX_LITERAL:g}] or 0"
        )
    return value
