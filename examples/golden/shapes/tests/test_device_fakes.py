# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""export / run / simulate without the SDK: registration, the reference a run is
compared with, and `run` end to end through ExecuTorch's own SimpleADB against a fake
`adb` whose "device" is a folder.

Two stand-ins, both named where they are used: an ExecuTorch schema that has the LPAI
target and HEXAGON platform (the PyPI wheel lacks them), and the SDK version query
(ExecuTorch reads it from a real libQnnHtp.so, which the fake SDK tree cannot provide).
"""

import enum
import json
import re
import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from shape_ops import cli, device, device_data, registration
from shape_ops.ops import OPS
from shape_ops.toolchain import EXECUTORCH_REVISION, Project, qc_schema

import failure
from fakes.tools import make_fakes, make_project, script_header
from lowering import lower

NS = "shape_ops"
LIB = "libQnnShapesOpPackage.so"
ISLAND = "libLpaiOpPackageIsland.so"
ARCH = "v79"
NAMES = [op.qualified_name for op in OPS]
# How the reports name each output of the package model: the op, and for an op with
# several outputs the output too (written out from the spec).
OUTPUT_LABELS = [
    "shape_ops::add_bias",
    "shape_ops::fma3",
    "shape_ops::channel_mean",
    "shape_ops::center:mean",
    "shape_ops::center:centered",
    "shape_ops::rms_norm",
    "shape_ops::pcen:y",
    "shape_ops::pcen:new_state",
]
SHAPE = (1, 2, 4, 4)
# Constant inputs, each at a fraction of its op's domain (device_data.domain_constants):
# what a run feeds, what a constant calibration takes, below and above it (on the
# default domain [-2, 2]: 0.5, 1.0, 0.25 and 2.0).
RUN_AT, CALIBRATED_AT, BELOW_AT, ABOVE_AT = 0.625, 0.75, 0.5625, 1.0
# What the package model's program takes for --shape SHAPE, per input, written out here
# rather than read from the package: SHAPE for each op's first input and for a custom
# op's inputs; the later inputs of an elementwise op broadcast to it.
BROADCAST_OPERANDS = ([1, 2, 1, 1], [4], [1, 2, 4, 1])  # per channel, last dim, column
PROGRAM_SPEC = [
    {"shape": list(SHAPE) if op.kind == "custom" or k == 0 else BROADCAST_OPERANDS[(k - 1) % 3], "dtype": "float32"}
    for op in OPS
    for k in range(len(op.inputs))
]
PROGRAM_INPUTS = ", ".join(f"float32{s['shape']}" for s in PROGRAM_SPEC)
MAKE_OUTPUTS = {
    "lpai_x86": [f"libs/x86_64-linux-clang/{LIB}"],
    "lpai_dsp": [f"libs/hexagon-{ARCH}/{LIB}", f"libs/hexagon-{ARCH}/{ISLAND}"],
}
ENV_VARS = (
    "QNN_SDK_ROOT",
    "HEXAGON_SDK_ROOT",
    "HEXAGON_TOOLS_VERSION",
    "HEXAGON_TOOLS_ROOT",
    "ANDROID_SERIAL",
    "EXECUTORCH_BUILD_FOLDER",
    "EXECUTORCH_DIRECT_BUILD_FOLDER",
    "EXECUTORCH_X86_BUILD_FOLDER",
    "LPAI_SIGNER_PYTHON",
    "FAKE_SIGNER_MODE",
    "FAKE_MAKE_FAIL",
    "FAKE_RUNNER_FAIL",
)


def capable_schema():
    """ExecuTorch's op package schema as the LPAI custom op pull request extends it."""
    from executorch.backends.qualcomm.serialization import qc_schema as real

    class Target(enum.IntEnum):
        UNKNOWN = 0
        CPU = 1
        HTP = 2
        LPAI = 3

    class Platform(enum.IntEnum):
        UNKNOWN = 0
        X86_64 = 1
        AARCH64_ANDROID = 2
        HEXAGON = 3

    return SimpleNamespace(
        QnnExecuTorchOpPackageTarget=Target,
        QnnExecuTorchOpPackagePlatform=Platform,
        QnnExecuTorchOpPackageInfo=real.QnnExecuTorchOpPackageInfo,
        QnnExecuTorchOpPackageOptions=real.QnnExecuTorchOpPackageOptions,
    )


def one_line_error(err):
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


@pytest.fixture
def project(tmp_path):
    return Project(make_project(tmp_path / "my project", OPS))


# --------------------------------------------------------------------------- registration


def _rows(options):
    return [
        (
            i.target.name,
            i.platform.name,
            i.op_package_path,
            i.custom_op_name,
            i.qnn_op_type_name,
            i.op_package_name,
            i.interface_provider,
        )
        for i in options.op_package_infos
    ]


def test_registration_for_the_device(project):
    options = registration.op_package_options(project, for_device=True, schema=capable_schema())
    host = str(project.host_lib.resolve())
    assert host.startswith("/") and host.endswith(f"/libs/x86_64-linux-clang/{LIB}")
    common = (
        "ShapesOpPackage",
        "ShapesOpPackageInterfaceProvider",
    )
    assert _rows(options) == (
        [("LPAI", "X86_64", host, str(op.default), op.qnn_type, *common) for op in OPS]
        # On the aDSP the library is resolved by its bare name through ADSP_LIBRARY_PATH.
        + [("LPAI", "HEXAGON", LIB, str(op.default), op.qnn_type, *common) for op in OPS]
    )
    assert str(OPS[0].default) == f"{NS}.{OPS[0].name}.default"


def test_registration_for_the_simulator_is_the_host_library_only(project):
    options = registration.op_package_options(project, for_device=False, schema=capable_schema())
    assert {(r[0], r[1], r[2]) for r in _rows(options)} == {("LPAI", "X86_64", str(project.host_lib.resolve()))}


def test_registration_checks_the_opdef_xml(project):
    xml = project.opdef_xml()
    xml.write_text(xml.read_text().replace(f"<Name>{OPS[-1].qnn_type}</Name>", "<Name>SomethingElse</Name>"))
    with pytest.raises(device.ToolchainError, match=f"OpDef XML has no OpDef '{OPS[-1].qnn_type}'"):
        registration.op_package_options(project, for_device=True, schema=capable_schema())


def test_installed_executorch_capability_is_detected():
    real = qc_schema()
    lacks = not hasattr(real.QnnExecuTorchOpPackageTarget, "LPAI")
    if lacks:
        with pytest.raises(device.ToolchainError) as info:
            registration.require_op_package_support(for_device=True)
        assert "lacks QnnExecuTorchOpPackageTarget.LPAI" in str(info.value)
        assert "at or after the LPAI custom op pull request" in str(info.value)
    else:
        registration.require_op_package_support(for_device=False)
    registration.require_op_package_support(for_device=True, schema=capable_schema())


@pytest.mark.parametrize("argv", [["export"], ["export", "--target", "simulator"], ["run"], ["simulate"]])
def test_commands_fail_in_one_line_without_the_lpai_target(project, capsys, argv, monkeypatch, delegated_pte):
    if hasattr(qc_schema().QnnExecuTorchOpPackageTarget, "LPAI"):
        pytest.skip("the installed ExecuTorch has the LPAI op package target")
    monkeypatch.setenv("QNN_SDK_ROOT", "")
    if argv == ["run"]:
        # Every argument is checked before the environment: `run` needs a program first.
        pte = project.artifacts / "device" / f"{NS}.pte"
        pte.parent.mkdir(parents=True)
        pte.write_bytes(delegated_pte)
        calibration = [device_data.random_inputs(s, SHAPE) for s in range(2)]
        write_sidecar(pte, "device", device_data.Ranges.from_calibration(calibration), PROGRAM_SPEC)
    assert cli.main([*argv, "--project", str(project.root)]) == 1
    _, err = capsys.readouterr()
    line = one_line_error(err)
    assert "lacks QnnExecuTorchOpPackageTarget.LPAI" in line
    assert f"from source at revision {EXECUTORCH_REVISION[:12]} (at or after the LPAI custom op pull request" in line
    assert ("QnnExecuTorchOpPackagePlatform.HEXAGON" in line) == (argv[-1] not in ("simulator", "simulate"))


def test_simulator_command(tmp_path):
    sdk, build = tmp_path / "qnn sdk", tmp_path / "build x86"
    work = tmp_path / "artifacts"
    cmd = device.simulator_command(sdk, build, work / "m.pte", work / "input_list.txt", work / "outputs")
    assert cmd.argv == [
        str(build / "examples/qualcomm/executor_runner/qnn_executor_runner"),
        "--model_path",
        str(work / "m.pte"),
        "--input_list_path",
        "input_list.txt",
        "--output_folder_path",
        str(work / "outputs"),
    ]
    assert cmd.cwd == work
    assert cmd.env == {"LD_LIBRARY_PATH": f"{sdk}/lib/x86_64-linux-clang:{build}/lib"}


def test_a_fake_starts_from_an_interpreter_path_with_a_space_or_a_quote(tmp_path):
    """The fakes' header (tests/fakes/tools.py): a `#!` line with the interpreter's path
    broke when that path held a space; the shell runs the path quoted instead, and
    Python, started on the same file (as the signer's fake is), reads a comment and a
    string."""
    folder = tmp_path / "my venv's bin"
    folder.mkdir()
    python = folder / "python 3"
    python.symlink_to(sys.executable)
    fake = tmp_path / "fake tool"
    fake.write_text(script_header(str(python)) + "import sys\nprint(sys.argv[1:], sys.flags.no_site)\n")
    fake.chmod(0o755)
    for argv, no_site in (([str(fake)], 1), ([sys.executable, str(fake)], 0)):
        run = subprocess.run([*argv, "a b", "$HOME"], capture_output=True, text=True, timeout=60)
        assert (run.returncode, run.stdout, run.stderr) == (0, f"['a b', '$HOME'] {no_site}\n", ""), argv


# --------------------------------------------------------------------------- the reference


def test_reference_saturates_like_the_quantized_graph():
    # Each input constant inside its op's domain (at CALIBRATED_AT of it): its calibrated
    # range is [min(0, value), max(0, value)], as the quantizer's observer holds 0.
    calibration = [device_data.domain_constants(CALIBRATED_AT, SHAPE)]
    ranges = device_data.Ranges.from_calibration(calibration)
    assert ranges.inputs == [(min(0.0, float(c.max())), max(0.0, float(c.max()))) for c in calibration[0]]
    # Inside the calibrated range: eager.  Beyond it: the input clamps to it first.
    for fraction in (BELOW_AT, ABOVE_AT):
        inputs = device_data.domain_constants(fraction, SHAPE)
        clamped = [t.clamp(lo, hi) for t, (lo, hi) in zip(inputs, ranges.inputs)]
        expected = device_data.PackageModel()(*clamped)
        got = device_data.reference_outputs(inputs, ranges)
        for g, e, (lo, hi) in zip(got, expected, ranges.outputs):
            torch.testing.assert_close(g, e.clamp(lo, hi))
    for op, out in zip(
        device_data.OUTPUT_OPS, device_data.reference_outputs(device_data.domain_constants(ABOVE_AT, SHAPE), ranges)
    ):
        if op.name == "mul3":
            # The pull request's case: calibrated on 1.0, run on 2.0 -> 3.0, not 6.0 (on
            # the default domain): the input clamps to its calibrated maximum first.
            calibrated = calibration[0][sum(len(o.inputs) for o in OPS[: OPS.index(op)])].max()
            assert torch.unique(out).tolist() == [float(3.0 * calibrated.clamp(min=0))]


def test_compare_reports_the_worst_error():
    want = [torch.zeros(2, 2)] * 2
    got = [torch.zeros(2, 2), torch.tensor([[0.0, 0.5], [0.0, 0.0]])]
    result = device_data.compare(got, want, [0.1, 0.1])
    assert result.errors == [0.0, 0.5] and not result.ok
    assert device_data.compare([torch.full((2, 2), float("nan"))], want[:1], [0.1]).errors == [float("inf")]


def test_load_batches(tmp_path):
    path = tmp_path / "cal.pt"
    torch.save([device_data.random_inputs(s, SHAPE) for s in range(3)], path)
    assert len(device_data.load_batches(path)) == 3
    torch.save(device_data.random_inputs(0, SHAPE), path)  # one tuple: one batch
    assert [len(b) for b in device_data.load_batches(path)] == [device_data.N_INPUTS]


@pytest.mark.parametrize(
    "content, reason",
    [
        ({"x": 1}, "holds dict"),
        ([], "holds list (empty)"),
        (["text"], "batch 0 is not a tuple of tensors"),
        ([(torch.ones(2),), (1.5,)], "batch 1 is not a tuple of tensors"),
    ],
)
def test_load_batches_refuses_what_is_not_tensors(tmp_path, content, reason):
    path = tmp_path / "bad.pt"
    torch.save(content, path)
    with pytest.raises(device.ToolchainError) as info:
        device_data.load_batches(path, "--inputs")
    assert str(info.value).startswith(f"--inputs {path}: {reason}")


def test_generated_inputs_cover_each_inputs_domain():
    """The package model's generated inputs: each input inside its op's domain (OpInfo.domains,
    as the spec declares it: SPEC_DOMAINS) and spread over it, and every op finite there."""
    from spec_values import SPEC_DOMAINS

    batch = device_data.random_inputs(0, SHAPE)
    starts = [0] + list(np.cumsum([len(op.inputs) for op in OPS]))
    outs = device_data.PackageModel()(*batch)
    for op, start in zip(OPS, starts):
        failure.note(op, inputs=failure.domains_text(op, op.domains))
        assert op.domains == SPEC_DOMAINS[op.name], op.name
        tensors = batch[start : start + len(op.inputs)]
        mine = [k for k, owner in enumerate(device_data.OUTPUT_OPS) if owner is op]
        assert all(torch.isfinite(outs[k]).all() for k in mine), "an output is not finite (NaN or inf)"
        domains = SPEC_DOMAINS[op.name]
        assert all(lo <= float(t.min()) and float(t.max()) <= hi for t, (lo, hi) in zip(tensors, domains)), op.name
        # Over most of it (over all its inputs: a broadcast operand may hold only a few values).
        where = torch.cat([((t - lo) / (hi - lo)).flatten() for t, (lo, hi) in zip(tensors, domains)])
        assert float(where.min()) < 0.25 and float(where.max()) > 0.75, op.name


# --------------------------------------------------------------------------- run, through SimpleADB


@pytest.fixture(scope="module")
def delegated_pte():
    """A real program in which every op sits in a delegate (a stand-in backend)."""
    return lower(device_data.PackageModel(), device_data.random_inputs(0, SHAPE), claim=NAMES)


@pytest.fixture
def phone(tmp_path, project, monkeypatch, delegated_pte, capsys):
    """A machine with fake tools, a built and signed package and an exported program."""
    fakes = make_fakes(tmp_path / "tool chain")
    for name in ENV_VARS:
        monkeypatch.setenv(name, "x")
        monkeypatch.delenv(name)
    for name, value in fakes.environ(FAKE_MAKE_OUTPUTS=json.dumps(MAKE_OUTPUTS), FAKE_BUILD_ID="1").items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(registration, "qc_schema", capable_schema)
    import executorch.backends.qualcomm.export_utils as export_utils

    monkeypatch.setattr(export_utils, "is_qnn_sdk_version_less_than", lambda version: False)
    assert cli.main(["build", "--project", str(project.root)]) == 0
    assert cli.main(["sign", "--project", str(project.root)]) == 0
    pte = project.artifacts / "device" / f"{NS}.pte"
    pte.parent.mkdir(parents=True)
    pte.write_bytes(delegated_pte)
    ranges = device_data.Ranges.from_calibration([device_data.random_inputs(s, SHAPE) for s in range(4)])
    write_sidecar(pte, "device", ranges, PROGRAM_SPEC)
    inputs = tmp_path / "inputs.pt"
    torch.save(device_data.domain_constants(RUN_AT, SHAPE), inputs)
    fakes.clear()
    capsys.readouterr()
    return SimpleNamespace(fakes=fakes, project=project, pte=pte, ranges=ranges, inputs=["--inputs", str(inputs)])


def saved(path, data):
    """`data` saved with torch.save at `path` (a --calibration or --inputs file), as text."""
    torch.save(data, path)
    return str(path)


def write_sidecar(pte, target, ranges, inputs, model=None):
    """What export writes next to a program (the stand-in lowering writes none)."""
    device.sidecar(pte).write_text(
        json.dumps({"target": target, "model": model, "inputs": inputs, "ranges": ranges.to_json()})
    )


def _device_outputs(phone, offset_of_first=0.0):
    """What the fake device returns for phone.inputs: the reference, the first output
    shifted by an offset."""
    want = device_data.reference_outputs(device_data.domain_constants(RUN_AT, SHAPE), phone.ranges)
    for i, tensor in enumerate(want):
        shift = np.float32(offset_of_first if i == 0 else 0.0)
        (tensor.numpy().astype(np.float32) + shift).tofile(phone.fakes.device_outputs / f"output_0_{i}.raw")


def test_run_pushes_runs_pulls_and_compares(phone, capsys):
    _device_outputs(phone)
    code = cli.main(["run", "--project", str(phone.project.root), *phone.inputs])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "max abs error: 0\n" in out
    assert "delegated: yes" in out
    calls = [c["argv"] for c in phone.fakes.entries("adb")]
    serial = phone.fakes.serial
    assert all(c[:2] == ["-s", serial] for c in calls)
    ws = f"/data/local/tmp/{NS}"
    assert calls[0] == ["-s", serial, "shell", f"rm -rf {ws}"]
    assert calls[1] == ["-s", serial, "shell", f"mkdir -p {ws}"]
    pushed = [c[3] for c in calls if c[2] == "push"]
    assert all(c[4] == ws for c in calls if c[2] == "push")
    signed = phone.project.signed_dir
    # The signed libraries from the project, never the unsigned build outputs.
    assert str(signed / LIB) in pushed and str(signed / ISLAND) in pushed
    assert not any(p.startswith(str(phone.project.op_dir)) for p in pushed)
    assert str(phone.pte) in pushed
    assert any(p.endswith("/qnn_executor_direct_runner") for p in pushed)
    assert any(p.endswith("/lib/lpai-v6/signed/libQnnLpai.so") for p in pushed)
    assert sum(p.endswith(".raw") for p in pushed) == device_data.N_INPUTS
    runner = [c[3] for c in calls if c[2] == "shell" and "./qnn_executor_direct_runner" in c[3]]
    assert len(runner) == 1
    assert runner[0].startswith(f"cd {ws} &&")
    for part in (
        "export ADSP_LIBRARY_PATH=.",
        "./qnn_executor_direct_runner",
        f"--model_path {NS}.pte",
        "--input_list_path input_list.txt",
        "--domain_id 0",
    ):
        assert part in runner[0]
    assert calls[-1] == ["-s", serial, "pull", "-a", f"{ws}/outputs", str(phone.pte.parent)]


def test_run_fails_when_the_device_output_differs(phone, capsys):
    # 0.5, or the whole calibrated range of output 0 when that is wider (its tolerance is
    # a few steps of the range: an op of huge values has a huge one).
    lo, hi = phone.ranges.outputs[0]
    offset = 0.5 if 8 * (hi - lo) / 255 < 0.5 else float(np.float32(hi - lo))
    _device_outputs(phone, offset_of_first=offset)
    assert cli.main(["run", "--project", str(phone.project.root), *phone.inputs]) == 1
    out, err = capsys.readouterr()
    assert one_line_error(err).startswith("error: output 0 differs from eager: max abs error ")
    assert " > tolerance" in one_line_error(err)
    if offset == 0.5:
        assert one_line_error(err).startswith("error: output 0 differs from eager: max abs error 0.5 > tolerance")
    assert "FAILED" in out


def test_run_fails_when_the_runner_fails_and_ignores_old_outputs(phone, capsys, monkeypatch):
    _device_outputs(phone)
    # Outputs of an earlier, successful run must not pass for this one.
    old = phone.pte.parent / "outputs"
    old.mkdir()
    for raw in phone.fakes.device_outputs.iterdir():
        (old / raw.name).write_bytes(raw.read_bytes())
    monkeypatch.setenv("FAKE_RUNNER_FAIL", "1")
    assert cli.main(["run", "--project", str(phone.project.root), *phone.inputs]) == 1
    out, err = capsys.readouterr()
    # SimpleADB says "adb command failed: [...]", its later name Device "device command failed: [...]".
    assert re.match(
        r"error: qnn_executor_direct_runner failed on the device: (adb|device) command failed: \[",
        one_line_error(err),
    )
    assert "Failed to register custom op package through platform" in out  # the runner's own words
    assert not old.exists()


def test_run_refuses_stale_signed_libraries(phone, capsys, monkeypatch):
    monkeypatch.setenv("FAKE_BUILD_ID", "2")
    assert cli.main(["build", "--project", str(phone.project.root)]) == 0
    phone.fakes.clear()
    capsys.readouterr()
    assert cli.main(["run", "--project", str(phone.project.root)]) == 1
    _, err = capsys.readouterr()
    assert "was signed from another build" in one_line_error(err) and "stale" in err
    assert phone.fakes.entries("adb") == []


def test_run_refuses_a_program_whose_op_fell_back(phone, capsys):
    phone.pte.write_bytes(lower(device_data.PackageModel(), device_data.random_inputs(0, SHAPE)))
    assert cli.main(["run", "--project", str(phone.project.root)]) == 1
    _, err = capsys.readouterr()
    assert "was not delegated" in one_line_error(err)
    assert phone.fakes.entries("adb") == []


def test_run_needs_a_serial(phone, capsys, monkeypatch):
    monkeypatch.delenv("ANDROID_SERIAL")
    assert cli.main(["run", "--project", str(phone.project.root)]) == 1
    _, err = capsys.readouterr()
    assert one_line_error(err).startswith("error: no device serial: pass --device SERIAL or export ANDROID_SERIAL")


# --------------------------------------------------------------------------- export, up to build_executorch_binary


@pytest.fixture
def lowering_recorder(phone, monkeypatch, delegated_pte):
    """build_executorch_binary replaced by a recorder that writes a program, like the real one."""
    import executorch.backends.qualcomm.export_utils as export_utils

    calls = []

    def fake_build_executorch_binary(**kwargs):
        calls.append(kwargs)
        with open(f"{kwargs['file_name']}.pte", "wb") as f:
            f.write(calls_program[0])
        if kwargs["qnn_config"].compile_only:
            sys.exit(0)  # what the real one does last with compile_only

    calls_program = [delegated_pte]
    monkeypatch.setattr(export_utils, "build_executorch_binary", fake_build_executorch_binary)
    return SimpleNamespace(calls=calls, program=calls_program)


@pytest.mark.parametrize("target", ["device", "simulator"])
def test_export_lowers_with_the_op_package_and_checks_delegation(phone, lowering_recorder, capsys, target, tmp_path):
    from executorch.backends.qualcomm.export_utils import get_lpai_target_env
    from executorch.backends.qualcomm.quantizer.quantizer import QnnQuantizer
    from executorch.backends.qualcomm.serialization.qc_schema import (
        QnnExecuTorchBackendType,
        QnnExecuTorchLpaiTargetEnv,
    )

    pte = phone.project.artifacts / target / f"{NS}.pte"
    pte.unlink(missing_ok=True)
    code = cli.main(
        [
            "export",
            "--target",
            target,
            "--project",
            str(phone.project.root),
            "--calibration",
            saved(tmp_path / "calibration.pt", [device_data.domain_constants(CALIBRATED_AT, SHAPE)]),
            "--shape",
            "1,2,4,4",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    assert f"wrote {pte}; delegation check passed" in out
    [call] = lowering_recorder.calls
    config = call["qnn_config"]
    assert config.backend == QnnExecuTorchBackendType.kLpaiBackend and config.soc_model == "SM8850"
    # Nothing runs at export: compile_only from construction on (no serial needed); its
    # sys.exit(0) after writing the program does not skip the delegation check.
    assert config.compile_only and config.device is None
    expected_env = QnnExecuTorchLpaiTargetEnv.kAdsp if target == "device" else QnnExecuTorchLpaiTargetEnv.kX86
    assert get_lpai_target_env(config) == expected_env
    assert isinstance(call["custom_quantizer"], QnnQuantizer)
    assert len(call["dataset"]) == 1
    assert [tuple(t.shape) for t in call["dataset"][0]] == [tuple(s["shape"]) for s in PROGRAM_SPEC]
    constants = device_data.domain_constants(CALIBRATED_AT, SHAPE)
    assert all(torch.equal(t, c) for t, c in zip(call["dataset"][0], constants))
    platforms = {
        (i.target.name, i.platform.name, i.op_package_path) for i in call["op_package_options"].op_package_infos
    }
    host = ("LPAI", "X86_64", str(phone.project.host_lib.resolve()))
    assert platforms == ({host, ("LPAI", "HEXAGON", LIB)} if target == "device" else {host})
    assert pte.read_bytes() == lowering_recorder.program[0]
    meta = json.loads(device.sidecar(pte).read_text())
    assert meta["target"] == target and meta["model"] is None
    assert meta["inputs"] == PROGRAM_SPEC
    assert meta["ranges"]["inputs"] == [[min(0.0, float(c.max())), max(0.0, float(c.max()))] for c in constants]
    assert sorted(p.name for p in pte.parent.iterdir()) == sorted([pte.name, f"{NS}.json", f"{NS}.inputs.pt"])


def test_export_keeps_no_program_whose_op_fell_back(phone, lowering_recorder, capsys):
    lowering_recorder.program[0] = lower(device_data.PackageModel(), device_data.random_inputs(0, SHAPE))
    assert phone.pte.is_file()  # an earlier export's program...
    assert cli.main(["export", "--project", str(phone.project.root), "--shape", "1,2,4,4"]) == 1
    _, err = capsys.readouterr()
    assert "was not delegated, it is executed by a CPU kernel" in one_line_error(err)
    # ...must not survive to be run as if it were this one; nor may the rejected one.
    assert list(phone.pte.parent.iterdir()) == []


def test_export_needs_the_host_library(phone, lowering_recorder, capsys):
    phone.project.host_lib.unlink()
    assert cli.main(["export", "--project", str(phone.project.root)]) == 1
    _, err = capsys.readouterr()
    assert one_line_error(err) == (
        f"error: {phone.project.host_lib} is missing: run `python -m {NS} build --host-only`"
    )
    assert lowering_recorder.calls == []


# --------------------------------------------------------------------------- run --debug, Device


def _runner_calls(phone):
    return phone.fakes.entries("runner")


def test_run_debug_writes_the_farf_mask_and_captures_logcat(phone, capsys):
    _device_outputs(phone)
    code = cli.main(["run", "--project", str(phone.project.root), *phone.inputs, "--debug"])
    out, err = capsys.readouterr()
    assert code == 0, err
    [runner] = _runner_calls(phone)
    # The mask the runner found next to itself when it started, in its workspace.
    assert runner["farf"] == "0x1f" and runner["cwd_on_device"] == f"/data/local/tmp/{NS}"
    assert "--domain_id 0" in " ".join(runner["argv"])
    shells = [c["argv"][3] for c in phone.fakes.entries("adb") if c["argv"][2:3] == ["shell"]]
    assert shells.index("logcat -c") < next(i for i, c in enumerate(shells) if "./qnn_executor_direct_runner" in c)
    log = phone.project.root / "build" / "logs" / "logcat.txt"
    assert "qnn_executor_direct_runner: FARF mask 0x1f" in log.read_text()
    assert f"device log (logcat, FARF mask 0x1f): {log}" in out


def test_run_without_debug_keeps_executorchs_mask_and_writes_no_log(phone, capsys):
    _device_outputs(phone)
    assert cli.main(["run", "--project", str(phone.project.root), *phone.inputs]) == 0
    [runner] = _runner_calls(phone)
    assert runner["farf"] == "0x0C"  # ExecuTorch's execute() writes it in the runner's own line
    assert not (phone.project.root / "build" / "logs").exists()


def _later_device_class(made):
    """ExecuTorch's device wrapper as later sources have it (read there): named `Device`
    (no SimpleADB), a failed command raises "device command failed: [...]", and an
    output_callback receives the command's output as a str.  Built on whichever class
    the installed ExecuTorch has, so that the real push/execute/pull logic runs."""
    import subprocess as sp

    base = device.device_class()

    class Device(base):
        def __init__(self, **kwargs):
            made.append(kwargs)
            super().__init__(**kwargs)

        def _adb(self, cmd, output_callback=None):
            cmds = ["adb", "-s", self.device_id, *cmd]
            result = sp.run(cmds, stdout=sp.PIPE, stderr=sp.STDOUT, text=True)
            if output_callback:
                output_callback(result.stdout)
            elif result.stdout:
                print(result.stdout, end="")
            if result.returncode != 0:
                raise RuntimeError(f"device command failed: {cmds}")

    return Device


@pytest.fixture
def later_device(monkeypatch):
    import executorch.backends.qualcomm.export_utils as export_utils

    made = []
    monkeypatch.setattr(export_utils, "Device", _later_device_class(made), raising=False)
    monkeypatch.delattr(export_utils, "SimpleADB", raising=False)
    return made


def test_run_uses_executorchs_later_name_device(phone, capsys, later_device):
    """Later ExecuTorch sources call SimpleADB `Device`, with the same calls."""
    import executorch.backends.qualcomm.export_utils as export_utils

    assert not hasattr(export_utils, "SimpleADB")
    _device_outputs(phone)
    code = cli.main(["run", "--project", str(phone.project.root), *phone.inputs, "--debug"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert len(later_device) == 1 and later_device[0]["pte_path"] == str(phone.pte)
    # Its output_callback gets a str: the md5 check and logcat read it.
    assert "md5 sums of" in out
    log = phone.project.root / "build" / "logs" / "logcat.txt"
    assert "qnn_executor_direct_runner: FARF mask 0x1f" in log.read_text()


def test_run_fails_in_one_line_with_devices_failure_text(phone, capsys, monkeypatch, later_device):
    _device_outputs(phone)
    monkeypatch.setenv("FAKE_RUNNER_FAIL", "1")
    assert cli.main(["run", "--project", str(phone.project.root), *phone.inputs]) == 1
    line = one_line_error(capsys.readouterr().err)
    assert line.startswith("error: qnn_executor_direct_runner failed on the device: device command failed: [")


# --------------------------------------------------------------------------- the PR's device traps


def test_run_retries_once_on_eai_err_and_says_so(phone, capsys, monkeypatch):
    _device_outputs(phone)
    monkeypatch.setenv("FAKE_RUNNER_EAI_ERR", "1")  # the first run: the clock error, all zeros
    code = cli.main(["run", "--project", str(phone.project.root), *phone.inputs])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert len(_runner_calls(phone)) == 2
    assert "reported `EAI_ERR: Failed to reset global enpu clock level`" in out
    assert "running it again (once)" in out
    assert "max abs error: 0\n" in out  # the second run's outputs, not the zeros


def test_run_fails_in_one_line_when_eai_err_comes_twice(phone, capsys, monkeypatch):
    _device_outputs(phone)
    monkeypatch.setenv("FAKE_RUNNER_EAI_ERR", "2")
    assert cli.main(["run", "--project", str(phone.project.root), *phone.inputs]) == 1
    line = one_line_error(capsys.readouterr().err)
    assert "EAI_ERR: Failed to reset global enpu clock level` twice in a row" in line
    assert len(_runner_calls(phone)) == 2  # once more, not forever
    assert not (phone.pte.parent / "outputs").exists()  # the zeros were never pulled


def test_run_refuses_a_push_whose_md5_differs(phone, capsys, monkeypatch):
    _device_outputs(phone)
    monkeypatch.setenv("FAKE_ADB_CORRUPT", LIB)
    assert cli.main(["run", "--project", str(phone.project.root), *phone.inputs]) == 1
    line = one_line_error(capsys.readouterr().err)
    ws = f"/data/local/tmp/{NS}"
    assert line.startswith(f"error: {ws}/{LIB} on the device differs from {phone.project.signed_dir / LIB} (md5 ")
    assert _runner_calls(phone) == []


def test_run_clears_stale_copies_in_the_adsp_folder(phone, capsys, monkeypatch):
    """A stale library in <workspace>/adsp/ would win over the one just pushed (the DSP
    loader searches it first).  A device wrapper whose push keeps the workspace (as with
    ExecuTorch's skip_push or init_env=False) leaves it there; `run` removes it."""
    import executorch.backends.qualcomm.export_utils as export_utils

    base = device.device_class()

    class KeepsWorkspace(base):
        def push(self, inputs=None, files=None, **kwargs):
            super().push(inputs=inputs, files=files, **kwargs)
            stale = phone.fakes.device_root / f"data/local/tmp/{NS}/adsp"
            stale.mkdir(parents=True)
            (stale / LIB).write_bytes(b"an old build")

    monkeypatch.setattr(export_utils, base.__name__, KeepsWorkspace)
    _device_outputs(phone)
    code = cli.main(["run", "--project", str(phone.project.root), *phone.inputs])
    out, err = capsys.readouterr()
    assert code == 0, err
    ws = f"/data/local/tmp/{NS}"
    assert f"removing {ws}/adsp/ ({LIB}): the DSP loader searches it before {ws}/" in out
    assert not (phone.fakes.device_root / f"data/local/tmp/{NS}/adsp").exists()
    [runner] = _runner_calls(phone)
    shells = [c["argv"][3] for c in phone.fakes.entries("adb") if c["argv"][2:3] == ["shell"]]
    assert shells.index(f"rm -rf {ws}/adsp && ls -1 {ws}/adsp 2>/dev/null || true") < next(
        i for i, c in enumerate(shells) if "./qnn_executor_direct_runner" in c
    )


def test_run_skip_sign_pushes_the_unsigned_libraries(phone, capsys):
    import shutil

    shutil.rmtree(phone.project.signed_dir)
    _device_outputs(phone)
    assert cli.main(["run", "--project", str(phone.project.root), *phone.inputs]) == 1
    assert "no signed libraries" in one_line_error(capsys.readouterr().err)
    phone.fakes.clear()
    code = cli.main(["run", "--project", str(phone.project.root), *phone.inputs, "--skip-sign"])
    out, err = capsys.readouterr()
    assert code == 0, err
    pushed = [c["argv"][3] for c in phone.fakes.entries("adb") if c["argv"][2] == "push"]
    assert [p for p in pushed if p.endswith((LIB, ISLAND))] == [str(p) for p in phone.project.dsp_libs]
    assert "the unsigned (--skip-sign)" in out


def test_run_and_export_refuse_without_the_sdks_host_libraries(phone, lowering_recorder, capsys, monkeypatch):
    """ExecuTorch's QnnConfig aborts the process (exit 134) without libQnnHtp.so, and
    lowering dlopens libQnnLpai.so by name: one line instead, before ExecuTorch is asked."""
    host_libs = phone.fakes.qnn_sdk / "lib/x86_64-linux-clang"
    monkeypatch.setenv("LD_LIBRARY_PATH", "/somewhere/else")
    assert cli.main(["export", "--project", str(phone.project.root), "--shape", "1,2,4,4"]) == 1
    line = one_line_error(capsys.readouterr().err)
    assert f"LD_LIBRARY_PATH does not hold {host_libs}" in line and "bin/envsetup.sh" in line
    monkeypatch.setenv("LD_LIBRARY_PATH", str(host_libs))
    (host_libs / "libQnnHtp.so").unlink()
    assert cli.main(["export", "--project", str(phone.project.root), "--shape", "1,2,4,4"]) == 1
    assert f"{host_libs / 'libQnnHtp.so'} is missing" in one_line_error(capsys.readouterr().err)
    assert lowering_recorder.calls == []
    assert cli.main(["run", "--project", str(phone.project.root)]) == 1
    assert f"{host_libs / 'libQnnHtp.so'} is missing" in one_line_error(capsys.readouterr().err)
    assert phone.fakes.entries("adb") == []


# --------------------------------------------------------------------------- bad input before the device

PROGRAM_INPUT = "float32[1, 2, 4, 4]"


@pytest.mark.parametrize(
    "inputs, reason",
    [
        (
            lambda: (*device_data.random_inputs(0, SHAPE), torch.ones(SHAPE)),
            f"{device_data.N_INPUTS + 1} tensor(s), the program takes {device_data.N_INPUTS} ({PROGRAM_INPUTS})",
        ),
        (
            lambda: (torch.ones(1, 2, 4, 5),) * device_data.N_INPUTS,
            f"input 0 is float32[1, 2, 4, 5], the program takes {PROGRAM_INPUT}",
        ),
        (
            lambda: (torch.ones(SHAPE, dtype=torch.float64),) * device_data.N_INPUTS,
            f"input 0 is float64[1, 2, 4, 4], the program takes {PROGRAM_INPUT}",
        ),
        (
            lambda: device_data.constant_inputs(float("nan"), SHAPE),
            "batch 0 input 0 holds a non-finite value (NaN or inf): 8-bit inputs have no code for it",
        ),
    ],
    ids=["count", "shape", "dtype", "nan"],
)
def test_run_checks_the_inputs_against_the_program_before_pushing(phone, capsys, tmp_path, inputs, reason):
    path = tmp_path / "inputs.pt"
    torch.save(tuple(inputs()), path)
    assert cli.main(["run", "--project", str(phone.project.root), "--inputs", str(path)]) == 1
    _, err = capsys.readouterr()
    assert one_line_error(err) == f"error: the inputs: {reason}"
    assert phone.fakes.entries("adb") == []


def test_run_checks_the_shape_option_against_the_program(phone, capsys):
    assert cli.main(["run", "--project", str(phone.project.root), "--shape", "1,2,4,5"]) == 1
    _, err = capsys.readouterr()
    assert one_line_error(err) == (
        "error: the inputs: input 0 is float32[1, 2, 4, 5], the program takes float32[1, 2, 4, 4]"
    )
    assert phone.fakes.entries("adb") == []


def test_run_refuses_a_program_that_is_not_one(phone, capsys):
    phone.pte.write_bytes(b"PK\x03\x04 not a program")
    assert cli.main(["run", "--project", str(phone.project.root)]) == 1
    _, err = capsys.readouterr()
    assert one_line_error(err).startswith(f"error: {phone.pte}: not an ExecuTorch program")
    assert phone.fakes.entries("adb") == []


def test_export_refuses_non_finite_calibration(phone, lowering_recorder, capsys, tmp_path):
    path = tmp_path / "cal.pt"
    batches = [device_data.random_inputs(s, SHAPE) for s in range(2)]
    batches[1][0][0, 0, 0, 0] = float("inf")
    torch.save(batches, path)
    assert cli.main(["export", "--project", str(phone.project.root), "--calibration", str(path)]) == 1
    _, err = capsys.readouterr()
    assert one_line_error(err) == (
        f"error: --calibration {path}: batch 1 input 0 holds a non-finite value (NaN or inf): "
        "the quantizer cannot calibrate on it"
    )
    assert lowering_recorder.calls == []
    assert phone.pte.is_file()  # nothing deleted either


@pytest.mark.parametrize(
    "where, reason",
    [
        ("{file}/x.pte", "{file} is a file, not a folder"),
        ("{dir}", "the file name must end in .pte"),
        ("{dir}/model.bin", "the file name must end in .pte"),
    ],
)
def test_export_refuses_an_impossible_pte_path(phone, lowering_recorder, capsys, tmp_path, where, reason):
    (tmp_path / "a file").write_text("x")
    names = {"file": str(tmp_path / "a file"), "dir": str(tmp_path)}
    pte = where.format(**names)
    assert cli.main(["export", "--project", str(phone.project.root), "--pte", pte]) == 1
    _, err = capsys.readouterr()
    assert one_line_error(err) == f"error: --pte {pte}: {reason.format(**names)}"
    assert lowering_recorder.calls == []


# --------------------------------------------------------------------------- your own model

USER_MODEL = '''
import torch

from shape_ops.device_data import PackageModel, input_ranges


class Net(torch.nn.Module):
    """A model of a user: ordinary layers around every op of the package."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(7)  # the same weights each time it is built (a real one loads its checkpoint)
        self.conv = torch.nn.Conv2d(2, 2, 1)
        self.ops = PackageModel()  # every op once, with the spec's params

    def forward(self, x):
        h = 0.1 + 0.8 * torch.sigmoid(self.conv(x))  # in (0.1, 0.9): inside every op's domain, mapped
        return tuple(torch.relu(o) for o in self.ops(*(lo + (hi - lo) * h for lo, hi in input_ranges())))


def build():
    return Net()
'''


def _import_user_models(root):
    from importlib import import_module

    for name in [m for m in sys.modules if m == "user_models" or m.startswith("user_models.")]:
        del sys.modules[name]
    sys.path.insert(0, str(root))
    try:
        return import_module("user_models.net")
    finally:
        sys.path.remove(str(root))


def _write_user_models(root):
    (root / "user_models").mkdir(parents=True)
    (root / "user_models" / "__init__.py").write_text("")
    (root / "user_models" / "net.py").write_text(USER_MODEL)


@pytest.fixture(scope="module")
def user_program(tmp_path_factory):
    """The user's model lowered once: what the QNN partitioner would leave (the package's
    ops in delegates, the rest on the CPU), and its calibration batches."""
    root = tmp_path_factory.mktemp("user model")
    _write_user_models(root)
    net = _import_user_models(root)
    gen = torch.Generator().manual_seed(3)
    batches = [(torch.randn(SHAPE, generator=gen) * 2,) for _ in range(3)]
    return SimpleNamespace(program=lower(net.build(), batches[0], claim=NAMES), batches=batches)


@pytest.fixture
def user_model(phone, lowering_recorder, user_program, tmp_path):
    _write_user_models(phone.project.root)
    cal = tmp_path / "calibration.pt"
    torch.save(user_program.batches, cal)
    lowering_recorder.program[0] = user_program.program
    yield SimpleNamespace(module=_import_user_models(phone.project.root), batches=user_program.batches, calibration=cal)
    for name in [m for m in sys.modules if m == "user_models" or m.startswith("user_models.")]:
        del sys.modules[name]


@pytest.mark.parametrize("spec", ["user_models.net:Net", "user_models.net:build"])
def test_export_your_model_with_your_calibration(phone, lowering_recorder, user_model, capsys, spec):
    code = cli.main(
        ["export", "--project", str(phone.project.root), "--model", spec, "--calibration", str(user_model.calibration)]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    [call] = lowering_recorder.calls
    assert type(call["model"]).__name__ == "Net"
    torch.testing.assert_close([tuple(b) for b in call["dataset"]], [tuple(b) for b in user_model.batches])
    meta = json.loads(device.sidecar(phone.pte).read_text())
    assert meta["model"] == spec and meta["inputs"] == [{"shape": list(SHAPE), "dtype": "float32"}]
    assert len(meta["ranges"]["outputs"]) == len(device_data.OUTPUT_OPS)
    # Several ops of the package, each its own delegate here: the check holds either way.
    assert f"delegation check passed (forward: {len(OPS)} delegate(s))" in out
    torch.testing.assert_close(torch.load(device.example_file(phone.pte)), user_model.batches[0])


def test_run_your_model_compares_with_your_model(phone, lowering_recorder, user_model, capsys):
    assert (
        cli.main(
            [
                "export",
                "--project",
                str(phone.project.root),
                "--model",
                "user_models.net:build",
                "--calibration",
                str(user_model.calibration),
            ]
        )
        == 0
    )
    exports = device.read_sidecar(phone.pte, "device")
    example = user_model.batches[0]
    # The quantized graph's answer, off by two output steps (inside the 8 allowed).
    want = device_data.reference_outputs(example, exports.ranges, user_model.module.build())
    for i, (tensor, (lo, hi)) in enumerate(zip(want, exports.ranges.outputs)):
        (tensor.numpy() + np.float32(2 * (hi - lo) / 255)).tofile(phone.fakes.device_outputs / f"output_0_{i}.raw")
    phone.fakes.clear()
    capsys.readouterr()
    code = cli.main(["run", "--project", str(phone.project.root)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "  output 0 " in out and "FAILED" not in out
    # 8 steps of each calibrated output range, the default for your model.
    for (lo, hi), line in zip(exports.ranges.outputs, [x for x in out.splitlines() if x.startswith("  output")]):
        assert f"(tolerance {8 * (hi - lo) / 255 + 1e-6:.6g})" in line
    # Tighter than the error: fails, in one line.
    capsys.readouterr()
    assert cli.main(["run", "--project", str(phone.project.root), "--tolerance-steps", "1"]) == 1
    import re

    assert re.match(
        # Any float format Python prints: 0.25, 1e-06, 9.99192e+27, inf, nan.
        r"error: output \d+ differs from eager: max abs error (?:[-+]?[0-9.]+(?:[eE][-+]?\d+)?|inf|nan) > tolerance ",
        one_line_error(capsys.readouterr().err),
    )
    # The shapes of your model's program are its example's.
    phone.fakes.clear()
    assert cli.main(["run", "--project", str(phone.project.root), "--shape", "1,2,4,4"]) == 1
    assert one_line_error(capsys.readouterr().err).startswith(
        f"error: --shape: {phone.pte.name} is your model (user_models.net:build)"
    )
    assert phone.fakes.entries("adb") == []


@pytest.mark.parametrize(
    "argv, reason",
    [
        (["--model", "user_models.net:Net"], "--model user_models.net:Net: needs --calibration FILE"),
        (
            ["--model", "user_models/net.py", "--calibration", "{cal}"],
            "--model 'user_models/net.py': expected package.module:attribute",
        ),
        (
            ["--model", "user_models.nowhere:Net", "--calibration", "{cal}"],
            "--model user_models.nowhere:Net: cannot load it: No module named 'user_models.nowhere'",
        ),
        (
            ["--model", "user_models.net:USER_MODEL_MISSING", "--calibration", "{cal}"],
            "--model user_models.net:USER_MODEL_MISSING: cannot load it:",
        ),
        (
            ["--model", "user_models.net:torch", "--calibration", "{cal}"],
            "--model user_models.net:torch: is a module, not an nn.Module, class or factory",
        ),
        (
            ["--model", "user_models.net:Net", "--calibration", "{cal}", "--shape", "1,2"],
            "--model: your model's inputs come from files",
        ),
    ],
)
def test_export_your_model_refuses_in_one_line(project, capsys, tmp_path, argv, reason):
    """Before anything is installed or written: the real ExecuTorch, no SDK, no fakes."""
    _write_user_models(project.root)
    cal = tmp_path / "calibration.pt"
    torch.save([(torch.ones(SHAPE),)], cal)
    before = sorted(p.relative_to(project.root) for p in project.root.rglob("*") if "__pycache__" not in p.parts)
    try:
        code = cli.main(["export", "--project", str(project.root), *[a.format(cal=cal) for a in argv]])
    finally:
        for name in [m for m in sys.modules if m == "user_models" or m.startswith("user_models.")]:
            del sys.modules[name]
    assert code == 1
    assert one_line_error(capsys.readouterr().err).startswith(f"error: {reason}")
    after = sorted(p.relative_to(project.root) for p in project.root.rglob("*") if "__pycache__" not in p.parts)
    assert after == before


def test_export_your_model_refuses_calibration_of_another_shape(phone, lowering_recorder, user_model, capsys, tmp_path):
    bad = tmp_path / "bad.pt"
    torch.save([user_model.batches[0], (torch.ones(1, 2, 4, 5),)], bad)
    assert (
        cli.main(
            [
                "export",
                "--project",
                str(phone.project.root),
                "--model",
                "user_models.net:Net",
                "--calibration",
                str(bad),
            ]
        )
        == 1
    )
    assert one_line_error(capsys.readouterr().err) == (
        f"error: --calibration {bad} batch 1: input 0 is float32[1, 2, 4, 5], the program takes float32[1, 2, 4, 4]"
    )


def test_every_op_is_finite_on_the_range_its_generated_inputs_come_from():
    """The package model's generated inputs (device_data.input_ranges): every op's output
    is finite on its inputs' range, or calibration refuses it (an observer's range of
    NaN). The spec refuses an elementwise op that is not finite on its domain; a custom
    op's math (user/) must be finite on its domain too."""
    ranges = device_data.input_ranges()
    assert len(ranges) == device_data.N_INPUTS
    inputs = [torch.linspace(lo, hi, 64).reshape(1, 1, 1, 64) for lo, hi in ranges]
    with torch.no_grad():
        outs = device_data.PackageModel()(*inputs)
    for op, out in zip(device_data.OUTPUT_OPS, outs):
        assert bool(torch.isfinite(out).all()), (
            f"{op.name}: NaN or inf on the generated inputs {ranges}: make its math finite there, or "
            "declare the range of its inputs in the spec (inputs: [{name: x, range: [low, high]}])"
        )


def test_the_readme_runbook_states_what_the_code_does():
    from shape_ops import toolchain

    from fakes.tools import PROJECT

    pages = [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md"))]  # README and the pages it links
    readme = " ".join(" ".join(p.read_text() for p in pages).split())  # line breaks do not matter
    for op in OPS:
        for name, (lo, hi) in zip(op.inputs, op.domains):
            assert f"{name} in [{lo:g}, {hi:g}]" in readme, (op.name, name)
    assert f"{device_data.CALIBRATION_BATCHES} batches drawn uniformly from each input's domain" in readme
    assert f"tolerance is {device_data.MODEL_TOLERANCE_STEPS:g} steps" in readme
    assert f"exact up to input and output rounding ({device_data.PACKAGE_TOLERANCE_STEPS:g} steps)" in readme
    assert f"FARF mask `{device.DEBUG_FARF_MASK}`" in readme
    assert toolchain.EXECUTORCH_DIRECT_BUILD in readme
    assert all(f"`{lib}`" in readme for lib in toolchain.DIRECT_MODE_LIBRARIES)
    assert "EXECUTORCH_REVISION" in readme and toolchain.EXECUTORCH_PR in readme
    # ExecuTorch after the PR, and the PR's device traps, as `run` handles them.
    assert "`HEXAGON_TOOLS_ROOT`" in readme and f"`source $QNN_SDK_ROOT/{toolchain.SDK_ENVSETUP}`" in readme
    assert all(f"`{lib}`" in readme for lib in toolchain.HOST_SDK_LIBRARIES)
    assert "EAI_ERR: Failed to reset global enpu clock level" in readme and "runs once more" in readme
    assert f"`<workspace>/{device.ADSP_SUBFOLDER}/`" in readme and "md5" in readme
    assert "`run --skip-sign`" in readme and "`\\| True`" in readme
    assert "make -C op_package/ShapesOpPackage sdk-check" in readme


# --------------------------------------------------------------------------- how several ops are grouped


class _GroupingPartitioner:
    """Partitions like ExecuTorch's QnnPartitioner: its own grouping function
    (generate_partitions_from_list_of_nodes, i.e. torch.fx's CapabilityBasedPartitioner)
    and one tag per partition, with a stand-in for the backend's op support (the real one
    asks the QNN SDK): this package's ops and relu are supported, cumsum is not. What
    QnnPartitioner passes without asking passes here too (its `allow_list_operator`: the
    `getitem` that takes each output of an op of several outputs); without it, every
    `getitem` stayed on the CPU and split the delegate in two around it."""

    @staticmethod
    def make():
        from executorch.backends.qualcomm.partition.common_defs import allow_list_operator
        from executorch.exir.backend.canonical_partitioners.pattern_op_partitioner import (
            generate_partitions_from_list_of_nodes,
        )
        from executorch.exir.backend.partitioner import DelegationSpec, Partitioner, PartitionResult
        from torch.fx.passes.operator_support import OperatorSupportBase

        from lowering import ClaimOpsBackend

        class Support(OperatorSupportBase):
            def is_node_supported(self, _, node):
                if node.op != "call_function":
                    return False
                if node.target in allow_list_operator:
                    return True
                schema = getattr(node.target, "_schema", None)
                return schema is not None and (schema.name in NAMES or schema.name == "aten::relu")

        class Grouping(Partitioner):
            def __init__(self):
                super().__init__()
                self.delegation_spec = DelegationSpec(ClaimOpsBackend.__name__, [])

            def partition(self, exported_program):
                tags = {}
                partitions = generate_partitions_from_list_of_nodes(exported_program.graph_module, op_support=Support())
                for partition in partitions:
                    for node in partition.nodes:
                        node.meta["delegation_tag"] = f"qnn_{partition.id}"
                    tags[f"qnn_{partition.id}"] = self.delegation_spec
                return PartitionResult(tagged_exported_program=exported_program, partition_tags=tags)

        return Grouping()


class _Chained(torch.nn.Module):
    """The package's model twice in a row, joined by `between` (first input of each op)."""

    def __init__(self, between):
        super().__init__()
        self.ops, self.between = device_data.PackageModel(), between

    def forward(self, *xs):
        first = self.ops(*xs)
        joined = [self.between(t) for t in first]
        second = self.ops(*[joined[0]] * device_data.N_INPUTS)
        return (*first, *second)


@pytest.mark.parametrize(
    "between, delegates",
    [(torch.relu, 1), (lambda t: torch.cumsum(t, dim=-1), 2)],
    ids=["supported-layer-between", "cpu-op-between"],
)
def test_several_ops_one_delegate_or_several_and_the_check_holds(between, delegates):
    from executorch.exir import to_edge_transform_and_lower

    from shape_ops.delegation import check_delegated

    inputs = device_data.random_inputs(0, SHAPE)
    exported = torch.export.export(_Chained(between), inputs)
    program = to_edge_transform_and_lower(exported, partitioner=[_GroupingPartitioner.make()]).to_executorch()
    assert {m: len(ids) for m, ids in check_delegated(program.buffer).items()} == {"forward": delegates}


# --------------------------------------------------------------------------- simulate, end to end


def test_simulate_exports_runs_the_x86_runner_and_compares(phone, lowering_recorder, capsys, tmp_path):
    pte = tmp_path / "sim" / "model.pte"
    # What the simulator returns: the reference of a constant calibration, run above it (saturating).
    calibration = [device_data.domain_constants(CALIBRATED_AT, SHAPE)]
    ranges = device_data.Ranges.from_calibration(calibration)
    inputs = device_data.domain_constants(ABOVE_AT, SHAPE)
    for i, t in enumerate(device_data.reference_outputs(inputs, ranges)):
        t.numpy().tofile(phone.fakes.device_outputs / f"output_0_{i}.raw")
    code = cli.main(
        [
            "simulate",
            "--project",
            str(phone.project.root),
            "--pte",
            str(pte),
            "--shape",
            "1,2,4,4",
            "--calibration",
            saved(tmp_path / "calibration.pt", calibration),
            "--inputs",
            saved(tmp_path / "inputs.pt", inputs),
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    [call] = lowering_recorder.calls
    assert call["qnn_config"].enable_x86_64 and call["qnn_config"].compile_only
    [runner] = phone.fakes.entries("x86-runner")
    assert runner["argv"] == [
        "--model_path",
        str(pte.resolve()),
        "--input_list_path",
        "input_list.txt",
        "--output_folder_path",
        str((pte.parent / "outputs").resolve()),
    ]
    assert runner["cwd"] == str(pte.parent)
    assert runner["env"]["LD_LIBRARY_PATH"].startswith(str(phone.fakes.qnn_sdk / "lib/x86_64-linux-clang"))
    assert "max abs error: 0\n" in out and "delegated: yes" in out
    for name in OUTPUT_LABELS:
        assert f"  {name} " in out


def test_simulate_fails_in_one_line_when_the_runner_fails(phone, lowering_recorder, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("FAKE_RUNNER_FAIL", "1")
    assert (
        cli.main(
            [
                "simulate",
                "--project",
                str(phone.project.root),
                "--pte",
                str(tmp_path / "m.pte"),
                "--shape",
                "1,2,4,4",
                "--calibration",
                saved(tmp_path / "calibration.pt", [device_data.domain_constants(CALIBRATED_AT, SHAPE)]),
            ]
        )
        == 1
    )
    assert one_line_error(capsys.readouterr().err) == (
        "error: the LPAI x86_64 simulator failed (exit 1): [ERROR] Failed to register custom op package through platform"
    )


def test_simulate_runs_at_the_shape_it_exported(phone, lowering_recorder, capsys, tmp_path):
    """Calibrated from a file at another shape than the default, without --shape."""
    cal = tmp_path / "cal.pt"
    batches = [device_data.random_inputs(s, SHAPE) for s in range(2)]
    torch.save(batches, cal)
    ranges = device_data.Ranges.from_calibration(batches)
    for i, t in enumerate(device_data.reference_outputs(device_data.random_inputs(1000, SHAPE), ranges)):
        t.numpy().tofile(phone.fakes.device_outputs / f"output_0_{i}.raw")
    code = cli.main(
        ["simulate", "--project", str(phone.project.root), "--pte", str(tmp_path / "m.pte"), "--calibration", str(cal)]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "max abs error: 0\n" in out
