# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Reads the op package's OpDef XML without the QNN SDK.

The SDK's parser (`qti.aisw.op_package_generator`) is importable only after sourcing
the SDK's envsetup.sh, and ExecuTorch's QnnCustomOpPackageBuilder imports it at module
level.  The registration needs only the package name and the op type names, so this
module reads them itself and checks the XML against the ops this package registers.

    <OpDefCollection PackageName="..." Domain="..." Version="...">
      <OpDefList>
        <OpDef><Name>ExampleCustomOp</Name> ... <SupportedBackend>LPAI</SupportedBackend></OpDef>
      </OpDefList>
    </OpDefCollection>
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path


class OpDefError(ValueError):
    """The XML is not a usable OpDef collection; the message is one line."""


@dataclass(frozen=True)
class OpDef:
    name: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    params: tuple[str, ...]
    backends: tuple[str, ...]
    param_types: tuple[str, ...] = ()  # the Datatype of each Parameter, in order


@dataclass(frozen=True)
class OpDefCollection:
    package_name: str
    domain: str
    version: str
    ops: tuple[OpDef, ...]

    @property
    def op_names(self) -> tuple[str, ...]:
        return tuple(op.name for op in self.ops)


def _text(element: ET.Element, tag: str) -> str:
    child = element.find(tag)
    return (child.text or "").strip() if child is not None else ""


def _names(element: ET.Element, tag: str) -> tuple[str, ...]:
    return tuple(_text(child, "Name") for child in element.findall(tag))


def parse(source: str | Path) -> OpDefCollection:
    """Parse an OpDef XML file (a Path) or document (a str starting with '<')."""
    try:
        if isinstance(source, str) and source.lstrip().startswith("<"):
            root = ET.fromstring(source)
            where = "OpDef XML"
        else:
            root = ET.parse(source).getroot()
            where = str(source)
    except (ET.ParseError, OSError) as exc:
        raise OpDefError(f"cannot read OpDef XML {source}: {exc}") from None
    if root.tag != "OpDefCollection":
        raise OpDefError(f"{where}: root element is <{root.tag}>, expected <OpDefCollection>")
    package = root.get("PackageName", "").strip()
    if not package:
        raise OpDefError(f"{where}: OpDefCollection has no PackageName")
    ops = []
    for opdef in root.iter("OpDef"):
        name = _text(opdef, "Name")
        if not name:
            raise OpDefError(f"{where}: an OpDef has no <Name>")
        backends = tuple((b.text or "").strip() for b in opdef.findall("SupportedBackend"))
        param_types = tuple(_text(p, "Datatype") for p in opdef.findall("Parameter"))
        ops.append(
            OpDef(
                name, _names(opdef, "Input"), _names(opdef, "Output"), _names(opdef, "Parameter"), backends, param_types
            )
        )
    if not ops:
        raise OpDefError(f"{where}: no OpDef")
    duplicates = sorted({op.name for op in ops if [o.name for o in ops].count(op.name) > 1})
    if duplicates:
        raise OpDefError(f"{where}: OpDef defined more than once: {', '.join(duplicates)}")
    return OpDefCollection(package, root.get("Domain", ""), root.get("Version", ""), tuple(ops))


def check_matches(
    collection: OpDefCollection, package_name: str, qnn_types: dict[str, tuple[int, int]], backend: str = "LPAI"
) -> None:
    """Fail unless the XML declares this package and every op for `backend`, with its number
    of inputs and outputs ({qnn_type: (inputs, outputs)})."""
    if collection.package_name != package_name:
        raise OpDefError(f"OpDef XML is for package {collection.package_name!r}, expected {package_name!r}")
    by_name = {op.name: op for op in collection.ops}
    for qnn_type, (n_inputs, n_outputs) in qnn_types.items():
        op = by_name.get(qnn_type)
        if op is None:
            raise OpDefError(f"OpDef XML has no OpDef {qnn_type!r} (it has {', '.join(collection.op_names)})")
        if backend not in op.backends:
            raise OpDefError(f"OpDef {qnn_type!r} does not list SupportedBackend {backend}")
        if len(op.inputs) != n_inputs or len(op.outputs) != n_outputs:
            raise OpDefError(
                f"OpDef {qnn_type!r} has {len(op.inputs)} inputs and {len(op.outputs)} outputs, "
                f"expected {n_inputs} and {n_outputs}"
            )


def check_params(opdef: OpDef, sent: list[tuple[str, str]]) -> None:
    """Fail unless the OpDef declares exactly the params ExecuTorch sends for a node,
    [(name, QNN data type name)], in the same order (the kernel reads them by index)."""
    declared = list(zip(opdef.params, opdef.param_types))
    if declared != list(sent):
        raise OpDefError(f"OpDef {opdef.name!r} declares params {declared}, but ExecuTorch sends {list(sent)}")
