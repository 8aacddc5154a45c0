"""Render a new project from a spec: the spec read strictly, checked, then `copier copy`.

    scripts/new SPEC DEST [COPIER_OPTION ...]      (or: make new SPEC=... DEST=...)
    scripts/new --check SPEC                       (read and check only; writes nothing)

The same as `copier copy --trust --defaults --data-file SPEC <this template> DEST`,
except that the spec file is read first by hooks/spec_file.py and checked by
hooks/spec.py: a file copier's own reading would end in a traceback (YAML errors, an
empty or list file, `!!binary`, a 5,000-digit number) or read without a word (a key
given twice, a typo'd `_soc_model`) is refused in one line, exit 1, nothing written.
Options after DEST go to copier as they are (`--vcs-ref v1.0.0`, `--quiet`, ...).
"""

from __future__ import annotations

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
    return subprocess.run([*command, "--data-file", path, str(TEMPLATE), dest], check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
