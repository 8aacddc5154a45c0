"""SpecError and the checks every rule uses: a value's type, its keys, its size.

One error type, `SpecError`, whose message is always one line: the field path, then
the rule that was broken (``ops[1].inputs[0]: 'int' is a reserved word in C``).
"""

from __future__ import annotations

from typing import Any

from . import names

# Bounds on the raw spec, checked before anything else looks at it (a YAML alias
# "bomb" is a few lines of text that expand into billions of values).
MAX_RAW_VALUES = 20_000
MAX_RAW_TEXT = 200_000


MAX_FIELD_SHOWN = 100


class SpecError(ValueError):
    """An invalid spec: `field` is the path of the offending value, `rule` the reason."""

    def __init__(self, field: str, rule: str):
        # A field path holds the spec's keys: a 10,000-character key stays readable.
        if len(field) > MAX_FIELD_SHOWN:
            field = f"{field[: MAX_FIELD_SHOWN - 3]}..."
        self.field = field
        self.rule = rule
        super().__init__(f"{field}: {rule}")


def _name(field_path: str, check, value):
    try:
        return check(value)
    except names.NameError_ as exc:
        raise SpecError(field_path, str(exc)) from None


def _require_mapping(field_path: str, value: Any) -> dict:
    if not isinstance(value, dict):
        raise SpecError(field_path, f"must be a mapping, got {_type(value)}")
    return value


def _type(value: Any) -> str:
    return "nothing" if value is None else type(value).__name__


def _unknown_keys(field_path: str, mapping: dict, allowed: tuple[str, ...]) -> None:
    for key in mapping:
        if key not in allowed:
            where = f"{field_path}." if field_path else ""
            raise SpecError(f"{where}{key}", f"unknown key (allowed: {', '.join(allowed)})")


def _choice(field_path: str, value: Any, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise SpecError(field_path, f"must be one of {', '.join(allowed)}; got {value!r:.40}")
    return value


def check_size(raw: Any) -> None:
    """Refuse a raw spec too big to be a spec, before anything walks or prints it.

    Every value is counted each time it is reached, so values that YAML aliases share
    (or a structure that contains itself) count as often as they would be expanded.
    """
    values = 0
    text = 0
    stack = [raw]
    while stack:
        value = stack.pop()
        values += 1
        if values > MAX_RAW_VALUES:
            raise SpecError(
                "spec", f"is too large: more than {MAX_RAW_VALUES} values (YAML aliases count once per use)"
            )
        if isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, (list, tuple, set, frozenset)):
            stack.extend(value)
        elif isinstance(value, (str, bytes)):
            text += len(value)
            if text > MAX_RAW_TEXT:
                raise SpecError("spec", f"is too large: more than {MAX_RAW_TEXT} characters of text")


def _given(mapping: dict, key: str, default: Any) -> Any:
    """The value of `key`, or `default` when it is absent or null; any other value
    (`false`, `0`, `{}`, "") is checked as given, never silently replaced."""
    value = mapping.get(key)
    return default if value is None else value
