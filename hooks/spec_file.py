"""Read a spec file strictly, before copier does: every bad file gets one line.

Copier's `--data-file` reads the file itself (`yaml.safe_load`, copier 9.19.1
`_cli.py`) before the template's hook runs, so a file it cannot read ends in a
traceback, and two readings it accepts lose information without a word: a key given
twice (the last one wins) and a key starting with `_` (copier drops a typo'd
`_soc_model` as one of its own settings).  `read()` refuses each of those in one line,
and reads nothing copier would read differently: a file it accepts, `yaml.safe_load`
reads to the same values.  `hooks/new.py` (`scripts/new`, `make new`) runs it, then the
spec's own rules (hooks/spec.py), then copier.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import yaml

from .names import shown
from .spec import TOP_KEYS, SpecError

# A spec is a few kilobytes; ten thousand lines of YAML stay far below this.
MAX_FILE_BYTES = 1_000_000
# Digits of an integer: Python refuses more than 4300 in int() (a ValueError inside
# copier's reading); the spec rules refuse anything beyond a uint32 in one line.
MAX_INT_DIGITS = 1000
# The tags a spec's values may carry: the YAML core schema as PyYAML's safe loader
# resolves plain values, and the merge key.  `!!binary`, `!!set`, `!!timestamp`,
# `!!python/...` and local tags (`!foo`) are no spec values.
_CORE = "tag:yaml.org,2002:"
ALLOWED_TAGS = frozenset(_CORE + t for t in ("str", "int", "float", "bool", "null", "seq", "map", "merge"))


def _line(node: yaml.Node) -> str:
    mark = node.start_mark
    return f"line {mark.line + 1}, column {mark.column + 1}"


def _tag(tag: str) -> str:
    return "!!" + tag[len(_CORE) :] if tag.startswith(_CORE) else tag


class _StrictLoader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing what a spec never holds."""

    def construct_object(self, node, deep=False):
        if node.tag not in ALLOWED_TAGS:
            what = "a date" if node.tag == _CORE + "timestamp" else f"tag {shown(_tag(node.tag), 40)}"
            raise SpecError(
                "spec",
                f"{_line(node)}: {what} is not a spec value (a spec holds strings, numbers, "
                "booleans, lists and mappings; quote the value to make it a string)",
            )
        return super().construct_object(node, deep=deep)

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, yaml.Node] = {}
            for key_node, _ in node.value:
                if key_node.tag == _CORE + "merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                if not isinstance(key, str):
                    raise SpecError("spec", f"{_line(key_node)}: key {shown(key, 40)} must be a string")
                if key in seen:
                    raise SpecError(
                        "spec",
                        f"{_line(key_node)}: key {shown(key, 40)} is given twice (also at "
                        f"{_line(seen[key])}); YAML readers keep only the last one",
                    )
                seen[key] = key_node
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node):
        digits = sum(ch.isdigit() for ch in str(node.value))
        if digits > MAX_INT_DIGITS:
            raise SpecError("spec", f"{_line(node)}: a number of {digits} digits is not a spec value")
        return super().construct_yaml_int(node)


_StrictLoader.add_constructor(_CORE + "int", _StrictLoader.construct_yaml_int)


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
        raw = yaml.load(data, Loader=_StrictLoader)  # noqa: S506 (a safe loader, stricter)
    except SpecError:
        raise
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or getattr(exc, "reason", None) or type(exc).__name__
        if isinstance(exc, yaml.reader.ReaderError):  # bytes that are not UTF-8 (or UTF-16 with a BOM)
            char = f"0x{exc.character:02x}" if isinstance(exc.character, int) else repr(exc.character)
            problem = f"byte {char} at position {exc.position} is not {exc.encoding} ({exc.reason})"
        raise SpecError("spec", f"is not valid YAML{where}: {shown(str(problem), 80)[1:-1]}") from None
    except RecursionError:
        raise SpecError("spec", "is nested too deeply to be a spec") from None
    except ValueError as exc:  # an integer beyond Python's digit limit, in a merge or key
        raise SpecError("spec", f"cannot be read: {shown(str(exc).splitlines()[0], 80)}") from None
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
