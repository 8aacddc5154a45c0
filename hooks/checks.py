"""SpecError and the checks every rule uses: a value's type, its keys, its size.

One error type, `SpecError`, whose message is one line per problem: the field path,
then the rule that was broken (``ops[1].inputs[0]: 'int' is a reserved word in C``).
A spec's validation reports every independent problem at once: each check runs under
`Problems.check()`, which records its SpecError and lets the next check run; a check
that reads a field that failed is skipped (its value is None). `Problems.raise_any()`
then raises them together, one SpecError whose `problems` are the one-line errors in
the order of the spec.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
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
        # Every problem this error reports, itself when it is one (see `joined`).
        self.problems: tuple[SpecError, ...] = (self,)
        super().__init__(f"{field}: {rule}")

    @property
    def lines(self) -> tuple[str, ...]:
        """One line per problem: `field: rule`."""
        return tuple(f"{p.field}: {p.rule}" for p in self.problems)

    @classmethod
    def joined(cls, problems: list[SpecError]) -> SpecError:
        """One SpecError reporting all of `problems` (itself when there is one); its
        message is one line per problem, field and rule those of the first."""
        flat = [p for problem in problems for p in problem.problems]
        if len(flat) == 1:
            return flat[0]
        error = cls(flat[0].field, flat[0].rule)
        error.problems = tuple(flat)
        error.args = ("\n".join(error.lines),)
        return error


class Problems:
    """The independent problems of a spec, collected: `with problems.check(): ...` runs
    one check and records its SpecError instead of stopping the validation."""

    def __init__(self) -> None:
        self.found: list[SpecError] = []

    @contextmanager
    def check(self) -> Iterator[None]:
        try:
            yield
        except SpecError as exc:
            self.found.append(exc)

    def raise_any(self) -> None:
        """Raise every problem found, in one SpecError; nothing when there is none."""
        if self.found:
            raise SpecError.joined(self.found)


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


def _unknown_keys(field_path: str, mapping: dict, allowed: tuple[str, ...], ignored: tuple[str, ...] = ()) -> None:
    """Every key of `mapping` not in `allowed` (nor in `ignored`: keys refused with a
    rule of their own), one problem each."""
    problems = Problems()
    for key in mapping:
        if key not in allowed and key not in ignored:
            where = f"{field_path}." if field_path else ""
            with problems.check():
                raise SpecError(f"{where}{key}", f"unknown key (allowed: {', '.join(allowed)})")
    problems.raise_any()


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
