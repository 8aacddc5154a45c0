# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The first line of a failing test of one op: the op, the param values and the inputs it
used, and what the user can do (conftest.py's pytest_runtest_call puts it first).

The helpers that pick a test's values record them here (`note`): conftest.make_inputs
the inputs' ranges, spec_values.other_params and op_package_host.random_params the param
values, the kernel tests the codes and scales.  A test that records no params ran the op
at the spec's defaults.
"""

from __future__ import annotations

# What the running test has used so far; emptied before each test.
CURRENT: dict = {}

# What a user can do when an op fails on values its spec allows (qnn-op-template/docs/spec.md, "Param ranges").
ADVICE = (
    "if the op is not meant for these values, declare where it works (a param's or an input's "
    "`range: [low, high]` in the spec), else guard the math (e.g. clamp before sqrt or log)"
)


def note(op=None, params=None, inputs: str | None = None) -> None:
    """Record what a test feeds `op`: `params` (one value per param), `inputs` (in words).
    Nothing while torch traces a model that calls it (export, torch.compile): that is
    the test's model, not a side effect for the tracer to warn about."""
    import torch

    if torch.compiler.is_compiling():
        return
    if op is not None:
        CURRENT["op"] = op
    if params is not None:
        CURRENT["params"] = list(params)
    if inputs is not None:
        CURRENT["inputs"] = inputs


def domains_text(op, domains) -> str:
    """`x in [-2, 2], y in [0.1, 2]`: each input with the (low, high) it was drawn from."""
    return ", ".join(f"{name} in [{lo:g}, {hi:g}]" for name, (lo, hi) in zip(op.inputs, domains))


def first_line(op) -> str:
    """`ns::op(alpha=0.45, eps=0.01) on x in [0, 2]`: what the test used (CURRENT), for `op`."""
    op = CURRENT.get("op", op)
    params = CURRENT.get("params")
    values = list(op.param_defaults) if params is None else params
    shown = ", ".join(f"{name}={value!r}" for (name, _kind, _default), value in zip(op.params, values))
    inputs = CURRENT.get("inputs") or domains_text(op, op.domains)
    at = " (the defaults)" if params is None and op.params else ""
    return f"{op.qualified_name}({shown}){at} on {inputs}"
