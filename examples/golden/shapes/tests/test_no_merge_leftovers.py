# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""No leftovers of a `copier update`: conflict markers or rejected hunks.

`copier update` exits 0 even when a change of the template collides with an edit of
yours: it leaves conflict markers in the file (or, with `--conflict rej`, a `*.rej`
file next to it) and reports success.  These tests fail until every conflict is
resolved, naming each file and line (qnn-op-template/docs/updating.md says how).

Also a script, e.g. for a pre-commit hook of yours:

    python tests/test_no_merge_leftovers.py      # exit 1 and a list if anything is left
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The markers are built from pieces so that this file never matches its own scan.
START = "<" * 7 + " "
MIDDLE = "=" * 7
END = ">" * 7 + " "
BASE = "|" * 7 + " "
# A line of exactly seven '=' is a heading underline in Markdown and reStructuredText;
# there a real conflict still shows its start and end markers.
MIDDLE_IS_TEXT = (".md", ".rst", ".txt")

# Never scanned: version control, caches, virtual environments and build outputs.
SKIP_DIRS = {
    ".git",
    ".hg",
    ".svn",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".tox",
    ".nox",
    ".venv",
    "venv",
    "node_modules",
}
SKIP_PATHS = {"build", "artifacts"}
SKIP_UNDER_OP_PACKAGE = {"build", "libs", "obj"}
MAX_BYTES = 4 * 1024 * 1024


def _files(root: Path):
    for folder, dirs, names in os.walk(root):
        rel = Path(folder).relative_to(root)
        keep = []
        for d in sorted(dirs):
            sub = rel / d
            if d in SKIP_DIRS or sub.as_posix() in SKIP_PATHS:
                continue
            if len(sub.parts) == 3 and sub.parts[0] == "op_package" and d in SKIP_UNDER_OP_PACKAGE:
                continue
            keep.append(d)
        dirs[:] = keep
        for name in sorted(names):
            yield rel / name


def rejected_hunks(root: Path = ROOT) -> list[str]:
    """Every `*.rej` file: a hunk of the update that did not apply."""
    return [path.as_posix() for path in _files(root) if path.name.endswith(".rej")]


def conflict_markers(root: Path = ROOT) -> list[str]:
    """`file:line: marker` for every conflict marker line left in a text file."""
    found = []
    for rel in _files(root):
        path = root / rel
        if rel.name.endswith(".rej") or not path.is_file() or path.stat().st_size > MAX_BYTES:
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue  # binary
        text = data.decode("utf-8", errors="replace")
        middle_counts = not rel.name.endswith(MIDDLE_IS_TEXT)
        for number, line in enumerate(text.splitlines(), 1):
            if line.startswith((START, END, BASE)) or (middle_counts and line == MIDDLE):
                found.append(f"{rel.as_posix()}:{number}: {line[:60]}")
    return found


def test_no_conflict_markers():
    found = conflict_markers()
    assert not found, (
        "conflict markers left by `copier update` (resolve each, then rerun the tests):\n  " + "\n  ".join(found)
    )


def test_no_rejected_hunks():
    found = rejected_hunks()
    assert not found, (
        "rejected hunks left by `copier update --conflict rej` (apply each by hand, then "
        "delete the .rej file):\n  " + "\n  ".join(found)
    )


def main() -> int:
    problems = [f"{path}: rejected hunk" for path in rejected_hunks()] + conflict_markers()
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
