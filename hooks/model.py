"""The validated model: plain dataclasses holding the facts of a spec, nothing else.

`hooks/spec.py` builds a `Package` from a spec; every template renders from it.  A
dataclass here holds names, types, defaults, shapes and the expression tree, and the
facts that follow from them in no particular language (counts, the qualified name,
the sample scratch size, shapes in words).  How a fact is spelled in a language is
a view's (hooks/view_*.py), reached as an attribute of the model object:

    op.py    hooks/view_py.py    Python: signatures, calls, literals, the torch expression
    op.torch hooks/view_torch.py the torch.library schemas
    op.c     hooks/view_c.py     C and C++: declarations, calls, initialisers, comments
    op.xml   hooks/view_xml.py   the OpDef XML
    op.md    hooks/view_md.py    Markdown (README cells)
    op.yaml  hooks/view_yaml.py  YAML (the canonical spec)

(and likewise `param.py`, `param.c`, ..., `output.py`, `pkg.py`, `pkg.yaml`).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from functools import cached_property
from typing import Any

# The SoCs whose LPAI hardware ExecuTorch knows, with their LPAI hardware version
# (get_soc_to_lpai_hw_ver_map in 1.5.1).  The rendered <namespace>/_package.py carries it.
LPAI_HW_VERSION = {"SM8850": 6, "SAR2230P": 6}
LPAI_SOCS = tuple(LPAI_HW_VERSION)
# Hexagon DSP targets an op package can be built for.  Independent of the SoC: on
# SM8850 the HTP is V81 and the LPAI hardware V6 while the op package builds for v79.
HEXAGON_ARCHS = ("v68", "v69", "v73", "v75", "v79", "v81")
ACTIVATION_DTYPES = ("uint8",)
KINDS = ("elementwise", "custom")
PARAM_TYPES = ("float", "int", "bool")

MAX_OPS = 32
# No LPAI limit on a custom op's tensor count is public.  Four covers the forms real ops
# take (x, weight, bias, mask; a value and its statistics), keeps the kernel's per-tensor
# arrays (shape, strides, pointers) small on the island's stack, and keeps the kernel
# tests affordable (two inputs are tested on all 65536 code pairs, three or more on a
# dense sample).  docs/spec.md "Limits" gives the workaround beyond it.
MAX_INPUTS = 4
MAX_OUTPUTS = 4
# The kernels size their shape arrays by LPAI_MAX_RANK (include/lpai_conventions.h); a
# reduce dim must name one of these axes.
MAX_RANK = 5
MAX_PARAMS = 8
# The rank the rendered project runs every op at (<namespace>/device_data.py DEFAULT_SHAPE,
# the tests' make_inputs): a reduce rule must take an input of at most this many dims.
MODEL_RANK = 4
# The longest row of a `rowwise: true` custom op: LPAI_ROW_MAX of include/lpai_package.h,
# which sizes the kernel's stack buffer; the docs compute that buffer from it.
LPAI_ROW_MAX = 256
# An op's input domain (Op.input_domains): the values every generated test feeds an input,
# the calibration data of the package model (export, the builder test) and so its
# quantization scale, and where the spec check requires the op finite.  An input the
# spec gives no `range` gets DEFAULT_DOMAIN, negative values included, or POSITIVE_DOMAIN
# when the op is not finite on that (log(x + eps), sqrt, a division by an input).
DEFAULT_DOMAIN = (-2.0, 2.0)
POSITIVE_DOMAIN = (0.1, 2.0)
# Where a param without a declared `range` of an elementwise op is varied in the tests
# (Op.param_spans), when the spec check finds the expr finite on all of it: a float
# from a third to three times its default (same sign; [0.25, 1] from 0), an int from
# half its default to twice it plus 4.  A custom op's math is the user's, unknown here:
# its params stay at their defaults unless the spec declares a range.
FLOAT_SPAN_FACTOR = 3.0
ZERO_FLOAT_SPAN = (0.25, 1.0)
# Points of a span the spec check evaluates the expr at (ends included).
SPAN_SAMPLES = 9
# Fixed by the QNN SDK: its LPAI makefiles name the island library so, whatever the package.
ISLAND_LIBRARY_NAME = "libLpaiOpPackageIsland.so"
LPAI_SDK_HEADER = "QNN/LPAI/QnnLpaiOpPackage.h"
MAX_DOC = 200
# ExecuTorch's op builder sends a Python int (and a bool) as a QNN_DATATYPE_UINT_32 scalar
# (node_visitor.QNN_TENSOR_TYPE_MAP); a negative int fails inside AddScalarParam while
# lowering.  So an int param is a uint32 everywhere: spec default, call-time check, XML, C.
UINT32_MAX = 2**32 - 1

# The output argument of every `.out` overload (its schema and the Python function
# behind it): declared once here, reserved for inputs and params from this declaration.
OUT_ARGUMENT = "out"

# What every op of a package reports from getLayoutSupportFlag (spec key layout_support).
LAYOUT_SUPPORTS = ("shape_ne_layout", "default")

# The backends a package is built for (spec key `backends`), and what each takes of a
# spec, one line each: docs/spec.md "Backends" and the rendered README print these lines.
# Hexagon targets of the HTP package (makefiles of op_package/htp): one object set each.
HTP_ARCHS = ("v68", "v69", "v73", "v75", "v79", "v81")
BACKENDS = ("lpai", "htp")
DEFAULT_BACKENDS = ("lpai",)
BACKEND_RULES = {
    "lpai": (
        "8-bit activations only (activation_dtype: uint8): a 16-bit one arrives as INT_32 (backend bug)",
        f"tensors of at most {MAX_RANK} dims; a rowwise custom op's row at most {LPAI_ROW_MAX} values",
        f"soc_model with LPAI hardware ({', '.join(LPAI_SOCS)}); op_package_arch is the aDSP library's",
    ),
    "htp": (
        "float32, 8-bit and 16-bit unsigned tensors in every op (a8w8, a16w8, fp32); activation_dtype is LPAI's",
        f"tensors of at most {MODEL_RANK} dims (batch, height, width, depth); no row limit: rowwise is LPAI's",
        f"built for {', '.join(HTP_ARCHS)} (each its own objects), x86_64 and aarch64 Android",
    ),
}
# The QNN data types each backend's OpDefs declare for every input and output, in order
# (config/<Package>.xml; the builder check of the rendered <namespace>/builder.py reads them
# from _package.py).  LPAI validates a node twice, before the quantize/dequantize nodes
# are folded (plain integers) and after (fixed point).  HTP: float32 (fp32 and fp16
# graphs send FLOAT_32), the a8w8 and a16w8 quantizers' unsigned activations.
BACKEND_DATATYPES = {
    "lpai": ("QNN_DATATYPE_UFIXED_POINT_8", "QNN_DATATYPE_UINT_8"),
    "htp": ("QNN_DATATYPE_FLOAT_32", "QNN_DATATYPE_UFIXED_POINT_8", "QNN_DATATYPE_UFIXED_POINT_16"),
}
# The OpDef's <SupportedBackend> of each backend.
BACKEND_XML_NAME = {"lpai": "LPAI", "htp": "HTP"}
# The most dims a tensor of each backend's ops may have (the rendered builder check refuses
# more): LPAI's kernels are sized by MAX_RANK, HTP's tensors are 4-d (batch, height,
# width, depth).
BACKEND_MAX_RANK = {"lpai": MAX_RANK, "htp": MODEL_RANK}


def _view(module: str, cls: str, obj: Any) -> Any:
    """`obj` seen through the class `cls` of hooks/<module>.py (imported on first use:
    the views import this module)."""
    from importlib import import_module

    return getattr(import_module(f"{__package__}.{module}"), cls)(obj)


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    default: float | int | bool
    index: int
    # The spec's `range: [low, high]` (float and int params), or None: the values the op
    # is meant for; the default lies in it and every generated test draws other values
    # from it (Op.param_spans).
    range: tuple[float, float] | tuple[int, int] | None = None

    # The views (hooks/view_*.py).
    @property
    def py(self) -> Any:
        return _view("view_py", "PyParam", self)

    @property
    def torch(self) -> Any:
        return _view("view_torch", "TorchParam", self)

    @property
    def c(self) -> Any:
        return _view("view_c", "CParam", self)

    @property
    def xml(self) -> Any:
        return _view("view_xml", "XmlParam", self)

    @property
    def md(self) -> Any:
        return _view("view_md", "MdParam", self)

    @property
    def qnn_datatype(self) -> str:
        """The QNN datatype ExecuTorch sends the scalar as (C++, XML and the C comments
        spell it alike): node_visitor.QNN_TENSOR_TYPE_MAP, float -> FLOAT_32, int and
        bool -> UINT_32."""
        return "QNN_DATATYPE_FLOAT_32" if self.type == "float" else "QNN_DATATYPE_UINT_32"


@dataclass(frozen=True)
class Input:
    name: str
    index: int
    # The spec's `range: [low, high]`, or None: the op's default (Op.input_domains).
    range: tuple[float, float] | None = None


@dataclass(frozen=True)
class OutputShape:
    """How an output's shape follows from the inputs' shapes (checked at every layer:
    the fake kernel, the XML's text, the kernel's validation of the output dims).

    - `broadcast`: the torch (numpy) broadcast of every input (elementwise ops only);
    - `like`: the shape of `source`;
    - `reduce`: the shape of `source` without `dims` (set to 1 with `keepdim`).
    """

    kind: str  # "broadcast" | "like" | "reduce"
    source: Input | None = None
    dims: tuple[int, ...] = ()
    keepdim: bool = False

    @property
    def text(self) -> str:
        """For people: docs, comments, the XML description (no spec text but names and ints)."""
        if self.kind == "broadcast":
            return "the broadcast shape of the inputs"
        if self.kind == "like":
            return f"the shape of {self.source.name}"
        kept = ", kept as 1" if self.keepdim else ""
        return f"the shape of {self.source.name} reduced over dims {list(self.dims)}{kept}"

    @property
    def min_rank(self) -> int | None:
        """The fewest dims an input can have for this rule (a reduce needs every dim it
        names, distinct, and a dim left over unless keepdim); None when no rank up to
        MAX_RANK takes it."""
        if self.kind != "reduce":
            return 0
        for rank in range(1, MAX_RANK + 1):
            fits = all(-rank <= d < rank for d in self.dims) and len({d % rank for d in self.dims}) == len(self.dims)
            if fits and (self.keepdim or len(self.dims) < rank):
                return rank
        return None

    def answers(self) -> dict[str, Any]:
        if self.kind == "like":
            return {"like": self.source.name}
        return {"reduce": self.source.name, "dims": list(self.dims), "keepdim": self.keepdim}


@dataclass(frozen=True)
class Output:
    name: str
    index: int
    shape: OutputShape

    # The views (hooks/view_*.py).
    @property
    def py(self) -> Any:
        return _view("view_py", "PyOutput", self)

    @property
    def xml(self) -> Any:
        return _view("view_xml", "XmlOutput", self)


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
    outputs: tuple[Output, ...] = ()
    # kind: custom only: the user function runs once per row (last dim) on a bounded
    # stack buffer instead of whole-tensor scratch from getTempBuffer.
    rowwise: bool = False

    # The views (hooks/view_*.py).
    @property
    def py(self) -> Any:
        return _view("view_py", "PyOp", self)

    @property
    def torch(self) -> Any:
        return _view("view_torch", "TorchOp", self)

    @property
    def c(self) -> Any:
        return _view("view_c", "COp", self)

    @property
    def xml(self) -> Any:
        return _view("view_xml", "XmlOp", self)

    @property
    def md(self) -> Any:
        return _view("view_md", "MdOp", self)

    @property
    def yaml(self) -> Any:
        return _view("view_yaml", "YamlOp", self)

    # The shape the docs use to put a figure on a custom op's scratch: a mid-sized
    # feature map of the always-on models LPAI runs (bench/run.py measures the same).
    SCRATCH_SAMPLE_SHAPE = (1, 32, 28, 28)

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
    def n_outputs(self) -> int:
        return len(self.outputs)

    @property
    def input_names(self) -> list[str]:
        return [i.name for i in self.inputs]

    @property
    def output_names(self) -> list[str]:
        return [o.name for o in self.outputs]

    @cached_property
    def input_domains(self) -> tuple[tuple[float, float], ...]:
        """Per input, (low, high): the one source of the values an input takes in the
        project (calibration, every generated test, report) and of the spec's finiteness
        check.  A declared `range`, else one default for all the op's other inputs:
        DEFAULT_DOMAIN when the expr is finite there (the declared ranges held), else
        POSITIVE_DOMAIN.  A custom op's math is the user's, unknown here: DEFAULT_DOMAIN
        (declare a range for math that needs positive inputs)."""
        declared = [i.range for i in self.inputs]
        default = DEFAULT_DOMAIN
        if self.tree is not None and None in declared:
            from .expr import first_non_finite

            trial = [r or DEFAULT_DOMAIN for r in declared]
            if first_non_finite(self.tree, self.input_names, self.param_defaults, trial) is not None:
                default = POSITIVE_DOMAIN
        return tuple(r or default for r in declared)

    @property
    def param_defaults(self) -> dict[str, float | int | bool]:
        return {p.name: p.default for p in self.params}

    @cached_property
    def param_spans(self) -> tuple[tuple[Any, Any] | None, ...]:
        """Per param, the (low, high) every generated test draws its other values from, or
        None: the param stays at its default in every test.  The one source of the
        project's OpInfo.param_spans and of other_params.

        - a declared `range`: that range (the spec check required an elementwise op finite on it);
        - a bool: (False, True), both values;
        - an elementwise op's float or int param without a range: around the default
          (FLOAT_SPAN_FACTOR, ZERO_FLOAT_SPAN, half to twice plus 4), when the expr is finite
          at SPAN_SAMPLES points of it on the input domains, else None;
        - a custom op's float or int param without a range: None (its math is unknown here:
          only the default is known to work)."""
        spans: list[tuple[Any, Any] | None] = []
        for p in self.params:
            if p.range is not None:
                spans.append(p.range)
            elif p.type == "bool":
                spans.append((False, True))
            elif self.tree is None:
                spans.append(None)
            else:
                span = _span_around(p)
                spans.append(span if self.first_non_finite_on_span(p, span) is None else None)
        return tuple(spans)

    @cached_property
    def other_params(self) -> tuple[float | int | bool, ...]:
        """One value per param other than its default where its span allows (a bool
        flipped; an int one step away; a float half way to the far end of its span,
        three significant digits when that stays inside): what the generated tests call
        the op with so that a dropped param cannot go unnoticed."""
        return tuple(_other_value(p, span) for p, span in zip(self.params, self.param_spans))

    def span_points(self, p: Param, span: tuple[Any, Any]) -> list[float | int]:
        """SPAN_SAMPLES values of `span` for `p` (ints: whole numbers), ends included."""
        lo, hi = span
        points = [lo + (hi - lo) * k / (SPAN_SAMPLES - 1) for k in range(SPAN_SAMPLES)]
        if p.type == "int":
            return sorted({int(round(v)) for v in points})
        return points

    def first_non_finite_on_span(self, p: Param, span: tuple[Any, Any]) -> dict[str, float] | None:
        """A point (the param's value and the inputs') where the expr is NaN or inf with `p`
        anywhere in `span` and the other params at their defaults, or None."""
        from .expr import first_non_finite

        for value in self.span_points(p, span):
            params = {**self.param_defaults, p.name: value}
            bad = first_non_finite(self.tree, self.input_names, params, self.input_domains)
            if bad is not None:
                return {p.name: value, **bad}
        return None

    @property
    def unread_params(self) -> list[Param]:
        """The params an elementwise op's expr never reads (valid: the kernel takes them
        and ignores them); none for a custom op, whose math is the user's."""
        if self.tree is None:
            return []
        from .expr import names_used

        used = names_used(self.tree)
        return [p for p in self.params if p.name not in used]

    @property
    def outputs_are_default(self) -> bool:
        """One output named `out` shaped like the first input: what a custom op without
        `outputs:` gets (and what its user math from before outputs existed writes)."""
        return (
            len(self.outputs) == 1
            and self.outputs[0].name == OUT_ARGUMENT
            and self.outputs[0].shape == OutputShape("like", self.inputs[0])
        )

    def input_shape_text(self, inp: Input) -> str:
        """An input's shape in words (the OpDef XML's <Shape>; no spec text but names).
        A custom op's later inputs broadcast to its first (lpai_broadcasts_to_first in
        lpai_shapes.h, shapes.py's check in the rendered project)."""
        if self.kind == "custom":
            if inp.index == 0:
                return "any shape"
            return f"broadcasts to {self.inputs[0].name} (torch rules, the shape of {self.inputs[0].name} the result)"
        return "same shape as the output" if self.n_inputs == 1 else "broadcasts with the other inputs (torch rules)"

    def output_shape_text(self, output: Output) -> str:
        """An output's shape in words (the OpDef XML's <Shape>, README's outputs cell)."""
        if output.shape.kind == "broadcast":
            return "same shape as the inputs" if self.n_inputs == 1 else "the broadcast shape of the inputs"
        return output.shape.text

    def output_shape_for(self, output: Output, shapes: list[tuple[int, ...]]) -> tuple[int, ...]:
        """The shape of `output` for inputs of `shapes`, by its rule (as lpai_shapes.h)."""
        rule = output.shape
        if rule.kind == "broadcast":
            rank = max(len(s) for s in shapes)
            padded = [(1,) * (rank - len(s)) + tuple(s) for s in shapes]
            return tuple(max(dims) for dims in zip(*padded))
        source = tuple(shapes[rule.source.index])
        if rule.kind == "like":
            return source
        reduced = {d % len(source) for d in rule.dims}
        return tuple(1 if d in reduced else n for d, n in enumerate(source) if d not in reduced or rule.keepdim)

    @property
    def scratch_bytes(self) -> int:
        """Bytes of scratch of a custom op for inputs of SCRATCH_SAMPLE_SHAPE: whole
        tensors, every input and output as float in the getTempBuffer buffer; rowwise,
        (inputs + outputs) x LPAI_ROW_MAX floats of the kernel's stack."""
        if self.rowwise:
            return (self.n_inputs + self.n_outputs) * LPAI_ROW_MAX * 4
        shapes = [self.SCRATCH_SAMPLE_SHAPE] * self.n_inputs
        counts = [math.prod(s) for s in shapes]
        counts += [math.prod(self.output_shape_for(o, shapes)) for o in self.outputs]
        return 4 * sum(counts)


def _span_around(p: Param) -> tuple[Any, Any]:
    """The span a float or int param without a declared range is tried on (Op.param_spans)."""
    d = p.default
    if p.type == "int":
        return (d // 2, min(2 * d + 4, UINT32_MAX))
    if d == 0:
        return ZERO_FLOAT_SPAN
    a, b = d / FLOAT_SPAN_FACTOR, d * FLOAT_SPAN_FACTOR
    return (min(a, b), max(a, b))


def _other_value(p: Param, span: tuple[Any, Any] | None) -> float | int | bool:
    """A value of `span` other than the default (Op.other_params); the default without a span."""
    if span is None:
        return p.default
    if p.type == "bool":
        return not p.default
    lo, hi = span
    if p.type == "int":
        return p.default + 1 if p.default + 1 <= hi else p.default - 1
    far = hi if hi - p.default >= p.default - lo else lo
    exact = p.default + (far - p.default) / 2
    short = float(f"{exact:.3g}")
    return short if lo <= short <= hi and short != p.default else exact


@dataclass(frozen=True)
class Package:
    package_name: str
    namespace: str
    soc_model: str
    op_package_arch: str
    activation_dtype: str
    ops: tuple[Op, ...]
    # What every op reports from getLayoutSupportFlag (LAYOUT_SUPPORTS, docs/spec.md).
    layout_support: str = "shape_ne_layout"
    # The backends the package is built for (BACKENDS), in the spec's order.
    backends: tuple[str, ...] = DEFAULT_BACKENDS

    @property
    def htp(self) -> bool:
        """Whether the package has an HTP op package (op_package/htp/)."""
        return "htp" in self.backends

    @property
    def lpai(self) -> bool:
        return "lpai" in self.backends

    @property
    def htp_archs(self) -> tuple[str, ...]:
        return HTP_ARCHS

    @property
    def datatypes(self) -> dict[str, tuple[str, ...]]:
        """The QNN data types each backend's OpDefs declare (BACKEND_DATATYPES)."""
        return dict(BACKEND_DATATYPES)

    @property
    def xml_backend(self) -> dict[str, str]:
        return dict(BACKEND_XML_NAME)

    @property
    def max_ranks(self) -> dict[str, int]:
        """The most dims of a tensor of each of the package's backends (BACKEND_MAX_RANK)."""
        return {b: BACKEND_MAX_RANK[b] for b in self.backends}

    @property
    def backend_rules(self) -> dict[str, tuple[str, ...]]:
        """What each of the package's backends takes of the spec (BACKEND_RULES)."""
        return {b: BACKEND_RULES[b] for b in self.backends}

    # The views (hooks/view_*.py).
    @property
    def py(self) -> Any:
        return _view("view_py", "PyPackage", self)

    @property
    def c(self) -> Any:
        return _view("view_c", "CPackage", self)

    @property
    def yaml(self) -> Any:
        return _view("view_yaml", "YamlPackage", self)

    @property
    def md(self) -> Any:
        return _view("view_md", "MdPackage", self)

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
    def max_params(self) -> int:
        """The most params an op may have (arrays in the generated C are sized by it)."""
        return MAX_PARAMS

    @property
    def max_inputs(self) -> int:
        """The most inputs an op may have."""
        return MAX_INPUTS

    @property
    def max_outputs(self) -> int:
        """The most outputs an op may have (LPAI_MAX_OUTPUTS in include/lpai_package.h)."""
        return MAX_OUTPUTS

    @property
    def row_max(self) -> int:
        """The longest row of a `rowwise: true` custom op (LPAI_ROW_MAX, include/lpai_package.h)."""
        return LPAI_ROW_MAX

    @property
    def island_library_name(self) -> str:
        """The island library's name is fixed by the SDK: two packages deployed to one folder collide."""
        return ISLAND_LIBRARY_NAME

    @property
    def lpai_sdk_header(self) -> str:
        """The LPAI op package header, relative to $QNN_SDK_ROOT/include (first shipped in SDK 2.48)."""
        return LPAI_SDK_HEADER

    @property
    def lpai_hw_version(self) -> int:
        """The LPAI hardware version of the SoC (names the SDK's lib/lpai-v<hw>/ folder)."""
        return LPAI_HW_VERSION[self.soc_model]

    @property
    def lpai_hw_versions(self) -> dict[str, int]:
        """Every SoC with LPAI hardware, with its hardware version."""
        return dict(LPAI_HW_VERSION)

    @property
    def elementwise_ops(self) -> list[Op]:
        return [op for op in self.ops if op.kind == "elementwise"]

    @property
    def custom_ops(self) -> list[Op]:
        return [op for op in self.ops if op.kind == "custom"]

    @property
    def n_ops(self) -> int:
        return len(self.ops)

    def answers(self) -> dict[str, Any]:
        """The spec in canonical form (what a user could write back as a data file)."""
        out: dict[str, Any] = {
            "package_name": self.package_name,
            "namespace": self.namespace,
            "soc_model": self.soc_model,
            "op_package_arch": self.op_package_arch,
            "activation_dtype": self.activation_dtype,
            "layout_support": self.layout_support,
            "backends": list(self.backends),
            "ops": [],
        }
        for op in self.ops:
            entry: dict[str, Any] = {
                "name": op.name,
                "qnn_type": op.qnn_type,
                "kind": op.kind,
                "doc": op.doc,
                "inputs": [i.name if i.range is None else {"name": i.name, "range": list(i.range)} for i in op.inputs],
            }
            if op.params:
                entry["params"] = [
                    {
                        k: (list(v) if k == "range" else v)
                        for k, v in asdict(p).items()
                        if k != "index" and v is not None
                    }
                    for p in op.params
                ]
            if op.expr is not None:
                entry["expr"] = op.expr
            if op.kind == "custom" and not op.outputs_are_default:
                entry["outputs"] = [{"name": o.name, "shape": o.shape.answers()} for o in op.outputs]
            if op.rowwise:
                entry["rowwise"] = True
            out["ops"].append(entry)
        return out
