# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""`python -m <namespace> report`: how far each op's 8-bit kernel is from float math.

Per op, over the calibrated input range (device_data.input_ranges, or the one you give):
every input code (all 256 of a unary op, every pair of a binary op; a random sample of
code tuples for three or four inputs and for a custom op) runs through

- the kernel, in the host emulator (emulator.py, `make host-lib`);
- the eager op on the dequantized inputs, quantized like the delegated graph's output;
- the float64 numpy reference (reference.py; elementwise ops), quantized exactly
  (ties to even, saturated, NaN to the lowest code as the kernels do); for a custom op,
  your eager math run on float64 tensors (eager_float64): a look at the kernel's
  numbers that is not the float32 eager op it was written to match.

The output is quantized as the quantizer would calibrate it on those inputs (the eager
op's observed range, zero included). Errors are in output codes (LSB). Written under
build/report/: summary.md (the numbers, linking the plots), summary.json and one PNG
per op (matplotlib, `pip install matplotlib`; without it the numbers are still written).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import torch

from . import emulator
from ._package import NAMESPACE
from .ops import OPS

# Random code tuples of an op with three or four inputs; a custom op's input shape.
SAMPLE = 16384
CUSTOM_SHAPE = (1, 8, 16, 16)
SEED = 21
BINS = 16
TIE = 1e-3
MATPLOTLIB_MISSING = (
    "matplotlib is not installed: no plots (pip install matplotlib, or pip install -e .[report]); "
    "the numbers are in {where}"
)

# kernel(op, inputs as [(emulator.Tensor, codes)], outputs as [emulator.Tensor], params as
# [(type, value)]) -> one uint8 code tensor per output. The default runs the emulator.
Kernel = Callable[..., list]


def emulator_kernel(op, inputs, outputs, params) -> list[torch.Tensor]:
    return emulator.run_n(op.qnn_type, inputs, outputs, params)


@dataclass
class Stats:
    """|a - b| in codes over n codes: the largest, the mean, the share off by >= 1."""

    max: int
    mean: float
    off: float
    n: int

    @classmethod
    def of(cls, a: np.ndarray, b: np.ndarray) -> Stats:
        d = np.abs(a.astype(np.int64) - b.astype(np.int64))
        return cls(int(d.max()), float(d.mean()), float((d >= 1).mean()), int(d.size))

    def md(self) -> str:
        return f"{self.max} / {self.mean:.4f} / {100.0 * self.off:.2f}%"


@dataclass
class Where:
    """One region of the inputs (or, for a custom op, of the output codes) and its error."""

    region: str
    max: int
    mean: float


@dataclass
class OutputReport:
    name: str
    scale: float
    zero_point: int
    kernel_vs_eager: Stats
    kernel_vs_reference: Stats | None = None
    eager_vs_reference: Stats | None = None
    # |kernel code - reference value / scale - zero point|, the value clipped to the codes'
    # range [-0.5, 255.5]: the quantization error itself (0.5 LSB at best); max and mean.
    # (For a custom op: against the eager op's float result.)
    kernel_vs_float: tuple[float, float] | None = None
    saturated: float = 0.0  # share of reference values beyond the output's codes (or NaN)
    # Of the codes the kernel has off the reference (or eager): the share whose exact
    # value lies within TIE LSB of a rounding tie (x.5), where float32 and float64 round
    # either way; a tie-free error is the kernel's own.
    off_at_ties: float = 0.0
    worst: list[Where] = field(default_factory=list)


@dataclass
class OpReport:
    name: str
    kind: str
    n_inputs: int
    ranges: list[tuple[float, float]]
    params: list[tuple[str, object]]
    outputs: list[OutputReport] = field(default_factory=list)
    plot: str | None = None
    problem: str | None = None  # why there are no numbers (math not written, kernel refused)
    # A custom op: why its eager math gave no float64 reference (float32-only math).
    float64_problem: str | None = None


# ---------------------------------------------------------------------------- numbers


def qparams(values: torch.Tensor) -> tuple[float, int]:
    """(scale, zero_point) of uint8 as ExecuTorch's quantizer calibrates them on `values`
    (its activation observer; the range always includes zero)."""
    from torchao.quantization.pt2e import MovingAverageMinMaxObserver

    finite = values[torch.isfinite(values)].to(torch.float32)
    observer = MovingAverageMinMaxObserver(dtype=torch.uint8, quant_min=0, quant_max=255)
    observer(finite if finite.numel() else torch.zeros(1))
    scale, zero_point = observer.calculate_qparams()
    return float(scale.reshape(-1)[0]), int(zero_point.reshape(-1)[0])


def reference_codes(values: np.ndarray, scale: float, zero_point: int) -> tuple[np.ndarray, np.ndarray]:
    """float64 values -> (codes: ties to even, saturated, NaN to 0 as the kernels do;
    the unrounded position value / scale + zero_point)."""
    with np.errstate(all="ignore"):
        position = values / scale + zero_point
        codes = np.clip(np.rint(np.nan_to_num(position, nan=0.0, posinf=255.0, neginf=0.0)), 0, 255)
    return codes.astype(np.uint8), position


def input_codes(op, shape: Sequence[int] = CUSTOM_SHAPE) -> list[torch.Tensor]:
    """Every code of one input, every pair of two; a seeded sample otherwise."""
    codes = torch.arange(256, dtype=torch.uint8)
    if op.kind != "custom" and len(op.inputs) == 1:
        return [codes]
    if op.kind != "custom" and len(op.inputs) == 2:
        a, b = torch.meshgrid(codes, codes, indexing="ij")
        return [a.contiguous(), b.contiguous()]
    gen = torch.Generator().manual_seed(SEED)
    size = (SAMPLE,) if op.kind != "custom" else tuple(shape)
    return [torch.randint(0, 256, size, dtype=torch.uint8, generator=gen) for _ in op.inputs]


def eager_float64(op, xs: Sequence[torch.Tensor], params: Sequence[object]) -> tuple[list | None, str | None]:
    """A custom op's eager math (yours, user/<op>.py) on the inputs as float64 tensors:
    its outputs as float64 numpy arrays, or None and why not (the math raised on float64
    inputs, or returned another dtype: float32-only math)."""
    try:
        with torch.no_grad():
            result = op.default(*[x.double() for x in xs], *params)
    except Exception as exc:  # noqa: BLE001 - any failure of the user's math: said, not raised
        why = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
        return None, f"your eager math does not run on float64 tensors ({why})"
    results = list(result) if isinstance(result, (tuple, list)) else [result]
    dtypes = sorted({str(r.dtype) for r in results if r.dtype != torch.float64})
    if dtypes:
        return None, f"your eager math returned {', '.join(dtypes)} on float64 inputs: it computes in float32"
    return [r.numpy() for r in results], None


def _worst_regions(err: np.ndarray, axes: list[np.ndarray], labels: list[tuple[str, float, int]]) -> list[Where]:
    """The regions (BINS bins of codes per axis, named by their dequantized values) with
    the largest mean |error|, ties broken by the larger max; at most three, none exact."""
    width = 256 // BINS
    keys = [a.astype(np.int64) // width for a in axes]
    flat = keys[0] if len(keys) == 1 else keys[0] * BINS + keys[1]
    found = []
    for k in np.unique(flat):
        e = err[flat == k]
        found.append((float(e.mean()), int(e.max()), int(k)))
    found.sort(key=lambda t: (-t[0], -t[1], t[2]))
    out = []
    for mean, mx, k in found[:3]:
        if mx == 0:
            break
        parts = [k] if len(keys) == 1 else [k // BINS, k % BINS]
        region = ", ".join(
            f"{name} in [{(b * width - zp) * scale:.4g}, {((b + 1) * width - zp) * scale:.4g})"
            for (name, scale, zp), b in zip(labels, parts)
        )
        out.append(Where(region, mx, mean))
    return out


def calibrated_ranges(op) -> list[tuple[float, float]]:
    """The range the package model calibrates `op`'s inputs on (device_data.input_ranges):
    the op's domain (OpInfo.domains, the spec's `range` or its default)."""
    return list(op.domains)


def check_range(lo: float, hi: float, what: str = "--range") -> tuple[float, float]:
    if not (math.isfinite(lo) and math.isfinite(hi)) or not lo < hi:
        raise ValueError(f"{what} {lo:g} {hi:g}: must be two finite numbers, LO < HI")
    return (float(lo), float(hi))


def analyse(
    op,
    ranges: Sequence[tuple[float, float]],
    kernel: Kernel = emulator_kernel,
    shape: Sequence[int] = CUSTOM_SHAPE,
) -> tuple[OpReport, dict]:
    """The numbers of one op, and the arrays its plot needs."""
    from .reference import REFERENCES

    params = [(kind, default) for _name, kind, default in op.params]
    rep = OpReport(op.name, op.kind, len(op.inputs), [tuple(r) for r in ranges], params)
    codes = input_codes(op, shape)
    specs = []
    for r in ranges:
        scale, zp = qparams(torch.tensor(r, dtype=torch.float32))
        specs.append(emulator.Tensor((), scale=scale, zero_point=zp))
    xs = []
    for spec, c in zip(specs, codes):
        spec.shape = tuple(c.shape)
        xs.append(emulator.dequantize(c, spec.scale, spec.zero_point))
    try:
        with torch.no_grad():
            result = op.default(*xs, *[v for _k, v in params])
    except NotImplementedError as exc:
        rep.problem = f"eager math not written yet ({' '.join(str(exc).split())})"
        return rep, {}
    results = list(result) if isinstance(result, (tuple, list)) else [result]
    outs = []
    for r in results:
        scale, zp = qparams(r)
        outs.append(emulator.Tensor(tuple(r.shape), scale=scale, zero_point=zp))
    try:
        got = kernel(op, list(zip(specs, codes)), outs, params)
    except emulator.Rejected as exc:
        rep.problem = f"the kernel refused the node: {exc.reason}"
        return rep, {}
    reference = REFERENCES.get(op.name)
    ref_values = None
    if reference is not None:
        ref_values = np.asarray(reference(*[x.double().numpy() for x in xs], *[v for _k, v in params]))
    float64 = None
    if op.kind == "custom":
        float64, rep.float64_problem = eager_float64(op, xs, [v for _k, v in params])
    arrays = {"x": [x.numpy() for x in xs], "codes": [c.numpy() for c in codes], "outputs": []}
    for j, (r, out, k) in enumerate(zip(results, outs, got)):
        eager_codes = emulator.quantize(r, out.scale, out.zero_point).numpy()
        kc = k.numpy()
        o = OutputReport(op.outputs[j], out.scale, out.zero_point, Stats.of(kc, eager_codes))
        item = {"kernel": kc, "eager": eager_codes, "scale": out.scale, "zero_point": out.zero_point}
        if ref_values is not None:
            exact = np.broadcast_to(ref_values, kc.shape)
            rc, position = reference_codes(exact, out.scale, out.zero_point)
            o.kernel_vs_reference = Stats.of(kc, rc)
            o.eager_vs_reference = Stats.of(eager_codes, rc)
            against = rc
            axes = [c.numpy() for c in codes] if len(op.inputs) <= 2 else [codes[0].numpy()]
            labels = [(name, spec.scale, spec.zero_point) for name, spec in zip(op.inputs, specs)][: len(axes)]
        elif float64 is not None:
            # A custom op: your eager math in float64 is the reference.
            exact = float64[j]
            rc, position = reference_codes(exact, out.scale, out.zero_point)
            o.kernel_vs_reference = Stats.of(kc, rc)
            o.eager_vs_reference = Stats.of(eager_codes, rc)
            against = rc
            axes = [eager_codes]
            labels = [(f"eager {op.outputs[j]}", out.scale, out.zero_point)]
        else:
            exact = r.double().numpy()
            _codes, position = reference_codes(exact, out.scale, out.zero_point)
            against = eager_codes
            axes = [eager_codes]
            labels = [(f"eager {op.outputs[j]}", out.scale, out.zero_point)]
        with np.errstate(invalid="ignore"):
            inside = (position >= -0.5) & (position <= 255.5)
            o.saturated = float((~inside).mean())
            clipped = np.clip(np.nan_to_num(position, nan=0.0), -0.5, 255.5)
        real = np.abs(kc.astype(np.float64) - clipped)
        o.kernel_vs_float = (float(real.max()), float(real.mean()))
        err = np.abs(kc.astype(np.int64) - against.astype(np.int64))
        if err.any():
            at_tie = np.abs(np.abs(clipped - np.floor(clipped)) - 0.5) < TIE
            o.off_at_ties = float(at_tie[err > 0].mean())
        o.worst = _worst_regions(err.reshape(-1), [a.reshape(-1) for a in axes], labels)
        item.update(reference=against, position=position, exact=exact, real=kc.astype(np.float64) - clipped)
        item["has_reference"] = ref_values is not None or float64 is not None
        rep.outputs.append(o)
        arrays["outputs"].append(item)
    return rep, arrays


# ---------------------------------------------------------------------------- pictures


def pyplot():
    """matplotlib.pyplot on the file-only backend, or None when it is not installed."""
    try:
        import matplotlib
    except ImportError:
        return None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot(plt, rep: OpReport, arrays: dict, path: Path, names: Sequence[str]) -> None:
    """The op's figure (figure()) written to `path` as a PNG."""
    fig = figure(plt, rep, arrays, names)
    fig.savefig(path, dpi=90)
    plt.close(fig)


# Where an exact kernel's unrounded error lies: rounding to the nearest code.
ROUNDING = 0.5
SLICES = 5


def _rounding_band(ax, vertical: bool = False) -> None:
    """The +-0.5 LSB of rounding to the nearest code, marked on an error axis."""
    line = ax.axvline if vertical else ax.axhline
    for k, edge in enumerate((-ROUNDING, ROUNDING)):
        label = "rounding to the nearest code (+-0.5 LSB)" if k == 0 else None
        line(edge, color="tab:green", ls="--", lw=1, label=label)


def _error_histogram(ax, real: np.ndarray, against: str) -> None:
    """How far each kernel code is from the exact value, unrounded: an exact kernel's
    errors fill the rounding band and never leave it."""
    lim = max(1.0, math.ceil(2.0 * float(np.abs(real).max())) / 2.0)
    _rounding_band(ax, vertical=True)
    # Bins of 0.05 LSB with edges on the band's, so no bar straddles it.
    ax.hist(real.reshape(-1), bins=np.linspace(-lim, lim, round(lim / 0.05) + 1), color="tab:purple", alpha=0.8)
    ax.set_xlabel(f"kernel - {against} value, unrounded (LSB)")
    ax.set_ylabel("codes")
    ax.legend(loc="upper right", fontsize=8)


def _off_codes(stats: Stats, against: str) -> str:
    if not stats.max:
        return f"every one of the {stats.n:,} codes equals the {against}'s"
    return f"{round(stats.off * stats.n):,} of {stats.n:,} codes off the {against}'s (max {stats.max})"


def figure(plt, rep: OpReport, arrays: dict, names: Sequence[str]):
    """One figure per op, each panel readable at a glance. A unary op: its transfer
    curve over the 256 input codes, the error under it. A binary op: the output over
    every code pair, cuts through it along the first input, where codes are off the
    reference, and how far the kernel is from the exact value. Otherwise (three or four
    inputs, a custom op), per output: the kernel's codes against the reference's (a
    custom op: eager's), and how far the kernel is from the exact value."""
    outputs = arrays["outputs"]
    if rep.kind != "custom" and rep.n_inputs == 1:
        fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 7), sharex=True, height_ratios=[3, 2])
        x, o = arrays["x"][0], outputs[0]

        def deq(c):
            return (np.asarray(c, dtype=np.float64) - o["zero_point"]) * o["scale"]

        top.axhspan(deq(0), deq(255), color="tab:green", alpha=0.06, label="range of the output codes")
        top.plot(x, o["exact"], color="0.3", lw=1.5, label="float64 reference")
        top.step(x, deq(o["kernel"]), where="mid", color="tab:blue", lw=1.2, zorder=3, label="kernel (emulator)")
        top.plot(x, deq(o["eager"]), ".", color="tab:orange", ms=3, label="eager, quantized")
        top.set_ylabel(f"{rep.name}({names[0]})")
        top.legend(loc="best", fontsize=8)
        top.set_title(f"{NAMESPACE}::{rep.name}: transfer curve over the 256 input codes")
        code_err = o["kernel"].astype(np.int64) - o["reference"].astype(np.int64)
        _rounding_band(bottom)
        bottom.plot(x, o["real"], ".", color="tab:purple", ms=3, label="kernel - float64 value, unrounded (LSB)")
        bottom.step(x, code_err, where="mid", color="tab:red", lw=1, label="kernel - reference code (LSB)")
        bottom.axhline(0, color="0.5", lw=0.5)
        lim = max(1.0, float(np.abs(o["real"]).max()), float(np.abs(code_err).max()))
        bottom.set_ylim(-1.15 * lim, 1.15 * lim)
        bottom.set_xlabel(f"{names[0]} (dequantized input)")
        bottom.set_ylabel("error (LSB)")
        bottom.set_title(_off_codes(rep.outputs[0].kernel_vs_reference, "reference"), fontsize=10)
        bottom.legend(loc="upper right", fontsize=8)
    elif rep.kind != "custom" and rep.n_inputs == 2:
        fig, axes = plt.subplots(2, 2, figsize=(13, 10))
        o = outputs[0]
        x1, x2 = arrays["x"][0][:, 0], arrays["x"][1][0, :]
        extent = [float(x2[0]), float(x2[-1]), float(x1[0]), float(x1[-1])]
        deq = (o["kernel"].astype(np.float64) - o["zero_point"]) * o["scale"]
        code_err = o["kernel"].astype(np.int64) - o["reference"].astype(np.int64)

        ax = axes[0][0]
        im = ax.imshow(deq, cmap="viridis", extent=extent, origin="lower", aspect="auto", interpolation="nearest")
        ax.contour(x2, x1, deq, levels=8, colors="white", linewidths=0.6, linestyles="solid")
        fig.colorbar(im, ax=ax, label="kernel output (dequantized)")
        ax.set_title("kernel output over every pair of input codes", fontsize=10)

        ax = axes[0][1]
        colors = plt.get_cmap("viridis")(np.linspace(0.0, 0.85, SLICES))
        for color, j in zip(colors, np.linspace(0, len(x2) - 1, SLICES).round().astype(int)):
            ax.plot(x1, np.asarray(o["exact"])[:, j], color="0.3", lw=1)
            ax.step(x1, deq[:, j], where="mid", color=color, lw=1.2, label=f"{names[1]} = {x2[j]:.3g}")
        ax.set_xlabel(f"{names[0]} (dequantized)")
        ax.set_ylabel(f"{rep.name}({names[0]}, {names[1]})")
        ax.set_title(f"cuts at {SLICES} values of {names[1]}: kernel (steps), float64 reference (grey)", fontsize=10)
        ax.legend(loc="best", fontsize=8)

        ax = axes[1][0]
        worst = max(1, int(np.abs(code_err).max()))
        bounds = np.arange(-worst - 0.5, worst + 1.0, 1.0)
        norm = plt.matplotlib.colors.BoundaryNorm(bounds, plt.get_cmap("PuOr").N)
        im = ax.imshow(
            code_err, cmap="PuOr", norm=norm, extent=extent, origin="lower", aspect="auto", interpolation="nearest"
        )
        fig.colorbar(im, ax=ax, ticks=range(-worst, worst + 1), label="kernel - reference code (LSB)")
        stats = rep.outputs[0].kernel_vs_reference
        ties = rep.outputs[0].off_at_ties
        at_ties = f"\n{100.0 * ties:.0f}% of them at a rounding tie (float32 against float64)" if ties else ""
        ax.set_title(f"where codes are off: {_off_codes(stats, 'reference')}{at_ties}", fontsize=10)
        if not stats.max:
            ax.text(0.5, 0.5, "no code off", transform=ax.transAxes, ha="center", va="center", fontsize=14)
        _error_histogram(axes[1][1], o["real"], "float64")
        axes[1][1].set_title("how far each kernel code is from the exact value", fontsize=10)
        for ax in (axes[0][0], axes[1][0]):
            ax.set_xlabel(f"{names[1]} (dequantized)")
            ax.set_ylabel(f"{names[0]} (dequantized)")
        fig.suptitle(f"{NAMESPACE}::{rep.name}: over every pair of input codes")
    else:
        n_out = len(outputs)
        fig, axes = plt.subplots(2, n_out, figsize=(6 * n_out + 1, 9), squeeze=False)
        for j, o in enumerate(outputs):
            name = "reference" if o["has_reference"] else "eager"
            ax = axes[0][j]
            ax.plot([0, 255], [0, 255], color="0.5", lw=0.5, label="kernel = " + name)
            ref, ker = o["reference"].reshape(-1), o["kernel"].reshape(-1)
            ax.plot(ref, ker, ".", ms=2, alpha=0.4, color="tab:blue")
            off = ref != ker
            if off.any():
                ax.plot(ref[off], ker[off], "o", ms=5, mfc="none", color="tab:red", label="codes off")
            ax.legend(loc="upper left", fontsize=8)
            ax.set_xlabel(f"{name} code")
            ax.set_ylabel("kernel code")
            stats = rep.outputs[j].kernel_vs_reference or rep.outputs[j].kernel_vs_eager
            ax.set_title(f"output {rep.outputs[j].name}: {_off_codes(stats, name)}", fontsize=10)
            _error_histogram(axes[1][j], o["real"], "float64" if o["has_reference"] else "eager float")
            axes[1][j].set_title("how far each kernel code is from the exact value", fontsize=10)
        sample = f"{rep.outputs[0].kernel_vs_eager.n:,} random code tuples"
        fig.suptitle(f"{NAMESPACE}::{rep.name} ({rep.kind}, {rep.n_inputs} input(s); {sample})")
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------------------- the report


def summary_md(reports: list[OpReport]) -> str:
    lines = [
        f"# Accuracy of the {NAMESPACE} kernels",
        "",
        "Written by `python -m " + NAMESPACE + " report`. Errors are in output codes (LSB) of the "
        "8-bit output, quantized as calibrated on these inputs: max / mean / share of codes off by >= 1. "
        "Kernel: the op package through the host emulator; eager: the torch op on the dequantized "
        "inputs, quantized; reference: float64 numpy, quantized exactly (ties to even), for a custom op "
        "your eager math run on float64 tensors (eager float64). The exact "
        "value is the reference's (a custom op without a float64 run: the eager op's float result) "
        "before rounding: 0.5 LSB "
        "is the least any 8-bit kernel can have. A code off where the exact value is at a rounding tie "
        "(x.5, within " + f"{TIE:g}" + " LSB) is float32 against float64 rounding, not the kernel's error.",
        "",
    ]
    for rep in reports:
        ranges = ", ".join(f"[{lo:g}, {hi:g}]" for lo, hi in rep.ranges)
        params = ", ".join(f"{v!r}" for _k, v in rep.params) or "none"
        lines += [f"## {NAMESPACE}::{rep.name}", "", f"{rep.kind}; input ranges {ranges}; params {params}.", ""]
        if rep.problem:
            lines += [f"No numbers: {rep.problem}.", ""]
            continue
        if rep.kind == "custom":
            lines += [
                f"Reference: no float64 run, {rep.float64_problem}."
                if rep.float64_problem
                else "Reference: your eager math run on float64 tensors (eager float64).",
                "",
            ]
        lines += [
            "| output | scale, zero point | kernel vs reference | eager vs reference | kernel vs eager "
            "| kernel vs exact value, unrounded (max / mean) | off codes at a tie | saturated |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for o in rep.outputs:
            ref = o.kernel_vs_reference.md() if o.kernel_vs_reference else "no reference (see above)"
            eag = o.eager_vs_reference.md() if o.eager_vs_reference else "-"
            real = f"{o.kernel_vs_float[0]:.3f} / {o.kernel_vs_float[1]:.3f}" if o.kernel_vs_float else "-"
            sat = f"{100.0 * o.saturated:.2f}%"
            off = (o.kernel_vs_reference or o.kernel_vs_eager).off
            ties = f"{100.0 * o.off_at_ties:.1f}%" if off else "-"
            lines.append(
                f"| {o.name} | {o.scale:.6g}, {o.zero_point} | {ref} | {eag} | {o.kernel_vs_eager.md()} "
                f"| {real} | {ties} | {sat} |"
            )
        lines.append("")
        for o in rep.outputs:
            against = "reference" if o.kernel_vs_reference else "eager"
            if o.worst:
                lines.append(f"Largest error of {o.name} (kernel vs {against}):")
                lines += [f"- {w.region}: max {w.max}, mean {w.mean:.4f}" for w in o.worst]
            else:
                lines.append(f"{o.name}: every code equals the {against}'s.")
            lines.append("")
        if rep.plot:
            lines += [f"![{rep.name}]({rep.plot})", ""]
    return "\n".join(lines)


def write(
    out_dir: Path,
    reports: list[OpReport],
    arrays: dict[str, dict],
    plt,
) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for rep in reports:
        if plt is not None and not rep.problem:
            path = out_dir / f"{rep.name}.png"
            plot(plt, rep, arrays[rep.name], path, next(op.inputs for op in OPS if op.name == rep.name))
            rep.plot = path.name
            written.append(path)
    md = out_dir / "summary.md"
    md.write_text(summary_md(reports) + "\n", encoding="utf-8")
    data = out_dir / "summary.json"
    data.write_text(json.dumps([asdict(r) for r in reports], indent=1) + "\n", encoding="utf-8")
    return [md, data, *written]


def run(
    out_dir: Path,
    op_names: Sequence[str] | None = None,
    ranges: Sequence[tuple[float, float]] | None = None,
    kernel: Kernel = emulator_kernel,
    shape: Sequence[int] = CUSTOM_SHAPE,
    log=print,
) -> list[OpReport]:
    """The report of `op_names` (default every op) into `out_dir`. `ranges`: one (lo, hi)
    for every input, or one per input of each op; default the calibrated ranges."""
    import warnings

    # torch 2.13 deprecates quint8 tensors, which emulator.quantize uses on purpose (the oracle).
    warnings.filterwarnings("ignore", message=".*quantized tensor creation functions")
    ops = [op for op in OPS if op_names is None or op.name in op_names]
    plan = []
    for op in ops:  # every range checked before anything runs
        if ranges is None:
            plan.append((op, calibrated_ranges(op)))
        elif len(ranges) in (1, len(op.inputs)):
            plan.append((op, list(ranges) * (len(op.inputs) // len(ranges))))
        else:
            raise ValueError(
                f"--range given {len(ranges)} times: {op.qualified_name} has {len(op.inputs)} input(s); "
                "give it once (every input) or once per input"
            )
    reports, arrays = [], {}
    for op, r in plan:
        log(f"report: {op.qualified_name} over {', '.join(f'[{lo:g}, {hi:g}]' for lo, hi in r)}")
        rep, arr = analyse(op, r, kernel, shape)
        reports.append(rep)
        arrays[op.name] = arr
    plt = pyplot()
    if plt is None:
        log(MATPLOTLIB_MISSING.format(where=out_dir / "summary.md"))
    for path in write(out_dir, reports, arrays, plt):
        log(f"wrote {path}")
    return reports
