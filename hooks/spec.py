"""Load and validate an op spec into the model every template renders from.

One error type, `SpecError`, whose message is always one line: the field path, then
the rule that was broken (``ops[1].inputs[0]: 'int' is a reserved word in C``).
`validate()` checks the whole spec before anything is rendered, so an invalid spec
writes no file.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from . import expr as expr_mod
from . import names

# The SoCs whose LPAI hardware ExecuTorch knows (get_soc_to_lpai_hw_ver_map in 1.5.1).
LPAI_SOCS = ("SM8850", "SAR2230P")
# Hexagon DSP targets an op package can be built for.  Independent of the SoC: on
# SM8850 the HTP is V81 and the LPAI hardware V6 while the op package builds for v79.
HEXAGON_ARCHS = ("v68", "v69", "v73", "v75", "v79", "v81")
ACTIVATION_DTYPES = ("uint8",)
SIXTEEN_BIT = ("uint16", "int16", "16", "16a", "16a8w", "16a16w", "float16", "fp16", "int32", "uint32")
KINDS = ("elementwise", "custom")
PARAM_TYPES = ("float", "int", "bool")

TOP_KEYS = ("package_name", "namespace", "soc_model", "op_package_arch", "activation_dtype", "ops")
OP_KEYS = ("name", "qnn_type", "kind", "doc", "inputs", "params", "expr")
PARAM_KEYS = ("name", "type", "default")

MAX_OPS = 32
MAX_INPUTS = 2
MAX_PARAMS = 8
MAX_DOC = 200
# Docs land in Python docstrings, C/C++ comments, XML text and Markdown: a small
# character set that none of them treats specially (no quotes of any kind, no
# backslash, no tag delimiters, no template braces, no shell metacharacters); `*` and
# `/` are allowed for arithmetic, but never as a C comment delimiter.
DOC_RE = re.compile(r"[A-Za-z0-9 .,:;!?()+=%_*/-]*\Z")
DOC_FORBIDDEN = ("/*", "*/")
# ExecuTorch's op builder sends a Python int (and a bool) as a QNN_DATATYPE_UINT_32 scalar
# (node_visitor.QNN_TENSOR_TYPE_MAP); a negative int fails inside AddScalarParam while
# lowering.  So an int param is a uint32 everywhere: spec default, call-time check, XML, C.
UINT32_MAX = 2**32 - 1


class SpecError(ValueError):
    """An invalid spec: `field` is the path of the offending value, `rule` the reason."""

    def __init__(self, field: str, rule: str):
        self.field = field
        self.rule = rule
        super().__init__(f"{field}: {rule}")


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    default: float | int | bool
    index: int

    @property
    def default_py(self) -> str:
        return repr(self.default)

    @property
    def default_c(self) -> str:
        if self.type == "float":
            return expr_mod.c_float(self.default)
        if self.type == "bool":
            return "1" if self.default else "0"
        return f"{self.default}u"

    @property
    def default_xml(self) -> str:
        # What ExecuTorch sends: a float as FLOAT_32, an int and a bool as UINT_32 (0 or 1).
        if self.type == "float":
            return repr(self.default)
        return str(int(self.default))

    @property
    def schema_type(self) -> str:
        return {"float": "float", "int": "int", "bool": "bool"}[self.type]

    @property
    def qnn_datatype(self) -> str:
        # node_visitor.QNN_TENSOR_TYPE_MAP of ExecuTorch: float -> FLOAT_32, int and bool -> UINT_32.
        return "QNN_DATATYPE_FLOAT_32" if self.type == "float" else "QNN_DATATYPE_UINT_32"

    @property
    def c_kind(self) -> str:
        """How the kernel reads the scalar (lpai_param_kind in lpai_glue.h)."""
        return {"float": "LPAI_PARAM_F32", "int": "LPAI_PARAM_U32", "bool": "LPAI_PARAM_U32_BOOL"}[self.type]


@dataclass(frozen=True)
class Input:
    name: str
    index: int


@dataclass(frozen=True)
class Op:
    namespace: str
    name: str
    qnn_type: str
    kind: str
    doc: str
    inputs: tuple[Input, ...]
    params: tuple[Param, ...]
    expr: str | None = None
    tree: Any = field(default=None, repr=False, compare=False)

    @property
    def qualified_name(self) -> str:
        return f"{self.namespace}::{self.name}"

    @property
    def n_inputs(self) -> int:
        return len(self.inputs)

    @property
    def n_params(self) -> int:
        return len(self.params)

    @property
    def expr_torch(self) -> str | None:
        return expr_mod.to_torch(self.tree) if self.tree is not None else None

    @property
    def expr_numpy(self) -> str | None:
        return expr_mod.to_numpy(self.tree) if self.tree is not None else None

    @property
    def expr_c(self) -> str | None:
        return expr_mod.to_c(self.tree) if self.tree is not None else None

    @property
    def c_math_args(self) -> str:
        args = [f"float {expr_mod.c_var(i.name, True)}" for i in self.inputs]
        args += [f"float {expr_mod.c_var(p.name, False)}" for p in self.params]
        return ", ".join(args)

    @property
    def _schema_args(self) -> str:
        # No defaults in the schema: torch.export drops every trailing argument equal to
        # its schema default, and ExecuTorch's CustomOp.define_node then refuses the node
        # ("Number of inputs (1) mismatch the number of args (2) in schema").  Without
        # defaults every param stays in the graph; the defaults live in the Python API
        # and in the `.defaults` overload below.
        args = [f"Tensor {i.name}" for i in self.inputs]
        args += [f"{p.schema_type} {p.name}" for p in self.params]
        return ", ".join(args)

    @property
    def schema(self) -> str:
        """The functional op, the one that is quantized, lowered and delegated."""
        return f"{self.name}({self._schema_args}) -> Tensor"

    @property
    def custom_op_schema(self) -> str:
        """`schema=` of torch.library.custom_op: the functional schema without the name."""
        return f"({self._schema_args}) -> Tensor"

    @property
    def out_schema(self) -> str:
        return f"{self.name}.out({self._schema_args}, *, Tensor(a!) out) -> Tensor(a!)"

    @property
    def torch_ops_path(self) -> str:
        return f"torch.ops.{self.namespace}.{self.name}"

    @property
    def defaults_schema(self) -> str | None:
        """`torch.ops.<ns>.<op>(x)` without params: an overload that only fills in the
        defaults and calls the functional op (None for an op without params)."""
        if not self.params:
            return None
        args = [f"Tensor {i.name}" for i in self.inputs]
        args += [f"{p.schema_type} {p.name}={_schema_default(p)}" for p in self.params]
        return f"{self.name}.defaults({', '.join(args)}) -> Tensor"

    @property
    def py_signature(self) -> str:
        """Of the public function: inputs, then params with the spec's defaults."""
        args = [f"{i.name}: torch.Tensor" for i in self.inputs]
        args += [f"{p.name}: {p.type} = {p.default_py}" for p in self.params]
        return ", ".join(args)

    @property
    def py_signature_required(self) -> str:
        """Of the implementations behind the schema: every param required."""
        args = [f"{i.name}: torch.Tensor" for i in self.inputs]
        args += [f"{p.name}: {p.type}" for p in self.params]
        return ", ".join(args)

    @property
    def py_args(self) -> str:
        return ", ".join([i.name for i in self.inputs] + [p.name for p in self.params])

    @property
    def int_check_args(self) -> str:
        """Keyword arguments of the call-time uint32 check, '' when the op has no int param."""
        return ", ".join(f"{p.name}={p.name}" for p in self.params if p.type == "int")

    @property
    def input_names(self) -> list[str]:
        return [i.name for i in self.inputs]


@dataclass(frozen=True)
class Package:
    package_name: str
    namespace: str
    soc_model: str
    op_package_arch: str
    activation_dtype: str
    ops: tuple[Op, ...]

    @property
    def library_name(self) -> str:
        return f"libQnn{self.package_name}.so"

    @property
    def interface_provider(self) -> str:
        return f"{self.package_name}InterfaceProvider"

    @property
    def activation_bits(self) -> int:
        return 8

    @property
    def elementwise_ops(self) -> list[Op]:
        return [op for op in self.ops if op.kind == "elementwise"]

    @property
    def custom_ops(self) -> list[Op]:
        return [op for op in self.ops if op.kind == "custom"]

    def answers(self) -> dict[str, Any]:
        """The spec in canonical form (what a user could write back as a data file)."""
        out: dict[str, Any] = {
            "package_name": self.package_name,
            "namespace": self.namespace,
            "soc_model": self.soc_model,
            "op_package_arch": self.op_package_arch,
            "activation_dtype": self.activation_dtype,
            "ops": [],
        }
        for op in self.ops:
            entry: dict[str, Any] = {"name": op.name, "qnn_type": op.qnn_type, "kind": op.kind,
                                     "doc": op.doc, "inputs": op.input_names}
            if op.params:
                entry["params"] = [{k: v for k, v in asdict(p).items() if k != "index"} for p in op.params]
            if op.expr is not None:
                entry["expr"] = op.expr
            out["ops"].append(entry)
        return out


def _schema_default(p: Param) -> str:
    if p.type == "bool":
        return "True" if p.default else "False"
    return repr(p.default)


def _name(field_path: str, check, value):
    try:
        return check(value)
    except names.NameError_ as exc:
        raise SpecError(field_path, str(exc)) from None


def _require_mapping(field_path: str, value: Any) -> dict:
    if not isinstance(value, dict):
        raise SpecError(field_path, f"must be a mapping, got {_type(value)}")
    return value


def _type(value: Any) -> str:
    return "nothing" if value is None else type(value).__name__


def _unknown_keys(field_path: str, mapping: dict, allowed: tuple[str, ...]) -> None:
    for key in mapping:
        if key not in allowed:
            where = f"{field_path}." if field_path else ""
            raise SpecError(f"{where}{key}", f"unknown key (allowed: {', '.join(allowed)})")


def _choice(field_path: str, value: Any, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise SpecError(field_path, f"must be one of {', '.join(allowed)}; got {value!r:.40}")
    return value


def validate(raw: Any) -> Package:
    """The whole spec, checked; raises SpecError at the first broken rule."""
    spec = _require_mapping("spec", raw)
    _unknown_keys("", spec, TOP_KEYS)
    for key in ("package_name", "namespace"):
        if spec.get(key) in (None, ""):
            raise SpecError(key, "is required")
    if spec.get("ops") in (None, "", []):
        raise SpecError("ops", "is required: a list of at least one op")

    package_name = _name("package_name", names.check_camel, spec["package_name"])
    namespace = _name("namespace", names.check_snake, spec["namespace"])
    _name("namespace", names.check_package_name_free, namespace)
    soc_model = _choice("soc_model", spec.get("soc_model") or "SM8850", LPAI_SOCS)
    arch = spec.get("op_package_arch") or "v79"
    arch = _choice("op_package_arch", arch, HEXAGON_ARCHS)

    dtype = spec.get("activation_dtype") or "uint8"
    if str(dtype).lower() in SIXTEEN_BIT:
        raise SpecError(
            "activation_dtype",
            "LPAI custom ops are 8-bit only: a 16-bit activation arrives as INT_32 and only "
            "the first half of the output comes back correct (backend bug); use uint8",
        )
    dtype = _choice("activation_dtype", dtype, ACTIVATION_DTYPES)

    ops_raw = spec["ops"]
    if not isinstance(ops_raw, list):
        raise SpecError("ops", f"must be a list of ops, got {_type(ops_raw)}")
    if len(ops_raw) > MAX_OPS:
        raise SpecError("ops", f"at most {MAX_OPS} ops per package")

    ops: list[Op] = []
    seen_names: dict[str, str] = {}
    seen_types: dict[str, str] = {}
    for i, op_raw in enumerate(ops_raw):
        op = _validate_op(f"ops[{i}]", op_raw, namespace)
        if op.name in seen_names:
            raise SpecError(f"ops[{i}].name", f"duplicate op name {op.name!r} (also {seen_names[op.name]})")
        if op.qnn_type in seen_types:
            raise SpecError(f"ops[{i}].qnn_type", f"duplicate qnn_type {op.qnn_type!r} (also {seen_types[op.qnn_type]})")
        if op.qnn_type == package_name:
            raise SpecError(f"ops[{i}].qnn_type", "must differ from package_name (the C symbols would clash)")
        seen_names[op.name] = f"ops[{i}]"
        seen_types[op.qnn_type] = f"ops[{i}]"
        ops.append(op)
    return Package(package_name, namespace, soc_model, arch, dtype, tuple(ops))


def _validate_op(path: str, raw: Any, namespace: str) -> Op:
    op = _require_mapping(path, raw)
    _unknown_keys(path, op, OP_KEYS)
    if op.get("name") in (None, ""):
        raise SpecError(f"{path}.name", "is required")
    name = _name(f"{path}.name", names.check_snake, op["name"])
    _name(f"{path}.name", names.check_not_builtin, name)
    _name(f"{path}.name", names.check_not_generated, name)
    if name == namespace:
        raise SpecError(f"{path}.name", "must differ from namespace (the op module would shadow the package)")

    qnn_type = op.get("qnn_type") or names.camel_from_snake(name)
    qnn_type = _name(f"{path}.qnn_type", names.check_camel, qnn_type)

    kind = op.get("kind") or "elementwise"
    kind = _choice(f"{path}.kind", kind, KINDS)

    doc = op.get("doc")
    if doc is None:
        doc = f"Custom op {name}." if kind == "custom" else f"Elementwise op {name}."
    if not isinstance(doc, str):
        raise SpecError(f"{path}.doc", f"must be a string, got {_type(doc)}")
    if len(doc) > MAX_DOC:
        raise SpecError(f"{path}.doc", f"is longer than {MAX_DOC} characters")
    if not DOC_RE.match(doc):
        bad = next(ch for ch in doc if not DOC_RE.match(ch))
        raise SpecError(f"{path}.doc", f"character {bad!r} is not allowed (letters, digits, space and .,:;!?()+=%_*/- only)")
    for seq in DOC_FORBIDDEN:
        if seq in doc:
            raise SpecError(f"{path}.doc", f"must not contain {seq!r} (a C comment delimiter)")

    inputs_raw = op.get("inputs")
    if inputs_raw is None:
        raise SpecError(f"{path}.inputs", "is required (one or two tensor names)")
    if not isinstance(inputs_raw, list) or not 1 <= len(inputs_raw) <= MAX_INPUTS:
        raise SpecError(f"{path}.inputs", f"must be a list of one or two tensor names, got {inputs_raw!r:.60}")
    inputs: list[Input] = []
    used: dict[str, str] = {}
    for j, value in enumerate(inputs_raw):
        fp = f"{path}.inputs[{j}]"
        n = _name(fp, names.check_snake, value)
        _name(fp, names.check_not_generated, n)
        _check_not_function(fp, n)
        if n in used:
            raise SpecError(fp, f"duplicate name {n!r} (also {used[n]})")
        used[n] = fp
        inputs.append(Input(n, j))

    params_raw = op.get("params") or []
    if not isinstance(params_raw, list):
        raise SpecError(f"{path}.params", f"must be a list, got {_type(params_raw)}")
    if len(params_raw) > MAX_PARAMS:
        raise SpecError(f"{path}.params", f"at most {MAX_PARAMS} params")
    params: list[Param] = []
    for j, praw in enumerate(params_raw):
        fp = f"{path}.params[{j}]"
        p = _require_mapping(fp, praw)
        _unknown_keys(fp, p, PARAM_KEYS)
        for key in PARAM_KEYS:
            if key not in p:
                raise SpecError(f"{fp}.{key}", "is required")
        n = _name(f"{fp}.name", names.check_snake, p["name"])
        _name(f"{fp}.name", names.check_not_generated, n)
        _check_not_function(f"{fp}.name", n)
        if n in used:
            raise SpecError(f"{fp}.name", f"duplicate name {n!r} (also {used[n]})")
        used[n] = f"{fp}.name"
        ptype = _choice(f"{fp}.type", p["type"], PARAM_TYPES)
        default = _param_default(f"{fp}.default", ptype, p["default"])
        params.append(Param(n, ptype, default, j))

    expr_text = op.get("expr")
    tree = None
    if kind == "custom":
        if expr_text is not None:
            raise SpecError(f"{path}.expr", "must be absent for kind: custom (the user writes the math)")
    else:
        if expr_text is None:
            raise SpecError(f"{path}.expr", "is required for an elementwise op (or set kind: custom)")
        try:
            tree = expr_mod.parse(expr_text, [i.name for i in inputs], [p.name for p in params])
        except expr_mod.ExprError as exc:
            raise SpecError(f"{path}.expr", str(exc)) from None
        expr_text = expr_text.strip()
    return Op(namespace, name, qnn_type, kind, doc, tuple(inputs), tuple(params), expr_text, tree)


def _check_not_function(fp: str, n: str) -> None:
    if n in expr_mod.FUNCTIONS:
        raise SpecError(fp, f"{n!r} is an expression function name")


def _param_default(fp: str, ptype: str, value: Any) -> float | int | bool:
    if ptype == "bool":
        if not isinstance(value, bool):
            raise SpecError(fp, f"must be true or false for a bool param, got {value!r:.40}")
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SpecError(fp, f"must be a number for a {ptype} param, got {value!r:.40}")
    if ptype == "int":
        if isinstance(value, float):
            if not value.is_integer():
                raise SpecError(fp, f"must be an integer for an int param, got {value!r}")
            value = int(value)
        if not 0 <= value <= UINT32_MAX:
            raise SpecError(fp, f"must be in [0, {UINT32_MAX}]: ExecuTorch sends an int param to QNN as "
                                "UINT_32 and fails on a negative one (use a float param for signed values)")
        return int(value)
    value = float(value)
    if not math.isfinite(value) or (value != 0 and not expr_mod.MIN_LITERAL <= abs(value) <= expr_mod.MAX_LITERAL):
        raise SpecError(fp, f"must be a finite number with magnitude in [{expr_mod.MIN_LITERAL:g}, {expr_mod.MAX_LITERAL:g}] or 0")
    return value


def load(path: str | Path) -> Package:
    """Read a YAML spec file and validate it."""
    import yaml

    try:
        raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise SpecError("spec", f"is not valid YAML{where}") from None
    return validate(raw)
