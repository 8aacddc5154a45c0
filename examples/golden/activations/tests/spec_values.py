# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""What the spec says about each op, written out by the template: the expected values of
the tests, independent of the package under test."""

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
