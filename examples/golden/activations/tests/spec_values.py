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
    "hard_swish_ish": (
        "act_ops::hard_swish_ish(Tensor x) -> Tensor",
        "act_ops::hard_swish_ish.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)",
    ),
    "scaled_tanh": (
        "act_ops::scaled_tanh(Tensor x, float gain, int shift) -> Tensor",
        "act_ops::scaled_tanh.out(Tensor x, float gain, int shift, *, Tensor(a!) out) -> Tensor(a!)",
    ),
    "add_scaled": (
        "act_ops::add_scaled(Tensor a, Tensor b, float alpha) -> Tensor",
        "act_ops::add_scaled.out(Tensor a, Tensor b, float alpha, *, Tensor(a!) out) -> Tensor(a!)",
    ),
    "soft_min": (
        "act_ops::soft_min(Tensor a, Tensor b) -> Tensor",
        "act_ops::soft_min.out(Tensor a, Tensor b, *, Tensor(a!) out) -> Tensor(a!)",
    ),
    "fake_quant": (
        "act_ops::fake_quant(Tensor x, int steps, float limit) -> Tensor",
        "act_ops::fake_quant.out(Tensor x, int steps, float limit, *, Tensor(a!) out) -> Tensor(a!)",
    ),
    "pick_floor": (
        "act_ops::pick_floor(Tensor a, Tensor b) -> Tensor",
        "act_ops::pick_floor.out(Tensor a, Tensor b, *, Tensor(a!) out) -> Tensor(a!)",
    ),
    "power_compress": (
        "act_ops::power_compress(Tensor x, float eps, float p) -> Tensor",
        "act_ops::power_compress.out(Tensor x, float eps, float p, *, Tensor(a!) out) -> Tensor(a!)",
    ),
}


# The spec's param defaults, written out by the template (not read from the package).
SPEC_DEFAULTS = {
    "hard_swish_ish": {},
    "scaled_tanh": {
        "gain": 2.0,
        "shift": 1,
    },
    "add_scaled": {
        "alpha": 0.5,
    },
    "soft_min": {},
    "fake_quant": {
        "steps": 4,
        "limit": 1.5,
    },
    "pick_floor": {},
    "power_compress": {
        "eps": 1e-06,
        "p": 0.3,
    },
}


# Each op's input domains, (low, high) per input: the spec's `range`, or its default
# (what the package's OpInfo.domains must hold, and its generated inputs stay in).
SPEC_DOMAINS = {
    "hard_swish_ish": ((-2.0, 2.0),),
    "scaled_tanh": ((-2.0, 2.0),),
    "add_scaled": ((-2.0, 2.0), (-2.0, 2.0)),
    "soft_min": ((-2.0, 2.0), (-2.0, 2.0)),
    "fake_quant": ((-2.0, 2.0),),
    "pick_floor": ((-2.0, 2.0), (-2.0, 2.0)),
    "power_compress": ((-2.0, 2.0),),
}


# Per op, per param: the (low, high) the tests vary it in (the spec's `range`; a bool's two
# values; around the default of an elementwise op's param where its expr is finite), or
# None: the param stays at its default (a custom op's param without a range).
SPEC_PARAM_SPANS = {
    "hard_swish_ish": (),
    "scaled_tanh": ((0.6666666666666666, 6.0), (0, 6)),
    "add_scaled": ((0.16666666666666666, 1.5),),
    "soft_min": (),
    "fake_quant": ((2, 12), (0.5, 4.5)),
    "pick_floor": (),
    "power_compress": ((3.333333333333333e-07, 3e-06), (0.09999999999999999, 0.8999999999999999)),
}


# Per op, one value per param other than its default (within SPEC_PARAM_SPANS).
SPEC_OTHER_PARAMS = {
    "hard_swish_ish": [],
    "scaled_tanh": [4.0, 2],
    "add_scaled": [1.0],
    "soft_min": [],
    "fake_quant": [5, 3.0],
    "pick_floor": [],
    "power_compress": [2e-06, 0.6],
}


# Each op's outputs as the spec declares them: (name, rule), rule one of ("broadcast",),
# ("like", input), ("reduce", input, dims, keepdim).
SPEC_OUTPUTS = {
    "hard_swish_ish": (("out", ("broadcast",)),),
    "scaled_tanh": (("out", ("broadcast",)),),
    "add_scaled": (("out", ("broadcast",)),),
    "soft_min": (("out", ("broadcast",)),),
    "fake_quant": (("out", ("broadcast",)),),
    "pick_floor": (("out", ("broadcast",)),),
    "power_compress": (("out", ("broadcast",)),),
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
