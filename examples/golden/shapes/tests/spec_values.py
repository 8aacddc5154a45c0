# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""What the spec says about each op, written out by the template: the expected values of
the tests, independent of the package under test."""

# What getLayoutSupportFlag reports for every op (spec: layout_support): 1 is
# QNN_LPAI_OP_LAYOUT_SHAPE_NE_LAYOUT, 0 QNN_LPAI_OP_LAYOUT_DEFAULT.
SPEC_LAYOUT_FLAG = 1

# The longest row (last dim) a `rowwise: true` custom op takes: LPAI_ROW_MAX, the length
# of the kernel's row buffers on its stack; a longer row is refused at run time.
SPEC_ROW_MAX = 256


# What the spec says each op's schemas are; compared through torch's own parser/printer.
SPEC_SCHEMAS = {
    "add_bias": (
        "shape_ops::add_bias(Tensor x, Tensor bias) -> Tensor",
        "shape_ops::add_bias.out(Tensor x, Tensor bias, *, Tensor(a!) out) -> Tensor(a!)",
    ),
    "fma3": (
        "shape_ops::fma3(Tensor a, Tensor b, Tensor c) -> Tensor",
        "shape_ops::fma3.out(Tensor a, Tensor b, Tensor c, *, Tensor(a!) out) -> Tensor(a!)",
    ),
    "channel_mean": (
        "shape_ops::channel_mean(Tensor x) -> Tensor",
        "shape_ops::channel_mean.out(Tensor x, *, Tensor(a!) mean) -> Tensor(a!)",
    ),
    "center": (
        "shape_ops::center(Tensor x, float scale, bool subtract) -> (Tensor, Tensor)",
        "shape_ops::center.out(Tensor x, float scale, bool subtract, *, Tensor(a!) mean, Tensor(b!) centered) -> (Tensor(a!), Tensor(b!))",
    ),
    "rms_norm": (
        "shape_ops::rms_norm(Tensor x, float eps) -> Tensor",
        "shape_ops::rms_norm.out(Tensor x, float eps, *, Tensor(a!) y) -> Tensor(a!)",
    ),
    "pcen": (
        "shape_ops::pcen(Tensor x, Tensor state, float smooth, float eps) -> (Tensor, Tensor)",
        "shape_ops::pcen.out(Tensor x, Tensor state, float smooth, float eps, *, Tensor(a!) y, Tensor(b!) new_state) -> (Tensor(a!), Tensor(b!))",
    ),
}


# The spec's param defaults, written out by the template (not read from the package).
SPEC_DEFAULTS = {
    "add_bias": {},
    "fma3": {},
    "channel_mean": {},
    "center": {
        "scale": 1.0,
        "subtract": True,
    },
    "rms_norm": {
        "eps": 1e-06,
    },
    "pcen": {
        "smooth": 0.25,
        "eps": 1e-06,
    },
}


# Each op's input domains, (low, high) per input: the spec's `range`, or its default
# (what the package's OpInfo.domains must hold, and its generated inputs stay in).
SPEC_DOMAINS = {
    "add_bias": ((-2.0, 2.0), (-2.0, 2.0)),
    "fma3": ((-2.0, 2.0), (-2.0, 2.0), (-2.0, 2.0)),
    "channel_mean": ((-2.0, 2.0),),
    "center": ((-2.0, 2.0),),
    "rms_norm": ((-2.0, 2.0),),
    "pcen": ((-2.0, 2.0), (-2.0, 2.0)),
}


# Per op, per param: the (low, high) the tests vary it in (the spec's `range`; a bool's two
# values; around the default of an elementwise op's param where its expr is finite), or
# None: the param stays at its default (a custom op's param without a range).
SPEC_PARAM_SPANS = {
    "add_bias": (),
    "fma3": (),
    "channel_mean": (),
    "center": (None, (False, True)),
    "rms_norm": (None,),
    "pcen": (None, None),
}


# Per op, one value per param other than its default (within SPEC_PARAM_SPANS).
SPEC_OTHER_PARAMS = {
    "add_bias": [],
    "fma3": [],
    "channel_mean": [],
    "center": [1.0, False],
    "rms_norm": [1e-06],
    "pcen": [0.25, 1e-06],
}


# Each op's outputs as the spec declares them: (name, rule), rule one of ("broadcast",),
# ("like", input), ("reduce", input, dims, keepdim).
SPEC_OUTPUTS = {
    "add_bias": (("out", ("broadcast",)),),
    "fma3": (("out", ("broadcast",)),),
    "channel_mean": (("mean", ("reduce", "x", (1,), True)),),
    "center": (("mean", ("reduce", "x", (-1,), True)), ("centered", ("like", "x"))),
    "rms_norm": (("y", ("like", "x")),),
    "pcen": (("y", ("like", "x")), ("new_state", ("like", "state"))),
}


def expected_output_shapes(op, tensors):
    """The shape of each output for these inputs, by numpy's own rules (np.broadcast_shapes,
    and a numpy reduction), independent of the package's shapes.py."""
    import numpy as np

    by_name = {name: tuple(t.shape) for name, t in zip(op.inputs, tensors)}
    shapes = []
    for _name, rule in SPEC_OUTPUTS[op.name]:
        if rule[0] == "broadcast":
            shapes.append(tuple(np.broadcast_shapes(*by_name.values())))
        elif rule[0] == "like":
            shapes.append(by_name[rule[1]])
        else:
            _, source, dims, keepdim = rule
            shapes.append(np.zeros(by_name[source]).sum(axis=dims, keepdims=keepdim).shape)
    return shapes


def min_rank(op):
    """The fewest dims the op's inputs may have, from the spec's rules: a reduce rule
    needs each dim it names, distinct, and a dim left over unless keepdim."""
    need = 0
    for _name, rule in SPEC_OUTPUTS[op.name]:
        if rule[0] == "reduce":
            _, _source, dims, keepdim = rule
            need = max(
                need,
                next(
                    r
                    for r in range(1, 6)
                    if all(-r <= d < r for d in dims)
                    and len({d % r for d in dims}) == len(dims)
                    and (keepdim or len(dims) < r)
                ),
            )
    return need


def other_params(op):
    """Values other than the defaults for every param the spec lets the tests vary
    (SPEC_PARAM_SPANS), so that a dropped param cannot go unnoticed; the default where
    only it is known to work."""
    import failure

    values = list(SPEC_OTHER_PARAMS[op.name])
    failure.note(op, params=values)
    return values
