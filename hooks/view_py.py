"""The Python view: how the model is spelled in the rendered Python code.

`op.py`, `param.py`, `output.py`, `pkg.py` (hooks/model.py).  Signatures, calls
and literals, each laid out for its place as `ruff format` leaves it (the
layout helpers at the end of this file), so that the rendered project is clean under
its own `ruff format --check` for every valid spec.
"""

from __future__ import annotations

from . import expr as expr_mod
from .layout import join
from .model import Op, Output, Package, Param

# The rendered project's line length (template/pyproject.toml.jinja, [tool.ruff]).
PY_LINE_LENGTH = 120
# Where _py_tuple's literals stand: an argument of a call inside the OPS tuple.
_OPS_TABLE_INDENT = 8


def doc_python(text: str) -> str:
    """Inside a triple-quoted Python string: no quote can end it, no backslash escapes."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def py_number(value: float | int | bool) -> str:
    """A Python literal as `ruff format` writes it: repr() gives 1e+30, ruff 1e30."""
    return repr(value).replace("e+", "e")


class PyParam:
    def __init__(self, param: Param):
        self.param = param

    @property
    def default(self) -> str:
        return py_number(self.param.default)

    @property
    def op_info(self) -> str:
        """The (name, type, default) tuple of OpInfo.params in ops.py."""
        return f'("{self.param.name}", "{self.param.type}", {self.default})'


class PyOutput:
    def __init__(self, output: Output):
        self.output = output

    @property
    def spec_rule(self) -> str:
        """The rule as the spec states it, a Python literal for the rendered tests
        (tests/spec_values.py): ("broadcast",) | ("like", input name) |
        ("reduce", input name, dims, keepdim)."""
        sh = self.output.shape
        if sh.kind == "broadcast":
            return '("broadcast",)'
        if sh.kind == "like":
            return f'("like", "{sh.source.name}")'
        return f'("reduce", "{sh.source.name}", {tuple(sh.dims)!r}, {sh.keepdim!r})'


class PyOp:
    def __init__(self, op: Op):
        self.op = op

    @property
    def doc(self) -> str:
        return doc_python(self.op.doc)

    @property
    def expr_torch(self) -> str | None:
        """The torch expression over tensors; params are 0-d float32 tensors."""
        return expr_mod.to_torch(self.op.tree) if self.op.tree is not None else None

    @property
    def expr_numpy(self) -> str | None:
        """The float64 numpy expression, the independent reference."""
        return expr_mod.to_numpy(self.op.tree) if self.op.tree is not None else None

    @property
    def torch_ops_path(self) -> str:
        return f"torch.ops.{self.op.namespace}.{self.op.name}"

    @property
    def output_labels(self) -> list[str]:
        """How the device reports name each output: the op, plus the output's name when
        the op has several (`ns::center:mean`)."""
        op = self.op
        if op.n_outputs == 1:
            return [op.qualified_name]
        return [f"{op.qualified_name}:{o.name}" for o in op.outputs]

    # ------------------------------------------------------------ signatures
    @property
    def returns(self) -> str:
        """The return annotation of the op's Python functions."""
        if self.op.n_outputs == 1:
            return "torch.Tensor"
        return "tuple[" + ", ".join("torch.Tensor" for _ in self.op.outputs) + "]"

    @property
    def signature(self) -> str:
        """Of the public function: inputs, then params with the spec's defaults."""
        return ", ".join(self._params(False))

    @property
    def signature_required(self) -> str:
        """Of the implementations behind the schema: every param required."""
        return ", ".join(self._params(True))

    def _params(self, required: bool) -> list[str]:
        args = [f"{i.name}: torch.Tensor" for i in self.op.inputs]
        if required:
            return args + [f"{p.name}: {p.type}" for p in self.op.params]
        return args + [f"{p.name}: {p.type} = {p.py.default}" for p in self.op.params]

    # The parameter lists of the op's Python functions, each the text between the
    # parentheses of `def <name>(...) -> <returns>:` (the template writes the rest, so
    # that the reserved-name scan still sees `def {{ op.name }}`), laid out as `ruff
    # format` leaves it for any length of names.
    @property
    def params_public(self) -> str:
        """The public function and eager's: inputs, then params with the spec's defaults."""
        return _py_def_params(self.op.name, self._params(False), self.returns)

    @property
    def params_impl(self) -> str:
        """`_<op>`, the implementation behind the schema: every param required."""
        return _py_def_params(f"_{self.op.name}", self._params(True), self.returns)

    @property
    def params_fake(self) -> str:
        return _py_def_params(f"_{self.op.name}_fake", self._params(True), self.returns)

    @property
    def params_out(self) -> str:
        """`_<op>_out`: every param required, then one keyword per output."""
        outs = [f"{o.name}: torch.Tensor" for o in self.op.outputs]
        return _py_def_params(f"_{self.op.name}_out", [*self._params(True), "*", *outs], self.returns)

    @property
    def reference_signature(self) -> str:
        """tests/reference.py's function: inputs, then params with the spec's defaults,
        untyped (laid out as `ruff format` leaves it, like params_public)."""
        params = [i.name for i in self.op.inputs] + [f"{p.name}={p.py.default}" for p in self.op.params]
        return _py_def_params(self.op.name, params, None)

    @property
    def args(self) -> str:
        return ", ".join([i.name for i in self.op.inputs] + [p.name for p in self.op.params])

    @property
    def inputs(self) -> str:
        """The input names as Python call arguments."""
        return join(self.op.input_names)

    @property
    def int_check_args(self) -> str:
        """Keyword arguments of the call-time uint32 check, '' when the op has no int param."""
        return ", ".join(f"{p.name}={p.name}" for p in self.op.params if p.type == "int")

    # ------------------------------------------------------------ calls
    # The generated calls whose arguments come from the spec, each laid out for its place
    # in a function body of ops.py or eager.py (indent 4) as `ruff format` leaves it
    # (_py_call): on one line when it fits, else one argument a line.
    @property
    def _call_args(self) -> list[str]:
        return [i.name for i in self.op.inputs] + [p.name for p in self.op.params]

    @property
    def int_check_call(self) -> str:
        """`_check_int_params("<ns>::<op>", n=n, ...)`: the call-time uint32 check."""
        ints = [f"{p.name}={p.name}" for p in self.op.params if p.type == "int"]
        return _py_call("_check_int_params", [f'"{self.op.qualified_name}"', *ints], 4)

    @property
    def eager_return(self) -> str:
        """`eager.<op>(inputs..., params...)` after `return `."""
        return _py_call(f"eager.{self.op.name}", self._call_args, 4, "return ")

    @property
    def eager_result(self) -> str:
        """`eager.<op>(inputs..., params...)` after `_result = `."""
        return _py_call(f"eager.{self.op.name}", self._call_args, 4, "_result = ")

    @property
    def user_result(self) -> str:
        """`_user_<op>(inputs..., params...)` (the user's eager math) after `_result = `."""
        return _py_call(f"_user_{self.op.name}", self._call_args, 4, "_result = ")

    @property
    def torch_ops_return(self) -> str:
        """`torch.ops.<ns>.<op>.default(inputs..., params...)` after `return `."""
        return _py_call(f"{self.torch_ops_path}.default", self._call_args, 4, "return ")

    @property
    def _output_shapes_args(self) -> list[str]:
        return [f'"{self.op.qualified_name}"', f'RULES["{self.op.name}"]', self.input_shapes]

    @property
    def shape_unpack(self) -> str:
        """eager.py, an elementwise op: `output_shapes(...)` after `(_shape,) = `."""
        return _py_call("output_shapes", self._output_shapes_args, 4, "(_shape,) = ")

    @property
    def expected_shapes(self) -> str:
        """eager.py, a custom op: `output_shapes(...)` after `_expected = `."""
        return _py_call("output_shapes", self._output_shapes_args, 4, "_expected = ")

    @property
    def _dtype_call(self) -> tuple[str, list[str]]:
        return "output_dtype", [f'"{self.op.qualified_name}"', *(f"{n}={n}" for n in self.op.input_names)]

    @property
    def dtype_assign(self) -> str:
        """`output_dtype("<ns>::<op>", x=x, ...)` after `_dtype = ` (eager.py, the fake
        kernel): the outputs' dtype, and the refusal of a non-float input naming it."""
        return _py_call(*self._dtype_call, 4, "_dtype = ")

    @property
    def dtype_check(self) -> str:
        """`output_dtype("<ns>::<op>", x=x, ...)` as a statement (eager.py, a custom op:
        the refusal of a non-float input before the user's math runs)."""
        return _py_call(*self._dtype_call, 4)

    @property
    def fresh_return(self) -> str:
        """eager.py, an elementwise op: `torch.empty(...).copy_(_result)` after `return `
        (a fresh tensor in `_dtype`, shapes.output_dtype's, on the first input's device)."""
        x = self.op.inputs[0].name
        args = ["_shape", "dtype=_dtype", f"device={x}.device"]
        return _py_call("torch.empty", args, 4, "return ", ".copy_(_result)") + ".copy_(_result)"

    @property
    def check_user_result(self) -> str:
        """eager.py, a custom op: the check of what the user's math returned."""
        args = [f'"{self.op.qualified_name}"', f'"user/{self.op.name}.py"', "_result", "_expected"]
        return _py_call("check_user_result", args, 4)

    @property
    def check_user_signature(self) -> str:
        """eager.py, a custom op: the check that the user's math takes the spec's
        arguments (after a `copier update` that added, removed or renamed one)."""
        where = f'"{self.op.namespace}/user/{self.op.name}.py"'
        names_ = [f'"{n}"' for n in self._call_args]
        return _py_call(
            "check_user_signature", [f'"{self.op.qualified_name}"', where, f"_user_{self.op.name}", *names_], 4
        )

    @property
    def user_math(self) -> str:
        """eager.py, a custom op: `_user_math(...)` after `_user_<op> = `, its eager math
        from user/ imported at the op's first call (never when the package is imported)."""
        return _py_call(
            "_user_math", [f'"{self.op.qualified_name}"', f'"{self.op.name}"'], 4, f"_user_{self.op.name} = "
        )

    @property
    def new_outputs_return(self) -> str:
        """The fake kernel's `_new_outputs(...)` after `return `: the one tensor (`[0]`) of a
        one-output op, the tuple of several."""
        first = "[0]" if self.op.n_outputs == 1 else ""
        args = [f'"{self.op.qualified_name}"', f'RULES["{self.op.name}"]', "_dtype", *self.op.input_names]
        return _py_call("_new_outputs", args, 4, "return ", first) + first

    @property
    def example_call(self) -> str:
        """The op called on a layer's output mapped onto each input's domain (`h`, `h1`,
        ...: example_inputs'), params left to their defaults (README's model examples)."""
        names = self._example_names()
        return f"{self.op.namespace}.{self.op.name}({join([names[d] for d in self.op.input_domains])})"

    def _example_names(self) -> dict[tuple[float, float], str]:
        """Each distinct input domain (Op.input_domains), in the order of the inputs, and
        its variable: `h` for the first, `h1`, `h2` ... after."""
        domains = dict.fromkeys(self.op.input_domains)
        return {d: f"h{k}" if k else "h" for k, d in enumerate(domains)}

    @property
    def example_inputs(self) -> list[str]:
        """The lines of README's model examples that map a layer's output onto the op's
        input domains (Op.input_domains: the values the op is defined and calibrated on),
        one line per distinct domain, each with its comment."""
        names = self._example_names()
        lines = []
        for (lo, hi), var in names.items():
            users = [n for n, d in zip(self.op.input_names, self.op.input_domains) if d == (lo, hi)]
            what = "the op's input domain" if len(names) == 1 else f"the domain of {join(users)}"
            lines.append(f"{var} = {py_number(lo)} + {py_number(hi - lo)} * torch.sigmoid(self.conv(x))  # {what}")
        return lines

    # ------------------------------------------------------------ literals
    @property
    def input_shapes(self) -> str:
        """A Python list of the inputs' shapes, `[x.shape, bias.shape]`: an argument of
        eager.py's `output_shapes(...)`, at an indent of 8 when that call is exploded (one
        item a line when it would not fit there; when the call fits on its line, so does
        the list)."""
        return _py_seq("[", [f"{n}.shape" for n in self.op.input_names], "]", indent=8)

    @property
    def input_shapes_lines(self) -> str:
        """The inputs' shapes, one a line: the items of an exploded list in a function body."""
        return _py_lines([f"{n}.shape" for n in self.op.input_names])

    @property
    def output_returns(self) -> str:
        """What the `.out` implementation returns after `return `: its output argument, or
        the tuple of them, `(mean, centered)` (one a line when it would not fit)."""
        if self.op.n_outputs == 1:
            return self.op.output_names[0]
        return _py_seq("(", self.op.output_names, ")", indent=4, head="return ", tail="")

    @property
    def spec_outputs(self) -> str:
        """tests/spec_values.py: a tuple of (name, rule as the spec states it) per output."""
        rows = [f'("{o.name}", {o.py.spec_rule})' for o in self.op.outputs]
        return _py_seq("(", rows, ")", 4, f'"{self.op.name}": ', single_comma=True)

    @property
    def output_names(self) -> str:
        """The output names as a Python tuple of strings: `("mean", "centered")`, `("out",)`
        (`outputs=` of the OPS table, and an argument of an exploded call)."""
        return _py_tuple([f'"{o.name}"' for o in self.op.outputs], "outputs=")

    @property
    def output_vars(self) -> str:
        """The `.out` keyword arguments as a Python tuple: `(mean, centered)`, `(out,)`."""
        return _py_tuple(self.op.output_names)

    @property
    def output_rules(self) -> str:
        """Each output's shape rule as a Python literal, read by ops.output_shapes:
        ("broadcast",) | ("like", input index) | ("reduce", input index, dims, keepdim)."""
        rules = []
        for o in self.op.outputs:
            sh = o.shape
            if sh.kind == "broadcast":
                rules.append('("broadcast",)')
            elif sh.kind == "like":
                rules.append(f'("like", {sh.source.index})')
            else:
                rules.append(f'("reduce", {sh.source.index}, {tuple(sh.dims)!r}, {sh.keepdim!r})')
        # The value of the op's entry in shapes.py's RULES dict.
        return _py_seq("(", rules, ")", 4, f'"{self.op.name}": ', single_comma=True)

    @property
    def inputs_tuple(self) -> str:
        """`inputs=` of the op's row in ops.py's OPS table, as ruff format writes it."""
        return _py_tuple([f'"{i.name}"' for i in self.op.inputs], "inputs=")

    @property
    def _domain_items(self) -> list[str]:
        return [f"({py_number(lo)}, {py_number(hi)})" for lo, hi in self.op.input_domains]

    @property
    def domains(self) -> str:
        """`domains=` of the op's row in ops.py's OPS table: (low, high) per input, the op's
        input domain (Op.input_domains), which every consumer in the project reads."""
        return _py_tuple(self._domain_items, "domains=")

    @property
    def _span_items(self) -> list[str]:
        return ["None" if s is None else f"({py_number(s[0])}, {py_number(s[1])})" for s in self.op.param_spans]

    @property
    def param_spans(self) -> str:
        """`param_spans=` of the op's row in ops.py's OPS table: per param, the (low, high)
        the tests draw other values from, or None (Op.param_spans)."""
        return _py_tuple(self._span_items, "param_spans=")

    @property
    def other_params(self) -> str:
        """`other_params=` of the op's row in ops.py's OPS table (Op.other_params)."""
        return _py_tuple([py_number(v) for v in self.op.other_params], "other_params=")

    @property
    def spec_param_spans(self) -> str:
        """tests/spec_values.py: the value of the op's entry in SPEC_PARAM_SPANS."""
        return _py_seq("(", self._span_items, ")", 4, f'"{self.op.name}": ', single_comma=True)

    @property
    def spec_other_params(self) -> str:
        """tests/spec_values.py: the value of the op's entry in SPEC_OTHER_PARAMS (a list)."""
        return _py_seq("[", [py_number(v) for v in self.op.other_params], "]", 4, f'"{self.op.name}": ')

    @property
    def spec_domains(self) -> str:
        """tests/spec_values.py: the op's input domains as the spec gives them (the value
        of its entry in SPEC_DOMAINS)."""
        return _py_seq("(", self._domain_items, ")", 4, f'"{self.op.name}": ', single_comma=True)

    @property
    def params_tuple(self) -> str:
        """`params=` of the op's row in ops.py's OPS table: (name, type, default) per param."""
        return _py_tuple([p.py.op_info for p in self.op.params], "params=")

    @property
    def defaults_dict(self) -> str:
        """{name: default} of the params, a Python dict literal."""
        return "{" + join([f'"{p.name}": {p.py.default}' for p in self.op.params]) + "}"


class PyPackage:
    def __init__(self, pkg: Package):
        self.pkg = pkg

    @property
    def libm_ops(self) -> str:
        """The elementwise ops whose expression calls a transcendental function (exp, log,
        tanh, ...: hooks/expr.py `libm`), as a Python frozenset literal: their C math is the
        template's own float32 approximation, not torch's, so a float result is compared
        with a tolerance rather than to the ulp (tests/test_htp_kernels.py)."""
        from . import expr as expr_mod

        names = sorted(op.name for op in self.pkg.elementwise_ops if expr_mod.cost(op.tree).libm)
        return "frozenset({" + ", ".join(f'"{n}"' for n in names) + "})" if names else "frozenset()"

    @property
    def sse41_ops(self) -> str:
        """The elementwise ops with an SSE4.1 copy of their kernel (an expression that calls
        round, floor, ceil or trunc: hooks/expr.py `c_sse41`), as a Python frozenset
        literal: on x86 CPUs with SSE4.1 they run that copy (tests/test_htp_paths.py)."""
        names = sorted(op.name for op in self.pkg.elementwise_ops if op.c.expr_sse41)
        return "frozenset({" + ", ".join(f'"{n}"' for n in names) + "})" if names else "frozenset()"

    @property
    def exports(self) -> str:
        """`__all__` of the package: the fixed exports, then every op; laid out as `ruff
        format` leaves it (one line when `__all__ = [...]` fits, else one name a line)."""
        items = ['"OPS"', '"OpInfo"'] + [f'"{op.name}"' for op in self.pkg.ops]
        one_line = "[" + join(items) + "]"
        if len("__all__ = ") + len(one_line) <= PY_LINE_LENGTH:
            return one_line
        return "[\n" + "".join(f"    {item},\n" for item in items) + "]"

    @property
    def lpai_hw_versions(self) -> str:
        """pkg.lpai_hw_versions as a Python dict literal (double quotes, as ruff format writes it)."""
        return "{" + ", ".join(f'"{soc}": {hw}' for soc, hw in self.pkg.lpai_hw_versions.items()) + "}"

    @property
    def backends(self) -> str:
        """pkg.backends as a Python tuple literal: `("lpai",)`, `("lpai", "htp")`."""
        return _py_seq("(", [f'"{b}"' for b in self.pkg.backends], ")", 0, "BACKENDS = ", "", single_comma=True)

    @property
    def datatypes(self) -> str:
        """The QNN data types of each of the package's backends (pkg.datatypes) as a Python
        dict literal of tuples, the value of `DATATYPES = ` at the top level (one backend a
        line when it would not fit)."""
        items = [
            f'"{b}": ' + _py_seq("(", [f'"{t}"' for t in self.pkg.datatypes[b]], ")", 4, f'"{b}": ', ",", True)
            for b in self.pkg.backends
        ]
        return _py_seq("{", items, "}", 0, "DATATYPES = ", "")

    @property
    def xml_backends(self) -> str:
        """Each of the package's backends' `<SupportedBackend>` (pkg.xml_backend) as a Python
        dict literal."""
        items = [f'"{b}": "{self.pkg.xml_backend[b]}"' for b in self.pkg.backends]
        return _py_seq("{", items, "}", 0, "XML_BACKENDS = ", "")

    @property
    def htp_archs(self) -> str:
        """pkg.htp_archs as a Python tuple literal."""
        return _py_seq("(", [f'"{a}"' for a in self.pkg.htp_archs], ")", 0, "HTP_ARCHS = ", "", single_comma=True)

    @property
    def max_ranks(self) -> str:
        """pkg.max_ranks as a Python dict literal."""
        return _py_seq("{", [f'"{b}": {r}' for b, r in self.pkg.max_ranks.items()], "}", 0, "MAX_RANKS = ", "")

    @property
    def rowwise_op_names(self) -> str:
        """The names of the `rowwise: true` custom ops as a Python set display (`set()` when
        none), the value of `ROWWISE = ` at the top level of a test module (one name a line
        when it would not fit)."""
        names_ = [f'"{op.name}"' for op in self.pkg.ops if op.rowwise]
        return _py_seq("{", names_, "}", 0, "ROWWISE = ", "") if names_ else "set()"


# ---------------------------------------------------------------- ruff format's layout


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
