"""Load and validate an op spec into the model every template renders from.

One error type, `SpecError`, whose message is always one line: the field path, then
the rule that was broken (``ops[1].inputs[0]: 'int' is a reserved word in C``).
`validate()` checks the whole spec before anything is rendered, so an invalid spec
writes no file.
"""

from __future__ import annotations

import functools
import html
import json
import math
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from . import expr as expr_mod
from . import names

# The SoCs whose LPAI hardware ExecuTorch knows, with their LPAI hardware version
# (get_soc_to_lpai_hw_ver_map in 1.5.1).  The rendered <namespace>/_package.py carries it.
LPAI_HW_VERSION = {"SM8850": 6, "SAR2230P": 6}
LPAI_SOCS = tuple(LPAI_HW_VERSION)
# Hexagon DSP targets an op package can be built for.  Independent of the SoC: on
# SM8850 the HTP is V81 and the LPAI hardware V6 while the op package builds for v79.
HEXAGON_ARCHS = ("v68", "v69", "v73", "v75", "v79", "v81")
ACTIVATION_DTYPES = ("uint8",)
SIXTEEN_BIT = ("uint16", "int16", "16", "16a", "16a8w", "16a16w", "float16", "fp16", "int32", "uint32")
KINDS = ("elementwise", "custom")
PARAM_TYPES = ("float", "int", "bool")

TOP_KEYS = ("package_name", "namespace", "soc_model", "op_package_arch", "activation_dtype", "layout_support", "ops")
# What every op of the package reports from getLayoutSupportFlag (docs/spec.md).
LAYOUT_SUPPORTS = ("shape_ne_layout", "default")
OP_KEYS = ("name", "qnn_type", "kind", "doc", "inputs", "params", "expr", "outputs", "rowwise")
PARAM_KEYS = ("name", "type", "default")
OUTPUT_KEYS = ("name", "shape")
SHAPE_KEYS = ("like", "reduce", "dims", "keepdim")

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
# The longest row of a `rowwise: true` custom op: LPAI_ROW_MAX of include/lpai_package.h,
# which sizes the kernel's stack buffer; the docs compute that buffer from it.
LPAI_ROW_MAX = 256
# Fixed by the QNN SDK: its LPAI makefiles name the island library so, whatever the package.
ISLAND_LIBRARY_NAME = "libLpaiOpPackageIsland.so"
LPAI_SDK_HEADER = "QNN/LPAI/QnnLpaiOpPackage.h"
MAX_DOC = 200
# Numbers as people write them in YAML: YAML 1.1 (PyYAML, copier) reads `1e-6` as a
# string (it wants `1.0e-6`), so a float param's default may be such a string.
FLOAT_TEXT_RE = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*\Z")
# Bounds on the raw spec, checked before anything else looks at it (a YAML alias
# "bomb" is a few lines of text that expand into billions of values).
MAX_RAW_VALUES = 20_000
MAX_RAW_TEXT = 200_000
# ExecuTorch's op builder sends a Python int (and a bool) as a QNN_DATATYPE_UINT_32 scalar
# (node_visitor.QNN_TENSOR_TYPE_MAP); a negative int fails inside AddScalarParam while
# lowering.  So an int param is a uint32 everywhere: spec default, call-time check, XML, C.
UINT32_MAX = 2**32 - 1


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


class SpecError(ValueError):
    """An invalid spec: `field` is the path of the offending value, `rule` the reason."""

    def __init__(self, field: str, rule: str):
        self.field = field
        self.rule = rule
        super().__init__(f"{field}: {rule}")


# ---------------------------------------------------------------- doc text per language
# A doc is one line of printable Unicode (checked in _check_doc); each function below
# makes it safe, and unchanged to a reader, where the templates place it.

_TRIGRAPH = re.compile(r"\?\?(?=[=/'()!<>-])")


def doc_python(text: str) -> str:
    """Inside a triple-quoted Python string: no quote can end it, no backslash escapes."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def doc_c(text: str) -> str:
    """Inside a C or C++ block comment, at the end of a line: no comment delimiter
    (`*/` ends it, `/*` is a -Wcomment warning), no trigraph (`??/` is a backslash in
    C89/C99/C11 and C++ before 17), and no backslash before the newline (a line
    splice; with a space between, a warning)."""
    previous = None
    while previous != text:
        previous = text
        text = text.replace("*/", "* /").replace("/*", "/ *")
        text = _TRIGRAPH.sub("? ?", text)
    text = text.rstrip()
    if text.endswith("\\"):
        text += " ."
    return text


def doc_xml(text: str) -> str:
    """XML element text or attribute value."""
    return html.escape(text, quote=True)


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|&~])")


def doc_markdown(text: str) -> str:
    """A Markdown (GFM) table cell: the characters that start markup (emphasis, code,
    links, HTML, entities, strike-through) or end the cell, backslash-escaped, which
    CommonMark allows for every ASCII punctuation character."""
    return _MD_SPECIAL.sub(r"\\\1", text)


def doc_yaml(text: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is valid YAML 1.1 and 1.2)."""
    return json.dumps(text, ensure_ascii=False)


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    default: float | int | bool
    index: int

    @property
    def default_py(self) -> str:
        # As `ruff format` writes the literal: repr() gives 1e+30, ruff 1e30.
        return repr(self.default).replace("e+", "e")

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

    @property
    def c_spec(self) -> str:
        """The param's lpai_param_spec initialiser: its name, by which the kernel asks for
        it (getParamTensor), and how it is read (src/ops/<Op>_inference.c)."""
        return "{" + _join([self.c_name, self.c_kind]) + "}"

    @property
    def c_test_kind(self) -> str:
        """The scalar type host/test_kernels.c sends it as (the emulator's P_F32/P_U32)."""
        return "P_F32" if self.type == "float" else "P_U32"

    @property
    def c_name(self) -> str:
        """The name as a C string literal (a checked identifier: nothing to escape)."""
        return f'"{self.name}"'

    @property
    def py_op_info(self) -> str:
        """The (name, type, default) tuple of OpInfo.params in ops.py."""
        return f'("{self.name}", "{self.type}", {self.default_py})'

    @property
    def md(self) -> str:
        """`name: type = default`, as README's op table lists it."""
        return f"{self.name}: {self.type} = {self.default_py}"


@dataclass(frozen=True)
class StructField:
    """A member the template itself puts in a custom op's args struct."""

    name: str
    decl: str  # the C declaration, without ';'
    comment: str
    fill: str  # the C statement of <QnnType>_call that sets it from `c`


# The one declaration of the fixed members of `<QnnType>_args`: the header and the
# kernel are rendered from it, and its names are reserved for inputs and params. They
# describe the first output, as they did when a custom op had exactly one output of its
# first input's shape: user math written then keeps compiling and computing the same.
# Every tensor also has its own `<name>_shape` (Op.c_args_members).
ARGS_STRUCT_FIELDS = (
    StructField(
        "out", "float *out", "the first output: write `count` real values (not codes)", "args.out = c->out[0];"
    ),
    StructField("rank", "uint32_t rank", "rank of the first output", "args.rank = c->out_shape[0].rank;"),
    StructField(
        "dims",
        "uint32_t dims[LPAI_MAX_RANK]",
        "the first output's logical shape, dims[rank - 1] moves fastest",
        "memcpy(args.dims, c->out_shape[0].dims, sizeof args.dims);",
    ),
    StructField("count", "uint64_t count", "elements of the first output", "args.count = c->out_shape[0].count;"),
)

# The scalar arguments of an elementwise op's `_math<n>` (one per input), and the C
# type of that function by input count (include/lpai_elementwise.h).
C_SCALAR_ARGS = ("a", "b", "c", "d")
C_MATH_FN_TYPES = ("lpai_unary_fn", "lpai_binary_fn", "lpai_ternary_fn", "lpai_quaternary_fn")

# The C spelling of each shape rule (enum of include/lpai_shapes.h).
C_SHAPE_KINDS = {"broadcast": "LPAI_SHAPE_BROADCAST", "like": "LPAI_SHAPE_LIKE", "reduce": "LPAI_SHAPE_REDUCE"}


# The output argument of every `.out` overload (its schema and the Python function
# behind it): declared once here, reserved for inputs and params from this declaration.
OUT_ARGUMENT = "out"


@dataclass(frozen=True)
class Input:
    name: str
    index: int


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

    def answers(self) -> dict[str, Any]:
        if self.kind == "like":
            return {"like": self.source.name}
        return {"reduce": self.source.name, "dims": list(self.dims), "keepdim": self.keepdim}


@dataclass(frozen=True)
class Output:
    name: str
    index: int
    shape: OutputShape

    @property
    def py_spec_rule(self) -> str:
        """The rule as the spec states it, a Python literal for the rendered tests
        (tests/spec_values.py): ("broadcast",) | ("like", input name) |
        ("reduce", input name, dims, keepdim)."""
        sh = self.shape
        if sh.kind == "broadcast":
            return '("broadcast",)'
        if sh.kind == "like":
            return f'("like", "{sh.source.name}")'
        return f'("reduce", "{sh.source.name}", {tuple(sh.dims)!r}, {sh.keepdim!r})'

    @property
    def xml_rank(self) -> str:
        """`<Rank>` of the OpDef XML: 4D, the configuration verified on device, less the
        dims a reduce without keepdim removes."""
        if self.shape.kind == "reduce" and not self.shape.keepdim:
            return f"{4 - len(self.shape.dims)}D"
        return "4D"


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

    @property
    def n_outputs(self) -> int:
        return len(self.outputs)

    @property
    def output_names(self) -> list[str]:
        return [o.name for o in self.outputs]

    @property
    def xml_input_shape_text(self) -> str:
        if self.kind == "custom":
            return "any shape"
        return "same shape as the output" if self.n_inputs == 1 else "broadcasts with the other inputs (torch rules)"

    def xml_output_shape_text(self, output: Output) -> str:
        if output.shape.kind == "broadcast":
            return "same shape as the inputs" if self.n_inputs == 1 else "the broadcast shape of the inputs"
        return output.shape.text

    @property
    def outputs_md(self) -> str:
        """The README's cell of the outputs: each name and its shape rule."""
        return "; ".join(f"`{o.name}`: {doc_markdown(self.xml_output_shape_text(o))}" for o in self.outputs)

    @property
    def outputs_are_default(self) -> bool:
        """One output named `out` shaped like the first input: what a custom op without
        `outputs:` gets (and what its user math from before outputs existed writes)."""
        return (
            len(self.outputs) == 1
            and self.outputs[0].name == OUT_ARGUMENT
            and self.outputs[0].shape == OutputShape("like", self.inputs[0])
        )

    @property
    def qualified_name(self) -> str:
        return f"{self.namespace}::{self.name}"

    @property
    def doc_py(self) -> str:
        return doc_python(self.doc)

    @property
    def doc_c(self) -> str:
        return doc_c(self.doc)

    @property
    def doc_xml(self) -> str:
        return doc_xml(self.doc)

    @property
    def doc_md(self) -> str:
        return doc_markdown(self.doc)

    @property
    def doc_yaml(self) -> str:
        return doc_yaml(self.doc)

    @property
    def _c_fixed_fields(self) -> list[StructField]:
        """ARGS_STRUCT_FIELDS without `out` when the first output is itself named `out`."""
        return [f for f in ARGS_STRUCT_FIELDS if not (f.name == "out" and self.outputs[0].name == "out")]

    @property
    def c_args_members(self) -> list[str]:
        """The lines of `<QnnType>_args` (include/ops/<QnnType>_user.h) of a custom op:
        each input and output with its own shape, the fixed members of
        ARGS_STRUCT_FIELDS (the first output's), the params."""
        rows = []
        for i in self.inputs:
            rows.append((f"const float *{i.name};", f'input "{i.name}", dequantized: {i.name}_shape.count values'))
            rows.append((f"lpai_shape {i.name}_shape;", f'rank, dims and count of "{i.name}"'))
        for o in self.outputs:
            rows.append((f"float *{o.name};", f'output "{o.name}": write {o.name}_shape.count real values'))
            rows.append((f"lpai_shape {o.name}_shape;", f"{o.shape.text}"))
        rows += [(f"{f.decl};", f.comment) for f in self._c_fixed_fields]
        rows += [(f"float {p.name};", f'parameter "{p.name}" ({p.type}), default {p.default_xml}') for p in self.params]
        # Each comment on a line of its own above its member: a trailing comment would
        # make clang-format break or realign the line once names get long (ReflowComments
        # is off in .clang-format, so it leaves a long comment line as it is).
        return [line for decl, comment in rows for line in (f"/* {comment} */", decl)]

    @property
    def c_compute_decl(self) -> str:
        """The prototype of `<QnnType>_compute` (include/ops/<QnnType>_user.h), laid out
        as clang-format leaves it: on one line when it fits, else broken after `(`."""
        return _c_compute_signature(self.qnn_type, ";")

    @property
    def c_compute_def(self) -> str:
        """The head of its definition in user/<QnnType>_math.c (the brace on the next line)."""
        return _c_compute_signature(self.qnn_type, "")

    @property
    def c_args_fill(self) -> list[str]:
        """The statements of `<QnnType>_call` that fill `args` from the dequantized call `c`."""
        lines = []
        for i in self.inputs:
            lines += [f"args.{i.name} = c->in[{i.index}];", f"args.{i.name}_shape = c->in_shape[{i.index}];"]
        for o in self.outputs:
            lines += [f"args.{o.name} = c->out[{o.index}];", f"args.{o.name}_shape = c->out_shape[{o.index}];"]
        lines += [f.fill for f in self._c_fixed_fields]
        lines += [f"args.{p.name} = c->params[{p.index}];" for p in self.params]
        return lines

    # The shape the docs use to put a figure on a custom op's scratch: a mid-sized
    # feature map of the always-on models LPAI runs (bench/run.py measures the same).
    SCRATCH_SAMPLE_SHAPE = (1, 32, 28, 28)

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

    @property
    def scratch_md(self) -> str:
        """The scratch of a custom op in words (README, Markdown; names and ints only)."""
        names = " + ".join(f"`{n}`" for n in self.input_names + [o.name for o in self.outputs])
        if self.rowwise:
            return (
                f"rowwise: ({self.n_inputs} + {self.n_outputs}) x LPAI_ROW_MAX ({LPAI_ROW_MAX}) floats on "
                f"the kernel's stack, {self.scratch_bytes:,} bytes; no getTempBuffer"
            )
        sample = ", ".join(str(n) for n in self.SCRATCH_SAMPLE_SHAPE)
        return (
            f"whole tensors from getTempBuffer: 4 bytes x the elements of {names}; "
            f"{self.scratch_bytes:,} bytes for inputs of shape ({sample})"
        )

    @property
    def c_output_rules(self) -> list[str]:
        """One `lpai_shape_rule` initialiser per output (include/lpai_shapes.h), with the
        rule in words: the kernel and validateOp check each output's dims with it."""
        lines = []
        for o in self.outputs:
            shape = o.shape
            source = shape.source.index if shape.source is not None else 0
            dims = list(shape.dims) + [0] * (5 - len(shape.dims))
            init = (
                f"{{{C_SHAPE_KINDS[shape.kind]}, {source}u, {1 if shape.keepdim else 0}u, "
                f"{len(shape.dims)}u, {{{', '.join(str(d) for d in dims)}}}}}"
            )
            lines.append(f"{init}, /* {o.name}: {shape.text} */")
        return lines

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
    def c_math_call_v(self) -> str:
        """Arguments of `<QnnType>_math` in `_math_v(in, params)`: in[0], ..., params[0], ..."""
        return _join([f"in[{i.index}]" for i in self.inputs] + [f"params[{p.index}]" for p in self.params])

    @property
    def c_math_call_scalar(self) -> str:
        """Arguments of `<QnnType>_math` in `_math1(a, params)` ... `_math4(a, b, c, d, params)`."""
        return _join(list(C_SCALAR_ARGS[: self.n_inputs]) + [f"params[{p.index}]" for p in self.params])

    @property
    def c_math_scalar_params(self) -> str:
        """The parameters of `_math<n>`, the blocked loop's form of the math: `float a, float b, const float *params`."""
        return _join([f"float {a}" for a in C_SCALAR_ARGS[: self.n_inputs]] + ["const float *params"])

    @property
    def c_math_fn_type(self) -> str:
        """The C type of `_math<n>` (lpai_elementwise.h): lpai_unary_fn ... lpai_quaternary_fn."""
        return C_MATH_FN_TYPES[self.n_inputs - 1]

    @property
    def c_nary_fns(self) -> str:
        """The f2, f3, f4 arguments of lpai_execute_nary_u8: `math` in the op's place, NULL elsewhere."""
        return _join(["math" if n == self.n_inputs else "NULL" for n in (2, 3, 4)])

    @property
    def c_test_case(self) -> list[str]:
        """The param rows of the op's case in host/test_kernels.c: kinds, defaults, names,
        each closed by the sentinel the "extra parameter" case reads."""
        return [
            "{" + _join([p.c_test_kind for p in self.params] + ["P_F32"]) + "}",
            "{" + _join([p.default_c for p in self.params] + ["0.0"]) + "}",
            "{" + _join([p.c_name for p in self.params] + ["NULL"]) + "}",
        ]

    @property
    def c_is_custom(self) -> str:
        """1 for a custom op, 0 for an elementwise one (a C int flag)."""
        return "1" if self.kind == "custom" else "0"

    @property
    def c_is_rowwise(self) -> str:
        """1 for a `rowwise: true` custom op, else 0 (a C int flag)."""
        return "1" if self.rowwise else "0"

    @property
    def c_math_cost(self) -> str:
        """MATH_COST of the kernel: instructions per evaluation (hooks/expr.py cost)."""
        return f"{expr_mod.cost(self.tree).scalar}u"

    @property
    def c_math_vectorises(self) -> str:
        """MATH_VECTORISES of the kernel: 1 when the math has no libm call."""
        return "1" if expr_mod.cost(self.tree).vectorises else "0"

    @property
    def md_run_line(self) -> str:
        """The op's name padded to a column, as `python -m <namespace> run` prints it."""
        return f"{self.qualified_name:<32}"

    @property
    def c_header_guard(self) -> str:
        """The include guard of include/ops/<QnnType>_user.h."""
        return f"{self.qnn_type.upper()}_USER_H"

    @property
    def py_reference_signature(self) -> str:
        """tests/reference.py's function: inputs, then params with the spec's defaults,
        untyped (laid out as `ruff format` leaves it, like py_params_public)."""
        params = [i.name for i in self.inputs] + [f"{p.name}={p.default_py}" for p in self.params]
        return _py_def_params(self.name, params, None)

    @property
    def py_defaults_dict(self) -> str:
        """{name: default} of the params, a Python dict literal."""
        return "{" + _join([f'"{p.name}": {p.default_py}' for p in self.params]) + "}"

    @property
    def py_inputs(self) -> str:
        """The input names as Python call arguments."""
        return _join(self.input_names)

    @property
    def py_example_call(self) -> str:
        """The op called on one tensor `h` in every input, params left to their defaults
        (README's model example)."""
        return f"{self.namespace}.{self.name}({_join(['h'] * self.n_inputs)})"

    @property
    def kind_md(self) -> str:
        """The kind column of the README's table of ops: `custom, rowwise` for a rowwise op."""
        return f"{self.kind}, rowwise" if self.rowwise else self.kind

    @property
    def inputs_md(self) -> str:
        return _join(self.input_names)

    @property
    def params_md(self) -> str:
        return _join([p.md for p in self.params])

    @property
    def c_math_unused(self) -> list[str]:
        """The C math function's arguments that the expression never reads (a param the
        expr leaves unused): the template casts them to void for -Wunused-parameter."""
        if self.tree is None:
            return []
        used = expr_mod._names(self.tree)
        return [expr_mod.c_var(p.name, False) for p in self.params if p.name not in used]

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
    def _schema_returns(self) -> str:
        # Several outputs: a tuple, which ExecuTorch's builder turns into one QNN output
        # tensor each (CustomOp.define_node reads node.meta["val"] as a tuple).
        if self.n_outputs == 1:
            return "Tensor"
        return "(" + ", ".join("Tensor" for _ in self.outputs) + ")"

    @property
    def schema(self) -> str:
        """The functional op, the one that is quantized, lowered and delegated."""
        return f"{self.name}({self._schema_args}) -> {self._schema_returns}"

    @property
    def custom_op_schema(self) -> str:
        """`schema=` of torch.library.custom_op: the functional schema without the name."""
        return f"({self._schema_args}) -> {self._schema_returns}"

    @property
    def out_schema(self) -> str:
        """One keyword-only `Tensor(x!)` per output, named like the output, each with its
        own alias set (a, b, c, d), returned in order: torch's convention for out variants
        with several outputs (`var_mean.correction_out`)."""
        sets = "abcd"
        outs = ", ".join(f"Tensor({sets[o.index]}!) {o.name}" for o in self.outputs)
        returns = [f"Tensor({sets[o.index]}!)" for o in self.outputs]
        ret = returns[0] if len(returns) == 1 else "(" + ", ".join(returns) + ")"
        return f"{self.name}.out({self._schema_args}, *, {outs}) -> {ret}"

    @property
    def py_returns(self) -> str:
        """The return annotation of the op's Python functions."""
        if self.n_outputs == 1:
            return "torch.Tensor"
        return "tuple[" + ", ".join("torch.Tensor" for _ in self.outputs) + "]"

    @property
    def py_input_shapes(self) -> str:
        """A Python list of the inputs' shapes, `[x.shape, bias.shape]`: an argument of
        eager.py's `output_shapes(...)`, at an indent of 8 when that call is exploded (one
        item a line when it would not fit there; when the call fits on its line, so does
        the list)."""
        return _py_seq("[", [f"{n}.shape" for n in self.input_names], "]", indent=8)

    @property
    def py_input_shapes_lines(self) -> str:
        """The inputs' shapes, one a line: the items of an exploded list in a function body."""
        return _py_lines([f"{n}.shape" for n in self.input_names])

    @property
    def py_output_returns(self) -> str:
        """What the `.out` implementation returns after `return `: its output argument, or
        the tuple of them, `(mean, centered)` (one a line when it would not fit)."""
        if self.n_outputs == 1:
            return self.output_names[0]
        return _py_seq("(", self.output_names, ")", indent=4, head="return ", tail="")

    @property
    def py_spec_outputs(self) -> str:
        """tests/spec_values.py: a tuple of (name, rule as the spec states it) per output."""
        rows = [f'("{o.name}", {o.py_spec_rule})' for o in self.outputs]
        return _py_seq("(", rows, ")", 4, f'"{self.name}": ', single_comma=True)

    @property
    def output_labels(self) -> list[str]:
        """How the device reports name each output: the op, plus the output's name when
        the op has several (`ns::center:mean`)."""
        if self.n_outputs == 1:
            return [self.qualified_name]
        return [f"{self.qualified_name}:{o.name}" for o in self.outputs]

    @property
    def py_output_names(self) -> str:
        """The output names as a Python tuple of strings: `("mean", "centered")`, `("out",)`
        (`outputs=` of the OPS table, and an argument of an exploded call)."""
        return _py_tuple([f'"{o.name}"' for o in self.outputs], "outputs=")

    @property
    def py_output_vars(self) -> str:
        """The `.out` keyword arguments as a Python tuple: `(mean, centered)`, `(out,)`."""
        return _py_tuple(self.output_names)

    @property
    def py_output_rules(self) -> str:
        """Each output's shape rule as a Python literal, read by ops.output_shapes:
        ("broadcast",) | ("like", input index) | ("reduce", input index, dims, keepdim)."""
        rules = []
        for o in self.outputs:
            sh = o.shape
            if sh.kind == "broadcast":
                rules.append('("broadcast",)')
            elif sh.kind == "like":
                rules.append(f'("like", {sh.source.index})')
            else:
                rules.append(f'("reduce", {sh.source.index}, {tuple(sh.dims)!r}, {sh.keepdim!r})')
        # The value of the op's entry in shapes.py's RULES dict.
        return _py_seq("(", rules, ")", 4, f'"{self.name}": ', single_comma=True)

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
        return f"{self.name}.defaults({', '.join(args)}) -> {self._schema_returns}"

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

    def _py_params(self, required: bool) -> list[str]:
        args = [f"{i.name}: torch.Tensor" for i in self.inputs]
        if required:
            return args + [f"{p.name}: {p.type}" for p in self.params]
        return args + [f"{p.name}: {p.type} = {p.default_py}" for p in self.params]

    # The parameter lists of the op's Python functions, each the text between the
    # parentheses of `def <name>(...) -> <returns>:` (the template writes the rest, so
    # that the reserved-name scan still sees `def {{ op.name }}`), laid out as `ruff
    # format` leaves it for any length of names.
    @property
    def py_params_public(self) -> str:
        """The public function and eager's: inputs, then params with the spec's defaults."""
        return _py_def_params(self.name, self._py_params(False), self.py_returns)

    @property
    def py_params_impl(self) -> str:
        """`_<op>`, the implementation behind the schema: every param required."""
        return _py_def_params(f"_{self.name}", self._py_params(True), self.py_returns)

    @property
    def py_params_fake(self) -> str:
        return _py_def_params(f"_{self.name}_fake", self._py_params(True), self.py_returns)

    @property
    def py_params_out(self) -> str:
        """`_<op>_out`: every param required, then one keyword per output."""
        outs = [f"{o.name}: torch.Tensor" for o in self.outputs]
        return _py_def_params(f"_{self.name}_out", [*self._py_params(True), "*", *outs], self.py_returns)

    @property
    def py_args(self) -> str:
        return ", ".join([i.name for i in self.inputs] + [p.name for p in self.params])

    # The generated calls whose arguments come from the spec, each laid out for its place
    # in a function body of ops.py or eager.py (indent 4) as `ruff format` leaves it
    # (_py_call): on one line when it fits, else one argument a line.
    @property
    def _py_call_args(self) -> list[str]:
        return [i.name for i in self.inputs] + [p.name for p in self.params]

    @property
    def py_int_check_call(self) -> str:
        """`_check_int_params("<ns>::<op>", n=n, ...)`: the call-time uint32 check."""
        ints = [f"{p.name}={p.name}" for p in self.params if p.type == "int"]
        return _py_call("_check_int_params", [f'"{self.qualified_name}"', *ints], 4)

    @property
    def py_eager_return(self) -> str:
        """`eager.<op>(inputs..., params...)` after `return `."""
        return _py_call(f"eager.{self.name}", self._py_call_args, 4, "return ")

    @property
    def py_eager_result(self) -> str:
        """`eager.<op>(inputs..., params...)` after `_result = `."""
        return _py_call(f"eager.{self.name}", self._py_call_args, 4, "_result = ")

    @property
    def py_user_result(self) -> str:
        """`_user_<op>(inputs..., params...)` (the user's eager math) after `_result = `."""
        return _py_call(f"_user_{self.name}", self._py_call_args, 4, "_result = ")

    @property
    def py_torch_ops_return(self) -> str:
        """`torch.ops.<ns>.<op>.default(inputs..., params...)` after `return `."""
        return _py_call(f"{self.torch_ops_path}.default", self._py_call_args, 4, "return ")

    @property
    def _py_output_shapes_args(self) -> list[str]:
        return [f'"{self.qualified_name}"', f'RULES["{self.name}"]', self.py_input_shapes]

    @property
    def py_shape_unpack(self) -> str:
        """eager.py, an elementwise op: `output_shapes(...)` after `(_shape,) = `."""
        return _py_call("output_shapes", self._py_output_shapes_args, 4, "(_shape,) = ")

    @property
    def py_expected_shapes(self) -> str:
        """eager.py, a custom op: `output_shapes(...)` after `_expected = `."""
        return _py_call("output_shapes", self._py_output_shapes_args, 4, "_expected = ")

    @property
    def py_fresh_return(self) -> str:
        """eager.py, an elementwise op: `torch.empty(...).copy_(_result)` after `return `
        (a fresh tensor in the first input's dtype and device)."""
        x = self.inputs[0].name
        args = ["_shape", f"dtype={x}.dtype", f"device={x}.device"]
        return _py_call("torch.empty", args, 4, "return ", ".copy_(_result)") + ".copy_(_result)"

    @property
    def py_check_user_result(self) -> str:
        """eager.py, a custom op: the check of what the user's math returned."""
        args = [f'"{self.qualified_name}"', f'"user/{self.name}.py"', "_result", "_expected"]
        return _py_call("check_user_result", args, 4)

    @property
    def py_user_import(self) -> str:
        """eager.py's import of a custom op's eager math, as ruff's import sorting leaves
        it: one line when it fits, else the name in parentheses with a trailing comma."""
        head, name = f"from .user.{self.name} import ", f"{self.name} as _user_{self.name}"
        if len(head) + len(name) <= PY_LINE_LENGTH:
            return head + name
        return f"{head}(\n    {name},\n)"

    @property
    def py_new_outputs_return(self) -> str:
        """The fake kernel's `_new_outputs(...)` after `return `: the one tensor (`[0]`) of a
        one-output op, the tuple of several."""
        first = "[0]" if self.n_outputs == 1 else ""
        args = [f'"{self.qualified_name}"', f'RULES["{self.name}"]', *self.input_names]
        return _py_call("_new_outputs", args, 4, "return ", first) + first

    @property
    def py_inputs_tuple(self) -> str:
        """`inputs=` of the op's row in ops.py's OPS table, as ruff format writes it."""
        return _py_tuple([f'"{i.name}"' for i in self.inputs], "inputs=")

    @property
    def py_params_tuple(self) -> str:
        """`params=` of the op's row in ops.py's OPS table: (name, type, default) per param."""
        return _py_tuple([p.py_op_info for p in self.params], "params=")

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
    layout_support: str = "shape_ne_layout"

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
    def py_rowwise_op_names(self) -> str:
        """The names of the `rowwise: true` custom ops as a Python set display (`set()` when
        none), the value of `ROWWISE = ` at the top level of a test module (one name a line
        when it would not fit)."""
        names_ = [f'"{op.name}"' for op in self.ops if op.rowwise]
        return _py_seq("{", names_, "}", 0, "ROWWISE = ", "") if names_ else "set()"

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
    def c_layout_shape_ne_layout(self) -> str:
        """1 when the ops declare QNN_LPAI_OP_LAYOUT_SHAPE_NE_LAYOUT (include/lpai_package.h)."""
        return "1" if self.layout_support == "shape_ne_layout" else "0"

    @property
    def layout_flag_name(self) -> str:
        """The flag getLayoutSupportFlag reports, as the SDK names it (rendered README)."""
        return (
            "QNN_LPAI_OP_LAYOUT_SHAPE_NE_LAYOUT"
            if self.layout_support == "shape_ne_layout"
            else "QNN_LPAI_OP_LAYOUT_DEFAULT"
        )

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
    def lpai_hw_versions_py(self) -> str:
        """lpai_hw_versions as a Python dict literal (double quotes, as ruff format writes it)."""
        return "{" + ", ".join(f'"{soc}": {hw}' for soc, hw in LPAI_HW_VERSION.items()) + "}"

    @property
    def elementwise_ops(self) -> list[Op]:
        return [op for op in self.ops if op.kind == "elementwise"]

    @property
    def custom_ops(self) -> list[Op]:
        return [op for op in self.ops if op.kind == "custom"]

    @property
    def custom_ops_by_name(self) -> list[Op]:
        """The custom ops sorted by name: the order of their imports that ruff's isort keeps."""
        return sorted(self.custom_ops, key=lambda op: op.name)

    @property
    def n_ops(self) -> int:
        return len(self.ops)

    @property
    def spec_yaml(self) -> str:
        """The canonical spec as YAML (`<namespace>/spec.yaml`, `python -m <namespace> spec`)."""
        import yaml

        return yaml.safe_dump(
            self.answers(), indent=4, allow_unicode=True, default_flow_style=False, sort_keys=True, width=1000
        )

    @property
    def py_all(self) -> str:
        """`__all__` of the package: the fixed exports, then every op; laid out as `ruff
        format` leaves it (one line when `__all__ = [...]` fits, else one name a line)."""
        items = ['"OPS"', '"OpInfo"'] + [f'"{op.name}"' for op in self.ops]
        one_line = "[" + _join(items) + "]"
        if len("__all__ = ") + len(one_line) <= PY_LINE_LENGTH:
            return one_line
        return "[\n" + "".join(f"    {item},\n" for item in items) + "]"

    def answers(self) -> dict[str, Any]:
        """The spec in canonical form (what a user could write back as a data file)."""
        out: dict[str, Any] = {
            "package_name": self.package_name,
            "namespace": self.namespace,
            "soc_model": self.soc_model,
            "op_package_arch": self.op_package_arch,
            "activation_dtype": self.activation_dtype,
            "layout_support": self.layout_support,
            "ops": [],
        }
        for op in self.ops:
            entry: dict[str, Any] = {
                "name": op.name,
                "qnn_type": op.qnn_type,
                "kind": op.kind,
                "doc": op.doc,
                "inputs": op.input_names,
            }
            if op.params:
                entry["params"] = [{k: v for k, v in asdict(p).items() if k != "index"} for p in op.params]
            if op.expr is not None:
                entry["expr"] = op.expr
            if op.kind == "custom" and not op.outputs_are_default:
                entry["outputs"] = [{"name": o.name, "shape": o.shape.answers()} for o in op.outputs]
            if op.rowwise:
                entry["rowwise"] = True
            out["ops"].append(entry)
        return out


def _join(items: list[str]) -> str:
    """An argument or initialiser list: separators between items, never after the last."""
    return ", ".join(items)


# The rendered project's line length (template/pyproject.toml.jinja, [tool.ruff]).
PY_LINE_LENGTH = 120
# Where _py_tuple's literals stand: an argument of a call inside the OPS tuple.
_OPS_TABLE_INDENT = 8


def _py_tuple(items: list[str], keyword: str = "") -> str:
    """A tuple literal as `ruff format` leaves it: on one line when `<keyword><tuple>,`
    fits, else one item per line (with the trailing comma that keeps it so)."""
    return _py_seq("(", items, ")", _OPS_TABLE_INDENT, keyword, single_comma=True)


def _py_seq(
    open_: str, items: list[str], close: str, indent: int, head: str = "", tail: str = ",", single_comma: bool = False
) -> str:
    """A list or tuple literal that starts a line indented by `indent` after `head` and is
    followed by `tail`, as `ruff format` leaves it: on that line when it fits, else one
    item a line with the trailing comma that keeps it so.  (Exploding a literal that
    would fit is stable too: the trailing comma keeps it exploded; the check errs that way.)"""
    last = "," if single_comma and len(items) == 1 else ""
    one_line = open_ + ", ".join(items) + last + close
    if indent + len(head) + len(one_line) + len(tail) <= PY_LINE_LENGTH:
        return one_line
    pad = " " * (indent + 4)
    return open_ + "\n" + "".join(f"{pad}{item},\n" for item in items) + " " * indent + close


def _py_call(func: str, args: list[str], indent: int, head: str = "", tail: str = "") -> str:
    """`func(args...)` starting a line indented by `indent` after `head` and followed by
    `tail`, as `ruff format` leaves it: on that line when it fits, else one argument a
    line with the trailing comma that keeps it so (ruff never joins a call that has it)."""
    one_line = f"{func}({', '.join(args)})"
    if indent + len(head) + len(one_line) + len(tail) <= PY_LINE_LENGTH:
        return one_line
    pad = " " * (indent + 4)
    return f"{func}(\n" + "".join(f"{pad}{a},\n" for a in args) + " " * indent + ")"


def _py_lines(items: list[str], indent: int = 8) -> str:
    """Call arguments or tuple items one a line, each with its comma (the last one the
    magic trailing comma that keeps `ruff format` from joining them): the template writes
    the first line's indent."""
    return (",\n" + " " * indent).join(items) + ","


def _py_def_params(name: str, params: list[str], returns: str | None) -> str:
    """What goes between the parentheses of a top-level `def name(...) -> returns:` (or
    `def name(...):` when `returns` is None) as `ruff format` leaves it: the parameters on
    the def's line when it fits; else on one indented line of their own; else one a line,
    with the trailing comma that keeps them so."""
    joined = ", ".join(params)
    annotation = "" if returns is None else f" -> {returns}"
    if len(f"def {name}({joined}){annotation}:") <= PY_LINE_LENGTH:
        return joined
    if 4 + len(joined) <= PY_LINE_LENGTH:
        return f"\n    {joined}\n"
    return "\n" + "".join(f"    {p},\n" for p in params)


# The rendered .clang-format's ColumnLimit (template/.clang-format).
C_COLUMN_LIMIT = 120


def _c_compute_signature(qnn_type: str, tail: str) -> str:
    """`int <T>_compute(const <T>_args *args)<tail>` as clang-format leaves it: one line
    when it fits, else the parameter on the next line (continuation indent 4)."""
    head, param = f"int {qnn_type}_compute(", f"const {qnn_type}_args *args){tail}"
    if len(head) + len(param) <= C_COLUMN_LIMIT:
        return head + param
    return f"{head}\n    {param}"


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


def check_size(raw: Any) -> None:
    """Refuse a raw spec too big to be a spec, before anything walks or prints it.

    Every value is counted each time it is reached, so values that YAML aliases share
    (or a structure that contains itself) count as often as they would be expanded.
    """
    values = 0
    text = 0
    stack = [raw]
    while stack:
        value = stack.pop()
        values += 1
        if values > MAX_RAW_VALUES:
            raise SpecError(
                "spec", f"is too large: more than {MAX_RAW_VALUES} values (YAML aliases count once per use)"
            )
        if isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, (list, tuple, set, frozenset)):
            stack.extend(value)
        elif isinstance(value, (str, bytes)):
            text += len(value)
            if text > MAX_RAW_TEXT:
                raise SpecError("spec", f"is too large: more than {MAX_RAW_TEXT} characters of text")


def validate(raw: Any) -> Package:
    """The whole spec, checked; raises SpecError at the first broken rule."""
    check_size(raw)
    spec = _require_mapping("spec", raw)
    _unknown_keys("", spec, TOP_KEYS)
    for key in ("package_name", "namespace"):
        if spec.get(key) in (None, ""):
            raise SpecError(key, "is required")
    if spec.get("ops") in (None, "", []):
        raise SpecError("ops", "is required: a list of at least one op")

    package_name = _name("package_name", names.check_camel, spec["package_name"])
    namespace = _name("namespace", names.check_snake, spec["namespace"])
    _name("namespace", lambda n: names.check_free(n, namespace_reserved()), namespace)
    soc_model = _choice("soc_model", _given(spec, "soc_model", "SM8850"), LPAI_SOCS)
    arch = _choice("op_package_arch", _given(spec, "op_package_arch", "v79"), HEXAGON_ARCHS)

    dtype = _given(spec, "activation_dtype", "uint8")
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
            raise SpecError(
                f"ops[{i}].qnn_type", f"duplicate qnn_type {op.qnn_type!r} (also {seen_types[op.qnn_type]})"
            )
        if op.qnn_type == package_name:
            raise SpecError(f"ops[{i}].qnn_type", "must differ from package_name (the C symbols would clash)")
        seen_names[op.name] = f"ops[{i}]"
        seen_types[op.qnn_type] = f"ops[{i}]"
        ops.append(op)
    layout = _choice("layout_support", _given(spec, "layout_support", "shape_ne_layout"), LAYOUT_SUPPORTS)
    return Package(package_name, namespace, soc_model, arch, dtype, tuple(ops), layout)


def _validate_op(path: str, raw: Any, namespace: str) -> Op:
    op = _require_mapping(path, raw)
    _unsupported_keys(path, op, UNSUPPORTED_OP_KEYS)
    _unknown_keys(path, op, OP_KEYS)
    if op.get("name") in (None, ""):
        raise SpecError(f"{path}.name", "is required")
    name = _name(f"{path}.name", names.check_snake, op["name"])
    _name(f"{path}.name", names.check_not_builtin, name)
    _name(f"{path}.name", lambda n: names.check_free(n, op_name_reserved()), name)
    if name == namespace:
        raise SpecError(f"{path}.name", "must differ from namespace (the op module would shadow the package)")

    qnn_type = _given(op, "qnn_type", None)
    if qnn_type is None:
        qnn_type = names.camel_from_snake(name)
    qnn_type = _name(f"{path}.qnn_type", names.check_camel, qnn_type)

    kind = _choice(f"{path}.kind", _given(op, "kind", "elementwise"), KINDS)

    doc = op.get("doc")
    if doc is None:
        doc = f"Custom op {name}." if kind == "custom" else f"Elementwise op {name}."
    _check_doc(f"{path}.doc", doc)

    inputs_raw = op.get("inputs")
    if inputs_raw is None:
        raise SpecError(f"{path}.inputs", f"is required (1 to {MAX_INPUTS} tensor names)")
    if not isinstance(inputs_raw, list) or not inputs_raw:
        raise SpecError(f"{path}.inputs", f"must be a list of 1 to {MAX_INPUTS} tensor names, got {inputs_raw!r:.60}")
    if len(inputs_raw) > MAX_INPUTS:
        raise SpecError(
            f"{path}.inputs",
            f"more than {MAX_INPUTS} inputs are not supported; workaround: "
            "torch.stack or torch.cat inputs of one shape into one tensor before the op, or "
            "split the op in two (docs/spec.md, Limits)",
        )
    inputs: list[Input] = []
    used: dict[str, str] = {}
    for j, value in enumerate(inputs_raw):
        fp = f"{path}.inputs[{j}]"
        if isinstance(value, dict):
            raise SpecError(
                fp,
                "must be a tensor name: a per-input shape or dtype is not supported (every "
                "input is an 8-bit tensor of any shape; docs/spec.md, Limits)",
            )
        n = _name(fp, names.check_snake, value)
        _name(fp, lambda v: names.check_free(v, argument_reserved()), n)
        _check_not_function(fp, n)
        if n in used:
            raise SpecError(fp, f"duplicate name {n!r} (also {used[n]})")
        used[n] = fp
        inputs.append(Input(n, j))

    params_raw = _given(op, "params", [])
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
        _name(f"{fp}.name", lambda v: names.check_free(v, argument_reserved()), n)
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

    outputs = _validate_outputs(path, op, kind, inputs, used)
    rowwise = _validate_rowwise(path, op, kind, outputs)
    model = Op(namespace, name, qnn_type, kind, doc, tuple(inputs), tuple(params), expr_text, tree, outputs, rowwise)
    if kind == "custom":
        _check_shape_members(model, used)
    return model


def _unsupported_keys(field_path: str, mapping: dict, unsupported: dict[str, str]) -> None:
    for key in mapping:
        if key in unsupported:
            raise SpecError(f"{field_path}.{key}", unsupported[key])


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
    for j, oraw in enumerate(outputs_raw):
        fp = f"{path}.outputs[{j}]"
        o = _require_mapping(fp, oraw)
        _unsupported_keys(fp, o, UNSUPPORTED_OUTPUT_KEYS)
        _unknown_keys(fp, o, OUTPUT_KEYS)
        for key in OUTPUT_KEYS:
            if key not in o:
                raise SpecError(f"{fp}.{key}", "is required")
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
        outputs.append(Output(n, j, _validate_shape(f"{fp}.shape", o["shape"], by_name)))
    return tuple(outputs)


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
    return OutputShape("reduce", inputs[source], tuple(dims), keepdim)


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


def _given(mapping: dict, key: str, default: Any) -> Any:
    """The value of `key`, or `default` when it is absent or null; any other value
    (`false`, `0`, `{}`, "") is checked as given, never silently replaced."""
    value = mapping.get(key)
    return default if value is None else value


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


# ---------------------------------------------------------------- reserved names
# Each maps a name to the reason it is taken, read from what the templates generate
# (hooks/names.py) and from the installed dependencies; the first reason found wins.


def _merge(*tables: dict[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for table in tables:
        for name, reason in table.items():
            out.setdefault(name, reason)
    return out


@functools.cache
def namespace_reserved() -> dict[str, str]:
    ops_attrs, _ = names.torch_ops_attributes()
    return _merge(
        names.generated_modules(),
        {n: "is an attribute of torch.ops, so torch.ops.<namespace> would not reach the ops" for n in ops_attrs},
        {n: "is a torch.library namespace that torch owns" for n in names.TORCH_NAMESPACES},
        names.dependency_modules(),
        {n: "is a standard-library module; the package would shadow it" for n in sys.stdlib_module_names},
    )


@functools.cache
def op_name_reserved() -> dict[str, str]:
    _, namespace_attrs = names.torch_ops_attributes()
    return _merge(
        names.generated_globals(),
        {
            n: "is an attribute of torch.ops.<namespace>, so torch.ops.<namespace>.<op> would not reach the op"
            for n in namespace_attrs
        },
    )


@functools.cache
def argument_reserved() -> dict[str, str]:
    """Names an input or a param must not take."""
    return _merge(
        {
            f.name: "is a member the template puts in a custom op's args struct (include/ops/<qnn_type>_user.h)"
            for f in ARGS_STRUCT_FIELDS
        },
        {OUT_ARGUMENT: "is the output argument of the op's .out overload"},
        {"self": "is reserved in torch schemas"},
        names.generated_globals(),
        names.builtins_used_by_generated_functions(),
    )


def _check_not_function(fp: str, n: str) -> None:
    if n in expr_mod.FUNCTIONS:
        raise SpecError(fp, f"{n!r} is an expression function name")


def _param_default(fp: str, ptype: str, value: Any) -> float | int | bool:
    if ptype == "bool":
        if not isinstance(value, bool):
            raise SpecError(fp, f"must be true or false for a bool param, got {value!r:.40}")
        return value
    if ptype == "float" and isinstance(value, str) and FLOAT_TEXT_RE.match(value):
        value = float(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SpecError(fp, f"must be a number for a {ptype} param, got {value!r:.40}")
    if ptype == "int":
        if isinstance(value, float):
            if not value.is_integer():
                raise SpecError(fp, f"must be an integer for an int param, got {value!r}")
            value = int(value)
        if not 0 <= value <= UINT32_MAX:
            raise SpecError(
                fp,
                f"must be in [0, {UINT32_MAX}]: ExecuTorch sends an int param to QNN as "
                "UINT_32 and fails on a negative one (use a float param for signed values)",
            )
        return int(value)
    try:
        value = float(value)
    except OverflowError:
        value = math.inf
    if not math.isfinite(value) or (value != 0 and not expr_mod.MIN_LITERAL <= abs(value) <= expr_mod.MAX_LITERAL):
        raise SpecError(
            fp, f"must be a finite number with magnitude in [{expr_mod.MIN_LITERAL:g}, {expr_mod.MAX_LITERAL:g}] or 0"
        )
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
    except ValueError as exc:  # e.g. an integer beyond Python's digit limit
        raise SpecError("spec", f"cannot be read: {str(exc).splitlines()[0]}") from None
    return validate(raw)
