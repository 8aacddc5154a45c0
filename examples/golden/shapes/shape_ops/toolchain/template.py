# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The template this project was made from: `copier update`, and a new spec read first.

copier reads a `--data-file` itself, and a file it cannot read (a YAML slip while
editing, a list, an empty file, nesting deeper than Python's recursion) ends in its
traceback, or a key given twice reads without a word as its last value.
`check_spec_file` refuses those in one line before copier runs: the file must be a
YAML mapping as the template's strict reader reads it (spec_yaml.py, the very file
`scripts/new` reads a spec with); then, when the template's
checkout recorded in `.copier-answers.yml` (`_src_path`) is a folder on this machine,
its own strict reader and every rule of the spec (`scripts/new --check`, the reader of
a new project) judge it. The update then runs as the README says:
`copier update --trust --defaults [--data-file SPEC] [--vcs-ref REF]`, in the project.

Before it runs, `newer_releases` names the template's releases newer than the project's
and what each needs by hand: the "Update needs action" of their CHANGELOG.md entries
that is not "no", read from the template's checkout at its newest release tag.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
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
        from . import spec_yaml  # PyYAML's, which copier brings
    except ImportError:
        raise ToolchainError("copier is not installed (python -m pip install copier)") from None
    try:
        data = spec_yaml.load(text)  # the template's own strict reader (scripts/new's)
    except spec_yaml.SpecYamlError as exc:
        raise ToolchainError(f"{where}: {exc}") from None
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


RELEASE_TAG = re.compile(r"^v(\d+)\.(\d+)\.(\d+)$")
RELEASED = re.compile(r"^v?(\d+)\.(\d+)\.(\d+)")  # _commit: v1.2.0, or v1.2.0-5-gabc1234 after it
SECTION = re.compile(r"^## \[(\d+)\.(\d+)\.(\d+)\]", re.M)
ACTION = re.compile(r"\bUpdate needs action\**:\**\s*(.+)", re.S)


def needed_actions(section: str) -> list[str]:
    """The "Update needs action" texts of one CHANGELOG.md section that are not "no",
    each on one line after the start of its entry (a list item or a paragraph; the text
    runs to the entry's end)."""
    blocks, block = [], []
    for line in section.splitlines():
        if not line.strip() or line.startswith(("- ", "#")):
            blocks.append(" ".join(block))
            block = []
        if line.strip() and not line.startswith("#"):
            block.append(line.strip())
    blocks.append(" ".join(block))
    out = []
    for text in blocks:
        text = text.replace("**", "").removeprefix("- ")
        found = ACTION.search(text)
        if found and not re.match(r"no\b", found.group(1), re.I):
            entry = text[: found.start()].strip()
            entry = entry if len(entry) <= 48 else entry[:48].rsplit(" ", 1)[0] + " ..."
            out.append(f"({entry}) {found.group(1).strip()}" if entry else found.group(1).strip())
    return out


def newer_releases(folder: Path | None, commit: str | None, vcs_ref: str | None = None) -> list[str]:
    """Lines naming the template's releases newer than the project's (`_commit`), up to
    the one the update goes to (`vcs_ref` when it is a release tag, else the newest),
    with what each needs by hand; [] when there is none or nothing can tell (a remote
    template, a commit that is no release: copier still runs and says what it does)."""
    base = RELEASED.match(commit or "")
    if folder is None or base is None or (vcs_ref and not RELEASE_TAG.match(vcs_ref)):
        return []
    try:
        listed = subprocess.run(["git", "-C", str(folder), "tag", "--list", "v*"], capture_output=True, text=True)
    except OSError:  # no git here: copier says so next
        return []
    tags = [m for m in map(RELEASE_TAG.match, listed.stdout.split()) if m]
    tags = [m for m in tags if not vcs_ref or m.group(0) == vcs_ref]
    if listed.returncode != 0 or not tags:
        return []
    mine = tuple(int(n) for n in base.groups())
    newest = max(tags, key=lambda m: tuple(int(n) for n in m.groups()))
    if tuple(int(n) for n in newest.groups()) <= mine:
        return []
    shown = subprocess.run(
        ["git", "-C", str(folder), "show", f"{newest.group(0)}:CHANGELOG.md"], capture_output=True, text=True
    )
    starts = list(SECTION.finditer(shown.stdout)) if shown.returncode == 0 else []
    versions, actions = [], []
    for i, start in enumerate(starts):
        version = tuple(int(n) for n in start.groups())
        if mine < version <= tuple(int(n) for n in newest.groups()):
            end = starts[i + 1].start() if i + 1 < len(starts) else len(shown.stdout)
            name = ".".join(start.groups())
            versions.append(name)
            actions += [f"  {name}: {text}" for text in needed_actions(shown.stdout[start.end() : end])]
    if not versions:
        return []
    mine_name = ".".join(base.groups())
    head = f"update: the template has {len(versions)} release(s) newer than this project's {mine_name}: "
    head += ", ".join(reversed(versions)) + f" (its CHANGELOG.md at {newest.group(0)})"
    if not actions:
        return [head + "; none needs action by hand"]
    return [head + "; by hand after the update (Update needs action):", *actions]


def check_ref(folder: Path | None, vcs_ref: str | None) -> None:
    """ToolchainError, one line, when `--vcs-ref` names no tag, branch or commit of the
    template's checkout (copier ended in a 60-line traceback, "Unknown revision"). Not
    judged without a local checkout (copier fetches a remote one, and says) or git."""
    if folder is None or not vcs_ref or vcs_ref == ":current:":
        return
    try:
        found = subprocess.run(
            ["git", "-C", str(folder), "rev-parse", "--verify", "--quiet", "--end-of-options", f"{vcs_ref}^{{commit}}"],
            capture_output=True,
            text=True,
        )
    except OSError:  # no git here: check_git says so before copier runs
        return
    if found.returncode != 0:
        raise ToolchainError(
            f"--vcs-ref {vcs_ref}: not a tag, branch or commit of the template ({folder}): give one of its "
            f"release tags (git -C {folder} tag --list 'v*'), or leave --vcs-ref out for the newest"
        )


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
    check_git(root)
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


# Files of a dirty tree named in the one line; the rest counted.
SHOWN_DIRTY = 5


def check_git(root: Path) -> None:
    """What copier update needs of git, said in one line before it runs (ToolchainError):
    git on PATH (copier ends in a traceback without it), the project in a git work tree,
    and no uncommitted change or untracked file in it (copier says only "Destination
    repository is dirty"): the files are named. The spec you pass with --spec belongs
    outside the project, or it is one of them."""
    if shutil.which("git") is None:
        raise ToolchainError("git is not on PATH: copier update needs it (install git and run again)")
    inside = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-toplevel"], capture_output=True, text=True)
    if inside.returncode:
        raise ToolchainError(
            f"{root} is not a git repository: copier update needs the project committed "
            "(git init && git add -A && git commit -m 'the project'), then run again"
        )
    res = subprocess.run(
        ["git", "-C", str(root), "status", "--porcelain", "-z", "--untracked-files=all", "--", "."],
        capture_output=True,
        text=True,
    )
    if res.returncode:
        lines = [line for line in res.stderr.splitlines() if line.strip()]
        raise ToolchainError(f"git status failed in {root}: {lines[-1] if lines else res.returncode}")
    dirty, entries = [], iter(res.stdout.split("\0"))
    for entry in entries:
        if not entry:
            continue
        dirty.append(entry[3:])
        if entry[0] in "RC":  # a rename or copy: the next entry is where it came from
            next(entries, None)
    if dirty:
        shown = ", ".join(dirty[:SHOWN_DIRTY]) + (
            f" and {len(dirty) - SHOWN_DIRTY} more" if len(dirty) > SHOWN_DIRTY else ""
        )
        raise ToolchainError(
            f"the project has uncommitted changes ({shown}): commit or stash them first, copier update needs a "
            "clean tree (keep the spec you edit outside the project)"
        )
