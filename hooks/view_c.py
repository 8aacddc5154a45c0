"""The C and C++ view: how the model is spelled in the op package's sources.

`op.c`, `param.c` (hooks/model.py).  Declarations, calls, initialisers, flags and
comments, laid out as clang-format (template/.clang-format) leaves them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import expr as expr_mod
from .layout import join
from .model import Op, Package, Param

# The rendered .clang-format's ColumnLimit (template/.clang-format).
C_COLUMN_LIMIT = 120

_TRIGRAPH = re.compile(r"\?\?(?=[=/'()!<>-])")


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
# Every tensor also has its own `<name>_shape` (COp.args_members).
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


class CParam:
    def __init__(self, param: Param):
        self.param = param

    @property
    def default(self) -> str:
        """The default as a C literal: `3.0f`, `7u`, `1`."""
        p = self.param
        if p.type == "float":
            return expr_mod.c_float(p.default)
        if p.type == "bool":
            return "1" if p.default else "0"
        return f"{p.default}u"

    @property
    def kind(self) -> str:
        """How the kernel reads the scalar (lpai_param_kind in lpai_glue.h)."""
        return {"float": "LPAI_PARAM_F32", "int": "LPAI_PARAM_U32", "bool": "LPAI_PARAM_U32_BOOL"}[self.param.type]

    @property
    def type(self) -> str:
        """Its C type in a custom op's args struct: float, uint32_t (exact, as sent) or bool."""
        return {"float": "float", "int": "uint32_t", "bool": "bool"}[self.param.type]

    @property
    def args_fill(self) -> str:
        """The statement of `<QnnType>_call` that sets it in the args struct."""
        p = self.param
        if p.type == "float":
            return f"args.{p.name} = c->params[{p.index}];"
        if p.type == "int":
            return f"args.{p.name} = c->params_u32[{p.index}];"
        return f"args.{p.name} = c->params_u32[{p.index}] != 0u;"

    @property
    def spec(self) -> str:
        """The param's lpai_param_spec initialiser: its name, by which the kernel asks for
        it (getParamTensor), and how it is read (src/ops/<Op>_inference.c)."""
        return "{" + join([self.name, self.kind]) + "}"

    @property
    def test_kind(self) -> str:
        """The scalar type host/test_kernels.c sends it as (the emulator's P_F32/P_U32)."""
        return "P_F32" if self.param.type == "float" else "P_U32"

    @property
    def name(self) -> str:
        """The name as a C string literal (a checked identifier: nothing to escape)."""
        return f'"{self.param.name}"'


class COp:
    def __init__(self, op: Op):
        self.op = op

    @property
    def doc(self) -> str:
        return doc_c(self.op.doc)

    @property
    def header_guard(self) -> str:
        """The include guard of include/ops/<QnnType>_user.h."""
        return f"{self.op.qnn_type.upper()}_USER_H"

    @property
    def is_custom(self) -> str:
        """1 for a custom op, 0 for an elementwise one (a C int flag)."""
        return "1" if self.op.kind == "custom" else "0"

    @property
    def has_sse41(self) -> str:
        """1 when the op has an SSE4.1 copy of its kernel (expr_sse41), else 0 (a C int flag)."""
        return "1" if self.expr_sse41 else "0"

    @property
    def is_rowwise(self) -> str:
        """1 for a `rowwise: true` custom op, else 0 (a C int flag)."""
        return "1" if self.op.rowwise else "0"

    # ------------------------------------------------------------ the HTP op (C++, QHPI)
    def _htp_param(self, k: int) -> str:
        return f"inputs[kInputs + {k}u]"

    def _htp_params(self, of_float: str, of_int: str) -> str:
        """Every param's input, in OpDef order, read through one of two conversions (each
        a C++ expression with {} for the input): of_float for a float param (sent as
        FLOAT_32), of_int for an int or bool one (sent as UINT_32)."""
        return join(
            [
                (of_float if p.type == "float" else of_int).format(self._htp_param(k))
                for k, p in enumerate(self.op.params)
            ]
        )

    @property
    def htp_params_f32(self) -> str:
        """Every param as float, in OpDef order (the math's params[]): a float param as
        sent, an int or bool one (UINT_32, read exactly) converted."""
        return self._htp_params("htp_param_f32({})", "static_cast<float>(htp_param_u32({}))")

    @property
    def htp_params_u32(self) -> str:
        """Every param as uint32, in OpDef order (a custom op's params_u32[]): an int or
        bool one exact, a float one converted as the LPAI kernel converts it."""
        return self._htp_params("htp_u32_of_f32(htp_param_f32({}))", "htp_param_u32({})")

    @property
    def htp_param_types(self) -> str:
        """The QHPI element type of each param's input, in OpDef order: Float32 for a float,
        Int32 for an int or bool (ExecuTorch sends both as QNN_DATATYPE_UINT_32)."""
        return join(["QHPI_Float32" if p.type == "float" else "QHPI_Int32" for p in self.op.params])

    @property
    def htp_cost(self) -> str:
        """The scheduler's cycles per element of the op's kernel (a rough figure: a custom op
        dequantizes to float and back, an expression calling exp, log, ... costs more)."""
        if self.op.kind == "custom":
            return "40.0f"
        return "20.0f" if expr_mod.cost(self.op.tree).libm else f"{2 + self.op.n_inputs}.0f"

    # ------------------------------------------------------------ a custom op's C API
    @property
    def _fixed_fields(self) -> list[StructField]:
        """ARGS_STRUCT_FIELDS without `out` when the first output is itself named `out`."""
        return [f for f in ARGS_STRUCT_FIELDS if not (f.name == "out" and self.op.outputs[0].name == "out")]

    @property
    def args_members(self) -> list[str]:
        """The lines of `<QnnType>_args` (include/ops/<QnnType>_user.h) of a custom op:
        each input and output with its own shape, the fixed members of
        ARGS_STRUCT_FIELDS (the first output's), the params."""
        rows = []
        for i in self.op.inputs:
            rows.append((f"const float *{i.name};", f'input "{i.name}", dequantized: {i.name}_shape.count values'))
            rows.append((f"lpai_shape {i.name}_shape;", f'rank, dims and count of "{i.name}"'))
        for o in self.op.outputs:
            rows.append((f"float *{o.name};", f'output "{o.name}": write {o.name}_shape.count real values'))
            rows.append((f"lpai_shape {o.name}_shape;", f"{o.shape.text}"))
        rows += [(f"{f.decl};", f.comment) for f in self._fixed_fields]
        rows += [
            (f"{p.c.type} {p.name};", f'parameter "{p.name}" ({p.type}), default {p.xml.default}')
            for p in self.op.params
        ]
        # Each comment on a line of its own above its member: a trailing comment would
        # make clang-format break or realign the line once names get long (ReflowComments
        # is off in .clang-format, so it leaves a long comment line as it is).
        return [line for decl, comment in rows for line in (f"/* {comment} */", decl)]

    @property
    def args_fill(self) -> list[str]:
        """The statements of `<QnnType>_call` that fill `args` from the dequantized call `c`."""
        lines = []
        for i in self.op.inputs:
            lines += [f"args.{i.name} = c->in[{i.index}];", f"args.{i.name}_shape = c->in_shape[{i.index}];"]
        for o in self.op.outputs:
            lines += [f"args.{o.name} = c->out[{o.index}];", f"args.{o.name}_shape = c->out_shape[{o.index}];"]
        lines += [f.fill for f in self._fixed_fields]
        lines += [p.c.args_fill for p in self.op.params]
        return lines

    @property
    def compute_decl(self) -> str:
        """The prototype of `<QnnType>_compute` (include/ops/<QnnType>_user.h), laid out
        as clang-format leaves it: on one line when it fits, else broken after `(`."""
        return _c_compute_signature(self.op.qnn_type, ";")

    @property
    def compute_def(self) -> str:
        """The head of its definition in user/<QnnType>_math.c (the brace on the next line)."""
        return _c_compute_signature(self.op.qnn_type, "")

    @property
    def args_signature(self) -> str:
        """The identifier that names the arguments of `<QnnType>_compute` (every input,
        output and param, in order, with each param's C type): `<QnnType>_ARGS_IN_x_OUT_y_FLOAT_gain`.
        include/ops/<QnnType>_user.h defines it; user/<QnnType>_math.c names the one it
        was written for (`written_for`), and does not compile when the two differ. The
        names are lower case and the separators upper case: two argument lists never
        give the same identifier."""
        parts = [f"IN_{i.name}" for i in self.op.inputs] + [f"OUT_{o.name}" for o in self.op.outputs]
        parts += [f"{p.type.upper()}_{p.name}" for p in self.op.params]
        return "_".join([f"{self.op.qnn_type}_ARGS", *parts])

    @property
    def written_for(self) -> str:
        """The macro user/<QnnType>_math.c defines to the `args_signature` it was written
        for, before it includes its header."""
        return f"{self.op.qnn_type}_MATH_WRITTEN_FOR"

    @property
    def args_text(self) -> str:
        """The arguments in words, for the error of a math written for other ones:
        `inputs x; outputs y; params float gain (args->gain)`."""
        groups = [
            ("input" if len(self.op.inputs) == 1 else "inputs", [i.name for i in self.op.inputs]),
            ("output" if len(self.op.outputs) == 1 else "outputs", [o.name for o in self.op.outputs]),
            ("param" if len(self.op.params) == 1 else "params", [f"{p.c.type} {p.name}" for p in self.op.params]),
        ]
        return "; ".join(f"{label} {', '.join(items)}" for label, items in groups if items)

    @property
    def output_rules(self) -> list[str]:
        """One `lpai_shape_rule` initialiser per output (include/lpai_shapes.h), with the
        rule in words: the kernel and validateOp check each output's dims with it."""
        lines = []
        for o in self.op.outputs:
            shape = o.shape
            source = shape.source.index if shape.source is not None else 0
            dims = list(shape.dims) + [0] * (5 - len(shape.dims))
            init = (
                f"{{{C_SHAPE_KINDS[shape.kind]}, {source}u, {1 if shape.keepdim else 0}u, "
                f"{len(shape.dims)}u, {{{', '.join(str(d) for d in dims)}}}}}"
            )
            lines.append(f"{init}, /* {o.name}: {shape.text} */")
        return lines

    # ------------------------------------------------------------ an elementwise op's math
    @property
    def expr(self) -> str | None:
        """The float C expression; inputs `in_<name>`, params `p_<name>`."""
        return expr_mod.to_c(self.op.tree) if self.op.tree is not None else None

    @property
    def expr_sse41(self) -> str | None:
        """The expression in the op's SSE4.1 copy (x86, chosen at run time): its functions'
        `c_sse41` forms; None when no function of it has one (the op has no such copy)."""
        if self.op.tree is None:
            return None
        text = expr_mod.to_c(self.op.tree, sse41=True)
        return text if text != self.expr else None

    @property
    def execute_sse41_head(self) -> str:
        """The head of the LPAI kernel's SSE4.1 copy (src/ops/<QnnType>_inference.c), as
        clang-format leaves it: one line when it fits, else broken after the return type."""
        return _c_break_after_return_type(
            "static LPAI_TARGET_SSE41 int32_t", f"{self.op.qnn_type}_executeOp_sse41(QnnLpai_CustomOpNode_t node)"
        )

    @property
    def math_args(self) -> str:
        """The parameters of `<QnnType>_math`: `float in_input, float p_factor`."""
        args = [f"float {expr_mod.c_var(i.name, True)}" for i in self.op.inputs]
        args += [f"float {expr_mod.c_var(p.name, False)}" for p in self.op.params]
        return ", ".join(args)

    @property
    def math_unused(self) -> list[str]:
        """The C math function's arguments that the expression never reads (a param the
        expr leaves unused): the template casts them to void for -Wunused-parameter."""
        return [expr_mod.c_var(p.name, False) for p in self.op.unread_params]

    @property
    def math_call_v(self) -> str:
        """Arguments of `<QnnType>_math` in `_math_v(in, params)`: in[0], ..., params[0], ..."""
        return join([f"in[{i.index}]" for i in self.op.inputs] + [f"params[{p.index}]" for p in self.op.params])

    @property
    def math_call_scalar(self) -> str:
        """Arguments of `<QnnType>_math` in `_math1(a, params)` ... `_math4(a, b, c, d, params)`."""
        return join(list(C_SCALAR_ARGS[: self.op.n_inputs]) + [f"params[{p.index}]" for p in self.op.params])

    @property
    def math_scalar_params(self) -> str:
        """The parameters of `_math<n>`, the blocked loop's form of the math: `float a, float b, const float *params`."""
        return join([f"float {a}" for a in C_SCALAR_ARGS[: self.op.n_inputs]] + ["const float *params"])

    @property
    def math_fn_type(self) -> str:
        """The C type of `_math<n>` (lpai_elementwise.h): lpai_unary_fn ... lpai_quaternary_fn."""
        return C_MATH_FN_TYPES[self.op.n_inputs - 1]

    @property
    def nary_fns(self) -> str:
        """The f2, f3, f4 arguments of lpai_execute_nary_u8: `math` in the op's place, NULL elsewhere."""
        return join(["math" if n == self.op.n_inputs else "NULL" for n in (2, 3, 4)])

    @property
    def math_cost(self) -> str:
        """MATH_COST of the kernel: instructions per evaluation (hooks/expr.py cost)."""
        return f"{expr_mod.cost(self.op.tree).scalar}u"

    @property
    def math_vectorises(self) -> str:
        """MATH_VECTORISES of the kernel: 1 when the math has no libm call."""
        return "1" if expr_mod.cost(self.op.tree).vectorises else "0"

    # ------------------------------------------------------------ host/test_kernels.c
    @property
    def test_case(self) -> list[str]:
        """The param rows of the op's case in host/test_kernels.c: kinds, defaults, names,
        each closed by the sentinel the "extra parameter" case reads."""
        params = self.op.params
        return [
            "{" + join([p.c.test_kind for p in params] + ["P_F32"]) + "}",
            "{" + join([p.c.default for p in params] + ["0.0"]) + "}",
            "{" + join([p.c.name for p in params] + ["NULL"]) + "}",
        ]


# ---------------------------------------------------------------- clang-format's layout


def _c_compute_signature(qnn_type: str, tail: str) -> str:
    """`int <T>_compute(const <T>_args *args)<tail>` as clang-format leaves it: one line
    when it fits, else the parameter on the next line (continuation indent 4)."""
    head, param = f"int {qnn_type}_compute(", f"const {qnn_type}_args *args){tail}"
    if len(head) + len(param) <= C_COLUMN_LIMIT:
        return head + param
    return f"{head}\n    {param}"


def _c_break_after_return_type(head: str, declarator: str) -> str:
    """`<head> <declarator>` as clang-format leaves a function's head: one line when it
    fits, else the declarator on a line of its own (LLVM style's choice when that line
    fits, which every name the spec allows does)."""
    line = f"{head} {declarator}"
    if len(line) <= C_COLUMN_LIMIT:
        return line
    assert len(declarator) <= C_COLUMN_LIMIT, declarator
    return f"{head}\n{declarator}"


class CPackage:
    def __init__(self, pkg: Package):
        self.pkg = pkg

    @property
    def htp_provider_head(self) -> str:
        """The head of the HTP package's interface provider (src/<Package>Interface.cpp),
        as clang-format leaves it: one line when it fits, else broken after the return type."""
        return _c_break_after_return_type(
            'extern "C" Qnn_ErrorHandle_t', f"{self.pkg.interface_provider}(QnnOpPackage_Interface_t *interface)"
        )

    @property
    def htp_archs_make(self) -> str:
        """The HTP package's Hexagon targets as a Make word list (op_package/htp/makefiles/package.mk)."""
        return " ".join(self.pkg.htp_archs)

    @property
    def layout_shape_ne_layout(self) -> str:
        """1 when the ops declare QNN_LPAI_OP_LAYOUT_SHAPE_NE_LAYOUT (include/lpai_package.h)."""
        return "1" if self.pkg.layout_support == "shape_ne_layout" else "0"

    @property
    def layout_flag_name(self) -> str:
        """The flag getLayoutSupportFlag reports, as the SDK names it (rendered README)."""
        if self.pkg.layout_support == "shape_ne_layout":
            return "QNN_LPAI_OP_LAYOUT_SHAPE_NE_LAYOUT"
        return "QNN_LPAI_OP_LAYOUT_DEFAULT"
