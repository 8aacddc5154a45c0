"""The XML view: how the model is spelled in the OpDef XML (config/<Package>.xml).

`op.xml`, `param.xml`, `output.xml` (hooks/model.py).
"""

from __future__ import annotations

import html

from .model import Op, Output, Param


def doc_xml(text: str) -> str:
    """XML element text or attribute value."""
    return html.escape(text, quote=True)


class XmlParam:
    def __init__(self, param: Param):
        self.param = param

    @property
    def default(self) -> str:
        """What ExecuTorch sends: a float as FLOAT_32, an int and a bool as UINT_32 (0 or 1)."""
        p = self.param
        if p.type == "float":
            return repr(p.default)
        return str(int(p.default))


class XmlOutput:
    def __init__(self, output: Output):
        self.output = output

    @property
    def rank(self) -> str:
        """`<Rank>` of the OpDef XML: 4D, the configuration verified on device, less the
        dims a reduce without keepdim removes."""
        shape = self.output.shape
        if shape.kind == "reduce" and not shape.keepdim:
            return f"{4 - len(shape.dims)}D"
        return "4D"


class XmlOp:
    def __init__(self, op: Op):
        self.op = op

    @property
    def doc(self) -> str:
        return doc_xml(self.op.doc)
