"""Render a new project from a spec: the spec read strictly, checked, then `copier copy`.

    scripts/new SPEC DEST [COPIER_OPTION ...]      (or: make new SPEC=... DEST=...)
    scripts/new --check SPEC                       (read and check only; writes nothing)

The same as `copier copy --trust --defaults --data-file SPEC <this template> DEST`,
except that the spec file is read first by hooks/spec_file.py and checked by
hooks/spec.py: a file copier's own reading would end in a traceback (YAML errors, an
empty or list file, `!!binary`, a 5,000-digit number) or read without a word (a key
given twice, a typo'd `_soc_model`) is refused in one line, exit 1, nothing written
(a spec that breaks rules: one line per broken rule, every one in one run).
So is a DEST that is a file, a project made already, or a folder holding a file the
project would write (unless `--overwrite` is passed): copier would render into it until
it met that file, then stop, half done.
Options after DEST go to copier as they are (`--vcs-ref v1.0.0`, `--quiet`, ...), read
first by copier's own parser: an option it does not take, a `--vcs-ref` that is no tag,
branch or commit of this checkout, a DEST that cannot be written (a read-only mount,
/proc, no permission) or an empty SPEC or DEST is one line, nothing written (copier
printed its 50-line usage, or ended in a traceback).
Without `--vcs-ref`, copier renders the newest release tag; when this checkout of the
template is newer than that tag, one line on stderr says so and how to render it.
The new project is a git repository from its first second: DEST is `git init`ed and
the render committed as one commit naming the template version, so that `copier
update` works at once (it needs a git-tracked project with a clean tree). Not when
DEST is inside a git work tree already (a repository of yours): one line says so, and
the commit is yours to make. Without git on PATH nothing is written: a project copier
renders then records no template version and can never be updated.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):  # run as a file: python hooks/new.py
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from hooks import spec, spec_file
else:
    from . import spec, spec_file

TEMPLATE = Path(__file__).resolve().parent.parent
# What a render is made of: copier.yml, its _subdirectory and its Jinja extensions'
# folder (tests/test_release.py derives the same from copier.yml).  A commit elsewhere
# (docs, tests, bench) changes no project, and needs no release.
RENDER_PATHS = ("copier.yml", "hooks", "template")
USAGE = "usage: scripts/new SPEC DEST [COPIER_OPTION ...]  |  scripts/new --check SPEC"


def check(path: str) -> spec.Package:
    """The valid spec in the file at `path`; SpecError otherwise (its `lines`: one per
    problem, every independent problem of the spec)."""
    raw = spec_file.read(path)
    spec.check_size(raw)
    return spec.validate(raw)


def notes(pkg: spec.Package) -> list[str]:
    """What a valid spec most likely did not mean, one line each: a param that an
    elementwise op's expr never reads changes nothing, in torch and on the DSP (the
    kernel takes it and ignores it); an input the expr never reads is an error."""
    out = []
    for i, op in enumerate(pkg.ops):
        unread = op.unread_params
        for j, param in enumerate(op.params):
            if param in unread:
                out.append(
                    f"scripts/new: note: ops[{i}].params[{j}] ({param.name}): the expr of {op.name} never reads it, "
                    "so passing it changes nothing"
                )
    return out


def ok_line(path: str, pkg: spec.Package) -> str:
    """What `--check` says of a valid spec, one line: what it checked, ok."""
    ops = ", ".join(op.name for op in pkg.ops)
    return (
        f"scripts/new --check: {path}: ok (package {pkg.package_name}, namespace {pkg.namespace}, "
        f"backends {', '.join(pkg.backends)}; {pkg.n_ops} op{'s' if pkg.n_ops != 1 else ''}: {ops}; every rule of "
        "docs/spec.md)"
    )


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
    empty = [name for name, arg in zip(("SPEC", "DEST"), args) if not arg.strip()]
    if empty:  # `make new` without SPEC= or DEST=: the path would read as the current folder
        print(
            f"scripts/new: {' and '.join(empty)} {'is' if len(empty) == 1 else 'are'} empty: give the spec file "
            "and the new project's folder (make new SPEC=my_spec.yaml DEST=my-project); nothing was written",
            file=sys.stderr,
        )
        return 2
    try:
        pkg = check(args[0])
    except spec.SpecError as exc:
        for line in exc.lines:  # every problem of the spec, one line each
            print(f"Invalid op spec: {line}", file=sys.stderr)
        return 1
    for line in notes(pkg):
        print(line, file=sys.stderr)
    if only_check:
        print(ok_line(args[0], pkg))
        return 0
    if shutil.which("git") is None:
        print(
            "scripts/new: git is not on PATH: copier needs it to record the template version, and "
            "`copier update` to update the project; install git and run again; nothing was written",
            file=sys.stderr,
        )
        return 1
    path, dest, extra = args[0], args[1], args[2:]
    refused = option_problem(extra) or ref_problem(extra) or unwritable(Path(dest))
    if refused:
        print(f"scripts/new: {refused}; nothing was written", file=sys.stderr)
        return 2 if refused.startswith("after DEST: ") else 1
    command = [sys.executable, "-m", "copier", "copy", "--trust", "--defaults", *extra]

    def render_into(folder: Path) -> bool:
        run = [*command, "--quiet", "--data-file", path, str(TEMPLATE), str(folder)]
        return subprocess.run(run, capture_output=True, check=False).returncode == 0

    overwrite = any(a in ("-w", "--overwrite") for a in extra)
    occupied = None if overwrite else destination_problem(Path(dest), render_into)
    if occupied:
        print(f"scripts/new: {occupied}", file=sys.stderr)
        return 1
    outer = enclosing_work_tree(Path(dest))
    code = subprocess.run([*command, "--data-file", path, str(TEMPLATE), dest], check=False).returncode
    if code:
        return code
    if any(a in ("-n", "--pretend") for a in extra):
        pass  # copier wrote nothing
    elif outer is not None:
        where = (
            "is a git repository already"
            if outer == Path(dest).resolve()
            else f"is inside the git work tree {str(outer)!r}"
        )
        print(
            f"scripts/new: DEST {dest!r} {where}: the render is not committed; commit it there "
            "(copier update needs the project committed and the tree clean)",
            file=sys.stderr,
        )
    else:
        done, said = commit_render(Path(dest), Path(path).name)
        if not done:
            print(f"scripts/new: {said}", file=sys.stderr)
            return 1
        if not any(a in ("-q", "--quiet") for a in extra):
            print(f"scripts/new: {said}")
    picked = any(a in ("-r", "--vcs-ref") or a.startswith("--vcs-ref=") for a in extra)
    notice = None if picked else newer_than_rendered(Path(dest))
    if notice:
        print(notice, file=sys.stderr)
    return 0


def copier_options(extra: list[str]) -> dict[str, tuple]:
    """The options after DEST read as `copier copy` reads them (its own parser: plumbum's,
    on copier's copy command), by the name given: {"--vcs-ref": ("v1.0.0",), "-q": ()}.
    ValueError with copier's one-line reason for an option it would refuse (it printed
    its whole usage, 50 lines, after it)."""
    try:
        from copier._cli import CopierCopySubApp
        from plumbum.cli import SwitchError
    except ImportError:  # no copier: running it says so
        return {}

    parse = getattr(CopierCopySubApp("copy"), "_parse_args", None)  # plumbum's (tests/test_edges.py)
    if parse is None:
        return {}
    try:
        found, rest = parse(list(extra))
    except SwitchError as exc:
        raise ValueError(" ".join(str(exc).split())) from None
    if rest:
        raise ValueError(f"{rest[0]!r} is not an option: SPEC and DEST come first, then copier's options")
    return {info.swname: tuple(info.val) for info in found.values()}


def option_problem(extra: list[str]) -> str | None:
    """One line naming an option after DEST that `copier copy` would refuse; None when all are its."""
    try:
        copier_options(extra)
    except ValueError as exc:
        python = Path(sys.executable).name
        return f"after DEST: {exc} (the options copier copy takes: {python} -m copier copy --help; usage: scripts/new --help)"
    return None


def ref_problem(extra: list[str]) -> str | None:
    """One line when `--vcs-ref REF` names no commit of this template's checkout (copier
    ended in a 60-line traceback, "Unknown revision"); None otherwise."""
    options = copier_options(extra)
    given = options.get("--vcs-ref") or options.get("-r")
    if not given:
        return None
    ref = given[0]
    res = subprocess.run(
        ["git", "-C", str(TEMPLATE), "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"],
        capture_output=True,
        text=True,
    )
    if res.returncode == 0:
        return None
    return (
        f"--vcs-ref {ref!r}: not a tag, branch or commit of the template ({TEMPLATE}): "
        "give a release tag (git tag --list 'v*' there) or HEAD"
    )


def unwritable(dest: Path) -> str | None:
    """One line when DEST cannot be made or written (no such parent folder, a read-only
    file system, no permission, /proc): probed by making and removing a folder in DEST
    or in its nearest existing folder, so that copier does not end in a traceback."""
    probe = dest.absolute()
    while not probe.exists() and not probe.is_symlink():
        probe = probe.parent
    where = f"DEST {str(dest)!r}"
    if probe == dest.absolute() and not probe.is_dir():
        return None  # a file or a broken link: destination_problem says so
    if not probe.is_dir():
        return f"{where}: {str(probe)!r} is not a folder, so DEST cannot be made in it"
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".scripts-new-", dir=probe))
    except OSError as exc:
        return f"{where} cannot be written ({str(probe)!r}: {exc.strerror or exc})"
    return None


def enclosing_work_tree(dest: Path) -> Path | None:
    """The top folder of the git work tree DEST would be in (DEST itself when it is a
    repository already), or None: asked of DEST's nearest existing folder."""
    probe = dest.absolute()
    while not probe.is_dir():
        if probe.parent == probe:
            return None
        probe = probe.parent
    res = subprocess.run(["git", "-C", str(probe), "rev-parse", "--show-toplevel"], capture_output=True, text=True)
    top = res.stdout.strip()
    return Path(top) if res.returncode == 0 and top else None


# The identity of the first commit when git has none configured (only for that commit:
# the user's configuration is not changed; `git commit --amend --reset-author` takes
# theirs later).
FALLBACK_NAME = "qnn-op-template"
FALLBACK_EMAIL = "scripts-new@qnn-op-template.invalid"


def commit_render(dest: Path, spec_name: str) -> tuple[bool, str]:
    """`git init` DEST and commit everything in it, one commit whose message names the
    template version (`_commit` of the answers file). (True, what was done) or (False,
    why not), one line each."""
    version = template_version(dest)
    message = f"New project from qnn-op-template {version} (scripts/new {spec_name})"

    def git(*args: str, config: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
        return subprocess.run(["git", *config, "-C", str(dest), *args], capture_output=True, text=True)

    steps = [("init", "-q"), ("add", "-A")]
    for step in steps:
        res = git(*step)
        if res.returncode:
            return False, failed_git(dest, step[0], res)
    fallback = []
    if git("config", "--get", "user.name").returncode:
        fallback += ["-c", f"user.name={FALLBACK_NAME}"]
    if git("config", "--get", "user.email").returncode and not os.environ.get("EMAIL"):
        fallback += ["-c", f"user.email={FALLBACK_EMAIL}"]
    res = git("commit", "-q", "--no-verify", "-m", message, config=tuple(fallback))
    if res.returncode:
        return False, failed_git(dest, "commit", res)
    who = f" as {FALLBACK_NAME} <{FALLBACK_EMAIL}> (git has no user.name/user.email set)" if fallback else ""
    return True, f"made {str(dest)!r} a git repository and committed the render{who}: {message!r}"


def template_version(dest: Path) -> str:
    """The template version the answers file records (`_commit`), or "(version unknown)"."""
    try:
        answers = (dest / ".copier-answers.yml").read_text(encoding="utf-8")
    except OSError:
        return "(version unknown)"
    match = re.search(r"^_commit: *['\"]?([^'\"\s]+)", answers, re.M)
    return match.group(1) if match else "(version unknown)"


def failed_git(dest: Path, step: str, res: subprocess.CompletedProcess) -> str:
    lines = [line for line in (res.stderr or res.stdout).splitlines() if line.strip()]
    reason = lines[-1].strip() if lines else f"exit status {res.returncode}"
    return (
        f"the project is rendered in {str(dest)!r}, but `git {step}` failed there ({reason}): "
        "commit it yourself (git init && git add -A && git commit) before `copier update`"
    )


def destination_problem(dest: Path, render) -> str | None:
    """Why DEST cannot take the new project, in one line; None when it can: it does not
    exist yet, is an empty folder, or holds only files the project does not have (a
    fresh `git init`, a LICENSE). copier itself renders into a folder until it meets a
    file it would write, then stops to ask (without a terminal: exit 1), leaving the
    user's files mixed with a half-rendered project. `render(folder)` renders the
    project into an empty folder: what it writes is compared with what DEST holds."""
    where = f"DEST {str(dest)!r}"
    if not dest.exists():
        return None if not dest.is_symlink() else f"{where} is a broken symbolic link; nothing was written"
    if not dest.is_dir():
        return f"{where} is a file, not a folder: give a new or empty folder; nothing was written"
    try:
        held = any(dest.iterdir())
    except OSError as exc:
        return f"{where} cannot be read ({exc.strerror}); nothing was written"
    if not held:
        return None
    if (dest / ".copier-answers.yml").exists():
        return (
            f"{where} is a project made already (it has .copier-answers.yml): to change its spec or take a "
            "newer template, run `copier update` in it (the template's docs/updating.md); nothing was written"
        )
    with tempfile.TemporaryDirectory(prefix="scripts-new-") as tmp:
        probe = Path(tmp) / "project"
        if not render(probe):
            return None  # the real run fails the same way and says why
        rendered = [p.relative_to(probe) for p in sorted(probe.rglob("*")) if not p.is_dir()]
    found = list(dict.fromkeys(c for c in (clash(dest, rel) for rel in rendered) if c))
    if not found:
        return None
    shown = ", ".join(found[:3]) + (f" and {len(found) - 3} more" if len(found) > 3 else "")
    return (
        f"{where} holds files in the way of the project's ({shown}): give a new or empty folder, or pass "
        "--overwrite to let copier replace them; nothing was written"
    )


def clash(dest: Path, rel: Path) -> str | None:
    """What of DEST is in the way of the project's file `rel`: the same path, or a
    non-folder where `rel` needs a folder; None when nothing is."""
    for up in reversed(rel.parents):
        if up != Path(".") and os.path.lexists(dest / up) and not (dest / up).is_dir():
            return str(up)
    return str(rel) if os.path.lexists(dest / rel) else None


def newer_than_rendered(dest: Path) -> str | None:
    """One line when copier rendered a release tag (its choice without --vcs-ref: the
    newest) and this checkout of the template has commits after it that change a render
    (RENDER_PATHS; none of them may stay unreleased on main: docs/releasing.md): in a clone of main
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
            ["git", "-C", str(TEMPLATE), "rev-list", "--count", f"{tag}..HEAD", "--", *RENDER_PATHS],
            capture_output=True,
            text=True,
        )
    except OSError:  # no git: nothing to say
        return None
    newer = int(count.stdout) if count.returncode == 0 and count.stdout.strip().isdigit() else 0
    if not newer:
        return None
    return (
        f"scripts/new: rendered {tag}, the newest release of the template; this checkout has {newer} "
        f"commit{'s' if newer != 1 else ''} after it that change{'' if newer != 1 else 's'} what a render holds "
        f"(CHANGELOG.md, [Unreleased]): add --vcs-ref HEAD to render {'them' if newer != 1 else 'it'} instead "
        '(README, "Pin a version")'
    )


if __name__ == "__main__":
    sys.exit(main())
