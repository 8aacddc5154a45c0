# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Proof that the op package ran: read a lowered `.pte` and fail unless every op was delegated.

The eager fallback computes the same values as the kernel, so a model whose custom op
fell back to the CPU still produces matching outputs: a comparison of outputs proves
nothing about the op package.  The program itself does: an op that fell back appears
in an execution plan's operator table, and a plan with no delegate ran nothing on the
backend at all.
"""

from __future__ import annotations

from pathlib import Path

from .ops import OPS


class DelegationError(AssertionError):
    """The op package was not exercised."""


def _program(pte: bytes | str | Path):
    from executorch.exir._serialize._program import deserialize_pte_binary

    data = pte if isinstance(pte, (bytes, bytearray)) else Path(pte).read_bytes()
    return deserialize_pte_binary(bytes(data)).program


def _is_op(name: str, qualified: str) -> bool:
    # Exact name, or name.overload: "ns::op" must not match "ns::op2".
    return name == qualified or name.startswith(qualified + ".")


def check_delegated(pte: bytes | str | Path, op_names: tuple[str, ...] | None = None) -> dict[str, list[str]]:
    """Raise DelegationError unless no plan runs an op on the CPU and every plan has a delegate.

    Returns {method name: [delegate ids]} on success.
    """
    names = op_names if op_names is not None else tuple(op.qualified_name for op in OPS)
    program = _program(pte)
    if not program.execution_plan:
        raise DelegationError("the program has no execution plan")
    delegated: dict[str, list[str]] = {}
    for plan in program.execution_plan:
        on_cpu = sorted({n for n in names for op in plan.operators if _is_op(op.name, n)})
        if on_cpu:
            raise DelegationError(
                f"{on_cpu} was not delegated, it is executed by a CPU kernel in method "
                f"{plan.name!r}. The op package was not exercised even if the output happens to match."
            )
        if not plan.delegates:
            raise DelegationError(f"method {plan.name!r} has no delegate: nothing was lowered to the backend.")
        delegated[plan.name] = [d.id for d in plan.delegates]
    return delegated
