"""The torch schema view: how the model is spelled in the op's torch.library schemas.

`op.torch`, `param.torch` (hooks/model.py): the schema strings ops.py registers (the
functional op, `.out`, `.defaults`, and `schema=` of torch.library.custom_op).
"""

from __future__ import annotations

from .model import Op, Param


class TorchParam:
    def __init__(self, param: Param):
        self.param = param

    @property
    def schema_type(self) -> str:
        """The torch schema type."""
        return {"float": "float", "int": "int", "bool": "bool"}[self.param.type]

    @property
    def schema_default(self) -> str:
        """The default in a torch schema (`.defaults` overload)."""
        p = self.param
        if p.type == "bool":
            return "True" if p.default else "False"
        return repr(p.default)


class TorchOp:
    def __init__(self, op: Op):
        self.op = op

    @property
    def _schema_args(self) -> str:
        # No defaults in the schema: torch.export drops every trailing argument equal to
        # its schema default, and ExecuTorch's CustomOp.define_node then refuses the node
        # ("Number of inputs (1) mismatch the number of args (2) in schema").  Without
        # defaults every param stays in the graph; the defaults live in the Python API
        # and in the `.defaults` overload below.
        args = [f"Tensor {i.name}" for i in self.op.inputs]
        args += [f"{p.torch.schema_type} {p.name}" for p in self.op.params]
        return ", ".join(args)

    @property
    def _schema_returns(self) -> str:
        # Several outputs: a tuple, which ExecuTorch's builder turns into one QNN output
        # tensor each (CustomOp.define_node reads node.meta["val"] as a tuple).
        if self.op.n_outputs == 1:
            return "Tensor"
        return "(" + ", ".join("Tensor" for _ in self.op.outputs) + ")"

    @property
    def schema(self) -> str:
        """The functional op, the one that is quantized, lowered and delegated."""
        return f"{self.op.name}({self._schema_args}) -> {self._schema_returns}"

    @property
    def custom_op_schema(self) -> str:
        """`schema=` of torch.library.custom_op: the functional schema without the name."""
        return f"({self._schema_args}) -> {self._schema_returns}"

    @property
    def out_schema(self) -> str:
        """One keyword-only `Tensor(x!)` per output, named like the output, each with its
        own alias set (a, b, c, d), returned in order: torch's convention for out variants
        with several outputs (`var_mean.correction_out`)."""
        sets = "abcd"
        outs = ", ".join(f"Tensor({sets[o.index]}!) {o.name}" for o in self.op.outputs)
        returns = [f"Tensor({sets[o.index]}!)" for o in self.op.outputs]
        ret = returns[0] if len(returns) == 1 else "(" + ", ".join(returns) + ")"
        return f"{self.op.name}.out({self._schema_args}, *, {outs}) -> {ret}"

    @property
    def defaults_schema(self) -> str | None:
        """`torch.ops.<ns>.<op>(x)` without params: an overload that only fills in the
        defaults and calls the functional op (None for an op without params)."""
        if not self.op.params:
            return None
        args = [f"Tensor {i.name}" for i in self.op.inputs]
        args += [f"{p.torch.schema_type} {p.name}={p.torch.schema_default}" for p in self.op.params]
        return f"{self.op.name}.defaults({', '.join(args)}) -> {self._schema_returns}"
