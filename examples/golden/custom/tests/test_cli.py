# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The command line with fake tools on PATH: the exact commands and environment of
`build` and `sign`, their failures, and `doctor` on a bare and on a complete machine.

The fakes (tests/fakes/tools.py) log every invocation; nothing here needs a Qualcomm SDK.
"""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from norm_ops import cli
from norm_ops.doctor import readiness, run_checks
from norm_ops.ops import OPS
from norm_ops.toolchain import (
    EXECUTORCH_REVISION,
    Project,
    ToolchainError,
    check_signed,
    parse_version,
    qnn_sdk_version,
    signer_python,
)

import op_package_host as host
from fakes.tools import make_fakes, make_project

PACKAGE = "NormOpPackage"
LIB = "libQnnNormOpPackage.so"
ISLAND = "libLpaiOpPackageIsland.so"
ARCH = "v79"
HOST_LIB = f"libs/x86_64-linux-clang/{LIB}"
DSP_LIBS = [f"libs/hexagon-{ARCH}/{LIB}", f"libs/hexagon-{ARCH}/{ISLAND}"]
MAKE_OUTPUTS = {"lpai_x86": [HOST_LIB], "lpai_dsp": DSP_LIBS}
ALL_VARS = (
    "QNN_SDK_ROOT",
    "HEXAGON_SDK_ROOT",
    "HEXAGON_TOOLS_VERSION",
    "HEXAGON_TOOLS_ROOT",
    "ANDROID_SERIAL",
    "ANDROID_NDK_ROOT",
    "EXECUTORCH_BUILD_FOLDER",
    "EXECUTORCH_DIRECT_BUILD_FOLDER",
    "EXECUTORCH_X86_BUILD_FOLDER",
    "LPAI_SIGNER_PYTHON",
)


@pytest.fixture
def fakes(tmp_path):
    # Spaces in every path: the SDKs, the tools and the project.
    return make_fakes(tmp_path / "tool chain")


@pytest.fixture
def project(tmp_path):
    return Project(make_project(tmp_path / "my project", OPS))


@pytest.fixture
def machine(fakes, monkeypatch):
    """The process environment of a machine with every (fake) tool installed."""
    for name in (*ALL_VARS, "CC", "CXX"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("FAKE_BUILD_ID", "0")
    for name, value in fakes.environ(FAKE_MAKE_OUTPUTS=json.dumps(MAKE_OUTPUTS)).items():
        monkeypatch.setenv(name, value)
    return fakes


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err):
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err
    return lines[0]


# --------------------------------------------------------------------------- versions


@pytest.mark.parametrize(
    "text, version",
    [
        ("2.48.0.250101", (2, 48, 0)),
        ("v2.49.1", (2, 49, 1)),
        ("qairt 2.50", (2, 50)),
        ("no version", None),
    ],
)
def test_parse_version(text, version):
    assert parse_version(text) == version


def test_sdk_version_from_sdk_yaml_then_folder_name(tmp_path):
    sdk = tmp_path / "2.47.0.241231"
    sdk.mkdir()
    assert qnn_sdk_version(sdk)[0] == (2, 47, 0)
    (sdk / "sdk.yaml").write_text("name: qairt\nversion: 2.49.0.260101\n")
    assert qnn_sdk_version(sdk) == ((2, 49, 0), str(sdk / "sdk.yaml"))
    unknown = tmp_path / "sdk"
    unknown.mkdir()
    assert qnn_sdk_version(unknown)[0] is None


# --------------------------------------------------------------------------- build


def test_build_runs_make_for_host_dsp_and_island(machine, project, capsys):
    code, out, err = run(capsys, "build", "--project", str(project.root))
    assert code == 0, err
    calls = machine.entries("make")
    op_dir = str(project.op_dir)
    assert [(c["argv"], c["cwd"]) for c in calls] == [
        (["lpai_x86", "CC=gcc", "CXX=g++"], op_dir),
        (["lpai_dsp"], op_dir),
    ]
    assert calls[0]["env"]["QNN_SDK_ROOT"] == str(machine.qnn_sdk)
    assert calls[1]["env"]["QNN_SDK_ROOT"] == str(machine.qnn_sdk)
    assert calls[1]["env"]["HEXAGON_SDK_ROOT"] == str(machine.hexagon_sdk)
    assert calls[1]["env"]["HEXAGON_TOOLS_VERSION"] == machine.hexagon_tools_version
    # The DSP build must use hexagon-clang, not an inherited CC/CXX.
    assert calls[1]["env"]["CC"] is None and calls[1]["env"]["CXX"] is None
    for rel in [HOST_LIB, *DSP_LIBS]:
        assert f"built {project.op_dir / rel}" in out
    assert "building the host library, the DSP library and the island library" in out


def test_build_host_only_skips_the_dsp(machine, project, capsys, monkeypatch):
    monkeypatch.delenv("HEXAGON_SDK_ROOT")
    code, out, err = run(capsys, "build", "--host-only", "--project", str(project.root))
    assert code == 0, err
    assert [c["argv"] for c in machine.entries("make")] == [["lpai_x86", "CC=gcc", "CXX=g++"]]
    assert project.host_lib.is_file() and not project.dsp_libs[0].exists()


def test_build_failure_is_one_line_with_makes_reason(machine, project, capsys, monkeypatch):
    monkeypatch.setenv("FAKE_MAKE_FAIL", "lpai_dsp")
    code, out, err = run(capsys, "build", "--project", str(project.root))
    assert code == 1
    assert one_line_error(err) == "error: make lpai_dsp failed (exit 2): make: *** [lpai_dsp] Error 1"


def test_build_fails_when_make_produces_nothing(machine, project, capsys, monkeypatch):
    monkeypatch.setenv("FAKE_MAKE_OUTPUTS", json.dumps({"lpai_x86": []}))
    # A library from an earlier build must not count as the output of this one.
    project.host_lib.parent.mkdir(parents=True)
    project.host_lib.write_bytes(b"stale")
    code, _, err = run(capsys, "build", "--host-only", "--project", str(project.root))
    assert code == 1
    assert one_line_error(err) == f"error: make lpai_x86 succeeded but did not produce {project.host_lib}"


@pytest.mark.parametrize(
    "setup, reason",
    [
        (lambda f, mp: mp.delenv("QNN_SDK_ROOT"), "QNN_SDK_ROOT is not set"),
        (lambda f, mp: mp.setenv("QNN_SDK_ROOT", ""), "QNN_SDK_ROOT is not set"),
        (lambda f, mp: (f.qnn_sdk / "sdk.yaml").write_text("version: 2.47.0.1\n"), "QNN SDK 2.47.0 is too old"),
        (lambda f, mp: (f.qnn_sdk / "include/QNN/LPAI/QnnLpaiOpPackage.h").unlink(), "QnnLpaiOpPackage.h is missing"),
        (lambda f, mp: mp.delenv("HEXAGON_SDK_ROOT"), "HEXAGON_SDK_ROOT is not set"),
        (lambda f, mp: mp.setenv("HEXAGON_TOOLS_VERSION", "0.0.0"), "HEXAGON_TOOLS_VERSION=0.0.0"),
    ],
)
def test_build_preconditions(machine, project, capsys, monkeypatch, setup, reason):
    setup(machine, monkeypatch)
    code, _, err = run(capsys, "build", "--project", str(project.root))
    assert code == 1
    assert reason in one_line_error(err)
    assert machine.entries("make") == []


# --------------------------------------------------------------------------- build --backend htp

# The HTP of a few SoCs (ExecuTorch 1.5.1's qc_schema._soc_info_table, read by hand and
# written out here): soc_htp_arch must find the same in the installed ExecuTorch.
SOC_HTP = {"SM8850": "v81", "SAR2230P": "v81", "SM8750": "v79", "SM8650": "v75", "SM8550": "v73"}


def _htp_project(project):
    (project.htp_dir / "config").mkdir(parents=True, exist_ok=True)
    return project


def _htp_outputs(project, arch):
    rel = lambda p: str(p.relative_to(project.htp_dir))  # noqa: E731
    return {
        "htp_x86": [rel(project.htp_host_lib)],
        f"htp_{arch}": [rel(project.htp_hexagon_lib(arch))],
        "htp_aarch64": [rel(project.htp_aarch64_lib)],
    }


def test_the_soc_s_htp_arch_comes_from_executorch_s_table():
    from norm_ops._package import SOC_MODEL
    from norm_ops.toolchain import soc_htp_arch

    assert soc_htp_arch() == SOC_HTP[SOC_MODEL]
    for soc, arch in SOC_HTP.items():
        assert soc_htp_arch(soc) == arch, soc
    with pytest.raises(ToolchainError, match="soc_model SM0000: the installed ExecuTorch knows no HTP"):
        soc_htp_arch("SM0000")


def test_build_htp_runs_make_for_the_host_the_soc_s_htp_and_aarch64(machine, project, capsys, monkeypatch):
    from norm_ops._package import SOC_MODEL

    project = _htp_project(project)
    arch = SOC_HTP[SOC_MODEL]
    monkeypatch.setenv("FAKE_MAKE_OUTPUTS", json.dumps(_htp_outputs(project, arch)))
    code, out, err = run(capsys, "build", "--backend", "htp", "--project", str(project.root))
    assert code == 0, err
    calls = machine.entries("make")
    htp = str(project.htp_dir)
    assert [(c["argv"], c["cwd"]) for c in calls] == [
        (["htp_x86"], htp),
        ([f"htp_{arch}"], htp),
        (["htp_aarch64"], htp),
    ]
    assert all(c["env"]["QNN_SDK_ROOT"] == str(machine.qnn_sdk) for c in calls)
    assert calls[1]["env"]["HEXAGON_SDK_ROOT"] == str(machine.hexagon_sdk)
    assert calls[1]["env"]["HEXAGON_TOOLS_VERSION"] == machine.hexagon_tools_version
    assert calls[2]["env"]["ANDROID_NDK_ROOT"] == str(machine.ndk)
    for path in (project.htp_host_lib, project.htp_hexagon_lib(arch), project.htp_aarch64_lib):
        assert f"built {path}" in out


def test_build_htp_host_only_builds_the_x86_64_library(machine, project, capsys, monkeypatch):
    project = _htp_project(project)
    monkeypatch.delenv("ANDROID_NDK_ROOT")
    monkeypatch.setenv("FAKE_MAKE_OUTPUTS", json.dumps(_htp_outputs(project, "v81")))
    code, out, err = run(capsys, "build", "--backend", "htp", "--host-only", "--project", str(project.root))
    assert code == 0, err
    assert [c["argv"] for c in machine.entries("make")] == [["htp_x86"]]


@pytest.mark.parametrize(
    "setup, reason",
    [
        (lambda f, mp: mp.delenv("ANDROID_NDK_ROOT"), "ANDROID_NDK_ROOT is not set"),
        (lambda f, mp: (f.qnn_sdk / "include/QNN/HTP/core/qhpi.h").unlink(), "qhpi.h is missing"),
        (lambda f, mp: (f.qnn_sdk / "sdk.yaml").write_text("version: 2.43.0.1\n"), "QNN SDK 2.43.0 is too old"),
        (lambda f, mp: mp.delenv("HEXAGON_SDK_ROOT"), "HEXAGON_SDK_ROOT is not set"),
    ],
)
def test_build_htp_preconditions(machine, project, capsys, monkeypatch, setup, reason):
    project = _htp_project(project)
    setup(machine, monkeypatch)
    code, _, err = run(capsys, "build", "--backend", "htp", "--project", str(project.root))
    assert code == 1
    assert reason in one_line_error(err)
    assert machine.entries("make") == []


def test_build_htp_fails_when_make_produces_nothing(machine, project, capsys, monkeypatch):
    project = _htp_project(project)
    monkeypatch.setenv("FAKE_MAKE_OUTPUTS", json.dumps({}))
    code, _, err = run(capsys, "build", "--backend", "htp", "--host-only", "--project", str(project.root))
    assert code == 1
    assert one_line_error(err) == f"error: make htp_x86 succeeded but did not produce {project.htp_host_lib}"


def _htp_readiness(machine, project, env):
    checks = run_checks(project, env, schema_loader=lambda: CapableSchema, has_module=every_module)
    return {c.name: c for c in checks}, readiness(checks)


def test_doctor_s_htp_steps_are_ready_on_a_set_up_machine(machine, project):
    project = _htp_project(project)
    checks, ready = _htp_readiness(machine, project, machine.environ())
    assert ready["htp-build"] == [] and ready["htp-export"] == [] and ready["htp-run"] == []
    assert checks["EXECUTORCH_BUILD_FOLDER (HTP)"].ok and checks["qnn_executor_runner (HTP)"].ok
    assert not checks["HTP device libraries built"].ok  # an artifact: `build --backend htp` makes it


@pytest.mark.parametrize(
    "unset, blocked, check",
    [
        ("EXECUTORCH_BUILD_FOLDER", ("htp-export", "htp-run"), "EXECUTORCH_BUILD_FOLDER (HTP)"),
        ("ANDROID_NDK_ROOT", ("htp-build", "htp-run"), "ANDROID_NDK_ROOT"),
        ("HEXAGON_SDK_ROOT", ("htp-build", "htp-run"), "HEXAGON_SDK_ROOT"),
        ("ANDROID_SERIAL", ("htp-run",), "device"),
    ],
)
def test_doctor_s_htp_readiness_counts_what_each_step_needs(machine, project, unset, blocked, check):
    project = _htp_project(project)
    env = {k: v for k, v in machine.environ().items() if k != unset}
    _, ready = _htp_readiness(machine, project, env)
    for step in ("htp-build", "htp-export", "htp-run"):
        assert (check in ready[step]) == (step in blocked), (step, ready[step])


def test_doctor_prints_the_htp_steps(machine, project, capsys):
    _htp_project(project)
    code, out, _ = run(capsys, "doctor", "--quick", "--project", str(project.root))
    assert re.search(r"^htp-build +", out, re.M) and re.search(r"^htp-export +", out, re.M)
    assert re.search(r"^htp-run +", out, re.M)


# --------------------------------------------------------------------------- sign


def _built(machine, project, build_id="1"):
    os.environ["FAKE_BUILD_ID"] = build_id  # the `machine` fixture restores the environment
    assert cli.main(["build", "--project", str(project.root)]) == 0
    machine.clear()


def _signed_state(project):
    d = project.signed_dir
    return {p.name: p.read_bytes() for p in d.iterdir()} if d.exists() else None


def test_sign_signs_both_libraries_into_the_project(machine, project, capsys, monkeypatch):
    _built(machine, project)
    capsys.readouterr()
    code, out, err = run(capsys, "sign", "--project", str(project.root))
    assert code == 0, err
    calls = machine.entries("signer")
    assert len(calls) == 2
    for call, rel in zip(calls, DSP_LIBS):
        argv = call["argv"]
        assert argv[:2] == ["-i", str(project.op_dir / rel)] and argv[2] == "-o"
        # Into a staging folder of the project, never the SDK tree.
        assert argv[3].startswith(str(project.root / "build" / "signed" / ".signing-"))
        assert call["env"]["HEXAGON_SDK_ROOT"] == str(machine.hexagon_sdk)
        assert call["stdin"] == "y\n"
    signed = project.signed_dir
    assert signed == project.root / "build" / "signed" / f"hexagon-{ARCH}"
    for rel in DSP_LIBS:
        name = rel.rsplit("/", 1)[1]
        assert (signed / name).read_bytes() == (project.op_dir / rel).read_bytes() + b"--fake-signature--"
        assert f"signed {signed / name}" in out
    assert sorted(p.name for p in signed.parent.iterdir()) == [f"hexagon-{ARCH}"]  # no staging left
    assert check_signed(project) == [signed / LIB, signed / ISLAND]
    assert not list(machine.hexagon_sdk.rglob("*.so"))


def test_signer_failure_fails_sign_with_its_message(machine, project, capsys, monkeypatch):
    _built(machine, project)
    monkeypatch.setenv("FAKE_SIGNER_MODE", "fail")
    capsys.readouterr()
    code, _, err = run(capsys, "sign", "--project", str(project.root))
    assert code == 1
    assert one_line_error(err) == (
        f"error: signing {LIB} failed (exit 3): ERROR: sectools could not sign {LIB}: certificate expired"
    )
    assert not project.signed_dir.exists()
    assert list(project.signed_dir.parent.iterdir()) == []


def test_failed_resign_deploys_nothing_half_written(machine, project, capsys, monkeypatch):
    _built(machine, project, "1")
    assert cli.main(["sign", "--project", str(project.root)]) == 0
    before = _signed_state(project)
    # A new build, and the signer fails on the second library after signing the first.
    _built(machine, project, "2")
    monkeypatch.setenv("FAKE_SIGNER_MODE", "fail-island")
    capsys.readouterr()
    code, _, err = run(capsys, "sign", "--project", str(project.root))
    assert code == 1
    assert f"signing {ISLAND} failed (exit 3)" in one_line_error(err)
    # The first library was signed, but the deployed folder is still the old, complete set...
    assert len(machine.entries("signer")) == 2
    assert _signed_state(project) == before
    assert [p.name for p in project.signed_dir.parent.iterdir()] == [f"hexagon-{ARCH}"]
    # ...which no longer matches the DSP libraries, so `run` refuses it as stale.
    with pytest.raises(ToolchainError, match="stale"):
        check_signed(project)


@pytest.mark.parametrize(
    "mode, reason",
    [
        ("silent", f"the signer exited 0 but wrote no {LIB}: nothing was signed"),
        ("copy", f"the signer exited 0 but {LIB} is an unsigned copy"),
    ],
)
def test_sign_fails_when_nothing_was_signed(machine, project, capsys, monkeypatch, mode, reason):
    _built(machine, project)
    monkeypatch.setenv("FAKE_SIGNER_MODE", mode)
    capsys.readouterr()
    code, _, err = run(capsys, "sign", "--project", str(project.root))
    assert code == 1
    assert one_line_error(err) == f"error: {reason}"
    assert not project.signed_dir.exists()


def test_sign_fails_when_a_library_is_missing(machine, project, capsys):
    _built(machine, project)
    project.dsp_libs[1].unlink()
    capsys.readouterr()
    code, _, err = run(capsys, "sign", "--project", str(project.root))
    assert code == 1
    # The command on a line of its own: the next has the same length for every spec.
    build = "python -m norm_ops build"
    assert one_line_error(err) == f"error: nothing to sign, missing {project.dsp_libs[1]}: run `{build}`"
    assert machine.entries("signer") == []
    assert not (project.root / "build").exists()


def test_signer_needs_python_before_3_12(machine, tmp_path, project, capsys, monkeypatch):
    bare = {"PATH": str(machine.bin)}
    assert signer_python(bare, current=(3, 11)) is not None
    assert signer_python(bare, current=(3, 12)) is None
    old = tmp_path / "old python"
    old.mkdir()
    (old / "python3.11").write_text("#!/bin/sh\n")
    (old / "python3.11").chmod(0o755)
    assert signer_python({"PATH": str(old)}, current=(3, 13)) == str(old / "python3.11")
    assert (
        signer_python({"LPAI_SIGNER_PYTHON": "/opt/py311/bin/python", "PATH": ""}, current=(3, 13))
        == "/opt/py311/bin/python"
    )
    _built(machine, project)
    monkeypatch.setattr("sys.version_info", (3, 12, 0, "final", 0))
    monkeypatch.setenv("PATH", str(machine.bin))
    capsys.readouterr()
    code, _, err = run(capsys, "sign", "--project", str(project.root))
    assert code == 1
    assert "the signer needs Python < 3.12 (elfsigner.py imports `imp`)" in one_line_error(err)


# --------------------------------------------------------------------------- doctor

LAPTOP_CHECKS = [
    "Python packages of the tests (torch, pytest)",
    "make",
    "cc (C suite: host-test)",
    "zig for Hexagon (python -m ziglang)",
    "zig's cache folder (hexagon-test writes it)",
    "qemu-hexagon",
]
EVERY_CHECK = [
    *LAPTOP_CHECKS,
    "QNN_SDK_ROOT",
    "QNN SDK >= 2.48 (to build an LPAI op package)",
    "QNN SDK >= 2.49 (for the device path)",
    "LPAI op package header",
    "LPAI op package makefiles",
    # Lowering loads them (ExecuTorch's post-PR source): libQnnLpai.so by bare name, libQnnHtp.so for the SDK check.
    "SDK host library libQnnHtp.so",
    "SDK host library libQnnLpai.so",
    "loader path (LD_LIBRARY_PATH)",
    # The six libraries ExecuTorch's SimpleADB pushes from $QNN_SDK_ROOT/lib/lpai-v6/signed in direct mode.
    "direct-mode runtime libqnn_executorch_backend.so (signed)",
    "direct-mode runtime libqnn_executorch_skel.so (signed)",
    "direct-mode runtime libQnnLpai.so (signed)",
    "direct-mode runtime libQnnSystem.so (signed)",
    "direct-mode runtime libc++abi.so.1 (signed)",
    "direct-mode runtime libc++.so.1 (signed)",
    "gcc (host library)",
    "g++ (host library)",
    "HEXAGON_SDK_ROOT",
    "HEXAGON_TOOLS_VERSION (hexagon-clang)",
    "signer (elfsigner.py)",
    "Python < 3.12 for the signer",
    "ExecuTorch",
    "ExecuTorch op package target LPAI",
    "ExecuTorch op package platform HEXAGON",
    "EXECUTORCH_BUILD_FOLDER",
    "EXECUTORCH_DIRECT_BUILD_FOLDER",
    "EXECUTORCH_X86_BUILD_FOLDER",
    "adb",
    "device",
    "host library built",
    "DSP libraries built",
    "signed libraries (current)",
]
SDK_CHECK = "this SDK builds the op package (make sdk-check)"


def every_module(name):
    """A stand-in for importlib's find_spec: every Python package installed."""
    return True


class _Enum(list):
    def __init__(self, *names):
        super().__init__(type("M", (), {"name": n})() for n in names)
        for n in names:
            setattr(self, n, n)


class CapableSchema:
    """ExecuTorch as built from source after the LPAI custom op pull request."""

    QnnExecuTorchOpPackageTarget = _Enum("UNKNOWN", "CPU", "HTP", "LPAI")
    QnnExecuTorchOpPackagePlatform = _Enum("UNKNOWN", "X86_64", "AARCH64_ANDROID", "HEXAGON")


def test_doctor_on_a_bare_machine_reports_every_missing_piece(tmp_path, project):
    empty = tmp_path / "empty"
    empty.mkdir()
    checks = run_checks(project, {"PATH": str(empty)}, python_version=(3, 12), has_module=lambda name: False)
    # The last one says it has not run: `make sdk-check` needs the SDK.
    assert [c.name for c in checks] == [*EVERY_CHECK, SDK_CHECK]
    assert checks[-1].detail == "not run: needs QNN_SDK_ROOT"
    checks = checks[:-1]
    missing = {c.name for c in checks if not c.ok}
    from norm_ops.toolchain import qc_schema

    real = qc_schema()
    has_lpai = hasattr(real.QnnExecuTorchOpPackageTarget, "LPAI")
    has_hexagon = hasattr(real.QnnExecuTorchOpPackagePlatform, "HEXAGON")
    expected = set(EVERY_CHECK) - {"ExecuTorch"}
    expected -= {
        n
        for n, present in (
            ("ExecuTorch op package target LPAI", has_lpai),
            ("ExecuTorch op package platform HEXAGON", has_hexagon),
        )
        if present
    }
    assert missing == expected
    for check in checks:
        if not check.ok:
            assert check.fix, check.name
    lines = {c.name: c.line() for c in checks}
    assert lines["QNN_SDK_ROOT"].startswith("missing  QNN_SDK_ROOT")
    assert (
        "not set; fix: install the Qualcomm AI Engine Direct SDK (QAIRT; >= 2.48 to build, >= 2.49 for the device)"
        in lines["QNN_SDK_ROOT"]
    )
    assert "imports `imp`" in lines["Python < 3.12 for the signer"]
    if not has_lpai:
        assert "at or after the LPAI custom op pull request" in lines["ExecuTorch op package target LPAI"]
        assert f"revision {EXECUTORCH_REVISION[:12]}" in lines["ExecuTorch op package target LPAI"]
    build_sh = "backends/qualcomm/scripts/build.sh --build_direct_mode 0 --soc_model SM8850"
    assert build_sh in lines["direct-mode runtime libQnnLpai.so (signed)"]
    assert build_sh in lines["EXECUTORCH_DIRECT_BUILD_FOLDER"]
    assert all(readiness(checks)[step] for step in readiness(checks))


def test_doctor_on_a_complete_machine_is_all_ok(machine, project, capsys):
    _built(machine, project)
    assert cli.main(["sign", "--project", str(project.root)]) == 0
    checks = run_checks(project, machine.environ(), schema_loader=lambda: CapableSchema, has_module=every_module)
    assert [c.name for c in checks if not c.ok] == []
    assert all(blockers == [] for blockers in readiness(checks).values())
    adb_calls = [c["argv"] for c in machine.entries("adb")]
    assert adb_calls == [["-s", machine.serial, "get-state"]]


def test_doctor_sees_an_sdk_good_for_building_only(machine, project):
    (machine.qnn_sdk / "sdk.yaml").write_text("version: 2.48.0.250901\n")
    checks = {
        c.name: c
        for c in run_checks(project, machine.environ(), schema_loader=lambda: CapableSchema, has_module=every_module)
    }
    assert checks["QNN SDK >= 2.48 (to build an LPAI op package)"].ok
    assert not checks["QNN SDK >= 2.49 (for the device path)"].ok
    ready = readiness(list(checks.values()))
    assert ready["build"] == [] and ready["device"] == ["QNN SDK >= 2.49 (for the device path)"]


@pytest.mark.parametrize(
    "lib",
    [
        "libqnn_executorch_backend.so",
        "libqnn_executorch_skel.so",
        "libQnnLpai.so",
        "libQnnSystem.so",
        "libc++abi.so.1",
        "libc++.so.1",
    ],
)
def test_doctor_names_each_missing_direct_mode_library(machine, project, lib):
    (machine.qnn_sdk / "lib/lpai-v6/signed" / lib).unlink()
    checks = run_checks(project, machine.environ(), schema_loader=lambda: CapableSchema, has_module=every_module)
    missing = [
        c
        for c in checks
        if not c.ok and c.name not in ("host library built", "DSP libraries built", "signed libraries (current)")
    ]
    assert [c.name for c in missing] == [f"direct-mode runtime {lib} (signed)"]
    assert missing[0].detail == str(machine.qnn_sdk / "lib/lpai-v6/signed" / lib)
    assert readiness(checks)["device"] == [missing[0].name] and readiness(checks)["build"] == []


def test_doctor_wants_the_direct_build_outputs(machine, project):
    (machine.build_direct / "backends/qualcomm/libqnn_executorch_backend.so").unlink()
    check = {c.name: c for c in run_checks(project, machine.environ(), schema_loader=lambda: CapableSchema)}[
        "EXECUTORCH_DIRECT_BUILD_FOLDER"
    ]
    assert not check.ok and "lacks backends/qualcomm/libqnn_executorch_backend.so" in check.detail


def test_doctor_reports_an_unplugged_device(machine, project):
    env = machine.environ(FAKE_ADB_DEVICES="")
    check = {c.name: c for c in run_checks(project, env, schema_loader=lambda: CapableSchema)}["device"]
    assert not check.ok and check.detail.startswith(f"{machine.serial}: ")


def test_doctor_command_prints_each_check_and_fails(tmp_path, project, capsys, monkeypatch):
    """Nothing on PATH: not even the laptop path is ready, and doctor says so in one line."""
    for name in ALL_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    code, out, err = run(capsys, "doctor", "--project", str(project.root))
    assert code == 1
    for name in EVERY_CHECK:
        assert any(
            line.split(None, 1)[1].startswith(name) for line in out.splitlines() if line.startswith(("ok ", "missing "))
        ), name
    assert "device     not ready: " in out
    assert one_line_error(err) == "error: the laptop path is not ready for pytest, host-test: see the fixes above"


@pytest.fixture
def laptop(tmp_path, monkeypatch):
    """A laptop: make, cc, zig and qemu-hexagon (stand-ins, alone on PATH), no Qualcomm SDK."""
    from norm_ops import doctor

    tools = tmp_path / "laptop bin"
    tools.mkdir()
    for tool in ("make", "cc", "qemu-hexagon"):
        (tools / tool).write_text("#!/bin/sh\nexit 0\n")
        (tools / tool).chmod(0o755)
    for name in ALL_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PATH", str(tools))
    monkeypatch.setattr(doctor, "_has_module", every_module)
    return tools


def test_doctor_on_a_laptop_is_ready_for_the_laptop_path(laptop, project, capsys):
    code, out, err = run(capsys, "doctor", "--project", str(project.root))
    assert code == 0, err
    assert err == ""  # only the device path is missing: no error
    lines = out.splitlines()
    assert "ready: pytest, host-test, hexagon-test" in lines
    # The laptop path first, then the device path.
    assert lines.index("ready: pytest, host-test, hexagon-test") < next(
        i for i, line in enumerate(lines) if "QNN_SDK_ROOT" in line
    )
    assert lines[-1].startswith(
        "summary: the laptop path is ready (pytest, host-test, hexagon-test); the device path lacks "
    )
    assert "error" not in lines[-1]
    # --device: the device path must be ready too.
    code, out, err = run(capsys, "doctor", "--device", "--project", str(project.root))
    assert code == 1 and one_line_error(err).startswith("error: --device: the device path is not ready (build, ")


def test_doctor_without_zig_or_qemu_names_hexagon_test_only(laptop, project, capsys, monkeypatch):
    (laptop / "qemu-hexagon").unlink()
    code, out, err = run(capsys, "doctor", "--project", str(project.root))
    assert code == 0, err
    assert "ready: pytest, host-test; not ready: hexagon-test (needs qemu-hexagon)" in out.splitlines()


def test_doctor_says_each_fix_once(laptop, project, capsys):
    code, out, _ = run(capsys, "doctor", "--project", str(project.root))
    lines = out.splitlines()
    fixes = [line for line in lines if re.match(r"  \[\d+\] ", line)]
    texts = [line.split("] ", 1)[1] for line in fixes]
    assert len(texts) == len(set(texts)) and texts
    missing = [line for line in lines if line.startswith("missing ")]
    numbers = {int(m) for line in missing for m in re.findall(r"\[fix (\d+)\]$", line)}
    assert len(numbers) == len(fixes) and all(re.search(r"\[fix \d+\]$", line) for line in missing)
    # The six direct-mode libraries share one fix, printed once.
    build_sh = "backends/qualcomm/scripts/build.sh --build_direct_mode 0 --soc_model SM8850` (builds"
    assert out.count(build_sh) == 1
    runtime = [line for line in missing if line.split(None, 1)[1].startswith("direct-mode runtime ")]
    assert len(runtime) == 6 and len({re.search(r"\[fix (\d+)\]$", line).group(1) for line in runtime}) == 1


def test_doctor_gives_one_sdk_minimum_per_purpose(laptop, project, capsys):
    _, out, _ = run(capsys, "doctor", "--project", str(project.root))
    said = re.findall(r">= (2\.\d+)([^;,)\]\n]{0,48})", out)
    assert {version for version, _ in said} == {"2.48", "2.49"}
    for version, context in said:
        purpose = "device" if version == "2.49" else "build"
        other = "build" if version == "2.49" else "device"
        assert purpose in context.replace("LPAI op packages", "build") and other not in context, (version, context)


@pytest.mark.parametrize(
    "fake, ok, detail",
    [
        ({}, True, "{sdk}: passed"),
        ({"FAKE_MAKE_FAIL": "sdk-check"}, False, "failed against {sdk}: make: *** [sdk-check] Error 1"),
        ({"FAKE_MAKE_NO_TARGET": "sdk-check"}, False, "op_package/{package}/Makefile has no sdk-check target"),
    ],
    ids=["passes", "fails", "no-target"],
)
def test_doctor_checks_this_sdk_with_make_sdk_check(machine, project, fake, ok, detail):
    """With QNN_SDK_ROOT set, doctor runs `make -C op_package/<package> sdk-check` (a fake
    make here: the SDK is not public; the target itself is tested by the op package's own suite)."""
    env = machine.environ(**fake)
    checks = run_checks(project, env, schema_loader=lambda: CapableSchema, has_module=every_module, sdk_check=True)
    check = {c.name: c for c in checks}[SDK_CHECK]
    assert check.ok == ok
    assert check.detail.startswith(detail.format(sdk=machine.qnn_sdk, package=PACKAGE)), check.detail
    [call] = [c for c in machine.entries("make") if "sdk-check" in c["argv"]]
    assert call["argv"] == ["-C", str(project.op_dir), "sdk-check"]
    assert call["env"]["QNN_SDK_ROOT"] == str(machine.qnn_sdk)
    assert readiness(checks)["build"] == ([] if ok else [SDK_CHECK])


def test_doctor_command_runs_the_sdk_check_unless_quick(machine, project, capsys):
    code, out, err = run(capsys, "doctor", "--project", str(project.root))
    assert f"checking this SDK: -C {project.op_dir} sdk-check" in out
    assert [c["argv"][-1] for c in machine.entries("make")] == ["sdk-check"]
    machine.clear()
    code, out, err = run(capsys, "doctor", "--quick", "--project", str(project.root))
    assert "checking this SDK" not in out and machine.entries("make") == []


# --------------------------------------------------------------------------- this project's op package

ROOT = Project(Path(__file__).resolve().parents[1])


@pytest.mark.skipif(not shutil.which("make"), reason="make is not installed")
@pytest.mark.parametrize("target", ["lpai_x86", "lpai_dsp"])
def test_the_op_package_makefile_has_the_targets_build_runs(target):
    # make's database (-p), nothing run (-q): the targets the Makefile defines, no SDK needed.
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    proc = subprocess.run(
        ["make", "-q", "-p", "-f", "Makefile"], cwd=ROOT.op_dir, capture_output=True, text=True, env=env
    )
    targets = {
        line.split(":", 1)[0]
        for line in proc.stdout.splitlines()
        if ":" in line and not line.startswith(("#", "\t", " ")) and "=" not in line.split(":", 1)[0]
    }
    assert target in targets, f"op_package Makefile has no target {target!r}"


def _make_env():
    """The environment of a make run by a user, not of one run by this suite's make."""
    return {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}


@pytest.mark.skipif(not shutil.which("make"), reason="make is not installed")
def test_the_root_makefile_runs_each_command_where_it_belongs():
    """`make <command>` at the project root: help names every command; `info` runs the
    package's command line; the others, dry-run (-n: the op package's make runs, in -n
    too), hand over to pytest, the op package's makefiles and the command line."""
    import sys

    def make(*args):
        proc = subprocess.run(
            ["make", "--no-print-directory", f"PYTHON={sys.executable}", *args],
            cwd=ROOT.root,
            capture_output=True,
            text=True,
            env=_make_env(),
            timeout=300,
        )
        assert proc.returncode == 0, f"make {' '.join(args)}:\n{proc.stdout}{proc.stderr}"
        return proc.stdout

    help_text = make()
    for target in ("test", "host-test", "hexagon-test", "report", "doctor", "info", "help"):
        assert f"make {target}" in help_text or target == "help", help_text
    assert "op package NormOpPackage" in make("info")
    assert f"{sys.executable} -m pytest -k quant" in make("-n", "test", "ARGS=-k quant")
    assert f"{sys.executable} -m pytest --op '{OPS[0].name}' -x" in make("-n", "test", f"OP={OPS[0].name}", "ARGS=-x")
    assert "makefiles/host_emulator.mk test" in make("-n", "host-test")
    assert "makefiles/hexagon_test.mk" in make("-n", "hexagon-test")
    assert f"{sys.executable} -m norm_ops report --op x" in make("-n", "report", "ARGS=--op x")


def test_the_command_line_finds_the_project_from_any_folder_in_it(tmp_path):
    """As after `pip install -e .` (the package importable from anywhere: PYTHONPATH
    here): a command run in a subfolder works on the project; run outside any project,
    it says in one line where to run it."""
    import sys

    env = {**os.environ, "PYTHONPATH": str(ROOT.root), "QNN_SDK_ROOT": ""}
    argv = [sys.executable, "-m", "norm_ops", "build", "--host-only"]
    inside = subprocess.run(argv, cwd=ROOT.op_dir / "src", capture_output=True, text=True, env=env, timeout=300)
    assert inside.returncode == 1
    assert "not inside" not in inside.stderr and "QNN_SDK_ROOT" in inside.stderr, inside.stderr
    outside = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300)
    assert outside.returncode == 1
    assert outside.stderr.splitlines() == [
        f"error: {tmp_path.resolve()} is not inside a norm_ops project (no op_package/{PACKAGE} here or above): "
        f"run it in {ROOT.root.resolve()} or a folder below it, or pass --project"
    ], outside.stderr


def test_the_xml_reader_sees_the_ops_torch_registered():
    """op_package_xml reads what the device path registers: for each op, the tensor
    inputs and scalar params of the schema torch actually registered (not the table the
    XML was rendered from), under the QNN type ExecuTorch is told (qnn_op_type_name)."""
    from norm_ops import op_package_xml

    collection = op_package_xml.parse(ROOT.opdef_xml())
    assert collection.package_name == PACKAGE
    expected = []
    for op in OPS:
        arguments = op.default._schema.arguments
        expected.append(
            (
                op.qnn_type,
                tuple(a.name for a in arguments if str(a.type) == "Tensor"),
                tuple(a.name for a in arguments if str(a.type) != "Tensor"),
                op.outputs,
                ("LPAI",),
            )
        )
    assert [(d.name, d.inputs, d.params, d.outputs, d.backends) for d in collection.ops] == expected
    op_package_xml.check_matches(collection, PACKAGE, {op.qnn_type: (len(op.inputs), len(op.outputs)) for op in OPS})


def _broken_xmls(text):
    first = OPS[0].qnn_type
    start = text.index("<OpDef>")
    end = text.index("</OpDef>", start) + len("</OpDef>")
    yield "is for package", text.replace(f'PackageName="{PACKAGE}"', 'PackageName="OtherPackage"')
    yield "no OpDef", text[:start] + text[end:]  # (for a one-op package: none left)
    yield (
        "SupportedBackend LPAI",
        text.replace("<SupportedBackend>LPAI</SupportedBackend>", "<SupportedBackend>HTP</SupportedBackend>", 1),
    )
    yield "inputs", text.replace(f"<Name>{first}</Name>", f"<Name>{first}</Name><Input><Name>extra</Name></Input>", 1)
    yield "more than once", text[:end] + text[start:end] + text[end:]


@pytest.mark.parametrize("index", range(5))
def test_the_device_path_refuses_an_edited_xml(index):
    """What device.op_package_options checks before registering: each way an edited
    XML goes wrong is refused in one line naming the problem."""
    from norm_ops import op_package_xml

    message, broken = list(_broken_xmls(ROOT.opdef_xml().read_text()))[index]
    with pytest.raises(op_package_xml.OpDefError, match=message) as caught:
        collection = op_package_xml.parse(broken)
        op_package_xml.check_matches(
            collection, PACKAGE, {op.qnn_type: (len(op.inputs), len(op.outputs)) for op in OPS}
        )
    assert "\n" not in str(caught.value)


# --------------------------------------------------------------------------- fuzz: bad arguments and files


def _files(base):
    """Bad files of every kind a command reads, and one good program cut in half."""
    import torch

    # One name a line (the magic trailing comma): ruff leaves it so at any namespace length.
    from norm_ops.device_data import (
        MAX_FILE_BYTES,
        N_INPUTS,
        PackageModel,
        Ranges,
        random_inputs,
    )

    from lowering import lower

    base.mkdir()
    (base / "garbage.pte").write_bytes(b"\x00\x01garbage\xff" * 7)
    (base / "empty.pte").write_bytes(b"")
    (base / "folder.pte").mkdir()
    program = lower(PackageModel(), random_inputs(0, (1, 2, 2, 2)))
    (base / "truncated.pte").write_bytes(program[: len(program) // 2])
    (base / "garbage.pt").write_bytes(b"not a torch file")
    torch.save({"inputs": [1, 2]}, base / "dict.pt")
    torch.save(["text", 3], base / "strings.pt")
    torch.save([], base / "empty-list.pt")
    torch.save([tuple(torch.full((1, 2, 2, 2), float("nan")) for _ in range(N_INPUTS))], base / "nan.pt")
    (base / "a file").write_text("x")
    (base / "list.yaml").write_text("- package_name\n- ops\n")
    (base / "broken.yaml").write_text("ops:\n  - name: x\n   inputs: [x]\n")
    # Deeper than PyYAML's recursion ("unexpected RecursionError" before: scripts/new's
    # strict reader had the guard, this project's reading did not), and a key twice.
    (base / "deep.yaml").write_text("ops: " + "[" * 5000 + "]" * 5000 + "\n")
    (base / "twice.yaml").write_text("ops: []\nops: []\n")
    (base / "latin1.yaml").write_bytes("doc: caf\xe9\n".encode("latin-1"))
    # Files no command may block on or read without bound, and data no model takes.
    os.mkfifo(base / "fifo.pte")
    os.mkfifo(base / "fifo.pt")
    (base / "zeros.pte").write_bytes(bytes(4096))  # parses as an empty flatbuffer
    with open(base / "huge.pte", "wb") as f:  # sparse: no disk used, and never read
        f.truncate(MAX_FILE_BYTES + 1)

    def batch(make):
        return [tuple(make() for _ in range(N_INPUTS))]

    torch.save(batch(lambda: torch.ones(1, 2, 2, 2, dtype=torch.int64)), base / "int64.pt")
    torch.save(batch(lambda: torch.ones(1, 2, 2, 2, dtype=torch.complex64)), base / "complex.pt")
    torch.save(batch(lambda: torch.ones(1, 0, 2, 2)), base / "zero-element.pt")
    torch.save(batch(lambda: torch.ones((1,) * 9)), base / "rank9.pt")
    torch.save([tuple(torch.ones(1, 2, 2, 2) for _ in range(N_INPUTS + 1))], base / "wrong-count.pt")
    good = random_inputs(0, (1, 2, 2, 2))
    torch.save([good], base / "good-cal.pt")
    # A program with every op delegated (a stand-in backend) and the sidecar export writes.
    (base / "good.pte").write_bytes(lower(PackageModel(), good, claim=[op.qualified_name for op in OPS]))
    ranges = Ranges.from_calibration([good])
    (base / "good.json").write_text(
        json.dumps(
            {
                "target": "device",
                "model": None,
                "inputs": [{"shape": list(t.shape), "dtype": "float32"} for t in good],
                "ranges": ranges.to_json(),
            }
        )
    )
    return base


BAD_COMMAND_LINES = [
    [],
    ["bogus"],
    ["--nope"],
    ["info", "extra"],
    ["doctor", "--bogus"],
    ["check-pte"],
    ["check-pte", "{d}/garbage.pte"],
    ["check-pte", "{d}/empty.pte"],
    ["check-pte", "{d}/folder.pte"],
    ["check-pte", "{d}/missing.pte"],
    ["check-pte", "{d}/truncated.pte"],
    ["check-pte", "{d}/garbage.pt"],
    ["build", "--project", "{d}/nowhere"],
    ["build", "--project", "{d}/a file"],
    ["sign", "--project", "{d}"],
    ["export", "--target", "nowhere"],
    ["export", "--shape", "a,b"],
    ["export", "--shape", "0,1"],
    ["export", "--shape", "-1"],
    ["export", "--shape", "100000,100000,100000"],
    ["export", "--shape", ","],
    ["export", "--calibration-value", "nan"],
    ["export", "--calibration-value", "inf"],
    ["export", "--calibration-value", "1e39"],
    ["export", "--calibration-value", "x"],
    ["export", "--calibration", "{d}/garbage.pt"],
    ["export", "--calibration", "{d}/folder.pte"],
    ["export", "--calibration", "{d}/missing.pt"],
    ["export", "--calibration", "{d}/dict.pt"],
    ["export", "--calibration", "{d}/strings.pt"],
    ["export", "--calibration", "{d}/empty-list.pt"],
    ["export", "--calibration", "{d}/nan.pt", "--shape", "1,2,2,2"],
    ["export", "--calibration", "{d}/nan.pt", "--calibration-value", "1"],
    ["export", "--pte", "{d}/a file/x.pte"],
    ["export", "--pte", "{d}/folder.pte"],
    ["export", "--pte", "{d}/x.bin"],
    ["export", "--model", "no colon"],
    ["export", "--model", "os:path", "--calibration", "{d}/nan.pt"],
    ["export", "--example-inputs", "{d}/strings.pt"],
    ["run", "--inputs", "{d}/garbage.pt", "--pte", "{d}/good.pte"],
    ["run", "--inputs", "{d}/dict.pt", "--pte", "{d}/good.pte"],
    ["run", "--inputs", "{d}/strings.pt", "--pte", "{d}/good.pte"],
    ["run", "--inputs", "{d}/folder.pte", "--pte", "{d}/good.pte"],
    ["run", "--input-value", "1e39"],
    ["run", "--input-value", "-1e39"],
    ["run", "--input-value", "nan"],
    ["run", "--shape", "100000,100000,100000", "--pte", "{d}/good.pte"],
    ["run", "--shape", "1,x", "--pte", "{d}/good.pte"],
    ["run", "--tolerance-steps", "-1"],
    ["run", "--tolerance-steps", "nan"],
    ["run", "--pte", "{d}/garbage.pte"],
    ["run", "--pte", "{d}/folder.pte", "--device", "X"],
    ["simulate", "--input-value", "1e39"],
    ["simulate", "--calibration", "{d}/strings.pt"],
    ["simulate", "--shape", "9999999999"],
    ["simulate", "--pte", "{d}/a file/x.pte"],
    # Files that are not regular files of bounded size: one line, no hang, no unbounded read.
    ["check-pte", "{d}/fifo.pte"],
    ["check-pte", "/dev/zero"],
    ["check-pte", "{d}/zeros.pte"],
    ["export", "--calibration", "{d}/fifo.pt"],
    ["export", "--calibration", "/dev/zero"],
    ["export", "--example-inputs", "{d}/fifo.pt", "--calibration", "{d}/good-cal.pt"],
    ["run", "--pte", "{d}/good.pte", "--inputs", "/dev/zero"],
    ["run", "--pte", "{d}/fifo.pte"],
    # Arguments checked before the environment (the installed wheel lacks LPAI).
    ["export", "--shape", "1,1,1,1,1,1,1,1,1"],
    ["export", "--calibration", "{d}/int64.pt"],
    ["export", "--calibration", "{d}/complex.pt"],
    ["export", "--calibration", "{d}/zero-element.pt"],
    ["export", "--calibration", "{d}/rank9.pt"],
    ["export", "--calibration", "{d}/wrong-count.pt"],
    ["run", "--pte", "{d}/missing.pte"],
    ["run", "--pte", "{d}/garbage.pte"],
    ["run", "--pte", "{d}/good.pte", "--inputs", "{d}/int64.pt"],
    ["simulate", "--inputs", "{d}/folder.pte"],
    ["simulate", "--inputs", "{d}/fifo.pt"],
    # A new spec for `update`: judged before the project is read or copier runs.
    ["update", "--spec", "{d}/missing.yaml"],
    ["update", "--spec", "{d}/list.yaml"],
    ["update", "--spec", "{d}/broken.yaml"],
    ["update", "--spec", "{d}/deep.yaml"],
    ["update", "--spec", "{d}/twice.yaml"],
    ["update", "--spec", "{d}/latin1.yaml"],
    ["update", "--spec", "{d}/empty.pte"],
    ["update", "--spec", "{d}/folder.pte"],
    ["update", "--spec", "{d}/fifo.pt"],
    ["update", "--spec", "/dev/zero"],
    ["update", "--spec", "{d}/list.yaml", "--project", "{d}/nowhere"],
]


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory):
    return _files(tmp_path_factory.mktemp("fuzz") / "bad files")


class Blocked(Exception):
    """Raised in a command that blocked (not an OSError, which a command may report as a reason)."""


@pytest.fixture
def deadline():
    """Fail, rather than hang, a command that blocks (a FIFO opened for reading waits for a writer)."""
    import signal

    def expired(signum, frame):
        raise Blocked("the command blocked for 60 s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("argv", BAD_COMMAND_LINES, ids=[" ".join(a) or "(none)" for a in BAD_COMMAND_LINES])
def test_bad_command_lines_fail_in_one_line(project, bad_files, capsys, monkeypatch, deadline, argv):
    for name in ALL_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("QNN_SDK_ROOT", "")
    argv = [a.format(d=bad_files) for a in argv]
    if argv and argv[0] in ("build", "sign", "export", "run", "simulate", "doctor") and "--project" not in argv:
        argv += ["--project", str(project.root)]
    before = sorted(project.root.rglob("*"))
    try:
        code = cli.main(argv)
    except SystemExit as exc:  # argparse's usage errors
        code = exc.code
    _, err = capsys.readouterr()
    assert code in (1, 2), err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "unexpected" not in lines[0], err  # a reason, not the last-resort handler
    assert sorted(project.root.rglob("*")) == before  # nothing written, nothing deleted


@pytest.mark.parametrize(
    "argv, reason",
    [
        (["check-pte", "{d}/garbage.pte"], "{d}/garbage.pte: not an ExecuTorch program"),
        (["check-pte", "{d}/empty.pte"], "{d}/empty.pte: is empty, not an ExecuTorch program"),
        (["check-pte", "{d}/folder.pte"], "{d}/folder.pte: is a directory, not a .pte file"),
        (["run", "--input-value", "1e39"], "--input-value 1e+39: not a finite float32 value"),
        (
            ["run", "--pte", "{d}/good.pte", "--inputs", "{d}/strings.pt"],
            "--inputs {d}/strings.pt: batch 0 is not a tuple of tensors",
        ),
        (
            ["run", "--pte", "{d}/good.pte", "--shape", "100000,100000,100000"],
            "--shape 100000,100000,100000: 1000000000000000 elements",
        ),
        (["export", "--pte", "{d}/a file/x.pte"], "--pte {d}/a file/x.pte: {d}/a file is a file, not a folder"),
        (
            ["export", "--calibration", "{d}/nan.pt", "--shape", "1,2,2,2"],
            "--calibration {d}/nan.pt: batch 0 input 0 holds a non-finite value",
        ),
        # Not regular files: one line, never a wait or an unbounded read.
        (["check-pte", "{d}/fifo.pte"], "{d}/fifo.pte: is a FIFO (named pipe), expected a regular file"),
        (["check-pte", "/dev/zero"], "/dev/zero: is a character device, expected a regular file"),
        (["check-pte", "{d}/huge.pte"], "{d}/huge.pte: {huge} bytes, more than the {limit} this command reads"),
        (["export", "--calibration", "{d}/fifo.pt"], "--calibration {d}/fifo.pt: is a FIFO (named pipe)"),
        (["export", "--calibration", "/dev/zero"], "--calibration /dev/zero: is a character device"),
        (["run", "--pte", "{d}/good.pte", "--inputs", "/dev/zero"], "--inputs /dev/zero: is a character device"),
        (["simulate", "--inputs", "{d}/fifo.pt"], "--inputs {d}/fifo.pt: is a FIFO (named pipe)"),
        # A file that is not a program says so, not "no delegate" or "no execution plan".
        (["check-pte", "{d}/zeros.pte"], "{d}/zeros.pte: not an ExecuTorch program"),
        (["check-pte", "{d}/garbage.pt"], "{d}/garbage.pt: not an ExecuTorch program"),
        # Every argument before the environment: these name the argument even with an
        # ExecuTorch that lacks LPAI and no SDK.
        (["export", "--shape", "1,1,1,1,1,1,1,1,1"], "--shape 1,1,1,1,1,1,1,1,1: 9 dims, LPAI tensors have at most 5"),
        (
            ["export", "--calibration", "{d}/int64.pt"],
            "--calibration {d}/int64.pt batch 0: input 0 is int64[1, 2, 2, 2], the package model takes float32",
        ),
        (["export", "--calibration", "{d}/complex.pt"], "--calibration {d}/complex.pt: batch 0 input 0 is complex"),
        (
            ["export", "--calibration", "{d}/zero-element.pt"],
            "--calibration {d}/zero-element.pt: batch 0 input 0 is empty",
        ),
        (["export", "--calibration", "{d}/rank9.pt"], "--calibration {d}/rank9.pt: batch 0 input 0 is float32[1, 1, 1"),
        (
            ["export", "--calibration", "{d}/wrong-count.pt"],
            "--calibration {d}/wrong-count.pt batch 0: {n_plus_1} tensor(s), the package model takes {n}",
        ),
        (["run", "--pte", "{d}/missing.pte"], "--pte {d}/missing.pte: no such file"),
        (["run", "--pte", "{d}/garbage.pte"], "--pte {d}/garbage.pte: not an ExecuTorch program"),
        (["run", "--pte", "{d}/good.pte", "--inputs", "{d}/int64.pt"], "the inputs: input 0 is int64[1, 2, 2, 2]"),
        (["simulate", "--inputs", "{d}/folder.pte"], "--inputs {d}/folder.pte: is a directory"),
        # copier reads a --data-file itself and ends a bad one in a traceback.
        (["update", "--spec", "{d}/missing.yaml"], "--spec {d}/missing.yaml: no such file"),
        (["update", "--spec", "{d}/list.yaml"], "--spec {d}/list.yaml: the file is a list, not a spec"),
        (
            ["update", "--spec", "{d}/broken.yaml"],
            "--spec {d}/broken.yaml: is not valid YAML at line 3, column 4: expected <block end>",
        ),
        (["update", "--spec", "{d}/deep.yaml"], "--spec {d}/deep.yaml: is nested too deeply to be a spec"),
        (
            ["update", "--spec", "{d}/twice.yaml"],
            "--spec {d}/twice.yaml: line 2, column 1: key 'ops' is given twice (also at line 1, column 1)",
        ),
        (["update", "--spec", "{d}/latin1.yaml"], "--spec {d}/latin1.yaml: not UTF-8 text"),
        (["update", "--spec", "{d}/empty.pte"], "--spec {d}/empty.pte: the file is empty, not a spec"),
        (["update", "--spec", "{d}/fifo.pt"], "--spec {d}/fifo.pt: not a regular file"),
    ],
)
def test_bad_input_names_the_argument_and_the_rule(project, bad_files, capsys, monkeypatch, deadline, argv, reason):
    from norm_ops.device_data import MAX_FILE_BYTES, N_INPUTS

    for name in ALL_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("QNN_SDK_ROOT", "")
    argv = [a.format(d=bad_files) for a in argv]
    if argv[0] != "check-pte":
        argv += ["--project", str(project.root)]
    assert cli.main(argv) == 1
    expected = reason.format(
        d=bad_files, n=N_INPUTS, n_plus_1=N_INPUTS + 1, huge=MAX_FILE_BYTES + 1, limit=MAX_FILE_BYTES
    )
    assert one_line_error(capsys.readouterr().err).startswith("error: " + expected)


USER_CODE = {
    "exits": "import sys\n\n\ndef build():\n    sys.exit(0)\n",
    "fails": "import sys\n\n\ndef build():\n    sys.exit('no weights')\n",
    "interrupted": "def build():\n    raise KeyboardInterrupt\n",
    "exits_on_import": "import sys\n\nsys.exit(3)\n",
    "exits_in_forward": (
        "import sys\n\nimport torch\n\n\nclass Net(torch.nn.Module):\n    def forward(self, *xs):\n"
        "        sys.exit(0)\n\n\ndef build():\n    return Net()\n"
    ),
}


@pytest.mark.parametrize(
    "module, reason",
    [
        ("exits", "--model {name}:build: calling it called sys.exit(0)"),
        ("fails", "--model {name}:build: calling it called sys.exit('no weights')"),
        ("interrupted", "--model {name}:build: calling it was interrupted (KeyboardInterrupt)"),
        ("exits_on_import", "--model {name}:build: importing it called sys.exit(3)"),
        ("exits_in_forward", "--calibration {cal} batch 0: the model called sys.exit(0)"),
    ],
)
def test_a_model_factory_that_exits_fails_in_one_line(project, bad_files, capsys, monkeypatch, module, reason):
    """A factory's sys.exit() used to end the command with its status (0: silent success)."""
    import sys

    name = f"user_factory_{module}"
    (project.root / f"{name}.py").write_text(USER_CODE[module])
    monkeypatch.setenv("QNN_SDK_ROOT", "")
    argv = ["export", "--model", f"{name}:build", "--calibration", str(bad_files / "good-cal.pt")]
    try:
        code = cli.main([*argv, "--project", str(project.root)])
    except BaseException as exc:  # noqa: BLE001 - what escaped is the failure
        code = f"escaped: {type(exc).__name__}"
    finally:
        sys.modules.pop(name, None)
    assert code == 1
    expected = reason.format(name=name, cal=bad_files / "good-cal.pt")
    assert one_line_error(capsys.readouterr().err) == f"error: {expected}"


def test_info_into_a_closed_pipe_ends_quietly(bad_files):
    """`info | head`: the reader leaves early; no BrokenPipeError, no traceback."""
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "norm_ops", "info"],
        cwd=ROOT.root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "QNN_SDK_ROOT": ""},
    )
    proc.stdout.close()  # before the command writes anything: its first write meets a closed pipe
    err = proc.stderr.read().decode()
    code = proc.wait(timeout=300)
    assert err == "", err
    assert code == 141  # 128 + SIGPIPE, as a program killed by the signal reports it


def test_stderr_is_one_line_in_a_real_process(bad_files, project):
    """The library warnings torch and torchao log while ExecuTorch is imported stay off stderr."""
    import sys

    proc = host.run_command(
        [sys.executable, "-m", "norm_ops", "check-pte", str(bad_files / "garbage.pte")],
        budget=300,
        cwd=ROOT.root,
        env={**os.environ, "QNN_SDK_ROOT": ""},
    )
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        f"error: {bad_files / 'garbage.pte'}: not an ExecuTorch program "
        "(no ExecuTorch file identifier 'ETnn' at byte 4; found b'rbag')"
    ]


def test_the_pinned_executorch_revision_lives_in_one_place():
    spelled = [
        p.relative_to(ROOT.root).as_posix()
        for p in sorted(ROOT.root.rglob("*"))
        if p.is_file()
        and p.suffix in (".py", ".md", ".toml", ".yml", ".txt")
        and "build" not in p.relative_to(ROOT.root).parts
        and EXECUTORCH_REVISION[:12] in p.read_text(errors="replace")
    ]
    assert spelled == ["norm_ops/toolchain/sdk.py"]


def test_update_tells_a_template_folder_here_from_a_remote_one():
    """`update` checks that a local _src_path is a folder before copier runs (copier
    said "Updating is only supported in git-tracked templates" for a moved one); a URL,
    a gh:/gl: shortcut or a git@host: address is copier's to fetch."""
    from norm_ops.toolchain.template import is_local

    assert all(is_local(s) for s in ("/home/me/qnn-op-template", "~/src/t", "relative/t"))
    remote = ("gh:org/qnn-op-template", "gl:org/t", "https://github.com/org/t.git", "git@github.com:org/t.git")
    assert not any(is_local(s) for s in remote)


def test_update_names_what_git_lacks_in_one_line(tmp_path, monkeypatch):
    """Before copier runs: no git on PATH (copier ended in plumbum's CommandNotFound
    traceback), a project outside any repository, and a dirty tree, its files named
    (copier says only "Destination repository is dirty"); a clean tree passes."""
    from norm_ops.toolchain.template import check_git

    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # no repository around tmp_path counts
    project = tmp_path / "project"
    (project / "sub").mkdir(parents=True)
    (project / "kept.py").write_text("x = 1\n")
    with pytest.raises(ToolchainError, match=r"^\S+ is not a git repository: copier update needs the project"):
        check_git(project)
    ident = ["-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    for args in (["init", "-q"], ["add", "-A"], [*ident, "commit", "-q", "-m", "project"]):
        subprocess.run(["git", *args], cwd=project, check=True, capture_output=True)
    check_git(project)
    (project / "kept.py").write_text("x = 2\n")
    (project / "sub" / "my spec.yaml").write_text("ops: []\n")
    with pytest.raises(ToolchainError) as info:
        check_git(project)
    assert str(info.value) == (
        "the project has uncommitted changes (kept.py, sub/my spec.yaml): commit or stash them first, "
        "copier update needs a clean tree (keep the spec you edit outside the project)"
    )
    monkeypatch.setenv("PATH", str(tmp_path / "no-tools"))
    with pytest.raises(ToolchainError, match=r"^git is not on PATH: copier update needs it"):
        check_git(project)


def test_update_names_what_a_newer_release_needs_by_hand():
    """`update` prints, for each newer release, the "Update needs action" text of every
    entry that is not "no": a list item or a paragraph, bold or not, across line breaks."""
    from norm_ops.toolchain.template import needed_actions

    section = (
        "\n### Added\n\n"
        "- A fix. **Conventions**: none. **Update\n  needs action**: no.\n"
        "- A renamed stub. **Update needs action**: move `mine/a.c`\n  to `mine/b.c`.\n"
        "- Plain. Update needs action: No, nothing.\n\n"
        "**Conventions**: C3. **Files**: `x.h`.\n**Update needs action**: rebuild once.\n"
    )
    assert needed_actions(section) == [
        "(A renamed stub.) move `mine/a.c` to `mine/b.c`.",
        "(Conventions: C3. Files: `x.h`.) rebuild once.",
    ]


# --------------------------------------------------------------------------- edges of issue 40


def test_update_refuses_a_vcs_ref_the_template_lacks_in_one_line(tmp_path, project, capsys):
    """copier ended in 60 lines of traceback ("Unknown revision"); the template's checkout
    answers first. A tag it has passes this check."""
    template = tmp_path / "template"
    template.mkdir()
    ident = ["-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    for args in (["init", "-q"], [*ident, "commit", "-q", "--allow-empty", "-m", "t"], ["tag", "v1.0.0"]):
        subprocess.run(["git", *args], cwd=template, check=True, capture_output=True)
    (project.root / ".copier-answers.yml").write_text(f"_commit: v1.0.0\n_src_path: {template}\n")
    code, out, err = run(capsys, "update", "--vcs-ref", "no_such_ref", "--project", str(project.root))
    assert code == 1 and out == ""
    assert one_line_error(err).startswith(
        f"error: --vcs-ref no_such_ref: not a tag, branch or commit of the template ({template}): "
    )
    from norm_ops.toolchain.template import check_ref

    check_ref(template, "v1.0.0")
    check_ref(None, "no_such_ref")  # a remote template: copier fetches it, and judges the ref


def without_torch(*argv: str, **env: str) -> subprocess.CompletedProcess:
    """`python -m norm_ops ARGV` in a Python where torch (and what needs it) cannot be
    imported: a None in sys.modules makes `import torch` fail as a missing package does, and
    importlib.util.find_spec("torch") return None."""
    import sys

    blocked = ("torch", "torchao", "torchvision", "executorch")
    code = (
        f"import runpy, sys\nsys.modules.update(dict.fromkeys({blocked!r}))\n"
        "sys.argv = ['norm_ops', *sys.argv[1:]]\n"
        "runpy.run_module('norm_ops', run_name='__main__', alter_sys=True)\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code, *argv],
        cwd=ROOT.root,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "QNN_SDK_ROOT": "", **env},
    )


def test_the_commands_that_say_what_is_missing_run_without_torch(tmp_path):
    """doctor, spec, update and --help ran into `ModuleNotFoundError: No module named
    'torch'` (the package's __init__ registers the ops); now doctor names torch as missing,
    and a command that needs torch (info) says so in one line."""
    doctor = without_torch("doctor", "--quick")
    assert "Traceback" not in doctor.stderr, doctor.stderr
    said = doctor.stdout + doctor.stderr
    assert doctor.stdout.startswith("checking what norm_ops needs"), said
    lines = doctor.stdout.splitlines()
    assert any(line.startswith("missing  Python packages of the tests") and "lacks torch" in line for line in lines)
    assert doctor.stderr == "error: the laptop path is not ready for pytest: see the fixes above\n"
    spec = without_torch("spec")
    assert spec.returncode == 0, spec.stderr
    assert spec.stdout == (ROOT.root / "norm_ops" / "spec.yaml").read_text().split("\n", 1)[1]
    update = without_torch("update", "--spec", str(tmp_path / "missing.yaml"))
    assert (update.returncode, update.stderr) == (1, f"error: --spec {tmp_path / 'missing.yaml'}: no such file\n")
    assert without_torch("--help").returncode == 0
    info = without_torch("info")
    assert info.returncode == 1 and info.stdout == ""
    assert info.stderr.startswith("error: info needs the Python package torch, which is not installed"), info.stderr
    assert info.stderr.count("\n") == 1


def test_report_takes_negative_numbers_and_refuses_a_file_as_out(tmp_path, project, capsys):
    """argparse read -1e3 as an option ("--range: expected 2 arguments"), and a file given
    as --out ended in "unexpected FileExistsError"."""
    code, _, err = run(capsys, "report", "--range", "-1e3", "1", "--op", "nope", "--project", str(project.root))
    assert code == 1 and one_line_error(err).startswith("error: --op 'nope': not an op of this package")
    code, _, err = run(capsys, "report", "--range", "1", "-1e3", "--project", str(project.root))
    assert code == 1 and one_line_error(err) == "error: --range 1 -1000: must be two finite numbers, LO < HI"
    a_file = tmp_path / "a file"
    a_file.write_text("mine\n")
    for out, said in ((a_file, f"--out {a_file}: not a folder"), (a_file / "x", f"--out {a_file / 'x'}: {a_file} is")):
        code, _, err = run(capsys, "report", "--out", str(out), "--project", str(project.root))
        assert code == 1 and one_line_error(err).startswith(f"error: {said}"), err
    assert a_file.read_text() == "mine\n"


def test_output_an_ascii_terminal_cannot_show_is_escaped(monkeypatch):
    """With PYTHONIOENCODING=ascii (or an ASCII-only terminal) a character of a path or
    a doc ended the command in "unexpected UnicodeEncodeError"."""
    import io
    import sys

    raw = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, encoding="ascii"))
    cli._ascii_safe_output()
    print("project: /home/ren\u00e9e")
    sys.stdout.flush()
    assert raw.getvalue() == b"project: /home/ren\\xe9e\n"
    spec = subprocess.run(
        [sys.executable, "-m", "norm_ops", "spec"],
        cwd=ROOT.root,
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
        timeout=120,
    )
    assert spec.returncode == 0, spec.stderr
    spec_file = (ROOT.root / "norm_ops" / "spec.yaml").read_bytes()
    assert spec.stdout == spec_file.split(b"\n", 1)[1] and spec.stdout.isascii()


@pytest.mark.skipif(not shutil.which("make"), reason="make is not installed")
@pytest.mark.parametrize("where", ["root", "op_package"])
@pytest.mark.parametrize("target", ["host-test", "hexagon-test"])
def test_a_build_folder_with_a_space_is_refused_in_one_line(where, target):
    """make splits target names at spaces: 22 lines of make errors."""
    folder = ROOT.root if where == "root" else ROOT.op_dir
    res = subprocess.run(
        ["make", "--no-print-directory", "-C", str(folder), target, "BUILD=build/with space"],
        capture_output=True,
        text=True,
        env=_make_env(),
        timeout=60,
    )
    assert res.returncode != 0
    assert res.stderr.count("\n") == 1, res.stderr
    assert "BUILD 'build/with space' has a space: make cannot build in such a folder" in res.stderr
    assert not (folder / "build" / "with space").exists() and not (ROOT.op_dir / "build" / "with").exists()


def test_doctor_checks_that_zig_can_write_its_cache(laptop, project, capsys, monkeypatch, tmp_path):
    """A read-only HOME: doctor said hexagon-test was ready, then zig failed on its cache."""
    for name in ("ZIG_GLOBAL_CACHE_DIR", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", "/proc/no-home")  # nothing can be made there, not even by root
    code, out, _ = run(capsys, "doctor", "--project", str(project.root))
    assert code == 0
    assert "ready: pytest, host-test; not ready: hexagon-test (needs zig's cache folder (hexagon-test writes it))" in (
        out.splitlines()
    )
    line = next(line for line in out.splitlines() if "zig's cache folder" in line and "missing" in line)
    assert "/proc/no-home/.cache/zig: cannot be written" in line and "ZIG_GLOBAL_CACHE_DIR" in out
    monkeypatch.setenv("ZIG_GLOBAL_CACHE_DIR", str(tmp_path / "zig cache"))
    code, out, _ = run(capsys, "doctor", "--project", str(project.root))
    assert "ready: pytest, host-test, hexagon-test" in out.splitlines()
