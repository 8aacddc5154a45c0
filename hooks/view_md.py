"""The Markdown view: how the model is spelled in the rendered README's tables.

`op.md`, `param.md` (hooks/model.py).
"""

from __future__ import annotations

import re

from .layout import join
from .model import DEFAULT_DOMAIN, LPAI_ROW_MAX, POSITIVE_DOMAIN, Op, Package, Param
from .view_py import py_number

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|&~])")


def doc_markdown(text: str) -> str:
    """A Markdown (GFM) table cell: the characters that start markup (emphasis, code,
    links, HTML, entities, strike-through) or end the cell, backslash-escaped, which
    CommonMark allows for every ASCII punctuation character."""
    return _MD_SPECIAL.sub(r"\\\1", text)


class MdParam:
    def __init__(self, param: Param):
        self.param = param

    @property
    def cell(self) -> str:
        """`name: type = default`, as README's op table lists it."""
        p = self.param
        within = "" if p.range is None else f" in [{py_number(p.range[0])}, {py_number(p.range[1])}]"
        return f"{p.name}: {p.type} = {p.py.default}{within}"


class MdOp:
    def __init__(self, op: Op):
        self.op = op

    @property
    def doc(self) -> str:
        return doc_markdown(self.op.doc)

    @property
    def kind(self) -> str:
        """The kind column of the README's table of ops: `custom, rowwise` for a rowwise op."""
        return f"{self.op.kind}, rowwise" if self.op.rowwise else self.op.kind

    @property
    def inputs(self) -> str:
        """Each input with its domain (Op.input_domains): `x` in [-2, 2]."""
        return join([f"{n} in [{lo:g}, {hi:g}]" for n, (lo, hi) in zip(self.op.input_names, self.op.input_domains)])

    @property
    def params(self) -> str:
        return join([p.md.cell for p in self.op.params])

    @property
    def outputs(self) -> str:
        """The README's cell of the outputs: each name and its shape rule."""
        return "; ".join(f"`{o.name}`: {doc_markdown(self.op.output_shape_text(o))}" for o in self.op.outputs)

    @property
    def run_line(self) -> str:
        """The op's name padded to a column, as `python -m <namespace> run` prints it."""
        return f"{self.op.qualified_name:<32}"

    @property
    def scratch(self) -> str:
        """The scratch of a custom op in words (README, Markdown; names and ints only)."""
        op = self.op
        names = " + ".join(f"`{n}`" for n in op.input_names + [o.name for o in op.outputs])
        if op.rowwise:
            return (
                f"rowwise: ({op.n_inputs} + {op.n_outputs}) x LPAI_ROW_MAX ({LPAI_ROW_MAX}) floats on "
                f"the kernel's stack, {op.scratch_bytes:,} bytes; no getTempBuffer"
            )
        sample = ", ".join(str(n) for n in op.SCRATCH_SAMPLE_SHAPE)
        return (
            f"whole tensors from getTempBuffer: 4 bytes x the elements of {names}; "
            f"{op.scratch_bytes:,} bytes for inputs of shape ({sample})"
        )


class MdPackage:
    def __init__(self, pkg: Package):
        self.pkg = pkg

    @property
    def default_domains(self) -> str:
        """The default input domain in words (hooks/model.py Op.input_domains)."""
        d, p = DEFAULT_DOMAIN, POSITIVE_DOMAIN
        return (
            f"[{d[0]:g}, {d[1]:g}], or [{p[0]:g}, {p[1]:g}] for an elementwise op not finite on "
            f"[{d[0]:g}, {d[1]:g}] (log, sqrt, a division by an input)"
        )
