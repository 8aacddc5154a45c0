"""The YAML view: how the model is spelled in YAML (the canonical spec, `<namespace>/spec.yaml`).

`op.yaml`, `pkg.yaml` (hooks/model.py).
"""

from __future__ import annotations

import json

from .model import Op, Package


def doc_yaml(text: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is valid YAML 1.1 and 1.2)."""
    return json.dumps(text, ensure_ascii=False)


class YamlOp:
    def __init__(self, op: Op):
        self.op = op

    @property
    def doc(self) -> str:
        return doc_yaml(self.op.doc)


class YamlPackage:
    def __init__(self, pkg: Package):
        self.pkg = pkg

    @property
    def spec(self) -> str:
        """The canonical spec as YAML (`<namespace>/spec.yaml`, `python -m <namespace> spec`),
        ASCII only: a character outside it (a doc's) is a double-quoted YAML escape, so that
        `spec` prints the same spec to an ASCII-only terminal or file."""
        import yaml

        return yaml.safe_dump(
            self.pkg.answers(), indent=4, allow_unicode=False, default_flow_style=False, sort_keys=True, width=1000
        )
