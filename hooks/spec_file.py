"""Read a spec file strictly, before copier does: every bad file gets one line.

Copier's `--data-file` reads the file itself (`yaml.safe_load`, copier 9.19.1
`_cli.py`) before the template's hook runs, so a file it cannot read ends in a
traceback, and two readings it accepts lose information without a word: a key given
twice (the last one wins) and a key starting with `_` (copier drops a typo'd
`_soc_model` as one of its own settings).  `read()` refuses each of those in one line,
and reads nothing copier would read differently: a file it accepts, `yaml.safe_load`
reads to the same values: the YAML reading every project ships for its `update --spec`
(template/<namespace>/toolchain/spec_yaml.py, loaded from here), one reader for both.
`hooks/new.py` (`scripts/new`, `make new`) runs it, then the
spec's own rules (hooks/spec.py), then copier.
"""

from __future__ import annotations

import importlib.util
import os
import stat
import sys
from pathlib import Path
from typing import Any

from .names import shown
from .spec import TOP_KEYS, SpecError

# A spec is a few kilobytes; ten thousand lines of YAML stay far below this.
MAX_FILE_BYTES = 1_000_000


def _shared_reader():
    """The strict YAML reader every project ships (its `update --spec` reads a spec with
    it): one reader for both, loaded from the template's own copy of that file."""
    name = "qnn_op_template_spec_yaml"
    if name not in sys.modules:
        path = Path(__file__).resolve().parent.parent / "template" / "{{pkg.namespace}}" / "toolchain" / "spec_yaml.py"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


spec_yaml = _shared_reader()


def _check_regular_file(path: Path) -> None:
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise SpecError("spec", f"{shown(str(path))}: no such file") from None
    except OSError as exc:
        raise SpecError("spec", f"{shown(str(path))}: cannot be read ({exc.strerror})") from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file (a FIFO, a device, a socket)"
        raise SpecError("spec", f"{shown(str(path))} is {kind}; give a YAML file")
    if info.st_size > MAX_FILE_BYTES:
        raise SpecError("spec", f"{shown(str(path))} is larger than {MAX_FILE_BYTES} bytes; a spec is a few kilobytes")


def loads(data: bytes | str) -> dict[str, Any]:
    """The spec mapping in `data`, read strictly (see the module's docstring)."""
    try:
        raw = spec_yaml.load(data)
    except spec_yaml.SpecYamlError as exc:
        raise SpecError("spec", str(exc)) from None
    if raw is None:
        raise SpecError("spec", "is empty: a spec is a mapping with package_name, namespace and ops (docs/spec.md)")
    if not isinstance(raw, dict):
        raise SpecError(
            "spec",
            f"must be a mapping with package_name, namespace and ops (docs/spec.md), got {type(raw).__name__}",
        )
    for key in raw:
        if key.startswith("_"):
            hint = f"; did you mean {key.lstrip('_')}?" if key.lstrip("_") in TOP_KEYS else ""
            raise SpecError(
                key,
                f"unknown key: a key starting with '_' is copier's, never a spec key (copier would "
                f"drop or misread it){hint} (spec keys: {', '.join(TOP_KEYS)})",
            )
    return raw


def read(path: str | Path) -> dict[str, Any]:
    """The spec file at `path`, read strictly: a regular file of bounded size, then
    `loads`."""
    path = Path(path)
    _check_regular_file(path)
    try:
        with path.open("rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise SpecError("spec", f"{shown(str(path))}: cannot be read ({exc.strerror})") from None
    if len(data) > MAX_FILE_BYTES:
        raise SpecError("spec", f"{shown(str(path))} is larger than {MAX_FILE_BYTES} bytes")
    return loads(data)
