"""The Python view of the model (hooks/view_py.py): README's model examples."""

from __future__ import annotations

from hooks import spec


def _op(raw: dict) -> spec.Op:
    return spec.validate({"package_name": "PyViewOpPackage", "namespace": "pyview_ops", "ops": [raw]}).ops[0]


def test_the_model_example_feeds_inputs_of_one_domain_one_tensor():
    op = _op({"name": "mix", "inputs": ["a", "b"], "expr": "a * b"})
    assert op.py.example_inputs == ["h = -2.0 + 4.0 * torch.sigmoid(self.conv(x))  # the op's input domain"]
    assert op.py.example_call == "pyview_ops.mix(h, h)"


def test_the_model_example_maps_each_declared_range_onto_its_inputs():
    """An input declared on [0, 20] gets values there, the others the default domain; an
    input of the first's range shares its tensor."""
    op = _op(
        {
            "name": "gate",
            "inputs": [{"name": "e", "range": [0, 20]}, "g", {"name": "k", "range": [0, 20]}],
            "expr": "sqrt(e) * g + k",
        }
    )
    assert op.py.example_inputs == [
        "h = 0.0 + 20.0 * torch.sigmoid(self.conv(x))  # the domain of e, k",
        "h1 = -2.0 + 4.0 * torch.sigmoid(self.conv(x))  # the domain of g",
    ]
    assert op.py.example_call == "pyview_ops.gate(h, h1, h)"


def test_the_package_facts_of_each_backend_are_the_models_as_python_literals():
    """_package.py's BACKENDS, DATATYPES, MAX_RANKS and XML_BACKENDS: the backends of the spec, each
    with its data types and rank from hooks/model.py, and nothing of a backend the spec
    leaves out."""
    import ast

    from hooks import model

    for backends in (["lpai"], ["lpai", "htp"]):
        pkg = spec.validate(
            {
                "package_name": "PyViewOpPackage",
                "namespace": "pyview_ops",
                "backends": backends,
                "ops": [{"name": "mix", "inputs": ["a"], "expr": "a"}],
            }
        )
        assert ast.literal_eval(pkg.py.backends) == tuple(backends)
        assert ast.literal_eval(pkg.py.datatypes) == {b: model.BACKEND_DATATYPES[b] for b in backends}
        assert ast.literal_eval(pkg.py.max_ranks) == {b: model.BACKEND_MAX_RANK[b] for b in backends}
        assert ast.literal_eval(pkg.py.xml_backends) == {b: model.BACKEND_XML_NAME[b] for b in backends}
    assert model.BACKEND_MAX_RANK == {"lpai": 5, "htp": 4}
    assert model.BACKEND_XML_NAME == {"lpai": "LPAI", "htp": "HTP"}
    assert "QNN_DATATYPE_UFIXED_POINT_16" in ast.literal_eval(pkg.py.datatypes)["htp"]
