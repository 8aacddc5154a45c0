# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The torch side of every op: registration, schema, public API, eager math, `.out`, export."""

import inspect
import re

import numpy as np
import pytest
import torch
from executorch.exir import to_edge
from torch._subclasses.fake_tensor import FakeTensorMode

import norm_ops

from conftest import make_inputs
from reference import REFERENCES, in_float32
from spec_values import SPEC_DEFAULTS, SPEC_OUTPUTS, SPEC_SCHEMAS, expected_output_shapes, min_rank, other_params


def as_tuple(result):
    return result if isinstance(result, tuple) else (result,)


# Where a custom op's eager math lives (a name of its own: the lines that use it then have
# the same length for every namespace, and the formatter the same layout).
EAGER_USER = "norm_ops/user"


def empty_outputs(op, tensors, fill=float("nan")):
    """One tensor per declared output, of its declared shape, as `.out` keywords."""
    return {
        name: torch.full(shape, fill)
        for (name, _rule), shape in zip(SPEC_OUTPUTS[op.name], expected_output_shapes(op, tensors))
    }


def test_schema_matches_spec(op):
    functional, _ = SPEC_SCHEMAS[op.name]
    assert str(op.default._schema) == str(torch._C.parse_schema(functional))


def test_out_overload_has_one_keyword_per_output(op):
    _, out = SPEC_SCHEMAS[op.name]
    schema = op.out._schema
    assert str(schema) == str(torch._C.parse_schema(out))
    assert [(a.name, a.kwarg_only) for a in schema.arguments if a.is_out] == [
        (name, True) for name, _rule in SPEC_OUTPUTS[op.name]
    ]
    assert len(schema.returns) == len(op.default._schema.returns) == len(SPEC_OUTPUTS[op.name])
    # ExecuTorch pairs the overloads by their arguments: they must match the functional op's.
    functional = op.default._schema
    assert [(a.name, repr(a.real_type), a.default_value) for a in schema.arguments if not a.is_out] == [
        (a.name, repr(a.real_type), a.default_value) for a in functional.arguments
    ]


# opcheck's AOT-dispatch test compares outputs without equal_nan: an op whose answer is
# NaN somewhere on the inputs (`log(x + p)` at another p) fails it for NaN != NaN alone.
NAN_BLIND = ("test_aot_dispatch_static", "test_aot_dispatch_dynamic")
OPCHECK_UTILS = tuple(u for u in torch.library._OPCHECK_DEFAULT_UTILS if u not in NAN_BLIND)


def has_nan(result) -> bool:
    return any(bool(torch.isnan(r).any()) for r in as_tuple(result))


def test_opcheck_functional(op):
    args = (*make_inputs(op, seed=1), *other_params(op))
    if has_nan(op.default(*args)):
        torch.library.opcheck(op.default, args, test_utils=OPCHECK_UTILS)
        compiled = torch.compile(op.default, backend="aot_eager")
        torch.testing.assert_close(compiled(*args), op.default(*args), equal_nan=True)
    else:
        torch.library.opcheck(op.default, args)


def test_opcheck_out(op):
    tensors = make_inputs(op, seed=2)
    # The aot-dispatch checks do not apply to an overload that writes into `out`.
    torch.library.opcheck(
        op.out,
        (*tensors, *other_params(op)),
        empty_outputs(op, tensors),
        test_utils=("test_schema", "test_autograd_registration", "test_faketensor"),
    )


def test_out_equals_functional(op):
    tensors = make_inputs(op, seed=3)
    params = other_params(op)
    outs = empty_outputs(op, tensors)
    returned = as_tuple(op.out(*tensors, *params, **outs))
    assert len(returned) == len(outs) and all(r is o for r, o in zip(returned, outs.values()))
    torch.testing.assert_close(returned, as_tuple(op.default(*tensors, *params)), equal_nan=True)


def test_out_refuses_an_output_of_another_shape(op):
    tensors = make_inputs(op, seed=3)
    outs = empty_outputs(op, tensors)
    name = next(iter(outs))
    outs[name] = torch.empty(7, 3)
    with pytest.raises(ValueError, match=rf"\.out: {name} has shape \(7, 3\), expected"):
        op.out(*tensors, *other_params(op), **outs)


def widened(domains):
    """Each (low, high) grown by half its width on both sides: values outside the op's
    domain too (NaN and inf there must be the reference's)."""
    return [(low - (high - low) / 2, high + (high - low) / 2) for low, high in domains]


@pytest.mark.parametrize("where", ["domain", "widened"])
def test_eager_matches_float64_reference(op, where):
    if op.kind == "custom":
        pytest.skip("custom op: its reference is yours to write in tests/user/")
    tensors = make_inputs(op, seed=4, domains=op.domains if where == "domain" else widened(op.domains))
    for params in ([], other_params(op)):
        got = op(*tensors, *params).numpy()
        want = REFERENCES[op.name](*(t.numpy() for t in tensors), *params)
        assert got.dtype == np.float32 and got.shape == expected_output_shapes(op, tensors)[0]
        if np.allclose(got, want, rtol=2e-5, atol=2e-5, equal_nan=True):
            continue
        # The eager math (like the kernel) computes in float32, step by step: where that
        # cancels ((x + 1e6) - 1e6), float64 is not its answer. The same reference in
        # float32 arithmetic says what float32 gives.
        with in_float32():
            want32 = REFERENCES[op.name](*(t.numpy() for t in tensors), *params)
        np.testing.assert_allclose(got, want32, rtol=2e-5, atol=2e-5, equal_nan=True)


def test_custom_op_math_is_written(op):
    if op.kind != "custom":
        pytest.skip("elementwise op: generated from the spec's expr")
    tensors = make_inputs(op, seed=5)
    result = as_tuple(op(*tensors))
    assert [tuple(r.shape) for r in result] == expected_output_shapes(op, tensors)
    bad = [k for k, r in enumerate(result) if not bool(torch.isfinite(r).all())]
    assert not bad, f"output {bad[0]} is not finite (NaN or inf): your math in {EAGER_USER}/{op.name}.py"


def test_torch_export_keeps_the_op(op):
    params = other_params(op)

    class Model(torch.nn.Module):
        def forward(self, *tensors):
            return op.default(*tensors, *params)

    tensors = make_inputs(op, seed=6)
    exported = torch.export.export(Model(), tensors)
    targets = [n.target for n in exported.graph.nodes if n.op == "call_function"]
    assert op.default in targets
    torch.testing.assert_close(exported.module()(*tensors), op.default(*tensors, *params), equal_nan=True)


# Shapes of several ranks; each op's later inputs broadcast (make_inputs).
EXPORT_SHAPES = [(2, 3, 4, 5), (1, 8, 6), (3, 7)]


@pytest.mark.parametrize("shape", EXPORT_SHAPES, ids=["x".join(map(str, s)) for s in EXPORT_SHAPES])
def test_export_gives_the_declared_output_shapes(op, shape):
    """The fake kernel (what torch.export traces) and the eager op both give each output
    the shape the spec declares, as numpy computes it."""
    if len(shape) < min_rank(op):
        pytest.skip(f"the spec's reduce rules need inputs of at least {min_rank(op)} dims")
    params = other_params(op)

    class Model(torch.nn.Module):
        def forward(self, *tensors):
            return op.default(*tensors, *params)

    tensors = make_inputs(op, seed=9, shape=shape)
    want = expected_output_shapes(op, tensors)
    exported = torch.export.export(Model(), tensors)
    [node] = [n for n in exported.graph.nodes if n.op == "call_function" and n.target == op.default]
    assert [tuple(v.shape) for v in as_tuple(node.meta["val"])] == want
    assert [tuple(t.shape) for t in as_tuple(op.default(*tensors, *params))] == want


def test_inputs_that_do_not_fit_the_shape_rule_are_refused(op):
    """Elementwise: inputs that do not broadcast; custom: a later input that does not
    broadcast to the first, a reduce dim the input lacks."""
    rules = [rule for _name, rule in SPEC_OUTPUTS[op.name]]
    if rules[0][0] == "broadcast" and len(op.inputs) > 1:
        tensors = [torch.ones(2, 3)] + [torch.ones(4)] * (len(op.inputs) - 1)
        message = "do not broadcast"
    elif len(op.inputs) > 1:
        # (2, 4) broadcasts with (2, 3) in neither direction; (1, 2, 3) has more dims.
        for later in ((2, 4), (1, 2, 3)):
            with pytest.raises(ValueError, match="does not broadcast to the first input"):
                op(torch.ones(2, 3), *[torch.ones(later)] * (len(op.inputs) - 1))
        return
    elif any(rule[0] == "reduce" for rule in rules):
        _, source, dims, _keep = next(rule for rule in rules if rule[0] == "reduce")
        rank = max(abs(d) + (d >= 0) for d in dims) - 1  # one dim fewer than the reduce needs
        tensors = [torch.ones((2,) * rank) for _ in op.inputs]
        message = "dim"
    else:
        pytest.skip("any shape fits: one input, outputs like inputs")
    with pytest.raises(ValueError, match=message):
        op(*tensors)


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


CALLS = ("function", "function-params", "function-keywords", "torch.ops", "torch.ops-params", "torch.ops-keywords")


_EXPORTED_CALLS = {}


def _exported_calls(op):
    """Every call of one op in one model, exported and lowered once (one export and one
    to_edge per op, not per call): the calls, the op's edge nodes in call order, the
    edge program and its inputs."""
    if op.name not in _EXPORTED_CALLS:
        _EXPORTED_CALLS[op.name] = _export_every_call(op)
    return _EXPORTED_CALLS[op.name]


def _export_every_call(op):
    calls = _calls(op)
    names = [c for c in CALLS if op.params or not c.endswith(("-params", "-keywords"))]

    class Model(torch.nn.Module):
        def forward(self, *tensors):
            return tuple(calls[c][0](*tensors) for c in names)

    tensors = make_inputs(op, seed=7)
    exported = torch.export.export(Model(), tensors)
    # ExecuTorch's own to_edge: what its Qualcomm builder sees.
    edge = to_edge(exported).exported_program()
    # The namespace on a line of its own: the next has the same length for every spec.
    namespace = "norm_ops"
    nodes = [n for n in edge.graph.nodes if n.op == "call_function" and namespace in str(n.target)]
    assert len(nodes) == len(names), [str(n.target) for n in nodes]
    return names, nodes, edge, tensors


@pytest.mark.parametrize("call", CALLS)
def test_every_call_exports_every_param(op, call):
    if not op.params and call.endswith(("-params", "-keywords")):
        pytest.skip("the op has no params: the call without them covers it")
    fn, expected = _calls(op)[call]
    names, nodes, edge, tensors = _exported_calls(op)
    k = names.index(call)
    node = nodes[k]
    assert node.target._schema.name == op.qualified_name and node.target._schema.overload_name == ""
    assert len(node.args) == len(op.default._schema.arguments), node.args
    assert list(node.args[len(op.inputs) :]) == expected
    assert not node.kwargs
    torch.testing.assert_close(edge.module()(*tensors)[k], fn(*tensors), equal_nan=True)


# Every tensor dtype that is not floating-point: each input of each op refuses it.
NON_FLOAT = (torch.int64, torch.int32, torch.uint8, torch.bool)


def test_a_non_float_input_is_refused_naming_the_op_and_the_input(op):
    """exp of an int64 tensor, copied back into int64, was 0 or 1 where torch gives
    floats, and the fake kernel said int64 too: the ops take floating-point tensors
    only, and the eager op, `.out` and the fake kernel (export) refuse any other in one
    line naming the op and the input."""
    tensors = make_inputs(op, seed=10)
    params = other_params(op)
    for k, name in enumerate(op.inputs):
        for dtype in NON_FLOAT:
            bad = list(tensors)
            bad[k] = tensors[k] > 0 if dtype == torch.bool else tensors[k].round().to(dtype)
            message = re.escape(f"{op.qualified_name}: input {name} is {dtype}, not a floating-point tensor")
            with pytest.raises(TypeError, match=f"^{message}"):
                op(*bad, *params)
            with pytest.raises(TypeError, match=f"^{message}"):
                op.out(*bad, *params, **empty_outputs(op, tensors))
            with FakeTensorMode() as mode, pytest.raises(TypeError, match=f"^{message}"):
                op.default(*(mode.from_tensor(t) for t in bad), *params)

    class Model(torch.nn.Module):
        def forward(self, *t):
            return op(*t, *params)

    # Export (the fake kernel under torch.export) once: the last input as a bool tensor.
    with pytest.raises(TypeError, match=f"^{message}"):
        torch.export.export(Model(), tuple(bad))


def test_float_inputs_give_torch_s_promoted_dtype(op):
    """A float64 input makes every output float64 (torch.promote_types), in the fake
    kernel (what export records) and the eager op alike; float32 inputs float32."""
    tensors = make_inputs(op, seed=11)
    params = other_params(op)
    for k in [None, *range(len(op.inputs))]:
        mixed = [t.double() if i == k else t for i, t in enumerate(tensors)]
        want = torch.float32 if k is None else torch.float64
        with FakeTensorMode() as mode:
            fake = as_tuple(op.default(*(mode.from_tensor(t) for t in mixed), *params))
        assert [t.dtype for t in fake] == [want] * len(fake), (k, fake)
        if op.kind == "elementwise":  # a custom op's eager math is yours
            assert [t.dtype for t in as_tuple(op(*mixed, *params))] == [want] * len(fake), k


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
