# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""On the LPAI x86_64 simulator: the two requantization paths a default run cannot reach.

- calibrated on 1.0, run on 0.25: a small input whose code (64) is stored biased in the
  upper half of the byte (192) and must be un-biased modulo 256;
- calibrated on 1.0, run on 2.0: above the calibrated range, the graph's quantize node
  clamps the input to 1.0, so mul3 must give 3.0 (not 6.0) and the kernel must saturate.

(Those values for an input of the default domain [-2, 2]; every input is a constant at
the same fraction of its own op's domain, device_data.domain_constants.)

The host library carries the same kernel as the DSP library, so this checks the
arithmetic without a device.  Skipped, naming what is missing, unless QNN_SDK_ROOT and
EXECUTORCH_X86_BUILD_FOLDER (ExecuTorch built for x86_64 with the Qualcomm backend) are set.
"""

import numpy as np
import pytest
import torch

from norm_ops import cli, device, device_data
from norm_ops.ops import OPS

from fakes.tools import PROJECT, skip_unless_set, step

REQUIRED = ("QNN_SDK_ROOT", "EXECUTORCH_X86_BUILD_FOLDER")
SHAPE = (1, 32, 28, 28)

pytestmark = [pytest.mark.sdk, skip_unless_set("simulator test", REQUIRED)]


@pytest.fixture(scope="module")
def host_library():
    assert cli.main(["build", "--host-only", "--project", str(PROJECT)]) == 0


@pytest.mark.parametrize("calibration, inference", [(0.75, 0.5625), (0.75, 1.0)], ids=["biased-low-code", "saturating"])
def test_requantization_edge_case(host_library, capsys, tmp_path, calibration, inference):
    calibration_file, inputs_file = tmp_path / "calibration.pt", tmp_path / "inputs.pt"
    torch.save([device_data.domain_constants(calibration, SHAPE)], calibration_file)
    inputs = device_data.domain_constants(inference, SHAPE)
    torch.save(inputs, inputs_file)
    pte = tmp_path / "simulator.pte"
    out = step(
        capsys,
        "simulate",
        "--pte",
        str(pte),
        "--shape",
        ",".join(map(str, SHAPE)),
        "--calibration",
        str(calibration_file),
        "--inputs",
        str(inputs_file),
    )
    assert "delegated: yes" in out and "FAILED" not in out
    ranges = device.load_sidecar(pte, device.SIMULATOR)
    clamped = [t.clamp(lo, hi) for t, (lo, hi) in zip(inputs, ranges.inputs)]
    eager = device_data.PackageModel()(*clamped)
    for i, (op, want) in enumerate(zip(device_data.OUTPUT_OPS, eager)):
        got = np.fromfile(tmp_path / "outputs" / f"output_0_{i}.raw", dtype=np.float32)
        lo, hi = ranges.outputs[i]
        tolerance = device_data.tolerances(ranges)[i]
        assert np.abs(got - want.clamp(lo, hi).numpy().ravel()).max() <= tolerance, op.qualified_name
        if op.name == "mul3" and inference > calibration:
            # 3.0 on the default domain: the input clamped to its calibrated maximum, times 3.
            calibrated = max(0.0, ranges.inputs[sum(len(o.inputs) for o in OPS[: OPS.index(op)])][1])
            assert np.allclose(got, 3.0 * calibrated, atol=tolerance), f"mul3 must saturate to {3.0 * calibrated:g}"
