# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The strict reading of a spec file's YAML: the one reader of the template's
`scripts/new` (qnn-op-template/hooks/spec_file.py loads this very file) and of this project's
`update --spec` (template.py), so that a file one refuses the other refuses alike.

PyYAML's safe loader, refusing what a spec never holds, each in one line (SpecYamlError,
the message a predicate of the file: "is not valid YAML at line 3, ..."): a tag other
than the core schema's (`!!binary`, `!!python/...`, a date), a key given twice (YAML
readers keep the last one), a key that is no string, an integer of more than
MAX_INT_DIGITS digits, and nesting deeper than Python's recursion (a RecursionError
inside PyYAML). A file it accepts, `yaml.safe_load` reads to the same values.
"""

from __future__ import annotations

from typing import Any

import yaml

# Digits of an integer: Python refuses more than 4300 in int() (a ValueError inside
# PyYAML); a spec's numbers are at most a uint32.
MAX_INT_DIGITS = 1000
# The tags a spec's values may carry: the YAML core schema as PyYAML's safe loader
# resolves plain values, and the merge key.
_CORE = "tag:yaml.org,2002:"
ALLOWED_TAGS = frozenset(_CORE + t for t in ("str", "int", "float", "bool", "null", "seq", "map", "merge"))


class SpecYamlError(ValueError):
    """The text is no spec's YAML; the message says why in one line, as what follows
    the file's name ("spec: ...", "--spec my.yaml: ...")."""


def shown(value: object, limit: int) -> str:
    """`repr(value)`, cut to `limit` characters with its length said."""
    text = repr(value)
    if len(text) <= limit:
        return text
    size = f" ({len(value)} characters)" if isinstance(value, str) else ""
    return f"{text[: limit - 3]}...{size}"


def _line(node: yaml.Node) -> str:
    mark = node.start_mark
    return f"line {mark.line + 1}, column {mark.column + 1}"


def _tag(tag: str) -> str:
    return "!!" + tag[len(_CORE) :] if tag.startswith(_CORE) else tag


class StrictLoader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing what a spec never holds."""

    def construct_object(self, node, deep=False):
        if node.tag not in ALLOWED_TAGS:
            what = "a date" if node.tag == _CORE + "timestamp" else f"tag {shown(_tag(node.tag), 40)}"
            raise SpecYamlError(
                f"{_line(node)}: {what} is not a spec value (a spec holds strings, numbers, "
                "booleans, lists and mappings; quote the value to make it a string)"
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
                    raise SpecYamlError(f"{_line(key_node)}: key {shown(key, 40)} must be a string")
                if key in seen:
                    raise SpecYamlError(
                        f"{_line(key_node)}: key {shown(key, 40)} is given twice (also at "
                        f"{_line(seen[key])}); YAML readers keep only the last one"
                    )
                seen[key] = key_node
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node):
        digits = sum(ch.isdigit() for ch in str(node.value))
        if digits > MAX_INT_DIGITS:
            raise SpecYamlError(f"{_line(node)}: a number of {digits} digits is not a spec value")
        return super().construct_yaml_int(node)


StrictLoader.add_constructor(_CORE + "int", StrictLoader.construct_yaml_int)


def load(data: bytes | str) -> Any:
    """The value of the YAML text `data` (bytes: UTF-8, or UTF-16 with a BOM), read
    strictly; SpecYamlError with one line otherwise."""
    try:
        return yaml.load(data, Loader=StrictLoader)  # noqa: S506 (a safe loader, stricter)
    except SpecYamlError:
        raise
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or getattr(exc, "reason", None) or type(exc).__name__
        if isinstance(exc, yaml.reader.ReaderError):  # bytes that are not UTF-8 (or UTF-16 with a BOM)
            char = f"0x{exc.character:02x}" if isinstance(exc.character, int) else repr(exc.character)
            problem = f"byte {char} at position {exc.position} is not {exc.encoding} ({exc.reason})"
        raise SpecYamlError(f"is not valid YAML{where}: {shown(str(problem), 80)[1:-1]}") from None
    except RecursionError:
        raise SpecYamlError("is nested too deeply to be a spec") from None
    except ValueError as exc:  # an integer beyond Python's digit limit, in a merge or key
        raise SpecYamlError(f"cannot be read: {shown(str(exc).splitlines()[0], 80)}") from None
