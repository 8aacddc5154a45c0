# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The torch side of every op: registration, schema, public API, eager math, `.out`, export."""

import inspect

import numpy as np
import pytest
import torch
from executorch.exir import to_edge

import norm_ops

from conftest import make_inputs
from reference import REFERENCES
from spec_values import SPEC_DEFAULTS, SPEC_SCHEMAS, other_params


def test_schema_matches_spec(op):
    functional, _ = SPEC_SCHEMAS[op.name]
    assert str(op.default._schema) == str(torch._C.parse_schema(functional))


def test_out_overload_keyword_is_out(op):
    _, out = SPEC_SCHEMAS[op.name]
    schema = op.out._schema
    assert str(schema) == str(torch._C.parse_schema(out))
    assert [(a.name, a.kwarg_only) for a in schema.arguments if a.is_out] == [("out", True)]
    # ExecuTorch pairs the overloads by their arguments: they must match the functional op's.
    functional = op.default._schema
    assert [(a.name, repr(a.real_type), a.default_value) for a in schema.arguments if not a.is_out] == [
        (a.name, repr(a.real_type), a.default_value) for a in functional.arguments
    ]


def test_opcheck_functional(op):
    args = (*make_inputs(op, seed=1), *other_params(op))
    torch.library.opcheck(op.default, args)


def test_opcheck_out(op):
    tensors = make_inputs(op, seed=2)
    out = torch.empty_like(tensors[0])
    # The aot-dispatch checks do not apply to an overload that writes into `out`.
    torch.library.opcheck(
        op.out,
        (*tensors, *other_params(op)),
        {"out": out},
        test_utils=("test_schema", "test_autograd_registration", "test_faketensor"),
    )


def test_out_equals_functional(op):
    tensors = make_inputs(op, seed=3)
    params = other_params(op)
    out = torch.full_like(tensors[0], float("nan"))
    returned = op.out(*tensors, *params, out=out)
    assert returned is out
    torch.testing.assert_close(out, op.default(*tensors, *params))


@pytest.mark.parametrize("domain", [(0.1, 2.0), (-3.0, 3.0)], ids=["positive", "signed"])
def test_eager_matches_float64_reference(op, domain):
    if op.kind == "custom":
        pytest.skip("custom op: its reference is yours to write in tests/user/")
    tensors = make_inputs(op, seed=4, low=domain[0], high=domain[1])
    for params in ([], other_params(op)):
        got = op(*tensors, *params).numpy()
        want = REFERENCES[op.name](*(t.numpy() for t in tensors), *params)
        assert got.dtype == np.float32 and got.shape == tensors[0].shape
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5, equal_nan=True)


def test_custom_op_math_is_written(op):
    if op.kind != "custom":
        pytest.skip("elementwise op: generated from the spec's expr")
    tensors = make_inputs(op, seed=5)
    result = op(*tensors)
    assert result.shape == tensors[0].shape
    assert torch.isfinite(result).all()


def test_torch_export_keeps_the_op(op):
    params = other_params(op)

    class Model(torch.nn.Module):
        def forward(self, *tensors):
            return op.default(*tensors, *params)

    tensors = make_inputs(op, seed=6)
    exported = torch.export.export(Model(), tensors)
    targets = [n.target for n in exported.graph.nodes if n.op == "call_function"]
    assert op.default in targets
    torch.testing.assert_close(exported.module()(*tensors), op.default(*tensors, *params))


def test_public_function_has_the_spec_defaults(op):
    function = getattr(norm_ops, op.name)
    assert function is op.function and op.name in norm_ops.__all__
    params = list(inspect.signature(function).parameters.values())[len(op.inputs) :]
    assert {p.name: p.default for p in params} == SPEC_DEFAULTS[op.name]
    # The functional schema has no defaults, so that export keeps every param.
    assert all(not a.has_default_value() for a in op.default._schema.arguments)


def _calls(op):
    """Every way of calling the op, with the param values each call must export."""
    defaults = list(SPEC_DEFAULTS[op.name].values())
    other = other_params(op)
    names = list(SPEC_DEFAULTS[op.name])
    return {
        "function": (lambda *t: op.function(*t), defaults),
        "function-params": (lambda *t: op.function(*t, *other), other),
        "function-keywords": (lambda *t: op.function(*t, **dict(zip(names, other))), other),
        "torch.ops": (lambda *t: op.packet(*t), defaults),
        "torch.ops-params": (lambda *t: op.packet(*t, *other), other),
        "torch.ops-keywords": (lambda *t: op.packet(*t, **dict(zip(names, other))), other),
    }


@pytest.mark.parametrize(
    "call", ["function", "function-params", "function-keywords", "torch.ops", "torch.ops-params", "torch.ops-keywords"]
)
def test_every_call_exports_every_param(op, call):
    fn, expected = _calls(op)[call]

    class Model(torch.nn.Module):
        def forward(self, *tensors):
            return fn(*tensors)

    tensors = make_inputs(op, seed=7)
    exported = torch.export.export(Model(), tensors)
    # ExecuTorch's own to_edge: what its Qualcomm builder sees.
    edge = to_edge(exported).exported_program()
    nodes = [n for n in edge.graph.nodes if n.op == "call_function" and "norm_ops" in str(n.target)]
    assert len(nodes) == 1, [str(n.target) for n in nodes]
    node = nodes[0]
    assert node.target._schema.name == op.qualified_name and node.target._schema.overload_name == ""
    assert len(node.args) == len(op.default._schema.arguments), node.args
    assert list(node.args[len(op.inputs) :]) == expected
    assert not node.kwargs
    torch.testing.assert_close(edge.module()(*tensors), fn(*tensors))


def test_int_params_outside_uint32_are_refused(op):
    ints = [i for i, (_n, kind, _d) in enumerate(op.params) if kind == "int"]
    if not ints:
        pytest.skip("no int param")
    tensors = make_inputs(op, seed=8)
    for bad in (-1, 2**32):
        params = list(SPEC_DEFAULTS[op.name].values())
        params[ints[0]] = bad
        with pytest.raises(ValueError, match=r"must be in \[0, 4294967295\].*UINT_32"):
            op(*tensors, *params)

        class Model(torch.nn.Module):
            def __init__(self, params):
                super().__init__()
                self.params = params

            def forward(self, *t):
                return op(*t, *self.params)

        with pytest.raises(ValueError, match="UINT_32"):
            torch.export.export(Model(params), tensors)
