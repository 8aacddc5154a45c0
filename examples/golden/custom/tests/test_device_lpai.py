# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""On a Snapdragon device: build, sign, export, run, compare with eager, assert delegated.

Runs only where everything is there; otherwise it is skipped and the reason names what is
missing.  Set, as docs/device.md says:

    QNN_SDK_ROOT  HEXAGON_SDK_ROOT  HEXAGON_TOOLS_VERSION  ANDROID_SERIAL
    EXECUTORCH_BUILD_FOLDER  EXECUTORCH_DIRECT_BUILD_FOLDER

This test writes into the project (op_package/*/libs, build/), exactly like the commands.
"""

import pytest

from norm_ops.delegation import check_delegated

from fakes.tools import PROJECT, skip_unless_set, step

REQUIRED = (
    "QNN_SDK_ROOT",
    "HEXAGON_SDK_ROOT",
    "HEXAGON_TOOLS_VERSION",
    "ANDROID_SERIAL",
    "EXECUTORCH_BUILD_FOLDER",
    "EXECUTORCH_DIRECT_BUILD_FOLDER",
)

pytestmark = [pytest.mark.sdk, pytest.mark.device, skip_unless_set("device test", REQUIRED)]


def test_build_sign_export_run_on_device(capsys):
    step(capsys, "build")
    step(capsys, "sign")
    out = step(capsys, "export", "--target", "device")
    assert "delegation check passed" in out
    pte = PROJECT / "build" / "artifacts" / "device" / "norm_ops.pte"
    # Independently of the command: no op of the package left on the CPU, a delegate present.
    assert check_delegated(pte)
    out = step(capsys, "run")
    assert "delegated: yes" in out
    assert "max abs error: " in out and "FAILED" not in out
    # The DSP's own debug output: FARF mask 0x1f next to the runner, logcat into the project.
    log = PROJECT / "build" / "logs" / "logcat.txt"
    log.unlink(missing_ok=True)
    out = step(capsys, "run", "--debug")
    assert "FAILED" not in out and log.is_file() and log.stat().st_size > 0
