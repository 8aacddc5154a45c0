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
    "mul3": (
        "my_ops::mul3(Tensor input, float factor) -> Tensor",
        "my_ops::mul3.out(Tensor input, float factor, *, Tensor(a!) out) -> Tensor(a!)",
    ),
}


# The spec's param defaults, written out by the template (not read from the package).
SPEC_DEFAULTS = {
    "mul3": {
        "factor": 3.0,
    },
}


# Each op's input domains, (low, high) per input: the spec's `range`, or its default
# (what the package's OpInfo.domains must hold, and its generated inputs stay in).
SPEC_DOMAINS = {
    "mul3": ((-2.0, 2.0),),
}


# Per op, per param: the (low, high) the tests vary it in (the spec's `range`; a bool's two
# values; around the default of an elementwise op's param where its expr is finite), or
# None: the param stays at its default (a custom op's param without a range).
SPEC_PARAM_SPANS = {
    "mul3": ((1.0, 9.0),),
}


# Per op, one value per param other than its default (within SPEC_PARAM_SPANS).
SPEC_OTHER_PARAMS = {
    "mul3": [6.0],
}


# Each op's outputs as the spec declares them: (name, rule), rule one of ("broadcast",),
# ("like", input), ("reduce", input, dims, keepdim).
SPEC_OUTPUTS = {
    "mul3": (("out", ("broadcast",)),),
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
