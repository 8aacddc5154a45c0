# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""`python -m my_ops report`: its numbers come from the kernel's codes.

A kernel one code off at one input changes the numbers by exactly that code; the summary
links the plots it writes; without matplotlib the numbers are still written; bad
arguments end in one line. One op is enough: the report runs the same code for every
op (the first elementwise op, else the first op).
"""

import json
import sys
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from my_ops import cli, report
from my_ops.ops import OPS

import op_package_host as host

# torch 2.13 deprecates quint8 tensors, which are the oracle here on purpose.
pytestmark = pytest.mark.filterwarnings("ignore:.*quantized tensor creation functions")

OP = next((op for op in OPS if op.kind != "custom"), OPS[0])
EAGER_USER = "my_ops/user"


def analyse(kernel=report.emulator_kernel):
    rep, arrays = report.analyse(OP, report.calibrated_ranges(OP), kernel)
    if rep.problem:
        pytest.fail(f"{OP.qualified_name}: {rep.problem} (the math goes in {EAGER_USER} and op_package/*/user)")
    return rep, arrays


def test_a_kernel_one_code_off_changes_the_numbers():
    rep, arrays = analyse()
    first = arrays["outputs"][0]
    against = first.get("reference", first["eager"])
    # One input where the kernel equals the reference (or eager): the kernel is made one
    # code off there, and nowhere else.
    exact = np.flatnonzero(first["kernel"].reshape(-1) == against.reshape(-1))
    assert exact.size, "no code of the kernel equals the reference: nothing to perturb"
    where = int(exact[0])
    step = 1 if int(against.reshape(-1)[where]) < 255 else -1

    def one_off(op, inputs, outputs, params):
        got = report.emulator_kernel(op, inputs, outputs, params)
        got[0].view(-1)[where] = int(got[0].view(-1)[where]) + step
        return got

    off, _ = analyse(one_off)
    before, after = rep.outputs[0], off.outputs[0]
    stats = [(before.kernel_vs_eager, after.kernel_vs_eager)]
    if before.kernel_vs_reference is not None:
        stats.append((before.kernel_vs_reference, after.kernel_vs_reference))
        # eager is not the kernel: its numbers stay.
        assert after.eager_vs_reference == before.eager_vs_reference
    n = before.kernel_vs_eager.n
    for b, a in stats:
        assert a.n == b.n == n
        assert a.max == max(b.max, 1)
        assert round(a.off * n) == round(b.off * n) + 1
        assert a.mean == pytest.approx(b.mean + 1.0 / n, abs=1e-12)


def test_the_summary_links_the_plots_and_holds_the_numbers(tmp_path):
    pytest.importorskip("matplotlib")
    reports = report.run(tmp_path, [OP.name], log=lambda line: None)
    md = (tmp_path / "summary.md").read_text()
    png = tmp_path / f"{OP.name}.png"
    assert f"]({OP.name}.png)" in md
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads((tmp_path / "summary.json").read_text())
    assert [d["name"] for d in data] == [OP.name] and data[0]["problem"] is None
    stats = reports[0].outputs[0].kernel_vs_eager
    assert data[0]["outputs"][0]["kernel_vs_eager"]["max"] == stats.max
    assert f"| {stats.max} / {stats.mean:.4f} / {100.0 * stats.off:.2f}% |" in md


CUSTOM = next((op for op in OPS if op.kind == "custom"), None)


@pytest.mark.skipif(CUSTOM is None, reason="the spec has no custom op")
def test_a_custom_op_is_also_judged_against_its_eager_math_in_float64():
    """A custom op's kernel against your eager math run on float64 tensors (the
    reference columns), next to kernel-vs-eager; one code off in the kernel shows in
    both, and eager-vs-float64 stays. Math that computes in float32 gives no float64
    reference, and the summary says why."""
    ranges = report.calibrated_ranges(CUSTOM)
    rep, arrays = report.analyse(CUSTOM, ranges)
    if rep.problem:
        pytest.fail(f"{CUSTOM.qualified_name}: {rep.problem}")
    if rep.float64_problem:
        pytest.skip(f"{CUSTOM.qualified_name}: {rep.float64_problem}")
    first = arrays["outputs"][0]
    assert first["has_reference"] and first["exact"].dtype == np.float64
    before = rep.outputs[0]
    assert before.kernel_vs_reference is not None and before.eager_vs_reference is not None
    where = 0
    step = 1 if int(first["kernel"].reshape(-1)[where]) < 255 else -1

    def one_off(op, inputs, outputs, params):
        got = report.emulator_kernel(op, inputs, outputs, params)
        got[0].view(-1)[where] = int(got[0].view(-1)[where]) + step
        return got

    off, _ = report.analyse(CUSTOM, ranges, one_off)
    after = off.outputs[0]
    assert after.eager_vs_reference == before.eager_vs_reference
    n = before.kernel_vs_reference.n
    assert round(after.kernel_vs_reference.off * n) != round(before.kernel_vs_reference.off * n)
    assert round(after.kernel_vs_eager.off * n) != round(before.kernel_vs_eager.off * n)
    md = report.summary_md([rep])
    assert "Reference: your eager math run on float64 tensors" in md
    assert f"| {before.kernel_vs_reference.md()} | {before.eager_vs_reference.md()} | " in md
    # float32-only math, and math that refuses float64: no reference, and the summary says why.
    xs = [torch.zeros(4, 4, 4, 4) for _ in CUSTOM.inputs]
    params = [default for _name, _kind, default in CUSTOM.params]

    def float32_only(*args):
        return CUSTOM.default(*[a.float() if isinstance(a, torch.Tensor) else a for a in args])

    def refuses(*args):
        raise TypeError("expected a float32 tensor")

    values, why = report.eager_float64(SimpleNamespace(default=float32_only), xs, params)
    assert values is None and why == "your eager math returned torch.float32 on float64 inputs: it computes in float32"
    values, why = report.eager_float64(SimpleNamespace(default=refuses), xs, params)
    assert values is None
    assert why == "your eager math does not run on float64 tensors (TypeError: expected a float32 tensor)"
    rep.float64_problem = why
    assert f"Reference: no float64 run, {why}." in report.summary_md([rep])


def _plot_kind(op) -> str:
    if op.kind == "custom":
        return "custom"
    return {1: "one input", 2: "two inputs"}.get(len(op.inputs), "more inputs")


# One op of each kind of figure the package has (report.figure draws each kind its way).
PLOT_KINDS = {}
for _op in OPS:
    PLOT_KINDS.setdefault(_plot_kind(_op), _op)


def _shows_something(ax) -> bool:
    """A panel a reader can read: an image that is not one flat colour, a curve of more
    than two points (not a reference line), markers of data (a scatter, however few: an
    output reduced over every dim has one code), bars of some height, or a text saying
    why it is flat."""
    images = [np.asarray(im.get_array(), dtype=float) for im in ax.images]
    if any(a.size and np.nanmax(a) > np.nanmin(a) for a in images):
        return True
    if any(len(line.get_xdata()) > 2 for line in ax.lines):
        return True
    if any(len(line.get_xdata()) and line.get_linestyle() == "None" for line in ax.lines):
        return True
    if any(patch.get_height() > 0 for patch in ax.patches if hasattr(patch, "get_height")):
        return True
    return bool(ax.texts)


@pytest.mark.parametrize("kind", sorted(PLOT_KINDS))
def test_every_panel_of_the_plots_shows_something(kind):
    """An exact kernel's error map is one flat colour (a blank panel, the right one of a
    two-input op's figure): said in words instead; every other panel holds data."""
    plt = pytest.importorskip("matplotlib.pyplot")
    op = PLOT_KINDS[kind]
    rep, arrays = report.analyse(op, report.calibrated_ranges(op))
    if rep.problem:
        pytest.fail(f"{op.qualified_name}: {rep.problem}")
    fig = report.figure(report.pyplot(), rep, arrays, op.inputs)
    try:
        panels = [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]
        assert panels
        empty = [ax.get_title() or str(i) for i, ax in enumerate(panels) if not _shows_something(ax)]
        assert not empty, f"{op.qualified_name}: empty panels {empty}"
    finally:
        plt.close(fig)


def test_without_matplotlib_the_numbers_are_still_written(tmp_path, monkeypatch):
    """matplotlib unimportable (None in sys.modules: `import matplotlib` raises
    ImportError): one line names the install, and the numbers are written."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    lines = []
    report.run(tmp_path, [OP.name], log=lines.append)
    named = [line for line in lines if "pip install matplotlib" in line]
    assert len(named) == 1 and named[0].startswith("matplotlib is not installed"), lines
    assert (tmp_path / "summary.md").is_file() and not list(tmp_path.glob("*.png"))
    assert f"## {OP.qualified_name}" in (tmp_path / "summary.md").read_text()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--op", "no_such_op"], "--op 'no_such_op': not an op of this package"),
        (["--range", "2", "1"], "--range 2 1: must be two finite numbers, LO < HI"),
        (["--range", "0", "inf"], "--range 0 inf: must be two finite numbers, LO < HI"),
    ],
)
def test_bad_arguments_end_in_one_line(args, message, capsys, tmp_path):
    assert cli.main(["report", "--project", str(host.ROOT), "--out", str(tmp_path), *args]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
    assert not list(tmp_path.iterdir())
