"""The spec model: defaults, derived names, and the rules that the corpus does not
reach through copier (the corpus in specs/bad/ covers the error messages end to end)."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import time
import xml.etree.ElementTree as ET

import jinja2
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from hooks import names, spec, view_c, view_py

from conftest import EXAMPLES, ROOT


def minimal(**op):
    base = {"name": "mul3", "inputs": ["input"], "expr": "input * 3"}
    base.update(op)
    return {"package_name": "ScaleOpPackage", "namespace": "my_ops", "ops": [base]}


def test_generated_calls_fit_or_explode_as_ruff_format_leaves_them():
    """One line at its place when it fits within 120 columns, else one argument a line
    with the trailing comma (tests/test_stress_specs.py runs ruff format on renders)."""
    short = spec.validate(minimal(params=[{"name": "n", "type": "int", "default": 2}], expr="input * n")).ops[0]
    assert short.py.eager_return == "eager.mul3(input, n)"
    assert short.py.int_check_call == '_check_int_params("my_ops::mul3", n=n)'
    assert short.py.new_outputs_return == '_new_outputs("my_ops::mul3", RULES["mul3"], _dtype, input)[0]'
    assert short.py.dtype_assign == 'output_dtype("my_ops::mul3", input=input)'
    names = [f"p{k}_" + "x" * 29 for k in range(4)]  # 32 characters each
    params = [{"name": n, "type": "int", "default": 1} for n in names]
    long = spec.validate(minimal(params=params, expr="input * " + " * ".join(names))).ops[0]
    lines = long.py.eager_return.splitlines()
    assert lines[0] == "eager.mul3(" and lines[-1] == "    )"
    assert lines[1:-1] == [f"        {n}," for n in ["input", *names]]
    # Exactly at the limit: `    return eager.mul3(...)` of 120 characters stays on its line.
    # Three params: 120 - len("    return eager.mul3(input, , , )") = 86 characters of names.
    edge_names = ["a" * 32, "b" * 32, "c" * 22]
    edge_params = [{"name": n, "type": "float", "default": 1} for n in edge_names]
    edge = spec.validate(minimal(params=edge_params, expr="input")).ops[0]
    assert len("    return " + edge.py.eager_return) == 120 and "\n" not in edge.py.eager_return
    over = spec.validate(minimal(params=[*edge_params[:2], {**edge_params[2], "name": "c" * 23}], expr="input"))
    assert over.ops[0].py.eager_return.startswith("eager.mul3(\n")

    # eager.py's import of a custom op's math at its first call: ruff format wraps it from 121.
    def custom_op(name: str):
        raw = {
            "package_name": "NormOpPackage",
            "namespace": "my_ops",
            "ops": [{"name": name, "kind": "custom", "inputs": ["x"]}],
        }
        return spec.validate(raw).ops[0]

    long_call = custom_op("n" * 32).py.user_math  # 4 + 136 characters on one line
    assert long_call == f'_user_math(\n        "my_ops::{"n" * 32}",\n        "{"n" * 32}",\n    )'
    short_call = custom_op("my_norm").py.user_math
    assert short_call == '_user_math("my_ops::my_norm", "my_norm")'


def test_defaults_and_derived_names():
    pkg = spec.validate(minimal())
    assert (pkg.soc_model, pkg.op_package_arch, pkg.activation_dtype) == ("SM8850", "v79", "uint8")
    assert pkg.library_name == "libQnnScaleOpPackage.so"
    assert pkg.interface_provider == "ScaleOpPackageInterfaceProvider"
    op = pkg.ops[0]
    assert (op.qnn_type, op.kind, op.qualified_name) == ("Mul3", "elementwise", "my_ops::mul3")
    assert op.doc == "Elementwise op mul3."


def test_schema_strings():
    pkg = spec.validate(
        minimal(
            params=[
                {"name": "factor", "type": "float", "default": 3},
                {"name": "n", "type": "int", "default": 2},
                {"name": "on", "type": "bool", "default": False},
            ],
            expr="input * factor + n + on",
        )
    )
    op = pkg.ops[0]
    # No defaults in the functional and .out schemas: torch.export would drop every
    # trailing param equal to its default, and ExecuTorch's builder refuses such a node.
    assert op.torch.schema == "mul3(Tensor input, float factor, int n, bool on) -> Tensor"
    assert op.torch.custom_op_schema == "(Tensor input, float factor, int n, bool on) -> Tensor"
    assert (
        op.torch.out_schema == "mul3.out(Tensor input, float factor, int n, bool on, *, Tensor(a!) out) -> Tensor(a!)"
    )
    assert op.torch.defaults_schema == "mul3.defaults(Tensor input, float factor=3.0, int n=2, bool on=False) -> Tensor"
    assert op.py.signature == "input: torch.Tensor, factor: float = 3.0, n: int = 2, on: bool = False"
    assert op.py.signature_required == "input: torch.Tensor, factor: float, n: int, on: bool"
    assert op.py.int_check_args == "n=n"
    assert op.c.math_args == "float in_input, float p_factor, float p_n, float p_on"
    assert [p.c.default for p in op.params] == ["3.0f", "2u", "0"]
    assert [p.xml.default for p in op.params] == ["3.0", "2", "0"]
    # What ExecuTorch sends (node_visitor.QNN_TENSOR_TYPE_MAP): int and bool alike as UINT_32.
    assert [p.qnn_datatype for p in op.params] == [
        "QNN_DATATYPE_FLOAT_32",
        "QNN_DATATYPE_UINT_32",
        "QNN_DATATYPE_UINT_32",
    ]
    assert spec.validate(minimal()).ops[0].torch.defaults_schema is None


def test_out_argument_is_reserved_from_its_declaration():
    """The .out overload's output argument is declared once (spec.OUT_ARGUMENT): the
    schema, the Python signature and the reserved names all read it."""
    op = spec.validate(minimal()).ops[0]
    assert op.torch.out_schema.endswith(", *, Tensor(a!) out) -> Tensor(a!)")
    assert op.py.params_out == "input: torch.Tensor, *, out: torch.Tensor"
    with pytest.raises(spec.SpecError, match=r"^ops\[0\]\.inputs\[0\]: 'out' is "):
        spec.validate(minimal(inputs=["out"], expr="out * 3"))


def test_argument_lists_per_language():
    """Every list a template places comes from the model, with separators between the
    items only: no `f(a, )`, no `{x, }`, and a one-item Python tuple keeps its comma."""
    two = spec.validate(
        {
            "package_name": "P",
            "namespace": "my_ops",
            "ops": [
                {
                    "name": "blend",
                    "inputs": ["a", "b"],
                    "expr": "a * w + b * (1 - w) + n + on",
                    "params": [
                        {"name": "w", "type": "float", "default": 0.5},
                        {"name": "n", "type": "int", "default": 2},
                        {"name": "on", "type": "bool", "default": True},
                    ],
                },
                {"name": "neg_half", "inputs": ["x"], "expr": "-x / 2"},
            ],
        }
    )
    op, bare = two.ops
    assert op.c.math_call_v == "in[0], in[1], params[0], params[1], params[2]"
    assert bare.c.math_call_v == "in[0]"
    assert op.c.math_call_scalar == "a, b, params[0], params[1], params[2]"
    assert bare.c.math_call_scalar == "a"
    assert op.c.test_case == ["{P_F32, P_U32, P_U32, P_F32}", "{0.5f, 2u, 1, 0.0}", '{"w", "n", "on", NULL}']
    assert bare.c.test_case == ["{P_F32}", "{0.0}", "{NULL}"]
    assert bare.c.header_guard == "NEGHALF_USER_H"
    assert op.py.reference_signature == "a, b, w=0.5, n=2, on=True"
    assert bare.py.reference_signature == "x"
    assert bare.py.inputs_tuple == '("x",)' and op.py.inputs_tuple == '("a", "b")'
    assert bare.py.params_tuple == "()"
    assert op.py.params_tuple == '(("w", "float", 0.5), ("n", "int", 2), ("on", "bool", True))'
    assert op.py.defaults_dict == '{"w": 0.5, "n": 2, "on": True}' and bare.py.defaults_dict == "{}"
    assert op.py.inputs == "a, b" and op.py.example_call == "my_ops.blend(h, h)"
    assert op.py.example_inputs == ["h = -2.0 + 4.0 * torch.sigmoid(self.conv(x))  # the op's input domain"]
    assert op.md.params == "w: float = 0.5, n: int = 2, on: bool = True" and bare.md.params == ""
    assert two.py.exports == '["OPS", "OpInfo", "blend", "neg_half"]'
    assert bare.c.math_cost == "5u" and bare.c.math_vectorises == "1"  # neg 1 + div 4, no libm call
    logs = spec.validate(minimal(expr="log(input) * 3")).ops[0]
    assert logs.c.math_vectorises == "0"
    assert (op.c.is_custom, two.n_ops) == ("0", 2)
    assert bare.md.run_line == "my_ops::neg_half".ljust(32)
    assert yaml.safe_load(two.yaml.spec) == two.answers()
    assert two.yaml.spec.startswith(
        "activation_dtype: uint8\nbackends:\n- lpai\nlayout_support: shape_ne_layout\nnamespace: my_ops\n"
    )
    # Each renders as Python or C that parses: no trailing-comma artefacts.
    for text in (
        f"def f({op.py.reference_signature}): pass",
        f"def f({bare.py.reference_signature}): pass",
        f"x = {op.py.params_tuple}",
        f"__all__ = {two.py.exports}",
    ):
        ast.parse(text)


def test_int_defaults_are_uint32():
    # An expr that reads n holds it exact only up to 2^24 (the next test); one that does
    # not read it passes it on as ExecuTorch sends it.
    for value in (0, 2**32 - 1):
        pkg = spec.validate(minimal(params=[{"name": "n", "type": "int", "default": value}], expr="input"))
        assert pkg.ops[0].params[0].default == value
    for value in (-1, 2**32):
        with pytest.raises(spec.SpecError, match=r"must be in \[0, 4294967295\].*UINT_32"):
            spec.validate(minimal(params=[{"name": "n", "type": "int", "default": value}], expr="input * n"))


def test_an_int_default_an_expr_reads_is_at_most_2_24():
    """float32 rounds 16777217 to 16777216: `x + (n - 16777216)` would be x, in eager,
    LPAI and HTP alike. A custom op's C math reads n as uint32_t, exact: no limit there."""
    params = [{"name": "k", "type": "float", "default": 1.0}, {"name": "n", "type": "int", "default": 16777216}]
    assert spec.validate(minimal(params=params, expr="input + (n - 16777216) * k")).ops[0].params[1].default == 2**24
    params[1]["default"] = 16777217
    with pytest.raises(spec.SpecError) as caught:
        spec.validate(minimal(params=params, expr="input + (n - 16777216) * k"))
    assert list(caught.value.lines) == [
        "ops[0].params[1].default: 16777217 is above 2^24 = 16777216: the expr computes in float32, which holds "
        "whole numbers exactly only up to 2^24 (16777217 would be 16777216); keep it at most 16777216, or read "
        "the param in a custom op's C math (uint32_t, exact)"
    ]
    custom = minimal(name="my_norm", kind="custom", inputs=["x"], params=params, expr=None)
    assert spec.validate(custom).ops[0].params[1].default == 16777217


def test_int_default_given_as_whole_float_is_accepted():
    pkg = spec.validate(minimal(params=[{"name": "n", "type": "int", "default": 2.0}], expr="input * n"))
    assert pkg.ops[0].params[0].default == 2 and isinstance(pkg.ops[0].params[0].default, int)


def test_every_example_validates_and_round_trips():
    for path in sorted(EXAMPLES.glob("*.yaml")):
        pkg = spec.load(path)
        # The canonical answers are a valid spec that describes the same package.
        assert spec.validate(pkg.answers()) == pkg, path.name


def test_invalid_yaml_is_one_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("package_name: [unclosed\n")
    with pytest.raises(spec.SpecError, match=r"^spec: is not valid YAML at line \d+$"):
        spec.load(bad)


def test_top_level_must_be_a_mapping():
    with pytest.raises(spec.SpecError, match="^spec: must be a mapping"):
        spec.validate(["not", "a", "mapping"])


def test_too_many_ops():
    ops = [{"name": f"op{i}", "inputs": ["x"], "expr": "x"} for i in range(spec.MAX_OPS + 1)]
    with pytest.raises(spec.SpecError, match=r"^ops: at most"):
        spec.validate({"package_name": "P", "namespace": "n1", "ops": ops})


@pytest.mark.parametrize("value", ["for", "int", "class", "namespace", "delete", "errno"])
def test_reserved_everywhere(value):
    with pytest.raises(names.NameError_):
        names.check_snake(value)


def test_camel_from_snake():
    assert names.camel_from_snake("my_norm") == "MyNorm"
    assert names.camel_from_snake("mul3") == "Mul3"


def test_spec_error_carries_field_and_rule():
    with pytest.raises(spec.SpecError) as info:
        spec.validate(minimal(inputs=["a", "a"], expr="a"))
    assert (info.value.field, str(info.value)) == (
        "ops[0].inputs[1]",
        "ops[0].inputs[1]: duplicate name 'a' (also ops[0].inputs[0])",
    )


# ---------------------------------------------------------------- docs, per language


HOSTILE_DOCS = [
    'x / (1 + |x|), the "soft" sign',
    "it's <b>bold</b> & `code` — é, ß, 漢字, 🙂",
    'ends in a quote"',
    'x""" ; import os ; """',
    "ends in a backslash \\",
    "ends in a backslash and spaces \\   ",
    "ok */ int evil; /* more",
    "*/*/ /*/ ???/ ??= ??( ??) ??! ??< ??> ??- ??' ??/",
    "{{ 7 * 7 }} {% raw %} {# c #}",
    '</Description><Input name="x"/> &amp; &#x41;',
    "| a | b | *em* _u_ [l](u) ~s~ \\| \\\\",
    "key: value # not a comment, - not a list",
    "",
]


def doc_op(doc):
    return spec.validate(minimal(doc=doc)).ops[0]


@pytest.mark.parametrize("doc", HOSTILE_DOCS)
def test_doc_in_a_python_docstring_reads_back_unchanged(doc):
    source = f'def f():\n    """{doc_op(doc).py.doc}"""\n'
    assert ast.get_docstring(ast.parse(source).body[0], clean=False) == doc.strip()  # the model strips a doc


@pytest.mark.parametrize("doc", HOSTILE_DOCS)
def test_doc_in_xml_text_and_attribute_reads_back_unchanged(doc):
    text = doc_op(doc).xml.doc
    root = ET.fromstring(f'<Content note="{text}">{text} (torch op my_ops::mul3)</Content>')
    assert root.get("note") == doc.strip()  # the model strips a doc
    assert root.text == f"{doc.strip()} (torch op my_ops::mul3)"
    assert list(root) == []


@pytest.mark.parametrize("doc", HOSTILE_DOCS)
def test_doc_in_yaml_reads_back_unchanged(doc):
    assert yaml.safe_load(f"doc: {doc_op(doc).yaml.doc}\nnext: 1\n") == {"doc": doc.strip(), "next": 1}


@pytest.mark.parametrize("doc", HOSTILE_DOCS)
def test_doc_in_a_markdown_table_cell_stays_one_literal_cell(doc):
    cell = doc_op(doc).md.doc
    row = f"| mul3 | {cell} |"
    # GFM splits a row at every pipe not escaped by a backslash.
    cells = re.split(r"(?<!\\)\|", row.replace("\\\\", "\0"))
    assert len(cells) == 4, row
    # Every markup character is escaped, and unescaping gives the doc back.
    unescaped = re.sub(r"\\(.)", r"\1", cell)
    assert unescaped == doc.strip()
    assert not re.search(r"(?<!\\)[`*_\[\]<>|&~]", cell.replace("\\\\", ""))


@pytest.mark.skipif(shutil.which("gcc") is None or shutil.which("g++") is None, reason="needs gcc and g++")
@pytest.mark.parametrize(
    "compiler,std", [("gcc", "-std=c11"), ("gcc", "-std=gnu11"), ("g++", "-std=c++14"), ("g++", "-std=c++17")]
)
def test_doc_in_c_and_cpp_comments_is_only_a_comment(tmp_path, compiler, std):
    """ISO C11 and C++14 apply trigraphs; every doc sits in a comment that ends the line,
    as in the templates, and the file must compile cleanly with nothing but the code."""
    lines = []
    for k, doc in enumerate(HOSTILE_DOCS):
        lines += [
            "/*",
            f" * {doc_op(doc).c.doc}",
            " */",
            f"int doc_{k} = {k};",
            f"/* The kernel math of my_ops::mul3 (Mul3): {doc_op(doc).c.doc}",
            " */",
        ]
    source = tmp_path / ("docs.cpp" if compiler == "g++" else "docs.c")
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    subprocess.run([compiler, std, "-Wall", "-Wextra", "-Werror", "-fsyntax-only", str(source)], check=True)
    # Preprocessed, nothing of any doc is left: the comments held all of it.
    out = subprocess.run([compiler, std, "-E", "-P", str(source)], check=True, capture_output=True, text=True).stdout
    assert out.split() == " ".join(f"int doc_{k} = {k};" for k in range(len(HOSTILE_DOCS))).split()


# Any doc the rule accepts: printable characters, biased towards the ones each language
# treats specially.
PRINTABLE_DOCS = st.text(
    st.one_of(
        st.sampled_from(list("\"'\\/*?=()!<>-|`_[]&~{}%#: ")), st.characters(codec="utf-8").filter(str.isprintable)
    ),
    max_size=spec.MAX_DOC,
)


@settings(max_examples=300, deadline=None)
@given(PRINTABLE_DOCS)
def test_any_printable_doc_validates_and_reads_back_everywhere(doc):
    op = doc_op(doc)
    doc = doc.strip()  # the model strips a doc: trailing spaces are a lint finding in every file
    source = f'def f():\n    """{op.py.doc}"""\n'
    assert ast.get_docstring(ast.parse(source).body[0], clean=False) == doc
    root = ET.fromstring(f'<C a="{op.xml.doc}">{op.xml.doc}</C>')
    assert (root.text or "", root.get("a")) == (doc, doc)
    assert yaml.safe_load(f"d: {op.yaml.doc}") == {"d": doc}
    c = op.c.doc
    assert "*/" not in c and "/*" not in c and not re.search(r"\?\?[=/'()!<>-]", c)
    assert not c.endswith("\\") and c == c.rstrip()


@pytest.mark.parametrize("doc", [HOSTILE_DOCS[0], HOSTILE_DOCS[6], HOSTILE_DOCS[7]])
def test_doc_c_keeps_the_text_readable(doc):
    # Only the dangerous pairs are split by a space; nothing else changes.
    assert doc_op(doc).c.doc.replace(" ", "") == doc.replace(" ", "").rstrip()


@pytest.mark.parametrize(
    "doc,code",
    [
        ("bell \a", "U+0007"),
        ("two\nlines", "U+000A"),
        ("tab\there", "U+0009"),
        ("bidi \u202e", "U+202E"),
        ("nbsp\u00a0", "U+00A0"),
        ("line sep \u2028", "U+2028"),
        ("zero width \u200b", "U+200B"),
    ],
)
def test_doc_refuses_non_printable_characters(doc, code):
    with pytest.raises(spec.SpecError, match=rf"^ops\[0\]\.doc: character {re.escape(code)} is not allowed"):
        spec.validate(minimal(doc=doc))


def test_doc_length_limit_counts_characters():
    spec.validate(minimal(doc="é" * spec.MAX_DOC))
    with pytest.raises(spec.SpecError, match=r"^ops\[0\]\.doc: is longer than 200 characters$"):
        spec.validate(minimal(doc="é" * (spec.MAX_DOC + 1)))


# ---------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    "text,value",
    [
        ("1e-6", 1e-6),
        ("+1E3", 1000.0),
        (".5", 0.5),
        ("-2.5e-3", -2.5e-3),
        ("3", 3.0),
        ("0", 0.0),
        (" 7.25 ", 7.25),
        ("1.", 1.0),
    ],
)
def test_float_default_may_be_a_numeric_string(text, value):
    pkg = spec.validate(minimal(params=[{"name": "eps", "type": "float", "default": text}], expr="input + eps"))
    assert pkg.ops[0].params[0].default == value and type(pkg.ops[0].params[0].default) is float


def test_float_default_1e_minus_6_from_yaml_validates():
    raw = yaml.safe_load(
        "package_name: P\nnamespace: my_ops\nops:\n  - name: a\n    inputs: [x]\n"
        "    params: [{name: eps, type: float, default: 1e-6}]\n    expr: x + eps\n"
    )
    assert raw["ops"][0]["params"][0]["default"] == "1e-6"  # the YAML 1.1 reading this rule is for
    assert spec.validate(raw).ops[0].params[0].default == 1e-6


@pytest.mark.parametrize("text", ["1e-6x", "nan", "inf", "-inf", "1_000", "0x10", "", "e5", "1e", "three"])
def test_float_default_refuses_other_strings(text):
    with pytest.raises(spec.SpecError, match=r"^ops\[0\]\.params\[0\]\.default: must be a number"):
        spec.validate(minimal(params=[{"name": "eps", "type": "float", "default": text}], expr="input + eps"))


def test_int_default_is_not_read_from_a_string():
    with pytest.raises(spec.SpecError, match=r"^ops\[0\]\.params\[0\]\.default: must be a whole number \(int"):
        spec.validate(minimal(params=[{"name": "n", "type": "int", "default": "3"}], expr="input + n"))


@pytest.mark.parametrize(
    ("ptype", "yaml_default", "message"),
    [
        # YAML 1.1 reads 1e-6 as the text '1e-6': the message shows the number it is.
        ("int", "1e-6", "must be a whole number (int param), got 1e-06; use type: float for a fractional default"),
        ("int", "2.5", "must be a whole number (int param), got 2.5; use type: float for a fractional default"),
        ("int", "1e3", "must be a whole number (int param), got the text '1e3': write it in digits, 1000"),
        ("int", "true", "must be a whole number (int param), got true; use type: bool for a true/false param"),
        ("int", "three", "must be a whole number (int param), got 'three'"),
        ("float", "three", "must be a number (float param), got 'three'"),
        ("float", "false", "must be a number (float param), got false; use type: bool for a true/false param"),
        ("bool", "1", "must be true or false (bool param), got 1"),
        ("bool", "'yes please'", "must be true or false (bool param), got 'yes please'"),
    ],
)
def test_a_refused_default_says_what_its_type_expects(ptype, yaml_default, message):
    raw = yaml.safe_load(
        "package_name: P\nnamespace: my_ops\nops:\n  - name: a\n    inputs: [x]\n"
        f"    params: [{{name: p, type: {ptype}, default: {yaml_default}}}]\n    expr: x + p\n"
    )
    with pytest.raises(spec.SpecError) as info:
        spec.validate(raw)
    assert str(info.value) == f"ops[0].params[0].default: {message}"


@pytest.mark.parametrize("default", [10**400, -(10**400), "1e400"])
def test_huge_float_default_is_one_line(default):
    with pytest.raises(spec.SpecError, match=r"^ops\[0\]\.params\[0\]\.default: must be a finite number"):
        spec.validate(minimal(params=[{"name": "k", "type": "float", "default": default}], expr="input * k"))


def test_401_digit_literal_in_expr_is_one_line():
    with pytest.raises(spec.SpecError, match=r"^ops\[0\]\.expr: literal 10000000\.\.\.\(401 digits\) is outside"):
        spec.validate(minimal(expr="input * 1" + "0" * 400))


# ---------------------------------------------------------------- given values are checked, never replaced


@pytest.mark.parametrize(
    "key,value,message",
    [
        ("kind", False, r"^ops\[0\]\.kind: must be one of elementwise, custom; got False$"),
        ("kind", "", r"^ops\[0\]\.kind: must be one of"),
        ("params", {}, r"^ops\[0\]\.params: must be a list, got dict$"),
        ("params", "", r"^ops\[0\]\.params: must be a list, got str$"),
        ("qnn_type", 0, r"^ops\[0\]\.qnn_type: must be a string, got int$"),
        ("qnn_type", "", r"^ops\[0\]\.qnn_type: '' is not a CamelCase"),
    ],
)
def test_a_falsy_value_is_refused_not_defaulted(key, value, message):
    with pytest.raises(spec.SpecError, match=message):
        spec.validate(minimal(**{key: value}))


@pytest.mark.parametrize("key", ["soc_model", "op_package_arch", "activation_dtype"])
def test_a_falsy_top_level_value_is_refused(key):
    raw = minimal()
    raw[key] = False
    with pytest.raises(spec.SpecError, match=rf"^{key}: must be one of"):
        spec.validate(raw)


def test_null_means_the_default():
    op = spec.validate(minimal(kind=None, qnn_type=None, params=None, doc=None)).ops[0]
    assert (op.kind, op.qnn_type, op.params, op.doc) == ("elementwise", "Mul3", (), "Elementwise op mul3.")


# ---------------------------------------------------------------- size bound

BOMB = (
    "a0: &a0 ["
    + ", ".join(['"lol"'] * 9)
    + "]\n"
    + "".join(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 10))
)


def test_alias_bomb_is_refused_in_milliseconds():
    raw = yaml.safe_load(BOMB + "ops: *a9\npackage_name: P\nnamespace: my_ops\n")
    start = time.perf_counter()
    with pytest.raises(spec.SpecError, match=r"^spec: is too large: more than 20000 values"):
        spec.validate(raw)
    assert time.perf_counter() - start < 1.0


def test_a_spec_containing_itself_is_refused():
    ops: list = []
    ops.append(ops)
    with pytest.raises(spec.SpecError, match=r"^spec: is too large"):
        spec.validate({"package_name": "P", "namespace": "my_ops", "ops": ops})


def test_huge_text_is_refused_before_validation():
    with pytest.raises(spec.SpecError, match=r"^spec: is too large: more than 200000 characters"):
        spec.validate(minimal(doc="x" * 300_000))


def test_the_hook_bounds_the_spec_before_printing_it(monkeypatch):
    """hooks/context.py used repr(raw) as a cache key before validating."""
    from copier.errors import UserMessageError

    from hooks import context

    raw = yaml.safe_load(BOMB + "package_name: P\nnamespace: my_ops\nops: *a9\n")
    monkeypatch.setattr(context, "spec_from_answers", lambda _ctx: raw)
    monkeypatch.setattr(context, "_spec_module", lambda: spec)
    start = time.perf_counter()
    with pytest.raises(UserMessageError, match=r"^Invalid op spec: spec: is too large"):
        context.ContextUpdater.hook(object.__new__(context.ContextUpdater), {"_copier_phase": "render"})
    assert time.perf_counter() - start < 1.0


# ---------------------------------------------------------------- reserved names come from the templates


TEMPLATE = ROOT / "template"


def render_template(rel_glob: str, pkg, op=None) -> str:
    [path] = [p for p in TEMPLATE.glob(rel_glob)]
    env = jinja2.Environment(keep_trailing_newline=True, undefined=jinja2.StrictUndefined)
    return env.from_string(path.read_text()).render(pkg=pkg, op=op)


def top_level_names(source: str) -> set[str]:
    found = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found |= {a.asname or a.name.split(".")[0] for a in node.names}
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in getattr(node, "targets", None) or [node.target]:
                found |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return found


@pytest.mark.parametrize("rel", ["*/ops.py.jinja", "*/eager.py.jinja", "{{pkg.namespace}}/reference.py.jinja"])
def test_every_top_level_name_of_a_module_with_op_functions_is_reserved(rel):
    """Rendered for real (not the hook's Jinja-stripped reading): each top-level name
    that is not the spec's own is refused as an op name and as an argument name."""
    pkg = spec.load(EXAMPLES / "activations.yaml")
    spec_names = {op.name for op in pkg.ops} | {f"_{op.name}_{s}" for op in pkg.ops for s in ("fake", "out")}
    generated = top_level_names(render_template(rel, pkg)) - spec_names
    assert generated, rel
    for name in generated:
        if not names.SNAKE_RE.match(name):
            continue  # not a name the spec could spell
        with pytest.raises(spec.SpecError, match=r"^ops\[0\]\.name: "):
            spec.validate(minimal(name=name))
        with pytest.raises(spec.SpecError, match=r"^ops\[0\]\.inputs\[0\]: "):
            spec.validate(minimal(inputs=[name], expr=name))


def test_the_args_struct_is_emitted_from_the_declaration_and_its_members_are_reserved():
    pkg = spec.validate(
        {
            "package_name": "P",
            "namespace": "my_ops",
            "ops": [
                {
                    "name": "my_norm",
                    "kind": "custom",
                    "inputs": ["a", "b"],
                    "params": [{"name": "scale", "type": "float", "default": 2.0}],
                }
            ],
        }
    )
    op = pkg.ops[0]
    header = render_template("op_package/*/include/ops/*_user.h.jinja", pkg, op)
    body = re.search(r"typedef struct \{(.*?)\} MyNorm_args;", header, re.DOTALL).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.DOTALL)
    members = re.findall(r"(\w+)\s*(?:\[[^\]]*\])?\s*;", body)
    # Each input and the default output `out` with its own shape, then the fixed members
    # (the first output's rank, dims, count; `out` is already there), then the params.
    assert members[:6] == ["a", "a_shape", "b", "b_shape", "out", "out_shape"] and members[-1] == "scale"
    fixed = members[6:-1]
    assert fixed == [f.name for f in view_c.ARGS_STRUCT_FIELDS if f.name != "out"]
    kernel = render_template("op_package/*/src/ops/*_inference.c.jinja", pkg, op)
    for member in members:
        assert re.search(rf"args\.{member}\b", kernel), f"{member} is never filled"
    for member in [f.name for f in view_c.ARGS_STRUCT_FIELDS]:
        for field in ("inputs", "params"):
            raw = {"name": "my_norm", "kind": "custom", "inputs": ["a"]}
            if field == "inputs":
                raw["inputs"] = [member]
            else:
                raw["params"] = [{"name": member, "type": "float", "default": 1.0}]
            with pytest.raises(spec.SpecError, match=rf"^ops\[0\]\.{field}\[0\](\.name)?: '{member}' is a member"):
                spec.validate({"package_name": "P", "namespace": "my_ops", "ops": [raw]})


@pytest.mark.parametrize(
    "namespace", ["reference", "conftest", "lowering", "fakes", "op_package_host", "tests", "op_package", "test_ops"]
)
def test_namespace_cannot_be_a_module_of_the_rendered_project(namespace):
    # Independently of the hook: these are files/folders on the rendered project's import roots.
    assert any(
        (TEMPLATE / root).joinpath(f"{namespace}{suffix}").exists()
        for root in (".", "tests")
        for suffix in (".py.jinja", "")
    )
    with pytest.raises(spec.SpecError, match=r"^namespace: .* module of the rendered project"):
        spec.validate(
            {"package_name": "P", "namespace": namespace, "ops": [{"name": "a", "inputs": ["x"], "expr": "x"}]}
        )


@pytest.mark.parametrize(
    "namespace",
    [
        "torch",
        "executorch",
        "numpy",
        "yaml",
        "sympy",
        "pydot",
        "copier",
        "jinja2",
        "pytest",
        "functorch",
        "torchgen",
        "mpmath",
        "networkx",
    ],
)
def test_namespace_cannot_be_a_dependency(namespace):
    pytest.importorskip(namespace)
    with pytest.raises(spec.SpecError, match=r"^namespace: "):
        spec.validate(
            {"package_name": "P", "namespace": namespace, "ops": [{"name": "a", "inputs": ["x"], "expr": "x"}]}
        )


def test_namespace_and_op_names_that_torch_ops_owns():
    import torch

    spec_ops = [{"name": "a", "inputs": ["x"], "expr": "x"}]
    for attribute in ("load_library", "loaded_libraries", "import_module", "higher_order"):
        assert hasattr(torch.ops, attribute)
        with pytest.raises(spec.SpecError, match=r"^namespace: .* attribute of torch\.ops"):
            spec.validate({"package_name": "P", "namespace": attribute, "ops": spec_ops})
    assert isinstance(torch.ops.my_ops.name, str)  # not an op: why `name` is refused
    with pytest.raises(spec.SpecError, match=r"^ops\[0\]\.name: 'name' is an attribute of torch\.ops"):
        spec.validate(minimal(name="name"))


@pytest.mark.parametrize("name", ["input", "x", "result", "tensors", "value", "scale", "weight"])
def test_ordinary_argument_names_stay_allowed(name):
    spec.validate(minimal(inputs=[name], expr=name))
    spec.validate(minimal(inputs=["t"], params=[{"name": name, "type": "float", "default": 1.0}], expr=f"t * {name}"))


def test_params_the_expression_leaves_unused_are_named_for_the_c_math():
    op = spec.validate(
        minimal(
            params=[
                {"name": "a", "type": "float", "default": 1.0},
                {"name": "b", "type": "int", "default": 2},
                {"name": "c", "type": "bool", "default": True},
            ],
            expr="input * b",
        )
    ).ops[0]
    assert op.c.math_unused == ["p_a", "p_c"]
    custom = spec.validate(
        minimal(kind="custom", expr=None, params=[{"name": "a", "type": "float", "default": 1.0}])
    ).ops[0]
    assert custom.c.math_unused == []


@pytest.mark.parametrize("folder", ["build", "artifacts"])
def test_namespace_cannot_be_a_folder_the_project_writes_into(folder):
    # The rendered cli writes build/artifacts/<target>/<namespace>.pte at the project root.
    assert f"/{folder}/" in (TEMPLATE / ".gitignore").read_text()
    with pytest.raises(spec.SpecError, match=rf"^namespace: '{folder}' is a folder the rendered project creates"):
        spec.validate({"package_name": "P", "namespace": folder, "ops": [{"name": "a", "inputs": ["x"], "expr": "x"}]})


# ---------------------------------------------------------------- inputs, outputs, rowwise (issue 12)


def custom(**op):
    base = {"name": "my_stats", "kind": "custom", "inputs": ["x"]}
    base.update(op)
    return {"package_name": "P", "namespace": "my_ops", "ops": [base]}


def test_up_to_four_inputs_and_elementwise_output_broadcasts():
    op = spec.validate(minimal(inputs=["a", "b", "c", "d"], expr="a + b * c - d")).ops[0]
    assert op.n_inputs == 4 == spec.MAX_INPUTS
    assert op.outputs == (spec.Output("out", 0, spec.OutputShape("broadcast")),)
    assert (op.n_outputs, op.rowwise) == (1, False)
    with pytest.raises(
        spec.SpecError,
        match=r"^ops\[0\]\.inputs: more than 4 inputs are not supported; "
        r"workaround: ",
    ):
        spec.validate(minimal(inputs=["a", "b", "c", "d", "e"], expr="a + b + c + d + e"))


def test_custom_op_default_output_is_out_like_the_first_input():
    op = spec.validate(custom(inputs=["a", "b"])).ops[0]
    assert op.outputs == (spec.Output("out", 0, spec.OutputShape("like", spec.Input("a", 0))),)
    assert op.outputs_are_default
    assert "outputs" not in spec.validate(custom()).answers()["ops"][0]


def test_custom_op_outputs_like_and_reduce():
    op = spec.validate(
        custom(
            inputs=["x", "w"],
            outputs=[
                {"name": "mean", "shape": {"reduce": "x", "dims": [-1], "keepdim": True}},
                {"name": "y", "shape": {"like": "w"}},
                {"name": "total", "shape": {"reduce": "x", "dims": [0, -1]}},
            ],
        )
    ).ops[0]
    x, w = spec.Input("x", 0), spec.Input("w", 1)
    assert op.outputs == (
        spec.Output("mean", 0, spec.OutputShape("reduce", x, (-1,), True)),
        spec.Output("y", 1, spec.OutputShape("like", w)),
        spec.Output("total", 2, spec.OutputShape("reduce", x, (0, -1), False)),
    )
    assert op.n_outputs == 3 and op.output_names == ["mean", "y", "total"]
    assert not op.outputs_are_default
    assert op.outputs[2].shape.text == "the shape of x reduced over dims [0, -1]"


@pytest.mark.parametrize(
    "outputs,field,rule",
    [
        ([], r"outputs", r"must be a list of 1 to 4 outputs"),
        (
            [{"name": f"o{k}", "shape": {"like": "x"}} for k in range(5)],
            r"outputs",
            r"more than 4 outputs are not supported; workaround: split the op",
        ),
        (
            [{"name": "y", "shape": {"like": "x"}, "dtype": "int64"}],
            r"outputs\[0\]\.dtype",
            r"not supported: every input and output is an 8-bit quantized tensor .*workaround: return an integer",
        ),
        ([{"name": "y", "shape": [2, 3]}], r"outputs\[0\]\.shape", r"a fixed shape is not supported .*workaround: "),
        (
            [{"name": "y", "shape": {"like": "x", "transpose": [1, 0]}}],
            r"outputs\[0\]\.shape\.transpose",
            r"shape form 'transpose' is not supported .*workaround: ",
        ),
        ([{"name": "y", "shape": {"like": "z"}}], r"outputs\[0\]\.shape\.like", r"must name an input of the op \(x\)"),
        (
            [{"name": "y", "shape": {"like": "x", "reduce": "x"}}],
            r"outputs\[0\]\.shape",
            r"must hold exactly one of like, reduce",
        ),
        ([{"name": "y", "shape": {"like": "x", "dims": [0]}}], r"outputs\[0\]\.shape\.dims", r"only for a reduce"),
        ([{"name": "y", "shape": {"reduce": "x"}}], r"outputs\[0\]\.shape\.dims", r"is required for a reduce"),
        ([{"name": "y", "shape": {"reduce": "x", "dims": []}}], r"outputs\[0\]\.shape\.dims", r"non-empty list"),
        (
            [{"name": "y", "shape": {"reduce": "x", "dims": [5]}}],
            r"outputs\[0\]\.shape\.dims\[0\]",
            r"must be an integer in \[-5, 4\]",
        ),
        ([{"name": "y", "shape": {"reduce": "x", "dims": [True]}}], r"outputs\[0\]\.shape\.dims\[0\]", r"integer"),
        (
            [{"name": "y", "shape": {"reduce": "x", "dims": [1, 1]}}],
            r"outputs\[0\]\.shape\.dims\[1\]",
            r"duplicate dim 1",
        ),
        (
            [{"name": "y", "shape": {"reduce": "x", "dims": [1], "keepdim": "yes"}}],
            r"outputs\[0\]\.shape\.keepdim",
            r"true or false",
        ),
        (
            [{"name": "x", "shape": {"like": "x"}}],
            r"outputs\[0\]\.name",
            r"duplicate name 'x' \(also ops\[0\]\.inputs\[0\]\)",
        ),
        (
            [{"name": "y", "shape": {"like": "x"}}, {"name": "out", "shape": {"like": "x"}}],
            r"outputs\[1\]\.name",
            r"'out' may only name the first output",
        ),
        ([{"name": "rank", "shape": {"like": "x"}}], r"outputs\[0\]\.name", r"'rank' is a member"),
        (
            [{"name": "y", "shape": {"like": "x"}}, {"name": "y_shape", "shape": {"like": "x"}}],
            r"outputs\[1\]\.name",
            r"'y_shape' is the member that holds the shape of 'y'",
        ),
    ],
)
def test_bad_outputs_name_the_field_and_the_rule(outputs, field, rule):
    with pytest.raises(spec.SpecError, match=rf"^ops\[0\]\.{field}: (.* )?{rule}"):
        spec.validate(custom(outputs=outputs))


def test_out_may_name_the_first_output():
    op = spec.validate(
        custom(outputs=[{"name": "out", "shape": {"reduce": "x", "dims": [-1]}}, {"name": "y", "shape": {"like": "x"}}])
    ).ops[0]
    assert op.output_names == ["out", "y"]


def test_the_shape_member_of_an_input_or_default_output_is_reserved():
    with pytest.raises(spec.SpecError, match=r"^ops\[0\]\.inputs\[1\]: 'x_shape' is the member"):
        spec.validate(custom(inputs=["x", "x_shape"]))
    with pytest.raises(spec.SpecError, match=r"^ops\[0\]\.params\[0\]\.name: 'out_shape' is the member"):
        spec.validate(custom(params=[{"name": "out_shape", "type": "float", "default": 1.0}]))
    # An elementwise op has no args struct: the names are free there.
    spec.validate(minimal(inputs=["x", "x_shape"], expr="x + x_shape"))


@pytest.mark.parametrize(
    "key,value,rule",
    [
        ("dtype", "int32", r"not supported: every input and output is an 8-bit quantized tensor"),
        ("shape", [2, 3], r"not supported: inputs take any shape at run time"),
        ("output", {"name": "y"}, r"not supported; the key is `outputs:`"),
        (
            "outputs",
            [{"name": "y", "shape": {"like": "input"}}],
            r"not supported for elementwise ops .*workaround: kind: custom",
        ),
        ("rowwise", True, r"is only for kind: custom"),
    ],
)
def test_unsupported_forms_say_so_and_name_a_workaround(key, value, rule):
    with pytest.raises(spec.SpecError, match=rf"^ops\[0\]\.{key}: {rule}") as info:
        spec.validate(minimal(**{key: value}))
    assert "unknown key" not in str(info.value)


def test_an_input_given_with_a_shape_is_a_limit_not_a_typo():
    with pytest.raises(
        spec.SpecError,
        match=r"^ops\[0\]\.inputs\[1\]: must be a tensor name or \{name, range\}: a per-input "
        r"shape or dtype is not supported",
    ):
        spec.validate(minimal(inputs=["x", {"name": "bias", "shape": [1, 8, 1, 1]}], expr="x"))


def test_rowwise_rule():
    ok = spec.validate(
        custom(
            rowwise=True,
            inputs=["x", "g"],
            outputs=[
                {"name": "y", "shape": {"like": "x"}},
                {"name": "r", "shape": {"reduce": "x", "dims": [-1]}},
                {"name": "k", "shape": {"reduce": "g", "dims": [-1], "keepdim": True}},
            ],
        )
    ).ops[0]
    assert ok.rowwise
    assert spec.validate(custom(rowwise=True)).ops[0].rowwise
    assert spec.validate(custom(rowwise=None)).ops[0].rowwise is False
    for dims in ([0], [-2], [-1, -2]):
        with pytest.raises(
            spec.SpecError,
            match=r"^ops\[0\]\.rowwise: needs every output like an input or "
            r"reduced over dims \[-1\].*workaround: rowwise: false",
        ):
            spec.validate(custom(rowwise=True, outputs=[{"name": "m", "shape": {"reduce": "x", "dims": dims}}]))
    with pytest.raises(spec.SpecError, match=r"^ops\[0\]\.rowwise: must be true or false, got 1$"):
        spec.validate(custom(rowwise=1))


def test_new_forms_round_trip_through_the_answers():
    pkg = spec.validate(
        custom(
            rowwise=True,
            inputs=["x", "g"],
            outputs=[{"name": "y", "shape": {"like": "g"}}, {"name": "r", "shape": {"reduce": "x", "dims": [-1]}}],
        )
    )
    entry = pkg.answers()["ops"][0]
    assert entry["outputs"] == [
        {"name": "y", "shape": {"like": "g"}},
        {"name": "r", "shape": {"reduce": "x", "dims": [-1], "keepdim": False}},
    ]
    assert entry["rowwise"] is True
    assert spec.validate(pkg.answers()) == pkg


def test_max_rank_is_the_kernels():
    header = (TEMPLATE / "op_package").glob("*/include/lpai_conventions.h*")
    text = "".join(p.read_text() for p in header)
    assert re.search(rf"#define LPAI_MAX_RANK {spec.MAX_RANK}u\b", text)


def test_schemas_of_an_op_with_several_outputs():
    op = spec.validate(
        custom(
            name="center",
            params=[{"name": "eps", "type": "float", "default": 0.5}],
            outputs=[
                {"name": "mean", "shape": {"reduce": "x", "dims": [-1], "keepdim": True}},
                {"name": "centered", "shape": {"like": "x"}},
            ],
        )
    ).ops[0]
    assert op.torch.schema == "center(Tensor x, float eps) -> (Tensor, Tensor)"
    assert op.torch.custom_op_schema == "(Tensor x, float eps) -> (Tensor, Tensor)"
    # One keyword-only out tensor per output, each its own alias set (torch's var_mean.correction_out).
    assert op.torch.out_schema == (
        "center.out(Tensor x, float eps, *, Tensor(a!) mean, Tensor(b!) centered) -> (Tensor(a!), Tensor(b!))"
    )
    assert op.torch.defaults_schema == "center.defaults(Tensor x, float eps=0.5) -> (Tensor, Tensor)"
    assert op.py.returns == "tuple[torch.Tensor, torch.Tensor]"
    assert (op.py.output_names, op.py.output_vars) == ('("mean", "centered")', "(mean, centered)")
    assert op.py.output_rules == '(("reduce", 0, (-1,), True), ("like", 0))'
    assert [o.py.spec_rule for o in op.outputs] == ['("reduce", "x", (-1,), True)', '("like", "x")']
    assert [o.xml.rank for o in op.outputs] == ["4D", "4D"]
    single = spec.validate(minimal(inputs=["a", "b"], expr="a + b")).ops[0]
    assert single.torch.out_schema == "mul3.out(Tensor a, Tensor b, *, Tensor(a!) out) -> Tensor(a!)"
    assert (single.py.returns, single.py.output_names, single.py.output_vars) == ("torch.Tensor", '("out",)', "(out,)")
    assert single.py.output_rules == '(("broadcast",),)'
    assert single.md.outputs == "`out`: the broadcast shape of the inputs"


def test_schemas_parse_with_torch():
    torch = pytest.importorskip("torch")
    op = spec.validate(
        custom(outputs=[{"name": "lo", "shape": {"like": "x"}}, {"name": "hi", "shape": {"reduce": "x", "dims": [0]}}])
    ).ops[0]
    for text in (op.torch.schema, op.torch.out_schema):
        parsed = torch._C.parse_schema(f"my_ops::{text}")
        assert len(parsed.returns) == 2
    out = torch._C.parse_schema(f"my_ops::{op.torch.out_schema}")
    assert [a.name for a in out.arguments if a.is_out] == ["lo", "hi"]


def _def(op, name, params):
    return f"def {name}({params}) -> {op.py.returns}:"


def test_def_lines_are_laid_out_as_ruff_format_leaves_them():
    short = spec.validate(minimal()).ops[0]
    assert _def(short, "mul3", short.py.params_public) == "def mul3(input: torch.Tensor) -> torch.Tensor:"
    assert short.py.params_out == "input: torch.Tensor, *, out: torch.Tensor"
    params = [{"name": f"param_number_{k}", "type": "float", "default": 1.5} for k in range(3)]
    hug = spec.validate(minimal(params=params, expr="input")).ops[0]
    assert hug.py.params_public == (
        "\n    input: torch.Tensor, param_number_0: float = 1.5, param_number_1: float = 1.5, "
        "param_number_2: float = 1.5\n"
    )
    params = [{"name": f"a_rather_long_param_name_{k}", "type": "float", "default": 1.5} for k in range(8)]
    tall = spec.validate(minimal(params=params, expr="input")).ops[0]
    lines = _def(tall, "_mul3", tall.py.params_impl).splitlines()
    assert lines[0] == "def _mul3(" and lines[-1] == ") -> torch.Tensor:"
    assert lines[1:-1] == ["    input: torch.Tensor,"] + [f"    a_rather_long_param_name_{k}: float," for k in range(8)]


def test_def_lines_are_what_ruff_format_writes(tmp_path):
    """Each layout, checked by ruff itself (the rendered project's line length)."""
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.skip("needs ruff")
    ops = [
        spec.validate(
            minimal(params=[{"name": f"{stem}_{k}", "type": "float", "default": 1.5} for k in range(n)], expr="input")
        ).ops[0]
        for stem, n in (("p", 1), ("param_number", 3), ("a_rather_long_param_name", 8))
    ]
    defs = [
        _def(op, name, params)
        for op in ops
        for name, params in (
            ("mul3", op.py.params_public),
            ("_mul3", op.py.params_impl),
            ("_mul3_out", op.py.params_out),
        )
    ]
    source = "import torch\n\n\n" + "\n\n".join(f"{line}\n    return input\n" for line in defs)
    path = tmp_path / "defs.py"
    path.write_text(source)
    run = subprocess.run(
        [ruff, "format", "--no-cache", "--line-length", str(view_py.PY_LINE_LENGTH), "--diff", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout


def test_custom_op_params_reach_the_user_math_as_their_c_types():
    """A float stays float; an int is the uint32_t ExecuTorch sent (exact above 2^24), a
    bool a C bool: the args struct declares them so and the call fills them from the
    exact values (c->params_u32), not the float copy expressions compute with."""
    params = [
        {"name": "gain", "type": "float", "default": 2.0},
        {"name": "n", "type": "int", "default": 16777217},
        {"name": "on", "type": "bool", "default": True},
    ]
    op = spec.validate(minimal(name="my_norm", kind="custom", inputs=["x"], params=params, expr=None)).ops[0]
    members = [line for line in op.c.args_members if not line.startswith("/*")]
    assert members[-3:] == ["float gain;", "uint32_t n;", "bool on;"]
    assert op.c.args_fill[-3:] == [
        "args.gain = c->params[0];",
        "args.n = c->params_u32[1];",
        "args.on = c->params_u32[2] != 0u;",
    ]


@pytest.mark.parametrize("output", [{"name": "y"}, {"name": "y", "shape": None}])
def test_an_output_without_shape_is_like_the_first_input(output):
    raw = minimal(name="my_norm", kind="custom", inputs=["x", "w"], outputs=[output, {"name": "z"}], expr=None)
    op = spec.validate(raw).ops[0]
    assert [(o.name, o.shape.kind, o.shape.source.name) for o in op.outputs] == [("y", "like", "x"), ("z", "like", "x")]
    # The canonical spec writes the rule out: it validates to the same package.
    assert spec.validate(spec.validate(raw).answers()) == spec.validate(raw)


@pytest.mark.parametrize("name", ["floor", "floorf", "erf", "powf", "nearbyint", "isnan", "memmove", "calloc"])
def test_c_library_names_are_reserved_as_docs_spec_md_says(name):
    """docs/spec.md reserves the names of the C library: every <math.h> function in its
    three forms, and the <string.h>/<stdlib.h>/<stdio.h> names the generated code uses."""
    raw = minimal(params=[{"name": name, "type": "float", "default": 1.0}], expr=f"input * {name}")
    with pytest.raises(spec.SpecError, match=rf"^ops\[0\]\.params\[0\]\.name: '{name}' is a C standard library name$"):
        spec.validate(raw)


@pytest.mark.parametrize(
    "text", ["round(input)", "floor(input) - ceil(input)", "sign(input)", "where(input <= 0.5, input, 0.5)"]
)
def test_the_new_functions_validate_in_a_spec(text):
    op = spec.validate(minimal(expr=text)).ops[0]
    assert op.expr == text and op.c.math_vectorises == "1"


def test_layout_support_is_the_spec_s_choice():
    # shape_ne_layout unless the spec says default; the C macro follows (lpai_package.h).
    assert spec.validate(minimal()).layout_support == "shape_ne_layout"
    assert spec.validate(minimal()).c.layout_shape_ne_layout == "1"
    chosen = spec.validate({**minimal(), "layout_support": "default"})
    assert (chosen.layout_support, chosen.c.layout_shape_ne_layout) == ("default", "0")
    assert chosen.answers()["layout_support"] == "default"
    assert chosen.c.layout_flag_name == "QNN_LPAI_OP_LAYOUT_DEFAULT"
    param = spec.validate(minimal(params=[{"name": "gain", "type": "int", "default": 2}], expr="input * gain"))
    assert param.ops[0].params[0].c.spec == '{"gain", LPAI_PARAM_U32}'
    assert spec.validate(minimal()).c.layout_flag_name == "QNN_LPAI_OP_LAYOUT_SHAPE_NE_LAYOUT"
    for bad in ("SHAPE_NE_LAYOUT", "", 1, ["default"]):
        with pytest.raises(spec.SpecError, match="layout_support"):
            spec.validate({**minimal(), "layout_support": bad})


def problems_of(raw) -> list[str]:
    """Every line the validation reports for `raw` (a valid spec fails the test)."""
    with pytest.raises(spec.SpecError) as info:
        spec.validate(raw)
    assert str(info.value) == "\n".join(info.value.lines)
    return list(info.value.lines)


def test_every_independent_problem_is_named_in_one_run():
    """Problems of the package keys, of two ops, and of three fields of one op: each
    its own line, in the order of the spec (the validation stopped at the first)."""
    raw = {
        "package_name": "P",
        "namespace": "Audio",
        "soc_model": "SM0000",
        "ops": [
            {
                "name": "1gain",
                "inputs": ["x"],
                "params": [{"name": "eps", "type": "int", "default": "1e-6"}],
                "expr": "x + eps",
                "doc": "two\nlines",
            },
            {"name": "other", "inputs": ["x"], "expr": "x * y"},
        ],
    }
    lines = problems_of(raw)
    assert [line.split(": ", 1)[0] for line in lines] == [
        "namespace",
        "soc_model",
        "ops[0].name",
        "ops[0].doc",
        "ops[0].params[0].default",
        "ops[1].expr",
    ], lines
    assert lines[4] == (
        "ops[0].params[0].default: must be a whole number (int param), got 1e-06; "
        "use type: float for a fractional default"
    )
    assert lines[5].startswith("ops[1].expr: unknown name 'y'")


def test_every_unknown_key_is_named_and_a_refused_key_once():
    lines = problems_of({**minimal(dtype="float32", colour="red", size=3), "bogus": 1, "other": 2})
    assert [line.split(": ", 1)[0] for line in lines] == [
        "bogus",
        "other",
        "ops[0].dtype",
        "ops[0].colour",
        "ops[0].size",
    ], lines
    assert "unknown key" not in lines[2] and "not supported" in lines[2]


def test_each_param_input_and_output_is_checked_on_its_own():
    params = [
        {"name": "a", "type": "float", "default": "x"},
        {"name": "b", "type": "int", "default": 0.5},
        {"name": "c", "type": "float", "default": 1.0, "unit": "V"},
    ]
    lines = problems_of(minimal(params=params, expr="input * a * b * c"))
    assert [line.split(": ", 1)[0] for line in lines] == [
        "ops[0].params[0].default",
        "ops[0].params[1].default",
        "ops[0].params[2].unit",
    ], lines
    lines = problems_of(minimal(inputs=["int", "x", "for"], expr="x"))
    assert [line.split(": ", 1)[0] for line in lines] == ["ops[0].inputs[0]", "ops[0].inputs[2]"], lines
    outputs = [{"name": "int"}, {"name": "b", "shape": {"like": "nope"}}]
    lines = problems_of(minimal(kind="custom", expr=None, outputs=outputs))
    assert [line.split(": ", 1)[0] for line in lines] == ["ops[0].outputs[0].name", "ops[0].outputs[1].shape.like"]


@pytest.mark.parametrize(
    ("op", "only"),
    [
        # The expr reads the inputs and params: with one refused, an `unknown name` would repeat it.
        ({"inputs": ["int"], "expr": "int * 3"}, "ops[0].inputs[0]"),
        (
            {"params": [{"name": "for", "type": "float", "default": 1.0}], "expr": "input * for"},
            "ops[0].params[0].name",
        ),
        # A default is judged by the type: with the type wrong, there is nothing to judge it by.
        ({"params": [{"name": "k", "type": "double", "default": "x"}], "expr": "input * k"}, "ops[0].params[0].type"),
        # The finiteness check reads the defaults: `log(input * k)` at k = 0 is the default's problem.
        (
            {"params": [{"name": "k", "type": "int", "default": -1}], "expr": "log(input * k)"},
            "ops[0].params[0].default",
        ),
        # The outputs and rowwise read the kind.
        ({"kind": "Custom", "outputs": [{"name": "o"}], "rowwise": True}, "ops[0].kind"),
    ],
)
def test_a_check_that_reads_a_refused_field_is_skipped(op, only):
    lines = problems_of(minimal(**op))
    assert [line.split(": ", 1)[0] for line in lines] == [only], lines


def test_a_duplicate_op_name_is_one_problem_not_two():
    """Its qnn_type, made from the name, is the same twice too: that is the name's problem."""
    raw = minimal()
    raw["ops"].append(dict(raw["ops"][0]))
    assert problems_of(raw) == ["ops[1].name: duplicate op name 'mul3' (also ops[0])"]
    raw["ops"][1]["qnn_type"] = "Mul3"
    assert [line.split(": ", 1)[0] for line in problems_of(raw)] == ["ops[1].name", "ops[1].qnn_type"]


# --------------------------------------------------------------------------- input domains


def domains_of(**op):
    return spec.validate(minimal(**op)).ops[0].input_domains


def test_an_input_without_range_takes_the_signed_default_when_the_op_is_finite_there():
    assert domains_of(inputs=["a", "b"], expr="a * b - 1") == ((-2.0, 2.0), (-2.0, 2.0))


def test_log_x_plus_eps_as_a_newcomer_writes_it_gets_positive_inputs():
    # NaN below -eps: the default domain of the op follows, and the op is accepted.
    op = {"inputs": ["x"], "params": [{"name": "eps", "type": "float", "default": "1e-6"}], "expr": "log(x + eps)"}
    assert domains_of(**op) == ((0.1, 2.0),)


def test_a_declared_range_is_the_inputs_domain_and_the_others_keep_the_default():
    assert domains_of(inputs=[{"name": "x", "range": [0, 20]}], expr="sqrt(x)") == ((0.0, 20.0),)
    # y's default follows from the op on x's declared range: finite on [-2, 2] here ...
    assert domains_of(inputs=[{"name": "x", "range": [5, 9]}, "y"], expr="log(x - 4.5) + y") == (
        (5.0, 9.0),
        (-2.0, 2.0),
    )
    # ... not here.
    assert domains_of(inputs=[{"name": "x", "range": [5, 9]}, "y"], expr="log(x - 4.5) + sqrt(y)") == (
        (5.0, 9.0),
        (0.1, 2.0),
    )
    # A range written as YAML 1.1 reads `1e-6` (a string), like a float param's default.
    assert domains_of(inputs=[{"name": "x", "range": ["1e-6", "2.5E+3"]}], expr="x") == ((1e-6, 2500.0),)


def test_a_custom_ops_inputs_take_the_signed_default_or_their_declared_range():
    raw = minimal(kind="custom", inputs=["a", {"name": "b", "range": [0.5, 3]}])
    del raw["ops"][0]["expr"]
    assert spec.validate(raw).ops[0].input_domains == ((-2.0, 2.0), (0.5, 3.0))


@pytest.mark.parametrize(
    "inputs, expr, at",
    [
        # Finite on the default [-2, 2], not on the declared range: checked on the declared one.
        ([{"name": "x", "range": [0, 5]}], "sqrt(3 - x)", "x=3.125"),
        # log(0) at the declared range's low end.
        ([{"name": "x", "range": [0, 20]}], "log(x)", "x=0"),
        # Finite on neither default: refused, naming the positive default it was checked on.
        (["x"], "sqrt(x - 1)", "x=0.1"),
    ],
)
def test_the_spec_check_verifies_finiteness_on_exactly_the_ops_domain(inputs, expr, at):
    with pytest.raises(spec.SpecError) as info:
        spec.validate(minimal(inputs=inputs, expr=expr))
    text = str(info.value)
    assert text.startswith(f"ops[0].expr: is not finite (NaN or inf) at {at} with the param defaults")
    assert "declare where the inputs live (inputs: [{name: x, range: [low, high]}]) or guard the math" in text
    assert "\n" not in text


def test_an_op_finite_only_on_its_declared_range_is_accepted():
    # NaN on [-2, 2] and on [0.1, 2]: accepted only because of the range.
    with pytest.raises(spec.SpecError, match=r"^ops\[0\]\.expr: is not finite"):
        spec.validate(minimal(inputs=["x"], expr="log(x - 4.5)"))
    assert domains_of(inputs=[{"name": "x", "range": [5, 9]}], expr="log(x - 4.5)") == ((5.0, 9.0),)


@pytest.mark.parametrize(
    "entry, rule",
    [
        ({"name": "x", "range": [2, 1]}, r"ops\[0\]\.inputs\[0\]\.range: must be \[low, high\] with low < high"),
        ({"name": "x", "range": [1, 1]}, r"ops\[0\]\.inputs\[0\]\.range: must be \[low, high\] with low < high"),
        # Distinct in float64, equal in float32 (the project's tensors).
        ({"name": "x", "range": [1, 1 + 1e-12]}, r"ops\[0\]\.inputs\[0\]\.range: must be \[low, high\] with low"),
        ({"name": "x", "range": [0, float("inf")]}, r"ops\[0\]\.inputs\[0\]\.range: must be finite numbers"),
        ({"name": "x", "range": [float("nan"), 1]}, r"ops\[0\]\.inputs\[0\]\.range: must be finite numbers"),
        ({"name": "x", "range": [0, 1e31]}, r"ops\[0\]\.inputs\[0\]\.range: must be finite numbers with magnitude"),
        ({"name": "x", "range": [0, True]}, r"ops\[0\]\.inputs\[0\]\.range: must be two numbers \[low, high\]"),
        ({"name": "x", "range": ["a", 1]}, r"ops\[0\]\.inputs\[0\]\.range: must be two numbers .*'a' as low"),
        ({"name": "x", "range": [1, 2, 3]}, r"ops\[0\]\.inputs\[0\]\.range: must be a list of two numbers"),
        ({"name": "x", "range": 3}, r"ops\[0\]\.inputs\[0\]\.range: must be a list of two numbers"),
        ({"name": "x", "range": {"low": 0}}, r"ops\[0\]\.inputs\[0\]\.range: must be a list of two numbers"),
        ({"name": "x", "rnage": [0, 1]}, r"ops\[0\]\.inputs\[0\]\.rnage: unknown key \(allowed: name, range\)"),
        ({"range": [0, 1]}, r"ops\[0\]\.inputs\[0\]\.name: is required"),
        ({"name": "int", "range": [0, 1]}, r"ops\[0\]\.inputs\[0\]\.name: "),
        ({"name": "x", "dtype": "int8"}, r"ops\[0\]\.inputs\[0\]: must be a tensor name or \{name, range\}"),
    ],
)
def test_a_bad_range_is_one_line_naming_the_field(entry, rule):
    with pytest.raises(spec.SpecError, match=f"^{rule}") as info:
        spec.validate(minimal(inputs=[entry], expr="x" if entry.get("name") == "x" else "input * 3"))
    assert "\n" not in str(info.value)


def test_the_canonical_spec_round_trips_the_ranges():
    raw = minimal(
        inputs=[{"name": "e", "range": [0, 20]}, "g", {"name": "h", "range": ["-1e-6", 3.5]}],
        expr="sqrt(e) * g + h",
    )
    pkg = spec.validate(raw)
    text = pkg.yaml.spec
    again = spec.validate(yaml.safe_load(text))
    assert again.ops[0].input_domains == pkg.ops[0].input_domains == ((0.0, 20.0), (-2.0, 2.0), (-1e-6, 3.5))
    assert again.yaml.spec == text
    # A plain name stays a plain name: no range is written for a default domain.
    assert yaml.safe_load(text)["ops"][0]["inputs"][1] == "g"


def test_the_rendered_domains_are_the_models():
    """ops.py's OpInfo.domains and tests/spec_values.py's SPEC_DOMAINS, as Python
    literals, evaluate to Op.input_domains, including a range at the literal limits."""
    raw = minimal(
        inputs=[{"name": "a", "range": [-1e30, 1e-30]}, "b", {"name": "c", "range": [0.1, 0.3]}],
        expr="a + b + c",
    )
    op = spec.validate(raw).ops[0]
    assert ast.literal_eval(op.py.domains) == op.input_domains == ((-1e30, 1e-30), (-2.0, 2.0), (0.1, 0.3))
    assert ast.literal_eval(op.py.spec_domains) == op.input_domains
    assert op.md.inputs == "a in [-1e+30, 1e-30], b in [-2, 2], c in [0.1, 0.3]"


def test_no_template_file_picks_its_own_input_range():
    """An op's input values reach the project only through OpInfo.domains (hooks/model.py
    Op.input_domains, through hooks/view_py.py): a template file that spells a range of
    its own (as device_data's DEFAULT_RANGE/POSITIVE_RANGE, the builder test's
    `low=-2.0, high=2.0` and test_ops' `(0.1, 2.0), (-3.0, 3.0)` did) would test or
    calibrate on another domain than the spec check verified. (The render matrix's
    DOMAIN_OPS, finite only on their declared ranges, catch one that slips by.)"""
    from hooks.model import DEFAULT_DOMAIN, POSITIVE_DOMAIN

    spellings = ["DEFAULT_RANGE", "POSITIVE_RANGE", "low=-", "high=2", "linspace(-2", "(-3.0, 3.0)"]
    for lo, hi in (DEFAULT_DOMAIN, POSITIVE_DOMAIN):
        spellings += [f"({lo}, {hi})", f"({lo:g}, {hi:g})", f"{lo}, {hi})"]
    found = []
    for path in sorted((ROOT / "template").rglob("*")):
        if path.is_file() and path.suffix in (".py", ".jinja") and not path.name.endswith(".md.jinja"):
            text = path.read_text(errors="replace")
            found += [f"{path.relative_to(ROOT)}: {s}" for s in spellings if s in text]
    assert not found, found


def _custom(*params):
    raw = minimal(kind="custom", params=list(params))
    del raw["ops"][0]["expr"]
    return spec.validate(raw).ops[0]


def test_a_param_range_is_where_the_tests_vary_it():
    """A declared range is the param's span; the other value lies inside it, half way
    from the default to the far end (worked by hand: 0.9 -> 0.45 in [0, 1]; 2 -> 3 in
    [1, 4]; at the top of its range an int steps down)."""
    op = _custom(
        {"name": "alpha", "type": "float", "default": 0.9, "range": [0, 1]},
        {"name": "order", "type": "int", "default": 2, "range": [1, 4]},
        {"name": "top", "type": "int", "default": 4, "range": [1, 4]},
    )
    assert [p.range for p in op.params] == [(0.0, 1.0), (1, 4), (1, 4)]
    assert op.param_spans == ((0.0, 1.0), (1, 4), (1, 4))
    assert op.other_params == (0.45, 3, 3)
    assert ast.literal_eval(op.py.param_spans.removeprefix("param_spans=")) == op.param_spans
    assert ast.literal_eval(op.py.other_params.removeprefix("other_params=")) == op.other_params
    assert op.md.params == "alpha: float = 0.9 in [0.0, 1.0], order: int = 2 in [1, 4], top: int = 4 in [1, 4]"


def test_a_custom_op_param_without_range_stays_at_its_default():
    """The issue's agc: `alpha` 0.9 tried at 0.9 * 1.5 + 0.25 = 1.6 made the user's math NaN.
    Without a range a custom op's float and int params are never moved; a bool flips."""
    op = _custom(
        {"name": "alpha", "type": "float", "default": 0.9},
        {"name": "order", "type": "int", "default": 2},
        {"name": "invert", "type": "bool", "default": False},
    )
    assert op.param_spans == (None, None, (False, True))
    assert op.other_params == (0.9, 2, True)


def test_an_elementwise_param_without_range_is_varied_only_where_the_expr_is_finite():
    """Around the default (a third to three times a float, half to twice plus 4 an int)
    when the expr is finite on all of it; `sqrt(1 - a)` at a = 0.5 is NaN from a = 1 on,
    inside [1/6, 1.5]: only the default."""
    free = spec.validate(minimal(params=[{"name": "a", "type": "float", "default": 0.5}], expr="input * a")).ops[0]
    assert free.param_spans == ((0.5 / 3, 1.5),) and free.other_params == (1.0,)  # half way to 1.5
    ints = spec.validate(minimal(params=[{"name": "n", "type": "int", "default": 3}], expr="input * n")).ops[0]
    assert ints.param_spans == ((1, 10),) and ints.other_params == (4,)
    raw = minimal(
        inputs=[{"name": "input", "range": [0.5, 1.0]}],
        params=[{"name": "a", "type": "float", "default": 0.5}],
        expr="sqrt(1 - a) * input",
    )
    held = spec.validate(raw).ops[0]
    assert held.param_spans == (None,) and held.other_params == (0.5,)


def test_a_param_range_round_trips_through_the_canonical_spec():
    raw = minimal(params=[{"name": "a", "type": "float", "default": 0.5, "range": [0, 1]}], expr="input * a")
    pkg = spec.validate(raw)
    text = pkg.yaml.spec
    assert yaml.safe_load(text)["ops"][0]["params"] == [
        {"name": "a", "type": "float", "default": 0.5, "range": [0.0, 1.0]}
    ]
    assert spec.validate(yaml.safe_load(text)).ops[0].params == pkg.ops[0].params


@pytest.mark.parametrize(
    "param, field, rule",
    [
        ({"type": "float", "default": 1.6, "range": [0, 1]}, "default", "1.6 is outside the param's range [0.0, 1.0]"),
        ({"type": "int", "default": 0, "range": [1, 4]}, "default", "0 is outside the param's range [1, 4]"),
        ({"type": "bool", "default": True, "range": [0, 1]}, "range", "is only for float and int params"),
        ({"type": "float", "default": 0.5, "range": [1, 0]}, "range", "must be [low, high] with low < high"),
        ({"type": "float", "default": 0.5, "range": [0.5, 0.5]}, "range", "must be [low, high] with low < high"),
        ({"type": "int", "default": 2, "range": [1, 2**32]}, "range", "high: must be in [0, 4294967295]"),
        ({"type": "int", "default": 2, "range": [1, "4"]}, "range", "high: must be a whole number (int param)"),
        ({"type": "float", "default": 0.5, "range": [0, "x"]}, "range", "high: must be a number (float param)"),
        ({"type": "float", "default": 0.5, "range": 1}, "range", "must be a list of two numbers [low, high]"),
    ],
)
def test_a_bad_param_range_is_one_line_naming_the_field(param, field, rule):
    raw = minimal(params=[{"name": "a", **param}], expr="input * a")
    with pytest.raises(spec.SpecError) as info:
        spec.validate(raw)
    assert info.value.lines == (f"ops[0].params[0].{field}: {info.value.rule}",), info.value.lines
    assert info.value.rule.startswith(rule), info.value.rule


def test_an_elementwise_op_must_be_finite_on_its_param_range():
    raw = minimal(
        inputs=[{"name": "input", "range": [0.5, 1.0]}],
        params=[{"name": "a", "type": "float", "default": 0.1, "range": [0, 2]}],
        expr="sqrt(1 - a) * input",
    )
    with pytest.raises(spec.SpecError) as info:
        spec.validate(raw)
    assert info.value.field == "ops[0].params[0].range"
    assert "not finite (NaN or inf) at a=1.25" in info.value.rule, info.value.rule


def test_the_spec_view_is_ascii_and_reads_back_the_same():
    """`python -m <ns> spec` prints spec.yaml; to an ASCII-only stdout a doc's "×" ended in
    an UnicodeEncodeError. The view spells it as a YAML escape ("\\xD7"), read back as "×"."""
    import yaml

    pkg = spec.validate(minimal(doc="times three \u00d7, \u00b5s \u2014 \U0001f600"))
    text = pkg.yaml.spec
    assert text.isascii(), text
    assert yaml.safe_load(text) == pkg.answers()
    assert yaml.safe_load(text)["ops"][0]["doc"] == "times three \u00d7, \u00b5s \u2014 \U0001f600"


def test_backends_are_the_spec_s_choice_lpai_by_default():
    # One list, in the spec's order; each backend's rules are one table (model.BACKEND_RULES).
    assert spec.validate(minimal()).backends == ("lpai",)
    both = spec.validate({**minimal(), "backends": ["lpai", "htp"]})
    assert (both.backends, both.htp, both.lpai) == (("lpai", "htp"), True, True)
    assert both.answers()["backends"] == ["lpai", "htp"]
    assert not spec.validate(minimal()).htp
    assert set(both.backend_rules) == {"lpai", "htp"} and all(both.backend_rules.values())
    assert spec.validate({**minimal(), "backends": "lpai"}).backends == ("lpai",)
    for bad, field in (
        ([], "backends"),
        (["htp"], "backends"),
        (["lpai", "HTP"], "backends[1]"),
        ([["lpai"]], "backends[0]"),
    ):
        with pytest.raises(spec.SpecError) as caught:
            spec.validate({**minimal(), "backends": bad})
        assert str(caught.value).startswith(field + ":"), str(caught.value)


def test_docs_spec_lists_every_backend_rule():
    # docs/spec.md "Backends" prints the model's table, line for line.
    from hooks.model import BACKEND_RULES

    text = (ROOT / "docs" / "spec.md").read_text()
    for backend, rules in BACKEND_RULES.items():
        for rule in rules:
            assert f"- **{backend}**: {rule}\n" in text, rule
