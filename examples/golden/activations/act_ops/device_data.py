# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The data of the device and simulator runs: the package model, input specs, generated
and loaded inputs, the eager reference with its quantization ranges, and the comparison.

Plain torch: nothing here imports ExecuTorch.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import torch

from . import loading
from ._package import MAX_RANKS, NAMESPACE

# Your model and data, loaded (loading.py, shared with the template's scripts/scan).
from .loading import (  # noqa: F401 - the names device.py, check_model.py and the tests import from here
    MAX_ELEMENTS,
    MAX_FILE_BYTES,
    as_outputs,
    one_line,
    read_file,
    run_model,
)
from .ops import OPS
from .toolchain import (
    ToolchainError,
)

DEFAULT_SHAPE = (1, 32, 28, 28)
# Generated inputs of the package model (when you give no calibration data): uniform in
# each op input's domain (OpInfo.domains: the spec's `range`, or its default), where the
# spec check required the op finite.  Generated data only shows the op package works;
# calibrate your model on your data.
CALIBRATION_BATCHES = 4
# LPAI tensors have at most this many dims (LPAI_MAX_RANK, QNN_LPAI_CUSTOM_OP_MAX_LAYOUT_RANK):
# the model's, as _package.MAX_RANKS has it.
MAX_RANK = MAX_RANKS["lpai"]
# Output tolerance in 8-bit steps of the calibrated output range: input and output
# quantization both round (the package model); every quantized layer of your model
# adds its own rounding, so its default is wider.
PACKAGE_TOLERANCE_STEPS = 4.0
MODEL_TOLERANCE_STEPS = 8.0


class PackageModel(torch.nn.Module):
    """Calls every op of the package once, each on its own inputs: by default through its
    public function with the spec's default params, or as `call(op, inputs)` says.
    Returns every output of every op in order (OUTPUT_OPS names the op of each); its
    generated inputs have the shapes of `package_shapes`."""

    def __init__(self, call=None):
        super().__init__()
        self.call = call

    def forward(self, *tensors):
        outputs, start = [], 0
        for op in OPS:
            inputs = tensors[start : start + len(op.inputs)]
            start += len(op.inputs)
            result = op(*inputs) if self.call is None else self.call(op, inputs)
            outputs.extend(result if isinstance(result, tuple) else (result,))
        return tuple(outputs)


N_INPUTS = sum(len(op.inputs) for op in OPS)
# The op of each output of the package model, in order (an op may have several outputs).
OUTPUT_OPS = tuple(op for op in OPS for _ in op.outputs)


def package_shapes(shape: Sequence[int]) -> list[tuple[int, ...]]:
    """Per input of the package model, the shape it gets for `--shape`: one valid call of
    its op (OpInfo.input_shapes: the later inputs of an elementwise op broadcast)."""
    return [s for op in OPS for s in op.input_shapes(shape)]


# --------------------------------------------------------------------------- the model


def load_model(spec: str | None, root: Path | None = None) -> torch.nn.Module:
    """`package.module:attr` -> the nn.Module (loading.load_model, with `root`, the project,
    first on sys.path).  None: PackageModel."""
    return PackageModel() if spec is None else loading.load_model(spec, root)


# --------------------------------------------------------------------------- input specs


@dataclass(frozen=True)
class TensorSpec:
    shape: tuple[int, ...]
    dtype: str  # torch dtype name without "torch.", e.g. "float32"

    def describe(self) -> str:
        return f"{self.dtype}{list(self.shape)}"


def spec_of(batch: Sequence[torch.Tensor]) -> list[TensorSpec]:
    return [TensorSpec(tuple(t.shape), str(t.dtype).removeprefix("torch.")) for t in batch]


def check_batch(batch: Sequence[torch.Tensor], spec: Sequence[TensorSpec], what: str) -> None:
    """One line naming `what` unless the batch has the count, shapes and dtypes of `spec`."""
    if len(batch) != len(spec):
        raise ToolchainError(
            f"{what}: {len(batch)} tensor(s), the program takes {len(spec)} ({', '.join(s.describe() for s in spec)})"
        )
    for i, (got, want) in enumerate(zip(spec_of(batch), spec)):
        if got != want:
            raise ToolchainError(f"{what}: input {i} is {got.describe()}, the program takes {want.describe()}")


def check_finite(
    batches: Sequence[Sequence[torch.Tensor]], what: str, why: str = "the quantizer cannot calibrate on it"
) -> None:
    for b, batch in enumerate(batches):
        for i, t in enumerate(batch):
            if t.is_floating_point() and not bool(torch.isfinite(t).all()):
                raise ToolchainError(f"{what}: batch {b} input {i} holds a non-finite value (NaN or inf): {why}")


def check_shape(shape: Sequence[int], what: str = "--shape") -> tuple[int, ...]:
    shape = tuple(int(v) for v in shape)
    if not shape or any(v <= 0 for v in shape):
        raise ToolchainError(f"{what} {','.join(map(str, shape))}: every dimension must be positive")
    if len(shape) > MAX_RANK:
        raise ToolchainError(
            f"{what} {','.join(map(str, shape))}: {len(shape)} dims, LPAI tensors have at most {MAX_RANK}"
        )
    if math.prod(shape) > MAX_ELEMENTS:
        raise ToolchainError(
            f"{what} {','.join(map(str, shape))}: {math.prod(shape)} elements per tensor, more than {MAX_ELEMENTS}"
        )
    return shape


def check_value(value: float, what: str) -> float:
    """A constant for float32 tensors: finite once converted to float32."""
    if not math.isfinite(value) or not math.isfinite(float(torch.tensor(value, dtype=torch.float32))):
        raise ToolchainError(f"{what} {value!r}: not a finite float32 value (|v| <= 3.4e38)")
    return float(value)


# --------------------------------------------------------------------------- data


def input_ranges() -> list[tuple[float, float]]:
    """Per input of the package model: the range generated inputs are drawn from, the
    op's domain (OpInfo.domains; a custom op's math must be finite on it too, or
    tests/test_device_fakes.py says so)."""
    return [domain for op in OPS for domain in op.domains]


def constant_inputs(value: float, shape: Sequence[int] = DEFAULT_SHAPE) -> tuple[torch.Tensor, ...]:
    return tuple(torch.full(s, float(value), dtype=torch.float32) for s in package_shapes(shape))


def domain_constants(fraction: float, shape: Sequence[int] = DEFAULT_SHAPE) -> tuple[torch.Tensor, ...]:
    """Constant tensors of the package model, each input at `fraction` of its op's domain
    (input_ranges; 0 its low end, 1 its high end): inside every op's domain, whatever the
    spec's ranges, where one value for all inputs (constant_inputs) may not be."""
    return tuple(
        torch.full(s, low + fraction * (high - low), dtype=torch.float32)
        for s, (low, high) in zip(package_shapes(shape), input_ranges())
    )


def constant_like(spec: Sequence[TensorSpec], value: float) -> tuple[torch.Tensor, ...]:
    """Constant tensors of the shapes of `spec` (floating inputs only)."""
    bad = [i for i, s in enumerate(spec) if not getattr(torch, s.dtype).is_floating_point]
    if bad:
        raise ToolchainError(
            f"--input-value: input {bad[0]} is {spec[bad[0]].describe()}, not floating point: pass --inputs FILE"
        )
    return tuple(torch.full(s.shape, float(value), dtype=getattr(torch, s.dtype)) for s in spec)


def random_inputs(seed: int, shape: Sequence[int] = DEFAULT_SHAPE) -> tuple[torch.Tensor, ...]:
    gen = torch.Generator().manual_seed(seed)
    return tuple(
        torch.rand(s, generator=gen) * (high - low) + low
        for s, (low, high) in zip(package_shapes(shape), input_ranges())
    )


def load_batches(path: Path, what: str = "--calibration", float32: bool = True) -> list[tuple[torch.Tensor, ...]]:
    """A file saved with torch.save: a tensor, a tuple of tensors (one batch), or a list of
    such tuples (loading.load_batches: tensors of at most LPAI's rank; with `float32`, data
    to calibrate or export on, float32 when floating point; without, inputs of a program,
    checked against its own dtypes)."""
    if Path(path).is_dir():
        raise ToolchainError(f"{what} {path}: is a directory, expected a file saved with torch.save")
    return loading.load_batches(path, what, MAX_RANK, float32=float32)


def check_package_batch(batch: Sequence[torch.Tensor], what: str) -> None:
    """One line naming `what` unless the batch can be an input of the package model: one
    float32 tensor per op input, each op's inputs valid for its shape rule."""
    if len(batch) != N_INPUTS:
        raise ToolchainError(f"{what}: {len(batch)} tensor(s), the package model takes {N_INPUTS} (one per op input)")
    for i, t in enumerate(batch):
        if t.dtype != torch.float32:
            raise ToolchainError(
                f"{what}: input {i} is {str(t.dtype).removeprefix('torch.')}{list(t.shape)}, "
                "the package model takes float32"
            )


def package_spec(shape: Sequence[int]) -> list[TensorSpec]:
    return [TensorSpec(s, "float32") for s in package_shapes(shape)]


# --------------------------------------------------------------------------- the reference


def _observed_range(tensors: Sequence[torch.Tensor]) -> tuple[float, float]:
    """The range the quantizer's activation observer ends with (MovingAverageMinMaxObserver,
    what ExecuTorch's make_quantizer uses), zero included as in every affine range."""
    from torchao.quantization.pt2e import MovingAverageMinMaxObserver

    observer = MovingAverageMinMaxObserver(dtype=torch.uint8, quant_min=0, quant_max=255)
    for t in tensors:
        observer(t.detach().to(torch.float32))
    return (min(0.0, float(observer.min_val)), max(0.0, float(observer.max_val)))


@dataclass
class Ranges:
    """Per input (None: not floating point) and per output: the calibrated range."""

    inputs: list[tuple[float, float] | None]
    outputs: list[tuple[float, float]]

    @classmethod
    def from_calibration(
        cls, batches: Sequence[Sequence[torch.Tensor]], model: torch.nn.Module | None = None, what: str = "calibration"
    ) -> Ranges:
        model = model or PackageModel()
        inputs = [
            _observed_range([b[i] for b in batches]) if batches[0][i].is_floating_point() else None
            for i in range(len(batches[0]))
        ]
        outs = [run_model(model, b, f"{what} batch {k}") for k, b in enumerate(batches)]
        for b, out in enumerate(outs):
            for i, t in enumerate(out):
                if t.is_floating_point() and not bool(torch.isfinite(t).all()):
                    raise ToolchainError(
                        f"{what} batch {b} gives a non-finite value in output {i} of the "
                        "model: the quantizer cannot calibrate on it; calibrate inside the "
                        "ops' domain (e.g. positive inputs for log or sqrt)"
                    )
        outputs = [_observed_range([o[i] for o in outs]) for i in range(len(outs[0]))]
        return cls(inputs, outputs)

    def to_json(self) -> dict:
        return {"inputs": self.inputs, "outputs": self.outputs}

    @classmethod
    def from_json(cls, data: dict) -> Ranges:
        return cls([tuple(r) if r is not None else None for r in data["inputs"]], [tuple(r) for r in data["outputs"]])


def reference_outputs(
    inputs: Sequence[torch.Tensor], ranges: Ranges, model: torch.nn.Module | None = None
) -> list[torch.Tensor]:
    """What the quantized graph should produce: eager math on the inputs clamped to the
    calibrated range, clamped to the calibrated output range (the quantize nodes saturate:
    an op computing 3x, calibrated on 1.0 and run on 2.0, gives 3.0, not 6.0).  Exact up to rounding for
    the package model, whose ops read the graph inputs directly; for your model every
    quantized layer in between rounds too, hence its wider tolerance."""
    clamped = [t.clamp(*r) if r is not None else t for t, r in zip(inputs, ranges.inputs)]
    with torch.no_grad():
        outs = as_outputs((model or PackageModel())(*clamped))
    return [o.clamp(lo, hi) for o, (lo, hi) in zip(outs, ranges.outputs)]


def tolerances(ranges: Ranges, steps: float = PACKAGE_TOLERANCE_STEPS) -> list[float]:
    """`steps` 8-bit output steps of each calibrated output range."""
    return [steps * (hi - lo) / 255.0 + 1e-6 for lo, hi in ranges.outputs]


@dataclass
class Comparison:
    errors: list[float]
    tolerances: list[float]
    names: list[str] | None = None

    @property
    def ok(self) -> bool:
        return all(e <= t for e, t in zip(self.errors, self.tolerances))


def compare(
    got: Sequence[torch.Tensor], want: Sequence[torch.Tensor], tols: Sequence[float], names: Sequence[str] | None = None
) -> Comparison:
    errors = []
    for g, w in zip(got, want):
        diff = (g.reshape(w.shape).to(torch.float64) - w.to(torch.float64)).abs()
        errors.append(float("inf") if torch.isnan(diff).any() else float(diff.max()))
    return Comparison(errors, list(tols), list(names) if names else None)


def delegate_summary(delegates: dict[str, list[str]]) -> str:
    """'forward: 1 delegate(s)' per method, as check_delegated returned them."""
    return ", ".join(f"{m}: {len(ids)} delegate(s)" for m, ids in delegates.items())


def package_output_names() -> list[str]:
    """One name per output of the package model: the op, and the output's own name for
    an op with several."""
    return [
        op.qualified_name if len(op.outputs) == 1 else f"{op.qualified_name}:{name}"
        for op in OPS
        for name in op.outputs
    ]


def output_names(model_spec: str | None, n_outputs: int) -> list[str]:
    if model_spec is None:
        return package_output_names()
    return [f"output {i}" for i in range(n_outputs)]


def report(comparison: Comparison, delegates: dict[str, list[str]]) -> str:
    names = comparison.names or package_output_names()
    lines = []
    for name, err, tol in zip(names, comparison.errors, comparison.tolerances):
        lines.append(f"  {name:<32} max abs error {err:.6g} (tolerance {tol:.6g}) {'ok' if err <= tol else 'FAILED'}")
    lines.append(f"max abs error: {max(comparison.errors):.6g}")
    lines.append(f"delegated: yes ({delegate_summary(delegates)}; no op of {NAMESPACE} runs on the CPU)")
    return "\n".join(lines)
