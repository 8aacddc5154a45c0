"""The spec model: defaults, derived names, and the rules that the corpus does not
reach through copier (the corpus in specs/bad/ covers the error messages end to end)."""

from __future__ import annotations

import pytest

from hooks import names, spec
from conftest import EXAMPLES


def minimal(**op):
    base = {"name": "mul3", "inputs": ["input"], "expr": "input * 3"}
    base.update(op)
    return {"package_name": "ScaleOpPackage", "namespace": "my_ops", "ops": [base]}


def test_defaults_and_derived_names():
    pkg = spec.validate(minimal())
    assert (pkg.soc_model, pkg.op_package_arch, pkg.activation_dtype) == ("SM8850", "v79", "uint8")
    assert pkg.library_name == "libQnnScaleOpPackage.so"
    assert pkg.interface_provider == "ScaleOpPackageInterfaceProvider"
    op = pkg.ops[0]
    assert (op.qnn_type, op.kind, op.qualified_name) == ("Mul3", "elementwise", "my_ops::mul3")
    assert op.doc == "Elementwise op mul3."


def test_schema_strings():
    pkg = spec.validate(minimal(params=[{"name": "factor", "type": "float", "default": 3},
                                        {"name": "n", "type": "int", "default": 2},
                                        {"name": "on", "type": "bool", "default": False}],
                                expr="input * factor + n + on"))
    op = pkg.ops[0]
    # No defaults in the functional and .out schemas: torch.export would drop every
    # trailing param equal to its default, and ExecuTorch's builder refuses such a node.
    assert op.schema == "mul3(Tensor input, float factor, int n, bool on) -> Tensor"
    assert op.custom_op_schema == "(Tensor input, float factor, int n, bool on) -> Tensor"
    assert op.out_schema == "mul3.out(Tensor input, float factor, int n, bool on, *, Tensor(a!) out) -> Tensor(a!)"
    assert op.defaults_schema == "mul3.defaults(Tensor input, float factor=3.0, int n=2, bool on=False) -> Tensor"
    assert op.py_signature == "input: torch.Tensor, factor: float = 3.0, n: int = 2, on: bool = False"
    assert op.py_signature_required == "input: torch.Tensor, factor: float, n: int, on: bool"
    assert op.int_check_args == "n=n"
    assert op.c_math_args == "float in_input, float p_factor, float p_n, float p_on"
    assert [p.default_c for p in op.params] == ["3.0f", "2u", "0"]
    assert [p.default_xml for p in op.params] == ["3.0", "2", "0"]
    # What ExecuTorch sends (node_visitor.QNN_TENSOR_TYPE_MAP): int and bool alike as UINT_32.
    assert [p.qnn_datatype for p in op.params] == ["QNN_DATATYPE_FLOAT_32", "QNN_DATATYPE_UINT_32",
                                                   "QNN_DATATYPE_UINT_32"]
    assert spec.validate(minimal()).ops[0].defaults_schema is None


def test_int_defaults_are_uint32():
    for value in (0, 2**32 - 1):
        pkg = spec.validate(minimal(params=[{"name": "n", "type": "int", "default": value}], expr="input * n"))
        assert pkg.ops[0].params[0].default == value
    for value in (-1, 2**32):
        with pytest.raises(spec.SpecError, match=r"must be in \[0, 4294967295\].*UINT_32"):
            spec.validate(minimal(params=[{"name": "n", "type": "int", "default": value}], expr="input * n"))


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
    assert (info.value.field, str(info.value)) == ("ops[0].inputs[1]", "ops[0].inputs[1]: duplicate name 'a' (also ops[0].inputs[0])")
