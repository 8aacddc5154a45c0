# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""What the spec says about each op, written out by the template: the expected values of
the tests, independent of the package under test."""

# What the spec says each op's schemas are; compared through torch's own parser/printer.
SPEC_SCHEMAS = {
    "my_norm": (
        "norm_ops::my_norm(Tensor x) -> Tensor",
        "norm_ops::my_norm.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)",
    ),
    "double_it": (
        "norm_ops::double_it(Tensor x) -> Tensor",
        "norm_ops::double_it.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)",
    ),
}


# The spec's param defaults, written out by the template (not read from the package).
SPEC_DEFAULTS = {
    "my_norm": {},
    "double_it": {},
}


def other_params(op):
    """Non-default values for every param, so that a dropped param cannot go unnoticed."""
    values = []
    for _name, kind, default in op.params:
        if kind == "bool":
            values.append(not default)
        elif kind == "int":  # stays in [0, 2**32 - 1], what ExecuTorch can send
            values.append(default + 1 if default < 2**32 - 1 else default - 1)
        else:
            values.append(default * 1.5 + 0.25)
    return values
