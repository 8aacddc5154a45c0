# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""What a `copier update` did: the template versions it went from and to, every file it
changed, and every file it left with conflict markers or a rejected hunk.

copier runs it at the end of every update (copier.yml `_migrations`, after the merge);
it exits 1 when a conflict is left, so that the update fails and names the files
instead of reporting success.  Run it again at any time, e.g. after resolving:

    python tests/update_report.py        # the changes not yet committed, and the leftovers

Standard library only: it runs while the project may not import (a conflict in a .py).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import test_no_merge_leftovers as leftovers

ROOT = Path(__file__).resolve().parents[1]


def changed_files(root: Path = ROOT) -> list[str]:
    """`git status --porcelain` of the project: the update is not committed yet."""
    result = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all", "--", "."],
        cwd=root,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        return [f"?? (git status failed: {result.stderr.strip()})"]
    return [line for line in result.stdout.splitlines() if line.strip()]


def _version(pep440: str, ref: str) -> str:
    if not pep440:
        return ref or "?"
    return f"{pep440} ({ref})" if ref and ref.lstrip("v") != pep440 else pep440


def report(root: Path, old: tuple[str, str], new: tuple[str, str]) -> tuple[list[str], int]:
    lines = []
    if any(old) or any(new):
        lines.append(f"copier update: template version {_version(*old)} -> {_version(*new)}")
    changed = changed_files(root)
    lines.append(f"{len(changed)} {'file' if len(changed) == 1 else 'files'} changed (git status):")
    lines += [f"  {line}" for line in changed]
    markers = leftovers.conflict_markers(root)
    rejected = leftovers.rejected_hunks(root)
    conflicted = sorted({m.split(":", 1)[0] for m in markers} | {r.removesuffix(".rej") for r in rejected})
    if not conflicted:
        lines.append("no conflict left")
        return lines, 0
    lines.append(
        f"{len(conflicted)} {'file holds' if len(conflicted) == 1 else 'files hold'} what the update "
        "could not merge: resolve each by hand, then `python tests/update_report.py` (docs: "
        "qnn-op-template/docs/updating.md, 'When an update conflicts')"
    )
    lines += [f"  {m}" for m in markers] + [f"  {r}: rejected hunk" for r in rejected]
    lines.append(f"error: the update left conflicts in {', '.join(conflicted)}")
    return lines, 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--from", dest="old", default="", help="the template version updated from (PEP 440)")
    ap.add_argument("--from-ref", default="", help="its git reference (`_commit` before the update)")
    ap.add_argument("--to", dest="new", default="", help="the template version updated to (PEP 440)")
    ap.add_argument("--to-ref", default="", help="its git reference (`_commit` now)")
    args = ap.parse_args(argv)
    lines, code = report(ROOT, (args.old, args.from_ref), (args.new, args.to_ref))
    out = sys.stderr if code else sys.stdout
    for line in lines:
        print(line, file=out)
    return code


if __name__ == "__main__":
    sys.exit(main())
