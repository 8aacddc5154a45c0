"""Render a new project from a spec: the spec read strictly, checked, then `copier copy`.

    scripts/new SPEC DEST [COPIER_OPTION ...]      (or: make new SPEC=... DEST=...)
    scripts/new --check SPEC                       (read and check only; writes nothing)

The same as `copier copy --trust --defaults --data-file SPEC <this template> DEST`,
except that the spec file is read first by hooks/spec_file.py and checked by
hooks/spec.py: a file copier's own reading would end in a traceback (YAML errors, an
empty or list file, `!!binary`, a 5,000-digit number) or read without a word (a key
given twice, a typo'd `_soc_model`) is refused in one line, exit 1, nothing written.
Options after DEST go to copier as they are (`--vcs-ref v1.0.0`, `--quiet`, ...).
Without `--vcs-ref`, copier renders the newest release tag; when this checkout of the
template is newer than that tag, one line on stderr says so and how to render it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a file: python hooks/new.py
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from hooks import spec, spec_file
else:
    from . import spec, spec_file

TEMPLATE = Path(__file__).resolve().parent.parent
USAGE = "usage: scripts/new SPEC DEST [COPIER_OPTION ...]  |  scripts/new --check SPEC"


def check(path: str) -> None:
    """Raise SpecError (one line) unless the file at `path` is a valid spec."""
    raw = spec_file.read(path)
    spec.check_size(raw)
    spec.validate(raw)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] in (["-h"], ["--help"]):
        print(USAGE)
        print(__doc__.split("\n\n", 2)[1].strip())
        return 0
    only_check = args[:1] == ["--check"]
    if only_check:
        args = args[1:]
    if len(args) != 1 if only_check else len(args) < 2 or args[0].startswith("-") or args[1].startswith("-"):
        print(USAGE, file=sys.stderr)
        return 2
    try:
        check(args[0])
    except spec.SpecError as exc:
        print(f"Invalid op spec: {exc}", file=sys.stderr)
        return 1
    if only_check:
        return 0
    path, dest, extra = args[0], args[1], args[2:]
    command = [sys.executable, "-m", "copier", "copy", "--trust", "--defaults", *extra]
    code = subprocess.run([*command, "--data-file", path, str(TEMPLATE), dest], check=False).returncode
    picked = any(a in ("-r", "--vcs-ref") or a.startswith("--vcs-ref=") for a in extra)
    notice = None if code or picked else newer_than_rendered(Path(dest))
    if notice:
        print(notice, file=sys.stderr)
    return code


def newer_than_rendered(dest: Path) -> str | None:
    """One line when copier rendered a release tag (its choice without --vcs-ref: the
    newest) and this checkout of the template has commits after it: in a clone of main
    after `make example` (which recreates the tags), the project would otherwise hold
    the last release, not the template the clone's README describes. None otherwise."""
    try:
        answers = (dest / ".copier-answers.yml").read_text()
    except OSError:
        return None
    match = re.search(r"^_commit: (v\d+\.\d+\.\d+)$", answers, re.M)
    if not match:
        return None
    tag = match.group(1)
    try:
        count = subprocess.run(
            ["git", "-C", str(TEMPLATE), "rev-list", "--count", f"{tag}..HEAD"], capture_output=True, text=True
        )
    except OSError:  # no git: nothing to say
        return None
    newer = int(count.stdout) if count.returncode == 0 and count.stdout.strip().isdigit() else 0
    if not newer:
        return None
    return (
        f"scripts/new: rendered {tag}, the newest release of the template; this checkout has {newer} "
        f"commit{'s' if newer != 1 else ''} after it (CHANGELOG.md, [Unreleased]): add --vcs-ref HEAD to "
        f'render them instead (README, "Pin a version")'
    )


if __name__ == "__main__":
    sys.exit(main())
