# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""`python -m shape_ops check-model` on models of a user, through ExecuTorch's real
quantizer, torch.export, to_edge and CustomOp builder (no QNN SDK, no fakes): a model
using every op of the package (the later inputs of an elementwise op broadcast), one
whose node the op package refuses (rank 6), one with none of the ops, and every bad
argument, each one line and nothing written.
"""

import copy
import json
import math
import operator
import pickle
import shutil
import sys

import pytest
import torch

from shape_ops import cli
from shape_ops.ops import OPS
from shape_ops.quant import quantize

import op_package_host as host
from spec_values import SPEC_OUTPUTS, expected_output_shapes

NS = "shape_ops"
PACKAGE = "ShapesOpPackage"
SHAPE = (1, 2, 4, 4)
MODULE = "checked_models"
# The op the refused model calls on a 6-dim tensor: an elementwise one if there is one
# (its math is the spec's expression, valid for any rank).
REFUSED_OP = next((op for op in OPS if op.kind == "elementwise"), OPS[0])

MODELS = f'''
import torch

from {NS}.ops import OPS

REFUSED_OP = OPS[{OPS.index(REFUSED_OP)}]


def to_shape(h, shape):
    """h brought to `shape`: leading dims averaged away, dims of 1 in `shape` averaged."""
    while h.dim() > len(shape):
        h = h.mean(0)
    for d, n in enumerate(shape):
        if n == 1 and h.shape[d] != 1:
            h = h.mean(d, keepdim=True)
    return h


class EveryOp(torch.nn.Module):
    """Ordinary layers around every op of the package, each called once."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(7)  # the same weights each time it is built
        self.conv = torch.nn.Conv2d(2, 2, 1)

    def forward(self, x):
        h = torch.sigmoid(self.conv(x))  # (0, 1): mapped onto each input's domain
        outputs = []
        for op in OPS:
            shapes = op.input_shapes(h.shape)
            result = op(*[to_shape(lo + (hi - lo) * h, s) for (lo, hi), s in zip(op.domains, shapes)])
            outputs.extend(result if isinstance(result, tuple) else (result,))
        return tuple(outputs)


class Rank6(torch.nn.Module):
    """One op on a 6-dim tensor: torch and ExecuTorch's builder take it, LPAI does not."""

    def forward(self, x):
        h = (torch.sigmoid(x) + 0.5).reshape(1, 1, 2, 2, 2, 4)
        result = REFUSED_OP(*([h] * len(REFUSED_OP.inputs)))
        return result if isinstance(result, tuple) else (result,)


class Plain(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(2, 2, 1)

    def forward(self, x):
        return torch.relu(self.conv(x))


class Branches(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(2, 2, 1)

    def forward(self, x):
        return torch.cond(x.sum() > 0, lambda h: h * 2, lambda h: h - 1, (self.conv(x),))


class DataDependent(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:  # torch.export cannot capture a branch on the data
            return x * 2
        return x


LEARNED_OP = next((op for op in OPS if len(op.inputs) > 1), None)


class Learned(torch.nn.Module):
    """The first op of two inputs or more, its later inputs learned: nn.Parameters of
    their shapes, from their input domains (a per-channel gain, a bias, a state)."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(9)
        self.conv = torch.nn.Conv2d(2, 2, 1)
        shapes = LEARNED_OP.input_shapes((1, 2, 4, 4))
        self.learned = torch.nn.ParameterList(
            torch.nn.Parameter(lo + (hi - lo) * torch.rand(s)) for (lo, hi), s in zip(LEARNED_OP.domains[1:], shapes[1:])
        )

    def forward(self, x):
        (lo, hi), shape = LEARNED_OP.domains[0], LEARNED_OP.input_shapes(x.shape)[0]
        result = LEARNED_OP(to_shape(lo + (hi - lo) * torch.sigmoid(self.conv(x)), shape), *self.learned)
        return result if isinstance(result, tuple) else (result,)


class Several(torch.nn.Module):
    """The first op of several outputs alone, after an ordinary layer."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(7)
        self.conv = torch.nn.Conv2d(2, 2, 1)

    def forward(self, x):
        h = torch.sigmoid(self.conv(x))
        op = next(o for o in OPS if o.n_outputs > 1)
        return op(*[to_shape(lo + (hi - lo) * h, s) for (lo, hi), s in zip(op.domains, op.input_shapes(h.shape))])


WIDENED = []  # made once per import: check-model and the test check the same model


def widened():
    """Several quantized by this package's quantizer, then the first output of its op given
    twice the scale its calibration gave it, as if observed alone: a model quantized some
    other way (an older project's QAT model)."""
    import operator

    from {NS}.quant import quantize

    if WIDENED:
        return WIDENED[0]

    gen = torch.Generator().manual_seed(3)
    batches = [(torch.randn(1, 2, 4, 4, generator=gen),) for _ in range(2)]
    model = quantize(Several().eval(), batches[0], batches)
    op = next(o for o in OPS if o.n_outputs > 1)
    node = next(n for n in model.graph.nodes if n.target in op.quantized_overloads)
    item = next(u for u in node.users if u.target is operator.getitem and u.args[1] == 0)
    [q] = [u for u in item.users if str(u.target).endswith("quantize_per_tensor.default")]
    for n in [q, *q.users]:
        n.args = (n.args[0], n.args[1] * 2, *n.args[2:])
    model.recompile()
    WIDENED.append(model)
    return model


def prepared():
    """EveryOp prepared for QAT and not converted: what training leaves before convert_pt2e."""
    from torchao.quantization.pt2e.quantize_pt2e import prepare_qat_pt2e

    from {NS}.quant import make_lpai_quantizer

    x = torch.randn(1, 2, 4, 4)
    return prepare_qat_pt2e(torch.export.export(EveryOp(), (x,)).module(), make_lpai_quantizer(is_qat=True))


def build():
    return EveryOp()


def not_a_model():
    return 3


def broken():
    raise RuntimeError("checkpoint missing")


NUMBER = 3
'''


def one_line_error(err):
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err
    return lines[0]


def files(folder):
    return sorted(p.relative_to(folder) for p in folder.rglob("*") if "__pycache__" not in p.parts)


@pytest.fixture
def user(tmp_path, monkeypatch):
    """A project holding the op package's real OpDef XML and the user's models, its calibration
    data, and an empty current folder; the models' module forgotten afterwards."""
    project = tmp_path / "my project"
    config = project / "op_package" / PACKAGE / "config"
    config.mkdir(parents=True)
    shutil.copy(host.OP_DIR / "config" / f"{PACKAGE}.xml", config)
    (project / MODULE).mkdir()
    (project / MODULE / "__init__.py").write_text("")
    (project / MODULE / "net.py").write_text(MODELS)
    gen = torch.Generator().manual_seed(3)
    batches = [(torch.randn(SHAPE, generator=gen),) for _ in range(2)]
    data = tmp_path / "data"
    data.mkdir()
    torch.save(batches, data / "calibration.pt")
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    monkeypatch.setattr(sys, "path", list(sys.path))  # check-model puts the project first on it
    yield project, data, batches
    for name in [m for m in sys.modules if m == MODULE or m.startswith(MODULE + ".")]:
        del sys.modules[name]


def check_model(capsys, project, *argv):
    code = cli.main(["check-model", "--project", str(project), *argv])
    out, err = capsys.readouterr()
    return code, out, err


def node_lines(out):
    return [line for line in out.splitlines() if line.startswith(f"  {NS}::")]


def calibrated_outputs(quantized, op):
    """{output index: (scale, zero point)} of the quantize node after each output of the op's
    node in the quantized graph (after each getitem of an op with several outputs)."""
    [node] = [n for n in quantized.graph.nodes if n.op == "call_function" and n.target in op.quantized_overloads]
    items = [u for u in node.users if u.target is operator.getitem] if op.n_outputs > 1 else [node]
    found = {}
    for item in items:
        [q] = [u for u in item.users if str(u.target).endswith("quantize_per_tensor.default")]
        found[item.args[1] if op.n_outputs > 1 else 0] = (float(q.args[1]), int(q.args[2]))
    return found


def code_range(scale, zero_point):
    """The real values uint8 codes stand for."""
    return [(0 - zero_point) * scale, (255 - zero_point) * scale]


def test_a_model_using_every_op_reaches_the_op_package(user, capsys, tmp_path):
    project, data, batches = user
    before = files(project), files(data)
    report = tmp_path / "report.json"
    code, out, err = check_model(
        capsys,
        project,
        "--model",
        f"{MODULE}.net:EveryOp",
        "--calibration",
        str(data / "calibration.pt"),
        "--json",
        str(report),
    )
    assert code == 0, err
    assert err == ""
    lines = node_lines(out)
    assert [line.split(" ", 3)[2] for line in lines] == [op.qualified_name for op in OPS]
    assert all("; accepted" in line and "REFUSED" not in line for line in lines), out
    assert f"{len(OPS)} of {len(OPS)} node(s) would reach the op package {PACKAGE}" in out
    written = json.loads(report.read_text())
    assert written["ok"] is True and written["calibration_batches"] == len(batches)
    for op, line, node in zip(OPS, lines, written["nodes"]):
        shapes = op.input_shapes(SHAPE)
        if op.kind == "elementwise" and len(op.inputs) > 1:
            assert any(tuple(s) != SHAPE for s in shapes), "a later input broadcasts"
        assert [tuple(t["shape"]) for t in node["inputs"]] == [tuple(s) for s in shapes]
        want = expected_output_shapes(op, [torch.empty(s) for s in shapes])
        assert [tuple(t["shape"]) for t in node["outputs"]] == [tuple(s) for s in want]
        assert [t["name"] for t in node["outputs"]] == [name for name, _rule in SPEC_OUTPUTS[op.name]]
        for t in node["inputs"] + node["outputs"]:
            # 8-bit asymmetric, from this package's annotator: a scale, a zero point in [0, 255].
            assert t["dtype"] == "UFIXED_POINT_8" and t["scale"] > 0 and 0 <= t["zero_point"] <= 255, t
            assert (
                f"{t['name']} {t['shape']} UFIXED_POINT_8 scale {t['scale']:.6g} zero point {t['zero_point']}" in line
            )
        assert [p["name"] for p in node["params"]] == [name for name, _kind, _default in op.params]
        assert node["accepted"] is True and node["reason"] is None
    # The accuracy, recomputed here: the quantized graph against the float model.
    sys.path.insert(0, str(project))
    from checked_models.net import EveryOp

    model = EveryOp().eval()
    quantized = quantize(model, batches[0], batches)
    with torch.no_grad():
        floats = [model(*b) for b in batches]
        fakes = [quantized(*b) for b in batches]
    # Per output: the range its calibration gave it (its quantize node in the quantized graph)
    # and the range the params ExecuTorch's builder sends it with represent, printed and in the
    # JSON; the outputs of an op with several are sent with one set of params, which is theirs.
    for op, node in zip(OPS, written["nodes"]):
        calibrated = calibrated_outputs(quantized, op)
        assert sorted(calibrated) == list(range(op.n_outputs))
        for k, t in enumerate(node["outputs"]):
            assert t["calibrated"] == pytest.approx(code_range(*calibrated[k]), rel=1e-6), (op.name, t)
            assert t["representable"] == pytest.approx(code_range(t["scale"], t["zero_point"]), rel=1e-6)
            assert t["calibrated"] == pytest.approx(t["representable"], rel=1e-6), "nothing clipped"
            assert t["clipped"] is False and t["clipped_fraction"] == 0
            lo, hi = t["calibrated"]
            slo, shi = t["representable"]
            assert (
                f"\n    output {t['name']}: calibrated [{lo:.6g}, {hi:.6g}], sent params represent "
                f"[{slo:.6g}, {shi:.6g}]\n" in out
            )
        assert len({(t["scale"], t["zero_point"]) for t in node["outputs"]}) == 1
    assert len(written["accuracy"]) == len(floats[0]) == sum(len(op.outputs) for op in OPS)
    errors = []
    for i, row in enumerate(written["accuracy"]):
        want = torch.cat([f[i].double().flatten() for f in floats])
        got = torch.cat([q[i].double().flatten() for q in fakes])
        error = float((got - want).abs().max())
        errors.append(error)
        assert row["max_abs_error"] == pytest.approx(error, rel=1e-6)
        if error == 0:  # exact: e.g. a max over every dim, one value the calibration saw
            assert row["snr_db"] is None
            assert f"  output {i} {row['shape']}: max abs error 0, SNR inf dB (no error)" in out
            continue
        snr = 10 * math.log10(float((want**2).sum()) / float(((got - want) ** 2).sum()))
        assert row["snr_db"] == pytest.approx(snr, rel=1e-6)
        assert f"  output {i} {row['shape']}: max abs error {error:.6g}, SNR {snr:.1f} dB" in out
    assert max(errors) > 0  # 8 bits cost something
    # Nothing written but the report: not in the project, the data or the current folder.
    assert (files(project), files(data)) == before
    assert files(tmp_path / "cwd") == []


def test_a_node_the_op_package_refuses_fails_with_the_reason(user, capsys, tmp_path):
    project, data, _ = user
    report = tmp_path / "report.json"
    code, out, err = check_model(
        capsys,
        project,
        "--model",
        f"{MODULE}.net:Rank6",
        "--calibration",
        str(data / "calibration.pt"),
        "--json",
        str(report),
    )
    assert code == 1
    [line] = node_lines(out)
    name = REFUSED_OP.inputs[0]
    assert line.startswith(f"  {REFUSED_OP.qualified_name} (node ")
    assert f" {name} [1, 1, 2, 2, 2, 4] UFIXED_POINT_8 scale " in line
    # lpai_validate.h refuses a rank above LPAI_MAX_RANK (5), ExecuTorch's builder does not.
    assert f"; REFUSED: input {name} has rank 6: LPAI tensors have at most 5 dims" in line, line
    assert one_line_error(err).startswith(
        f"error: 1 of 1 node(s) would not reach the op package {PACKAGE}: {REFUSED_OP.qualified_name} (node "
    )
    written = json.loads(report.read_text())
    assert written["ok"] is False and written["nodes"][0]["accepted"] is False
    assert written["nodes"][0]["reason"] == (
        f"input {name} has rank 6: LPAI tensors have at most 5 dims; "
        "reshape it in your model to at most 5 dims around the op (merge leading dims)"
    )


def test_a_model_without_the_ops_fails(user, capsys):
    project, data, _ = user
    code, out, err = check_model(
        capsys, project, "--model", f"{MODULE}.net:Plain", "--calibration", str(data / "calibration.pt")
    )
    assert code == 1
    assert node_lines(out) == [] and "\n  none\n" in out
    assert one_line_error(err).startswith(f"error: --model {MODULE}.net:Plain: has no node of {NS}'s ops (")


@pytest.mark.parametrize(
    "argv, reason",
    [
        ([], f"--model {MODULE}.net:EveryOp: needs --calibration FILE"),
        (["--calibration", "{data}/nowhere.pt"], "--calibration {data}/nowhere.pt: no such file"),
        # What the file must be, in one line: no torch warning, no advice to load it unsafely.
        (["--calibration", "{data}/text.pt"], "--calibration {data}/text.pt: is not a file torch.save wrote: save "),
        (["--calibration", "{data}/garbage.pt"], "--calibration {data}/garbage.pt: is not a file torch.save wrote"),
        (["--calibration", "{data}/empty.pt"], "--calibration {data}/empty.pt: is empty: save a tensor"),
        (["--calibration", "{data}/pickle.pt"], "--calibration {data}/pickle.pt: is not a file torch.save wrote"),
        (
            ["--calibration", "{data}/object.pt"],
            "--calibration {data}/object.pt: holds objects other than tensors, tuples, lists and numbers",
        ),
        (
            ["--calibration", "{data}/float64.pt"],
            "--calibration {data}/float64.pt: batch 0 input 0 is float64[1, 2, 4, 4]: the model's float inputs "
            "must be float32",
        ),
        (["--calibration", "{data}/dict.pt"], "--calibration {data}/dict.pt: holds dict"),
        (
            ["--calibration", "{data}/other_shape.pt"],
            "--calibration {data}/other_shape.pt batch 1: input 0 is float32[1, 2, 4, 5], the program takes "
            "float32[1, 2, 4, 4]",
        ),
        (["--calibration", "{data}/nan.pt"], "--calibration {data}/nan.pt: batch 0 input 0 holds a non-finite value"),
        (
            ["--calibration", "{data}/three_channels.pt"],
            "--calibration {data}/three_channels.pt batch 0: the model fails on it: RuntimeError",
        ),
        (
            ["--calibration", "{data}/calibration.pt", "--example-inputs", "{data}/calibration.pt"],
            "--example-inputs {data}/calibration.pt: holds 2 batches, expected one",
        ),
        (["--calibration", "{data}/calibration.pt", "--json", "{data}"], "--json {data}: is a directory"),
        (
            ["--calibration", "{data}/calibration.pt", "--json", "{data}/nowhere/r.json"],
            "--json {data}/nowhere/r.json: no folder {data}/nowhere",
        ),
        (
            ["--calibration", "{data}/calibration.pt", "--json", "{data}/calibration.pt"],
            "--json {data}/calibration.pt: is an input of this command",
        ),
    ],
)
def test_bad_data_is_one_line_and_writes_nothing(user, capsys, argv, reason):
    project, data, _ = user
    torch.save({"x": torch.ones(SHAPE)}, data / "dict.pt")
    (data / "text.pt").write_text("not a tensor file")
    torch.save([(torch.ones(SHAPE),), (torch.ones(1, 2, 4, 5),)], data / "other_shape.pt")
    torch.save([(torch.full(SHAPE, math.nan),)], data / "nan.pt")
    torch.save([(torch.ones(1, 3, 4, 4),)], data / "three_channels.pt")
    (data / "garbage.pt").write_bytes(bytes(range(256)) * 3)
    (data / "empty.pt").write_bytes(b"")
    (data / "pickle.pt").write_bytes(pickle.dumps(Payload()))  # loading it must not run it
    torch.save([(torch.ones(SHAPE), Payload())], data / "object.pt")
    torch.save([(torch.ones(SHAPE, dtype=torch.float64),)], data / "float64.pt")
    before = files(project), files(data)
    code, out, err = check_model(
        capsys, project, "--model", f"{MODULE}.net:EveryOp", *[a.format(data=data) for a in argv]
    )
    assert code == 1
    assert one_line_error(err).startswith("error: " + reason.format(data=data)), err
    assert "weights_only" not in err and "PAYLOAD RAN" not in out + err
    assert (files(project), files(data)) == before


class Payload:
    """A pickle that prints when it is loaded unsafely."""

    def __reduce__(self):
        return (print, ("PAYLOAD RAN",))


@pytest.mark.parametrize(
    "model, reason",
    [
        (f"{MODULE}/net.py", f"--model '{MODULE}/net.py': expected package.module:attribute"),
        (f"{MODULE}.nowhere:EveryOp", f"--model {MODULE}.nowhere:EveryOp: cannot load it: No module named"),
        (f"{MODULE}.net:Missing", f"--model {MODULE}.net:Missing: cannot load it:"),
        (f"{MODULE}.net:NUMBER", f"--model {MODULE}.net:NUMBER: is a int, not an nn.Module, class or factory"),
        (f"{MODULE}.net:not_a_model", f"--model {MODULE}.net:not_a_model: returned a int, not an nn.Module"),
        (f"{MODULE}.net:broken", f"--model {MODULE}.net:broken: calling it failed: checkpoint missing"),
        (f"{MODULE}.net:DataDependent", f"--model {MODULE}.net:DataDependent: quantizing it"),
        # The cause, not "An error occurred when running the 'LiftConstantScalarOperands' pass".
        (f"{MODULE}.net:Branches", f"--model {MODULE}.net:Branches: uses torch.cond (node cond): ExecuTorch's"),
        (
            f"{MODULE}.net:prepared",
            f"--model {MODULE}.net:prepared: holds observers or fake quantization (prepared, not converted): "
            "convert it first, quantized = convert_pt2e(prepared)",
        ),
        ("nowhere.pt2", "--model nowhere.pt2: no such file"),
        ("{data}/calibration.pt2", "--model {data}/calibration.pt2: cannot load it with torch.export.load"),
    ],
)
def test_a_bad_model_is_one_line_and_writes_nothing(user, capsys, model, reason):
    project, data, _ = user
    shutil.copy(data / "calibration.pt", data.parent / "calibration.pt2")  # not a program torch.export saved
    model, reason = model.format(data=data.parent), reason.format(data=data.parent)
    before = files(project), files(data)
    code, out, err = check_model(capsys, project, "--model", model, "--calibration", str(data / "calibration.pt"))
    assert code == 1
    assert one_line_error(err).startswith("error: " + reason), err
    assert (files(project), files(data)) == before
    assert files(data.parent / "cwd") == []


@pytest.mark.parametrize(
    "argv, reason",
    [
        ([], "the following arguments are required: --model"),
        (["--model", f"{MODULE}.net:EveryOp", "--calibration-value", "1"], "unrecognized arguments"),
    ],
)
def test_usage_errors_are_one_line(capsys, argv, reason):
    with pytest.raises(SystemExit) as stopped:
        cli.main(["check-model", *argv])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert one_line_error(err).startswith("error: ") and reason in err


def test_an_op_fed_by_parameters_reaches_the_op_package_with_them_quantized(user, capsys, tmp_path):
    """A learned input (nn.Parameter) is sent quantized like an activation, as a constant:
    the node is accepted and the accuracy measured."""
    if not any(len(op.inputs) > 1 for op in OPS):
        pytest.skip("no op of this package takes two inputs")
    project, data, batches = user
    report = tmp_path / "report.json"
    code, out, err = check_model(
        capsys,
        project,
        "--model",
        f"{MODULE}.net:Learned",
        "--calibration",
        str(data / "calibration.pt"),
        "--json",
        str(report),
    )
    assert code == 0, err
    written = json.loads(report.read_text())
    [node] = written["nodes"]
    assert node["accepted"] is True, node["reason"]
    assert [t["static"] for t in node["inputs"]] == [False] + [True] * (len(node["inputs"]) - 1)
    for t in node["inputs"]:
        assert t["dtype"] == "UFIXED_POINT_8" and t["scale"] > 0, t
    [line] = node_lines(out)
    assert line.count("(constant)") == len(node["inputs"]) - 1, line
    assert written["accuracy"] and all(row["max_abs_error"] is not None for row in written["accuracy"])
    assert "accuracy after fake quantization with the params the device is sent" in out


def _without_activation_quantization(model):
    """The quantized graph with every quantize -> dequantize pair of an activation taken out."""
    model = copy.deepcopy(model)
    for dq in list(model.graph.nodes):
        q = dq.args[0] if dq.op == "call_function" and dq.args else None
        if (
            str(dq.target).endswith("dequantize_per_tensor.default")
            and isinstance(q, torch.fx.Node)
            and str(q.target).endswith(".quantize_per_tensor.default")
        ):
            dq.replace_all_uses_with(q.args[0])
    model.graph.eliminate_dead_code()
    model.recompile()
    return model


def test_an_output_the_device_would_clip_fails_naming_it(user, capsys, tmp_path):
    """A quantized model whose first output of an op is calibrated wider than the params the
    builder sends every output with (the last output's): check-model names the output and how
    much of its range is lost, exits 1, and measures the accuracy with the sent params."""
    several = next((op for op in OPS if op.n_outputs > 1), None)
    if several is None:
        pytest.skip("no op of this package has several outputs")
    project, data, batches = user
    report = tmp_path / "report.json"
    code, out, err = check_model(
        capsys,
        project,
        "--model",
        f"{MODULE}.net:widened",
        "--calibration",
        str(data / "calibration.pt"),
        "--json",
        str(report),
    )
    assert code == 1
    written = json.loads(report.read_text())
    node = next(n for n in written["nodes"] if n["op"] == several.qualified_name)
    first, *rest = node["outputs"]
    # The first output's quantize node holds twice the scale of the others, same zero point.
    assert first["calibrated"] == pytest.approx([2 * v for v in rest[0]["calibrated"]], rel=1e-6)
    assert first["representable"] == pytest.approx(rest[0]["calibrated"], rel=1e-6)
    assert first["clipped"] is True and first["clipped_fraction"] == pytest.approx(0.5, abs=1e-6)
    assert [t["clipped"] for t in rest] == [False] * len(rest)
    assert written["ok"] is False and written["prequantized"] is True
    message = one_line_error(err)
    assert message.startswith(
        f"error: output {first['name']} of {several.qualified_name} (node {node['node']}) would lose 50.0% of "
        "its calibrated range on the device"
    ), message
    assert "quant's quantizers" in message and "is_qat=True" in message
    assert f"    output {first['name']}: calibrated [" in out and "50.0% of its range is clipped on the device" in out
    # The accuracy: that graph with the sent params, against it without activation quantization.
    sys.path.insert(0, str(project))
    from checked_models.net import widened

    model = widened()
    reference = _without_activation_quantization(model)
    sent = copy.deepcopy(model)
    op_node = next(n for n in sent.graph.nodes if n.target in several.quantized_overloads)
    item = next(u for u in op_node.users if u.target is operator.getitem and u.args[1] == 0)
    [q] = [u for u in item.users if str(u.target).endswith("quantize_per_tensor.default")]
    for n in [q, *q.users]:
        n.args = (n.args[0], first["scale"], first["zero_point"], *n.args[3:])
    sent.recompile()
    with torch.no_grad():
        want = [reference(*b) for b in batches]
        got = [sent(*b) for b in batches]
    for i, row in enumerate(written["accuracy"]):
        diff = torch.cat([(g[i] - w[i]).double().flatten() for g, w in zip(got, want)]).abs()
        assert row["max_abs_error"] == pytest.approx(float(diff.max()), rel=1e-6, abs=1e-9), i
