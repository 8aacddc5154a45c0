# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The template this project was made from: `copier update`, and a new spec read first.

copier reads a `--data-file` itself, and a file it cannot read (a YAML slip while
editing, a list, an empty file) ends in its traceback, or a key given twice reads
without a word as its last value. `check_spec_file` refuses those in one line before
copier runs: the file must be a readable YAML mapping; then, when the template's
checkout recorded in `.copier-answers.yml` (`_src_path`) is a folder on this machine,
its own strict reader and every rule of the spec (`scripts/new --check`, the reader of
a new project) judge it. The update then runs as the README says:
`copier update --trust --defaults [--data-file SPEC] [--vcs-ref REF]`, in the project.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .._package import NAMESPACE
from .sdk import ToolchainError

ANSWERS = ".copier-answers.yml"
# A spec is a few kB; a larger file is not one (and is not read whole).
MAX_SPEC_BYTES = 1 << 20


def is_local(source: str) -> bool:
    """A path on this machine, not a URL, `gh:` / `gl:` shortcut or scp-like git address."""
    return "://" not in source and not re.match(r"^(gh:|gl:|[\w.-]+@[\w.-]+:)", source)


@dataclass(frozen=True)
class Recorded:
    """What `.copier-answers.yml` records of the template: its checkout, when that is a
    folder on this machine (None for a remote source, which copier fetches), and the
    version the project was rendered from (`_commit`)."""

    folder: Path | None
    commit: str | None


def recorded_template(root: Path) -> Recorded:
    """The answers file read once. ToolchainError when the project has none, or records
    a local path that is no folder (the checkout moved since the copy: copier would say
    "Updating is only supported in git-tracked templates")."""
    answers_file = root / ANSWERS
    if not answers_file.is_file():
        raise ToolchainError(f"{root}: no {ANSWERS}, so copier cannot update it (a project copier made has one)")
    try:
        import yaml
    except ImportError:  # no copier either: run_update says so
        return Recorded(None, None)
    try:
        answers = yaml.safe_load(answers_file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return Recorded(None, None)  # copier reads it next, and says what is wrong
    answers = answers if isinstance(answers, dict) else {}
    commit = answers.get("_commit") if isinstance(answers.get("_commit"), str) else None
    source = answers.get("_src_path")
    if not isinstance(source, str) or not is_local(source):
        return Recorded(None, commit)
    path = Path(source).expanduser()
    path = path if path.is_absolute() else root / path  # copier's own reading of a relative one
    if not path.is_dir():
        raise ToolchainError(
            f"the template this project was made from, {source} (_src_path in {ANSWERS}), is not a folder here: "
            f"put its checkout back there, or set _src_path to where it is now and commit that"
        )
    return Recorded(path, commit)


def check_spec_file(spec: str) -> Path:
    """The spec file's absolute path when it is a readable YAML mapping, else
    ToolchainError with one line naming the file and what is wrong with it. Nothing of
    the project is read: the file is judged before anything else."""
    path = Path(spec).expanduser().resolve()
    where = f"--spec {spec}"
    if not path.exists():
        raise ToolchainError(f"{where}: no such file")
    if not path.is_file():
        raise ToolchainError(f"{where}: not a regular file")
    if path.stat().st_size > MAX_SPEC_BYTES:
        raise ToolchainError(f"{where}: larger than {MAX_SPEC_BYTES} bytes, not a spec")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ToolchainError(f"{where}: not UTF-8 text") from None
    except OSError as exc:
        raise ToolchainError(f"{where}: cannot be read ({exc.strerror})") from None
    try:
        import yaml
    except ImportError:
        raise ToolchainError("copier is not installed (python -m pip install copier)") from None
    try:
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise ToolchainError(f"{where}: not valid YAML{at}: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise ToolchainError(f"{where}: not valid YAML: {' '.join(str(exc).split())}") from None
    if not isinstance(data, dict):
        kind = "empty" if data is None else f"a {type(data).__name__}"
        raise ToolchainError(
            f"{where}: the file is {kind}, not a spec (a mapping of package_name, namespace, ops, ...; "
            f"python -m {NAMESPACE} spec prints this project's)"
        )
    return path


def check_spec_rules(spec: str, path: Path, template: Path | None) -> None:
    """The template's own judgement of the spec file (`scripts/new --check`: its strict
    reader, then every rule), when the project's template is a folder here
    (recorded_template); ToolchainError otherwise, one line per problem (every broken
    rule at once). Without a local template, copier's run of the template's spec hook
    judges the rules (one line each too), not the reading."""
    checker = template / "hooks" / "new.py" if template else None
    if checker is None or not checker.is_file():
        return
    res = subprocess.run([sys.executable, str(checker), "--check", str(path)], capture_output=True, text=True)
    if res.returncode == 0:
        for line in res.stderr.splitlines():  # what the spec most likely did not mean: said, not refused
            if line.startswith("scripts/new: note: "):
                print(f"note: --spec {spec}: {line.removeprefix('scripts/new: note: ')}", file=sys.stderr)
        return
    # Every problem of the spec, one line each (the lines of `Invalid op spec: ...`).
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    reasons = [line.removeprefix("Invalid op spec: ") for line in lines if line.startswith("Invalid op spec: ")]
    reasons = reasons or lines[-1:] or [f"exit status {res.returncode}"]
    raise ToolchainError(*(f"--spec {spec}: {reason}" for reason in reasons))


def update_command(spec: Path | None, vcs_ref: str | None) -> list[str]:
    """copier update as the README runs it: every recorded answer kept, no prompt."""
    cmd = [sys.executable, "-m", "copier", "update", "--trust", "--defaults"]
    if spec is not None:
        cmd += ["--data-file", str(spec)]
    if vcs_ref:
        cmd += ["--vcs-ref", vcs_ref]
    return cmd


def run_update(root: Path, spec: Path | None, vcs_ref: str | None, commit: str | None = None) -> None:
    """Run copier update in the project (recorded_template has checked its answers file;
    `commit` is the version it records); copier's own output (progress, the update
    report) goes to the terminal. ToolchainError when it cannot start or fails."""
    if importlib.util.find_spec("copier") is None:
        raise ToolchainError("copier is not installed (python -m pip install copier)")
    sys.stdout.flush()
    code = subprocess.run(update_command(spec, vcs_ref), cwd=root, stdin=subprocess.DEVNULL).returncode
    if code != 0:
        hint = ""
        if not vcs_ref and commit and re.search(r"-\d+-g[0-9a-f]+$", commit):
            # Rendered from a commit after a release (scripts/new --vcs-ref HEAD): the
            # newest tag is older, and copier refuses the downgrade.
            hint = (
                f"; this project is at {commit}, after the template's last release: "
                "update with --vcs-ref HEAD until the next one"
            )
        raise ToolchainError(f"copier update exited with status {code}: its reason is the line above{hint}")
