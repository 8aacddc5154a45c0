# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The shape of every output of every op, from the spec ("Inputs and outputs" in the
template's spec reference).

An elementwise op's one output has the torch (numpy) broadcast shape of its inputs; a
custom op's later inputs broadcast to its first (torch's rules, the first input's shape
the result) and its outputs are each `like` an input or that input `reduce`d over some
dims.
The fake kernels (torch.export), `.out` and eager's check of your math all use
`output_shapes`, so that they cannot disagree; the outputs' dtype is `output_dtype`'s
(floating-point inputs only) for all of them alike.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

# Per op, per output: ("broadcast",) | ("like", input index) | ("reduce", input index, dims, keepdim).
RULES: dict[str, tuple[tuple, ...]] = {
    "add_bias": (("broadcast",),),
    "fma3": (("broadcast",),),
    "channel_mean": (("reduce", 0, (1,), True),),
    "center": (("reduce", 0, (-1,), True), ("like", 0)),
    "rms_norm": (("like", 0),),
    "pcen": (("like", 0), ("like", 1)),
}


# The node meta key under which builder.QuantizedConstantInputs names the inputs of a node
# that it hands a parameter's 8- or 16-bit codes (the constant itself, as ExecuTorch's
# CustomOp builder sends it): ExecuTorch's later passes re-trace the node with them.
CODE_INPUTS = "qnn_op_template_code_inputs"


def _code_inputs() -> frozenset[str]:
    """The inputs of the node torch.fx is re-tracing now that hold quantized codes
    (CODE_INPUTS in its meta); none outside such a pass."""
    from torch.fx import traceback as fx_traceback

    meta = fx_traceback.get_current_meta() if fx_traceback.has_preserved_node_meta() else None
    return frozenset((meta or {}).get(CODE_INPUTS, ()))


def output_dtype(op: str, /, **inputs: torch.Tensor) -> torch.dtype:
    """The dtype of every output of the op: torch's promotion of the inputs' dtypes (torch.promote_types: float32 with float64
    is float64).  Every input must be floating-point: TypeError naming the op and the
    input otherwise.  An integer or bool tensor is refused rather than computed in its
    own dtype (exp of an int64 tensor copied back into int64 is 0 or 1, silently): the
    op's math is float, and so are its kernels (float32 and 8-bit quantized values).
    The eager op, `.out` and the fake kernel (torch.export) all call it."""
    dtype = None
    codes = _code_inputs()
    for name, tensor in inputs.items():
        if not tensor.is_floating_point() and name in codes:
            continue  # a parameter's codes in ExecuTorch's lowering: its real values are float
        if not tensor.is_floating_point():
            raise TypeError(
                f"{op}: input {name} is {tensor.dtype}, not a floating-point tensor: the op's math is float "
                f"(so are its kernels); pass {name}.float()"
            )
        dtype = tensor.dtype if dtype is None else torch.promote_types(dtype, tensor.dtype)
    return torch.float32 if dtype is None else dtype  # None: every input is a parameter's codes


def _check_broadcast_to_first(op: str, shapes: Sequence[Sequence[int]]) -> None:
    """A custom op's later inputs broadcast to its first: at most its dims, each (aligned
    on the last) equal to the first input's or 1; ValueError naming the input otherwise."""
    first = tuple(shapes[0])
    for k, shape in enumerate(shapes[1:], start=1):
        shape = tuple(shape)
        lead = len(first) - len(shape)
        if lead < 0 or any(n != 1 and n != first[lead + d] for d, n in enumerate(shape)):
            raise ValueError(
                f"{op}: input {k} of shape {shape} does not broadcast to the first input's shape {first} "
                "(a custom op's later inputs: trailing dims equal to the first input's or 1)"
            )


def output_shapes(op: str, rules: tuple[tuple, ...], shapes: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """Each output's shape from the inputs' shapes; ValueError naming the op when the
    inputs do not fit the rule.  Sizes may be SymInts (under torch.export)."""
    if rules and rules[0][0] != "broadcast":
        _check_broadcast_to_first(op, shapes)
    result = []
    for rule in rules:
        if rule[0] == "broadcast":
            try:
                result.append(tuple(torch.broadcast_shapes(*(tuple(s) for s in shapes))))
            except RuntimeError:
                raise ValueError(
                    f"{op}: inputs of shapes {', '.join(str(tuple(s)) for s in shapes)} do not "
                    "broadcast (torch's rules: trailing dims equal or 1)"
                ) from None
        elif rule[0] == "like":
            result.append(tuple(shapes[rule[1]]))
        else:
            _, index, dims, keepdim = rule
            source = tuple(shapes[index])
            rank = len(source)
            axes = []
            for d in dims:
                if not -rank <= d < rank:
                    raise ValueError(f"{op}: reduces dim {d}, but the input has {rank} dims")
                axes.append(d % rank)
            if len(set(axes)) != len(axes):
                raise ValueError(f"{op}: dims {list(dims)} name the same dim twice for a {rank}-dim input")
            if keepdim:
                result.append(tuple(1 if i in axes else n for i, n in enumerate(source)))
            else:
                if len(axes) == rank:
                    # A 0-dim tensor: LPAI tensors have rank 1 to 5.
                    raise ValueError(f"{op}: reducing every dim of a {rank}-dim input leaves no dim; use keepdim: true")
                result.append(tuple(n for i, n in enumerate(source) if i not in axes))
    return tuple(result)
