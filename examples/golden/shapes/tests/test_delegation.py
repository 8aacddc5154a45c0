# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The delegation check, proven both ways on real `.pte` programs.

Negative controls: the quantized model lowered with nothing claiming the ops (they fall
back to their CPU `.out` kernels), and with everything but one op claimed.  Positive
control: a stand-in backend claims every op.  The real LPAI lowering is in the device
and simulator tests, which need the SDK.
"""

import pytest

from shape_ops.delegation import DelegationError, check_delegated
from shape_ops.device_data import PackageModel
from shape_ops.ops import OPS
from shape_ops.quant import quantize

from lowering import all_ops_inputs, lower

NAMES = [op.qualified_name for op in OPS]


@pytest.fixture(scope="module")
def quantized():
    return quantize(PackageModel(), all_ops_inputs(), [all_ops_inputs(seed=s) for s in range(2)])


def test_fallback_to_cpu_is_caught(quantized):
    pte = lower(quantized, all_ops_inputs())
    with pytest.raises(DelegationError) as info:
        check_delegated(pte)
    message = str(info.value)
    assert "was not delegated" in message
    assert all(name in message for name in NAMES)


def test_one_op_left_on_cpu_is_caught(quantized):
    left = NAMES[-1]
    pte = lower(quantized, all_ops_inputs(), claim=NAMES[:-1] + ["quantized_decomposed::quantize_per_tensor"])
    with pytest.raises(DelegationError, match=left):
        check_delegated(pte)


def test_no_delegate_at_all_is_caught():
    import torch

    class Plain(torch.nn.Module):
        def forward(self, x):
            return x * 2

    pte = lower(Plain(), (torch.ones(2),))
    with pytest.raises(DelegationError, match="no delegate"):
        check_delegated(pte)


def test_all_ops_claimed_passes(quantized, tmp_path):
    pte = lower(quantized, all_ops_inputs(), claim=NAMES)
    path = tmp_path / "model.pte"
    path.write_bytes(pte)
    delegates = check_delegated(path)
    # Every op got its own delegate: the quantize/dequantize nodes between them stay on the CPU.
    assert delegates == {"forward": ["ClaimOpsBackend"] * len(OPS)}
