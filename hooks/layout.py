"""The one joiner of the lists the views build (arguments, initialisers, table cells).

Every list a template places is joined here, by a view: a template never builds one with
`loop.last`, `|join` or `|upper`, so no rendered file can hold `def f(a, ):` or `{x, }`.
How a list breaks over lines is the view's own (hooks/view_py.py for ruff's layout,
hooks/view_c.py for clang-format's).
"""

from __future__ import annotations


def join(items: list[str]) -> str:
    """An argument or initialiser list: separators between items, never after the last."""
    return ", ".join(items)
