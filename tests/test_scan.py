"""scripts/scan (hooks/scan.py): a model's ops that fall back, by ExecuTorch 1.5.1's own
partitioner checks (no SDK), a spec draft for them, and the way back: the draft rendered
with scripts/new, the model swapped to the package's ops, and the project's check-model
showing the swapped nodes reaching the op package.  Hostile input is one line.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, once_per_run, run_budgeted

SCAN = ROOT / "scripts" / "scan"
NEW = ROOT / "scripts" / "new"
SHAPE = (1, 2, 4, 4)

# A conv, then four ops without a QNN builder in ExecuTorch 1.5.1 (no visitor for
# aten.erf, aten.exp2, aten.hypot, aten.fmod.Scalar: test_the_ops_have_no_builder pins
# it), fmod with a scalar argument (a param), then a leaky_relu, which QnnPartitioner
# keeps from decomposing and the passes make a PReLU. torch.special.erf is
# aten.special_erf in the float export and aten.erf in the edge program the partitioner
# checks: its input's values are still seen (hooks/scan.py source_name).
MODELS = """
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.conv = torch.nn.Conv2d(2, 2, 1)

    def forward(self, x, y):
        h = self.conv(x)
        a = torch.special.erf(h)
        b = torch.exp2(a)
        c = torch.hypot(b, y)
        d = torch.fmod(c, 1.5)
        return torch.nn.functional.leaky_relu(d * 2, 0.2)


class Branches(torch.nn.Module):
    def forward(self, x, y):
        return torch.cond(x.sum() > 0, lambda a, b: a * b, lambda a, b: a - b, (x, y))


class DataDependent(torch.nn.Module):
    def forward(self, x, y):
        if x.sum() > 0:  # torch.export cannot capture a branch on the data
            return x * y
        return x - y


def broken():
    raise RuntimeError("checkpoint missing")
"""

# The model with each op that falls back swapped for the package's op: one line each.
SWAPPED = """
import torch

import {ns}

from my_models.net import Net


class Swapped(Net):
    def forward(self, x, y):
        h = self.conv(x)
        a = {ns}.{erf}(h)  # was torch.special.erf(h)
        b = {ns}.{exp2}(a)  # was torch.exp2(a)
        c = {ns}.{hypot}(b, y)  # was torch.hypot(b, y)
        d = {ns}.{fmod}(c, 1.5)  # was torch.fmod(c, 1.5)
        return torch.nn.functional.leaky_relu(d * 2, 0.2)
"""


def write_user(folder: Path) -> tuple[Path, list]:
    import torch

    (folder / "my_models").mkdir(parents=True)
    (folder / "my_models" / "__init__.py").write_text("")
    (folder / "my_models" / "net.py").write_text(MODELS)
    gen = torch.Generator().manual_seed(1)
    batches = [(torch.randn(SHAPE, generator=gen), torch.rand(SHAPE, generator=gen)) for _ in range(2)]
    torch.save(batches, folder / "example.pt")
    return folder / "example.pt", batches


def run(argv, cwd, env=None):
    """A command within a budget of idle-machine seconds (a hang ends, a slow machine passes)."""
    return run_budgeted(argv, 600, cwd=cwd, env=env)


FALLBACKS = ("aten.erf.default", "aten.exp2.default", "aten.hypot.default", "aten.fmod.Scalar")


def test_the_ops_have_no_builder():
    """ExecuTorch 1.5.1's own table of QNN builders has none of the four ops (the end to
    end test's premise) and has the conv's and PReLU's."""
    from executorch.backends.qualcomm.builders import node_visitor_manager

    builders = set(node_visitor_manager._node_visitor_dict)
    assert not builders & set(FALLBACKS)
    assert {"aten.convolution.default", "aten.prelu.default"} <= builders


@pytest.fixture(scope="module")
def scanned(tmp_path_factory):
    """scripts/scan --spec-out on the model, once per run."""

    def build(folder: Path):
        example, _ = write_user(folder)
        result = run([str(SCAN), "--model", "my_models.net:Net", "--example-inputs", str(example),
                      "--spec-out", "draft.yaml"], folder)  # fmt: skip
        return str(folder), result.returncode, result.stdout, result.stderr

    folder, code, out, err = once_per_run(tmp_path_factory, "scan", build)
    return Path(folder), code, out, err


def _line(out: str, op: str) -> str:
    [line] = [line for line in out.splitlines() if line.startswith(f"  {op} ")]
    return line


def test_scan_names_every_op_kind_and_counts_what_reaches_the_backend(scanned):
    _, code, out, err = scanned
    assert code == 0, err
    assert err == ""
    for op in FALLBACKS:
        line = _line(out, op)
        node = op.replace(".", "_").lower()
        assert "x1" in line and "FALLS BACK: ExecuTorch: No node visitor, unsupported" in line and node in line
    assert "delegated: QNN builder Conv2d" in _line(out, "aten.convolution.default")
    # leaky_relu is kept whole for QnnPartitioner (get_skip_decomp_table) and becomes a PReLU.
    assert "delegated: QNN builder PReLU" in _line(out, "aten.prelu.default")
    assert "leaky_relu" not in out and "aten.gt.Scalar" not in out
    assert "4 fall back to the CPU" in out
    summary = [line for line in out.splitlines() if "compute nodes reach the LPAI backend" in line]
    assert len(summary) == 1
    reach, total = summary[0].split(" compute")[0].split(" of ")
    assert int(total) - int(reach) == 4


def test_the_draft_passes_the_spec_check_and_says_the_math(scanned):
    folder, code, _, err = scanned
    assert code == 0, err
    import torch

    text = (folder / "draft.yaml").read_text()
    draft = yaml.safe_load(text)
    ops = {op["doc"].split()[1].rstrip(","): op for op in draft["ops"]}
    assert set(ops) == set(FALLBACKS)
    erf, exp2, hypot, fmod = (ops[op] for op in FALLBACKS)
    assert erf["kind"] == "custom" and "expr" not in erf  # the grammar has no erf
    assert exp2["expr"] == "pow(2, x)" and hypot["expr"] == "sqrt(x * x + y * y)"
    assert [i["name"] for i in hypot["inputs"]] == ["x", "y"]
    # The scalar argument: a param, its default as the model calls fmod.
    assert fmod["kind"] == "custom" and fmod["params"] == [{"name": "other", "type": "float", "default": 1.5}]
    for op in FALLBACKS:
        assert f"# {op}: 1 node(s)" in text
    # aten.erf, aten.special_erf where the values were recorded: its comment says them too.
    erf_comment = text.split("# aten.erf.default: 1 node(s)")[1].split("\n  - name:")[0]
    assert "x (self) [1, 2, 4, 4]: seen in [" in erf_comment, text
    # Each input's range holds the values the example inputs drive into it, recomputed here.
    net = {}
    exec(compile(MODELS, "net", "exec"), net)
    model = net["Net"]().eval()
    batches = torch.load(folder / "example.pt")
    with torch.no_grad():
        hs = [model.conv(x) for x, _ in batches]
        seen = {
            ("erf", 0): hs,
            ("exp2", 0): [torch.erf(h) for h in hs],
            ("hypot", 0): [torch.exp2(torch.erf(h)) for h in hs],
            ("hypot", 1): [y for _, y in batches],
            ("fmod", 0): [torch.hypot(torch.exp2(torch.erf(h)), y) for h, (_, y) in zip(hs, batches)],
        }
    for (op, i), values in seen.items():
        low, high = next(o for k, o in ops.items() if k.startswith(f"aten.{op}."))["inputs"][i]["range"]
        got = torch.cat([v.flatten() for v in values])
        assert low <= float(got.min()) and float(got.max()) <= high, (op, i)
        assert high - low <= 1.02 * float(got.max() - got.min()) + 0.02, (op, i)  # rounded outward, not widened
    result = run([sys.executable, str(ROOT / "hooks" / "new.py"), "--check", "draft.yaml"], folder)
    assert result.returncode == 0 and result.stderr == "", result.stderr


@pytest.mark.slow
def test_the_way_back_render_swap_and_check_model(scanned, tmp_path):
    """The draft rendered by scripts/new, the custom op's eager math written, the model's
    three ops swapped for the package's, and check-model: every swapped node reaches the
    op package."""
    folder, code, _, err = scanned
    assert code == 0, err
    draft = yaml.safe_load((folder / "draft.yaml").read_text())
    ns = draft["namespace"]
    names = {op["doc"].split()[1].split(".")[1]: op["name"] for op in draft["ops"]}
    assert set(names) == {"erf", "exp2", "hypot", "fmod"}
    project = tmp_path / "project"
    result = run([str(NEW), str(folder / "draft.yaml"), str(project), "--vcs-ref", "HEAD", "--quiet"], tmp_path)
    assert result.returncode == 0, result.stderr
    # The eager math of the two custom ops (check-model calibrates with it).
    (project / ns / "user" / f"{names['erf']}.py").write_text(
        f"import torch\n\n\ndef {names['erf']}(x: torch.Tensor) -> torch.Tensor:\n    return torch.erf(x)\n"
    )
    (project / ns / "user" / f"{names['fmod']}.py").write_text(
        f"import torch\n\n\ndef {names['fmod']}(x: torch.Tensor, other: float) -> torch.Tensor:\n"
        "    return torch.fmod(x, other)\n"
    )
    models = tmp_path / "models"
    write_user(models)
    (models / "my_models" / "swapped.py").write_text(SWAPPED.format(ns=ns, **names))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(models), str(project)])}
    result = run(
        [sys.executable, "-m", ns, "check-model", "--model", "my_models.swapped:Swapped",
         "--calibration", str(models / "example.pt")],
        project,
        env,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    package = draft["package_name"]
    assert f"4 of 4 node(s) would reach the op package {package}" in result.stdout
    for name in names.values():
        assert any(line.startswith(f"  {ns}::{name} ") and line.endswith("; accepted") for line in
                   result.stdout.splitlines()), (name, result.stdout)  # fmt: skip


@pytest.fixture
def user(tmp_path, monkeypatch):
    example, _ = write_user(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    yield tmp_path, example
    for name in [m for m in sys.modules if m == "my_models" or m.startswith("my_models.")]:
        del sys.modules[name]


def _scan_in_process(capsys, *argv):
    sys.path.insert(0, str(ROOT))
    from hooks import scan

    code = scan.main(list(argv))
    return code, *capsys.readouterr()


@pytest.mark.parametrize(
    "argv, reason",
    [
        (["--model", "my_models.nowhere:Net"], "--model my_models.nowhere:Net: cannot load it: No module named"),
        (["--model", "my_models/net.py"], "--model 'my_models/net.py': expected package.module:attribute"),
        (["--model", "my_models.net:broken"], "--model my_models.net:broken: calling it failed: checkpoint missing"),
        (["--model", "my_models.net:DataDependent"], "--model my_models.net:DataDependent: exporting it"),
        (["--model", "my_models.net:Branches"], "--model my_models.net:Branches: uses torch.cond (node cond)"),
        (["--example-inputs", "one.pt"], "--example-inputs one.pt batch 0: the model fails on it: TypeError"),
        (["--example-inputs", "channels.pt"], "--example-inputs channels.pt batch 0: the model fails on it: Runtime"),
        (["--example-inputs", "f64.pt"], "--example-inputs f64.pt: batch 0 input 0 is float64[1, 2, 4, 4]: the"),
        (["--example-inputs", "text.pt"], "--example-inputs text.pt: is not a file torch.save wrote: save a tensor"),
        (["--example-inputs", "nowhere.pt"], "--example-inputs nowhere.pt: no such file"),
        (["--spec-out", "example.pt"], "--spec-out example.pt: exists; scan writes a new file"),
        (["--spec-out", "no/where.yaml"], "--spec-out no/where.yaml: no folder no to write it in"),
    ],
)
def test_hostile_input_is_one_line_and_writes_nothing(user, capsys, argv, reason):
    import torch

    folder, example = user
    torch.save((torch.ones(SHAPE),), folder / "one.pt")
    torch.save((torch.ones(1, 3, 4, 4), torch.ones(SHAPE)), folder / "channels.pt")
    torch.save((torch.ones(SHAPE, dtype=torch.float64), torch.ones(SHAPE)), folder / "f64.pt")
    (folder / "text.pt").write_text("1 2 3\n")
    before = sorted(folder.rglob("*"))
    given = dict(zip(argv[::2], argv[1::2]))
    options = {"--model": "my_models.net:Net", "--example-inputs": "example.pt", "--spec-out": "draft.yaml", **given}
    code, out, err = _scan_in_process(capsys, *[x for kv in options.items() for x in kv])
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 1 and len(lines) == 1, err
    assert lines[0].startswith("scripts/scan: error: " + reason), err
    assert "Traceback" not in err and "weights_only" not in err
    assert sorted(p for p in folder.rglob("*") if "__pycache__" not in p.parts) == [
        p for p in before if "__pycache__" not in p.parts
    ]


def test_usage_errors_are_one_line(capsys):
    with pytest.raises(SystemExit) as stopped:
        _scan_in_process(capsys, "--model", "a.b:c")
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the following arguments are required: --example-inputs" in err
