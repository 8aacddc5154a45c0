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


def hard_swish_ish(x: torch.Tensor) -> torch.Tensor:
    """x times relu6(x + 3) / 6."""
    # Locals start with "_": a spec name never does, so none shadows an input or param.
    (_shape,) = output_shapes("act_ops::hard_swish_ish", RULES["hard_swish_ish"], [x.shape])
    _dtype = output_dtype("act_ops::hard_swish_ish", x=x)
    # expr: x * clamp(x + 3.0, 0.0, 6.0) / 6.0
    # As the model spells it: fully parenthesized, one line (`fmt: skip`: the formatter
    # would only drop redundant parentheses or wrap a long expression; B002: ruff takes
    # the double negation `(-(-x))` of a spec's `--x` for a decrement operator).
    _result = ((x * torch.clamp((x + 3.0), torch.as_tensor(0.0, dtype=torch.float32), torch.as_tensor(6.0, dtype=torch.float32))) / 6.0)  # noqa: UP034, B002, SIM300  # fmt: skip
    # A fresh tensor even for an identity expression: a custom op must not alias its input.
    # In output_dtype's dtype (the inputs' promoted), whatever the expression's constants.
    return torch.empty(_shape, dtype=_dtype, device=x.device).copy_(_result)


def scaled_tanh(x: torch.Tensor, gain: float = 2.0, shift: int = 1) -> torch.Tensor:
    """Scaled and shifted tanh."""
    # Locals start with "_": a spec name never does, so none shadows an input or param.
    (_shape,) = output_shapes("act_ops::scaled_tanh", RULES["scaled_tanh"], [x.shape])
    _dtype = output_dtype("act_ops::scaled_tanh", x=x)
    gain = _scalar(gain)
    shift = _scalar(shift)
    # expr: gain * tanh(x) + shift
    # As the model spells it: fully parenthesized, one line (`fmt: skip`: the formatter
    # would only drop redundant parentheses or wrap a long expression; B002: ruff takes
    # the double negation `(-(-x))` of a spec's `--x` for a decrement operator).
    _result = ((gain * torch.tanh(x)) + shift)  # noqa: UP034, B002, SIM300  # fmt: skip
    # A fresh tensor even for an identity expression: a custom op must not alias its input.
    # In output_dtype's dtype (the inputs' promoted), whatever the expression's constants.
    return torch.empty(_shape, dtype=_dtype, device=x.device).copy_(_result)


def add_scaled(a: torch.Tensor, b: torch.Tensor, alpha: float = 0.5) -> torch.Tensor:
    """a + alpha * b."""
    # Locals start with "_": a spec name never does, so none shadows an input or param.
    (_shape,) = output_shapes("act_ops::add_scaled", RULES["add_scaled"], [a.shape, b.shape])
    _dtype = output_dtype("act_ops::add_scaled", a=a, b=b)
    alpha = _scalar(alpha)
    # expr: a + alpha * b
    # As the model spells it: fully parenthesized, one line (`fmt: skip`: the formatter
    # would only drop redundant parentheses or wrap a long expression; B002: ruff takes
    # the double negation `(-(-x))` of a spec's `--x` for a decrement operator).
    _result = (a + (alpha * b))  # noqa: UP034, B002, SIM300  # fmt: skip
    # A fresh tensor even for an identity expression: a custom op must not alias its input.
    # In output_dtype's dtype (the inputs' promoted), whatever the expression's constants.
    return torch.empty(_shape, dtype=_dtype, device=a.device).copy_(_result)


def soft_min(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """The smaller of two inputs, softened by a sigmoid gate."""
    # Locals start with "_": a spec name never does, so none shadows an input or param.
    (_shape,) = output_shapes("act_ops::soft_min", RULES["soft_min"], [a.shape, b.shape])
    _dtype = output_dtype("act_ops::soft_min", a=a, b=b)
    # expr: min(a, b) + 0.1 * sigmoid(a - b)
    # As the model spells it: fully parenthesized, one line (`fmt: skip`: the formatter
    # would only drop redundant parentheses or wrap a long expression; B002: ruff takes
    # the double negation `(-(-x))` of a spec's `--x` for a decrement operator).
    _result = (torch.minimum(a, b) + (0.1 * torch.sigmoid((a - b))))  # noqa: UP034, B002, SIM300  # fmt: skip
    # A fresh tensor even for an identity expression: a custom op must not alias its input.
    # In output_dtype's dtype (the inputs' promoted), whatever the expression's constants.
    return torch.empty(_shape, dtype=_dtype, device=a.device).copy_(_result)


def fake_quant(x: torch.Tensor, steps: int = 4, limit: float = 1.5) -> torch.Tensor:
    """x on a grid of 1 / steps (round half to even, as torch.round), clamped to [-limit, limit]."""
    # Locals start with "_": a spec name never does, so none shadows an input or param.
    (_shape,) = output_shapes("act_ops::fake_quant", RULES["fake_quant"], [x.shape])
    _dtype = output_dtype("act_ops::fake_quant", x=x)
    steps = _scalar(steps)
    limit = _scalar(limit)
    # expr: clamp(round(x * steps) / steps, -limit, limit)
    # As the model spells it: fully parenthesized, one line (`fmt: skip`: the formatter
    # would only drop redundant parentheses or wrap a long expression; B002: ruff takes
    # the double negation `(-(-x))` of a spec's `--x` for a decrement operator).
    _result = torch.clamp((torch.round((x * steps)) / steps), (-limit), limit)  # noqa: UP034, B002, SIM300  # fmt: skip
    # A fresh tensor even for an identity expression: a custom op must not alias its input.
    # In output_dtype's dtype (the inputs' promoted), whatever the expression's constants.
    return torch.empty(_shape, dtype=_dtype, device=x.device).copy_(_result)


def pick_floor(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """floor(a) where a >= b, else ceil(b); plus the sign of a - b."""
    # Locals start with "_": a spec name never does, so none shadows an input or param.
    (_shape,) = output_shapes("act_ops::pick_floor", RULES["pick_floor"], [a.shape, b.shape])
    _dtype = output_dtype("act_ops::pick_floor", a=a, b=b)
    # expr: where(a >= b, floor(a), ceil(b)) + sign(a - b)
    # As the model spells it: fully parenthesized, one line (`fmt: skip`: the formatter
    # would only drop redundant parentheses or wrap a long expression; B002: ruff takes
    # the double negation `(-(-x))` of a spec's `--x` for a decrement operator).
    _result = (torch.where((a >= b), torch.floor(a), torch.ceil(b)) + torch.sign((a - b)))  # noqa: UP034, B002, SIM300  # fmt: skip
    # A fresh tensor even for an identity expression: a custom op must not alias its input.
    # In output_dtype's dtype (the inputs' promoted), whatever the expression's constants.
    return torch.empty(_shape, dtype=_dtype, device=a.device).copy_(_result)


def power_compress(x: torch.Tensor, eps: float = 1e-06, p: float = 0.3) -> torch.Tensor:
    """Power-law compression of a magnitude, (|x| + eps) ** p, as in PCEN front ends."""
    # Locals start with "_": a spec name never does, so none shadows an input or param.
    (_shape,) = output_shapes("act_ops::power_compress", RULES["power_compress"], [x.shape])
    _dtype = output_dtype("act_ops::power_compress", x=x)
    eps = _scalar(eps)
    p = _scalar(p)
    # expr: (abs(x) + eps) ** p
    # As the model spells it: fully parenthesized, one line (`fmt: skip`: the formatter
    # would only drop redundant parentheses or wrap a long expression; B002: ruff takes
    # the double negation `(-(-x))` of a spec's `--x` for a decrement operator).
    _result = torch.pow((torch.abs(x) + eps), p)  # noqa: UP034, B002, SIM300  # fmt: skip
    # A fresh tensor even for an identity expression: a custom op must not alias its input.
    # In output_dtype's dtype (the inputs' promoted), whatever the expression's constants.
    return torch.empty(_shape, dtype=_dtype, device=x.device).copy_(_result)
