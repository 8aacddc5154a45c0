# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""`python -m <namespace> report`: how far each op's 8-bit kernel is from float math.

Per op, over the calibrated input range (device_data.input_ranges, or the one you give):
every input code (all 256 of a unary op, every pair of a binary op; a random sample of
code tuples for three or four inputs and for a custom op) runs through

- the kernel, in the host emulator (emulator.py, `make host-lib`);
- the eager op on the dequantized inputs, quantized like the delegated graph's output;
- the float64 numpy reference (reference.py; elementwise ops), quantized exactly
  (ties to even, saturated, NaN to the lowest code as the kernels do).

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
        return f"{self.max} | {self.mean:.4f} | {100.0 * self.off:.2f}%"


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
    saturated: float = 0.0  # share of reference values beyond the output's codes (or NaN)
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
    arrays = {"x": [x.numpy() for x in xs], "codes": [c.numpy() for c in codes], "outputs": []}
    for j, (r, out, k) in enumerate(zip(results, outs, got)):
        eager_codes = emulator.quantize(r, out.scale, out.zero_point).numpy()
        kc = k.numpy()
        o = OutputReport(op.outputs[j], out.scale, out.zero_point, Stats.of(kc, eager_codes))
        item = {"kernel": kc, "eager": eager_codes, "scale": out.scale, "zero_point": out.zero_point}
        if ref_values is not None:
            rc, position = reference_codes(np.broadcast_to(ref_values, kc.shape), out.scale, out.zero_point)
            o.kernel_vs_reference = Stats.of(kc, rc)
            o.eager_vs_reference = Stats.of(eager_codes, rc)
            with np.errstate(invalid="ignore"):
                o.saturated = float((~((position >= -0.5) & (position <= 255.5))).mean())
            err = np.abs(kc.astype(np.int64) - rc.astype(np.int64))
            labels = [(name, spec.scale, spec.zero_point) for name, spec in zip(op.inputs, specs)]
            axes = [c.numpy() for c in codes] if len(op.inputs) <= 2 else [codes[0].numpy()]
            o.worst = _worst_regions(err.reshape(-1), [a.reshape(-1) for a in axes], labels[: len(axes)])
            item.update(reference=rc, position=position, ref_values=np.broadcast_to(ref_values, kc.shape))
        else:
            err = np.abs(kc.astype(np.int64) - eager_codes.astype(np.int64)).reshape(-1)
            label = (f"eager {op.outputs[j]}", out.scale, out.zero_point)
            o.worst = _worst_regions(err, [eager_codes.reshape(-1)], [label])
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


def plot(plt, rep: OpReport, arrays: dict, path: Path) -> None:
    n_out = len(arrays["outputs"])
    if rep.kind != "custom" and rep.n_inputs == 1:
        fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 7), sharex=True, height_ratios=[3, 2])
        x = arrays["x"][0]
        o = arrays["outputs"][0]
        deq = lambda c: (c.astype(np.float64) - o["zero_point"]) * o["scale"]  # noqa: E731
        top.plot(x, o["ref_values"], color="0.3", lw=1.5, label="float64 reference")
        top.step(x, deq(o["kernel"]), where="mid", color="tab:blue", lw=1, label="kernel (emulator)")
        top.plot(x, deq(o["eager"]), ".", color="tab:orange", ms=3, label="eager, quantized")
        lo, hi = deq(np.array([0])), deq(np.array([255]))
        top.axhspan(lo[0], hi[0], color="tab:green", alpha=0.06, label="output codes 0..255")
        top.set_ylabel(f"{rep.name}(x)")
        top.legend(loc="best", fontsize=8)
        top.set_title(f"{NAMESPACE}::{rep.name}: transfer curve over the input codes")
        with np.errstate(invalid="ignore"):
            real_err = o["kernel"].astype(np.float64) - np.clip(o["position"], -0.5, 255.5)
        bottom.plot(x, real_err, color="tab:purple", lw=1, label="kernel - reference (unrounded), LSB")
        bottom.step(
            x,
            o["kernel"].astype(np.int64) - o["reference"].astype(np.int64),
            where="mid",
            color="tab:red",
            lw=1,
            label="kernel - reference code, LSB",
        )
        bottom.axhline(0, color="0.5", lw=0.5)
        bottom.set_xlabel("input (dequantized)")
        bottom.set_ylabel("error (LSB)")
        bottom.legend(loc="best", fontsize=8)
    elif rep.kind != "custom" and rep.n_inputs == 2:
        fig, axes = plt.subplots(1, 2, figsize=(12, 5))
        o = arrays["outputs"][0]
        extent = [arrays["x"][1][0, 0], arrays["x"][1][0, -1], arrays["x"][0][-1, 0], arrays["x"][0][0, 0]]
        for ax, (title, err) in zip(
            axes,
            [
                ("kernel - reference code (LSB)", o["kernel"].astype(np.int64) - o["reference"].astype(np.int64)),
                ("kernel - eager code (LSB)", o["kernel"].astype(np.int64) - o["eager"].astype(np.int64)),
            ],
        ):
            lim = max(1, int(np.abs(err).max()))
            im = ax.imshow(err, cmap="coolwarm", vmin=-lim, vmax=lim, extent=extent, aspect="auto")
            ax.set_xlabel("input 2 (dequantized)")
            ax.set_ylabel("input 1 (dequantized)")
            ax.set_title(title, fontsize=10)
            fig.colorbar(im, ax=ax)
        fig.suptitle(f"{NAMESPACE}::{rep.name}: error over every input code pair")
    else:
        fig, axes = plt.subplots(2, n_out, figsize=(5 * n_out + 1, 8), squeeze=False)
        for j, o in enumerate(arrays["outputs"]):
            against = o.get("reference", o["eager"])
            name = "reference" if "reference" in o else "eager"
            ax = axes[0][j]
            ax.plot(against.reshape(-1), o["kernel"].reshape(-1), ".", ms=2, alpha=0.4, color="tab:blue")
            ax.plot([0, 255], [0, 255], color="0.5", lw=0.5)
            ax.set_xlabel(f"{name} code")
            ax.set_ylabel("kernel code")
            ax.set_title(f"output {rep.outputs[j].name}: kernel against {name}", fontsize=10)
            d = o["kernel"].astype(np.int64).reshape(-1) - against.astype(np.int64).reshape(-1)
            ax = axes[1][j]
            edges = np.arange(d.min() - 0.5, d.max() + 1.5)
            ax.hist(d, bins=edges, color="tab:red")
            ax.set_yscale("log")
            ax.set_xlabel(f"kernel - {name} code (LSB)")
            ax.set_ylabel("codes")
        fig.suptitle(f"{NAMESPACE}::{rep.name} ({rep.kind}, {rep.n_inputs} input(s))")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


# ---------------------------------------------------------------------------- the report


def summary_md(reports: list[OpReport]) -> str:
    lines = [
        f"# Accuracy of the {NAMESPACE} kernels",
        "",
        "Written by `python -m " + NAMESPACE + " report`. Errors are in output codes (LSB) of the "
        "8-bit output, quantized as calibrated on these inputs: max | mean | share of codes off by >= 1. "
        "Kernel: the op package through the host emulator; eager: the torch op on the dequantized "
        "inputs, quantized; reference: float64 numpy, quantized exactly (ties to even).",
        "",
    ]
    for rep in reports:
        ranges = ", ".join(f"[{lo:g}, {hi:g}]" for lo, hi in rep.ranges)
        params = ", ".join(f"{v!r}" for _k, v in rep.params) or "none"
        lines += [f"## {NAMESPACE}::{rep.name}", "", f"{rep.kind}; input ranges {ranges}; params {params}.", ""]
        if rep.problem:
            lines += [f"No numbers: {rep.problem}.", ""]
            continue
        lines += [
            "| output | scale, zero point | kernel vs reference | eager vs reference | kernel vs eager | saturated |",
            "|---|---|---|---|---|---|",
        ]
        for o in rep.outputs:
            ref = o.kernel_vs_reference.md() if o.kernel_vs_reference else "(no reference: custom math)"
            eag = o.eager_vs_reference.md() if o.eager_vs_reference else "-"
            sat = f"{100.0 * o.saturated:.2f}%" if o.kernel_vs_reference else "-"
            lines.append(
                f"| {o.name} | {o.scale:.6g}, {o.zero_point} | {ref} | {eag} | {o.kernel_vs_eager.md()} | {sat} |"
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
            plot(plt, rep, arrays[rep.name], path)
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
    from .device_data import input_ranges

    calibrated = input_ranges()
    per_op, start = {}, 0
    for op in OPS:
        per_op[op.name] = calibrated[start : start + len(op.inputs)]
        start += len(op.inputs)
    ops = [op for op in OPS if op_names is None or op.name in op_names]
    reports, arrays = [], {}
    for op in ops:
        if ranges is None:
            r = per_op[op.name]
        elif len(ranges) == 1:
            r = list(ranges) * len(op.inputs)
        elif len(ranges) == len(op.inputs):
            r = list(ranges)
        else:
            raise ValueError(
                f"--range given {len(ranges)} times: {op.qualified_name} has {len(op.inputs)} input(s); "
                "give one --range for every input, or one per input"
            )
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
