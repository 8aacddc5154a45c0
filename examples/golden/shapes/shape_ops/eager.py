# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The eager CPU math of every op: the fallback, the golden values, the calibration path.

Elementwise ops are generated from the spec's `expr` (the same expression the C kernel
is generated from); several inputs broadcast like torch.  Custom ops call your code in
user/.  Because the eager op computes the same values as the kernel, an output
comparison alone never proves that the op package ran: that is what delegation.py is for.
"""

from __future__ import annotations

import importlib
import inspect

import torch

from .shapes import RULES, output_dtype, output_shapes


def _scalar(value: float) -> torch.Tensor:
    # Params become 0-d float32 tensors: torch functions such as minimum() need tensors,
    # and a 0-d tensor never changes the dtype of the result.
    return torch.tensor(float(value), dtype=torch.float32)


def _user_math(op: str, name: str):
    """Your eager math of `op`: the function `name` of user/<name>.py, imported at the op's
    first call. Importing this package never imports user/: the command line (`--help`,
    `spec`, `update`, `doctor`) works whatever state user/ is in, and a file moved,
    removed or broken fails only the op that needs it, naming the file."""
    module_name = f"{__package__}.user.{name}"
    where = f"{__package__}/user/{name}.py"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        raise ModuleNotFoundError(
            f"{op}: {where} is missing: it holds the op's eager math, def {name}(...); put it back "
            f"(git restore {where}), or get its stub back with python -m {__package__} update"
        ) from None
    fn = getattr(module, name, None)
    if not callable(fn):
        raise ImportError(f"{op}: {where} defines no function {name}(): it holds the op's eager math")
    return fn


_SIGNATURES_CHECKED: set = set()


def check_user_signature(op: str, where: str, fn, *names: str) -> None:
    """Your math takes the spec's arguments: its inputs, then its params, in order.

    A `copier update` that adds, removes or renames an input or a param regenerates this
    file but never yours (user/ is yours): this says which function must change, at its
    first call, instead of a bare TypeError from inside the call.
    """
    if fn in _SIGNATURES_CHECKED:
        return
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):  # no signature to read (a builtin): the call decides
        return
    try:
        signature.bind(*names)
    except TypeError:
        wanted = ", ".join(names)
        raise TypeError(
            f"{op}: {where} defines {getattr(fn, '__name__', 'the math')}{signature}, which cannot take the "
            f"spec's arguments ({wanted}): the op's inputs or params changed (a copier update?); "
            f"change it to take ({wanted}), the inputs then the params in the spec's order"
        ) from None
    _SIGNATURES_CHECKED.add(fn)


def check_user_result(op: str, where: str, result, expected: tuple) -> None:
    """Your math returned what the spec declares: one tensor per output, of the declared shapes."""
    got = result if isinstance(result, tuple) else (result,)
    if len(expected) > 1 and not isinstance(result, tuple):
        got = ()
    if len(got) != len(expected) or not all(isinstance(t, torch.Tensor) for t in got):
        kind = "a tuple" if len(expected) > 1 else "a tensor"
        raise ValueError(f"{op}: {where} must return {len(expected)} tensor(s) ({kind}), got {type(result).__name__}")
    for k, (t, shape) in enumerate(zip(got, expected)):
        if tuple(t.shape) != tuple(shape):
            raise ValueError(
                f"{op}: {where} returned output {k} of shape {tuple(t.shape)}, the spec declares {tuple(shape)}"
            )


def add_bias(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """x plus a bias that broadcasts like torch, e.g. a per-channel (1, C, 1, 1) bias."""
    # Locals start with "_": a spec name never does, so none shadows an input or param.
    (_shape,) = output_shapes("shape_ops::add_bias", RULES["add_bias"], [x.shape, bias.shape])
    _dtype = output_dtype("shape_ops::add_bias", x=x, bias=bias)
    # expr: x + bias
    # As the model spells it: fully parenthesized, one line (`fmt: skip`: the formatter
    # would only drop redundant parentheses or wrap a long expression; B002: ruff takes
    # the double negation `(-(-x))` of a spec's `--x` for a decrement operator).
    _result = (x + bias)  # noqa: UP034, B002, SIM300  # fmt: skip
    # A fresh tensor even for an identity expression: a custom op must not alias its input.
    # In output_dtype's dtype (the inputs' promoted), whatever the expression's constants.
    return torch.empty(_shape, dtype=_dtype, device=x.device).copy_(_result)


def fma3(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
    """a * b + c, the three inputs broadcasting together."""
    # Locals start with "_": a spec name never does, so none shadows an input or param.
    (_shape,) = output_shapes("shape_ops::fma3", RULES["fma3"], [a.shape, b.shape, c.shape])
    _dtype = output_dtype("shape_ops::fma3", a=a, b=b, c=c)
    # expr: a * b + c
    # As the model spells it: fully parenthesized, one line (`fmt: skip`: the formatter
    # would only drop redundant parentheses or wrap a long expression; B002: ruff takes
    # the double negation `(-(-x))` of a spec's `--x` for a decrement operator).
    _result = ((a * b) + c)  # noqa: UP034, B002, SIM300  # fmt: skip
    # A fresh tensor even for an identity expression: a custom op must not alias its input.
    # In output_dtype's dtype (the inputs' promoted), whatever the expression's constants.
    return torch.empty(_shape, dtype=_dtype, device=a.device).copy_(_result)


def channel_mean(x: torch.Tensor) -> torch.Tensor:
    """The mean over dim 1 (channels), kept as a dim of 1."""
    # Locals start with "_": a spec name never does, so none shadows an input or param.
    _expected = output_shapes("shape_ops::channel_mean", RULES["channel_mean"], [x.shape])
    output_dtype("shape_ops::channel_mean", x=x)
    _user_channel_mean = _user_math("shape_ops::channel_mean", "channel_mean")
    check_user_signature("shape_ops::channel_mean", "shape_ops/user/channel_mean.py", _user_channel_mean, "x")
    _result = _user_channel_mean(x)
    check_user_result("shape_ops::channel_mean", "user/channel_mean.py", _result, _expected)
    return _result


def center(x: torch.Tensor, scale: float = 1.0, subtract: bool = True) -> tuple[torch.Tensor, torch.Tensor]:
    """The mean over the last dim, and x minus it (unless not subtract), scaled."""
    # Locals start with "_": a spec name never does, so none shadows an input or param.
    _expected = output_shapes("shape_ops::center", RULES["center"], [x.shape])
    output_dtype("shape_ops::center", x=x)
    _user_center = _user_math("shape_ops::center", "center")
    check_user_signature("shape_ops::center", "shape_ops/user/center.py", _user_center, "x", "scale", "subtract")
    _result = _user_center(x, scale, subtract)
    check_user_result("shape_ops::center", "user/center.py", _result, _expected)
    return _result


def rms_norm(x: torch.Tensor, eps: float = 1e-06) -> torch.Tensor:
    """x divided by the root mean square of its last dim; one row at a time, no scratch."""
    # Locals start with "_": a spec name never does, so none shadows an input or param.
    _expected = output_shapes("shape_ops::rms_norm", RULES["rms_norm"], [x.shape])
    output_dtype("shape_ops::rms_norm", x=x)
    _user_rms_norm = _user_math("shape_ops::rms_norm", "rms_norm")
    check_user_signature("shape_ops::rms_norm", "shape_ops/user/rms_norm.py", _user_rms_norm, "x", "eps")
    _result = _user_rms_norm(x, eps)
    check_user_result("shape_ops::rms_norm", "user/rms_norm.py", _result, _expected)
    return _result


def pcen(
    x: torch.Tensor, state: torch.Tensor, smooth: float = 0.25, eps: float = 1e-06
) -> tuple[torch.Tensor, torch.Tensor]:
    """Streaming PCEN-like smoothing over the last dim (time), from a state in and to a state out."""
    # Locals start with "_": a spec name never does, so none shadows an input or param.
    _expected = output_shapes("shape_ops::pcen", RULES["pcen"], [x.shape, state.shape])
    output_dtype("shape_ops::pcen", x=x, state=state)
    _user_pcen = _user_math("shape_ops::pcen", "pcen")
    check_user_signature("shape_ops::pcen", "shape_ops/user/pcen.py", _user_pcen, "x", "state", "smooth", "eps")
    _result = _user_pcen(x, state, smooth, eps)
    check_user_result("shape_ops::pcen", "user/pcen.py", _result, _expected)
    return _result
