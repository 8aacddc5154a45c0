# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Test helpers: inputs for the model that calls every op (device_data.PackageModel), and a
stand-in backend that claims ops.

The stand-in backend lets the tests produce a real `.pte` in which chosen ops were
delegated, without the QNN SDK, so that the delegation check is proven both ways.
"""

import operator

import torch
from executorch.exir import to_edge_transform_and_lower
from executorch.exir.backend.backend_details import BackendDetails, PreprocessResult
from executorch.exir.backend.partitioner import DelegationSpec, Partitioner, PartitionResult

from act_ops.ops import OPS

from conftest import make_inputs


def all_ops_inputs(ops=OPS, seed: int = 0, shape=(1, 2, 4, 4)):
    return tuple(t for i, op in enumerate(ops) for t in make_inputs(op, seed=seed + i, shape=shape))


class ClaimOpsBackend(BackendDetails):
    """Accepts whatever it is given; its payload is a marker, never executed."""

    @staticmethod
    def preprocess(edge_program, compile_specs):
        return PreprocessResult(processed_bytes=b"claimed-by-test-backend")


class ClaimOpsPartitioner(Partitioner):
    """Tags every node whose op name is in `names` for ClaimOpsBackend."""

    def __init__(self, names):
        super().__init__()
        self.names = set(names)
        self.delegation_spec = DelegationSpec(ClaimOpsBackend.__name__, [])

    def partition(self, exported_program):
        tags = {}
        for index, node in enumerate(exported_program.graph_module.graph.nodes):
            schema = getattr(node.target, "_schema", None) if node.op == "call_function" else None
            if schema is not None and schema.name in self.names:
                tag = f"claimed_{index}"
                node.meta["delegation_tag"] = tag
                # An op with several outputs: the getitems that unpack its tuple go with
                # it, as with ExecuTorch's QnnPartitioner (getitem is in its allow list).
                for user in node.users:
                    if user.target is operator.getitem:
                        user.meta["delegation_tag"] = tag
                tags[tag] = self.delegation_spec
        return PartitionResult(tagged_exported_program=exported_program, partition_tags=tags)


def lower(module, inputs, claim=()):
    """A real .pte (bytes) of `module`, with the ops named in `claim` delegated."""
    exported = torch.export.export(module, tuple(inputs))
    partitioners = [ClaimOpsPartitioner(claim)] if claim else []
    return to_edge_transform_and_lower(exported, partitioner=partitioners).to_executorch().buffer
