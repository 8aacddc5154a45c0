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
