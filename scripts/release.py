#!/usr/bin/env python3
"""`make release VERSION=X.Y.Z`: release what `## [Unreleased]` of CHANGELOG.md holds.

Checks first, and changes nothing when one fails (one line, exit 1):
- VERSION is X.Y.Z (no leading zeros), the next patch, minor or major version after
  the newest dated heading of CHANGELOG.md (1.2.0 -> 1.2.1, 1.3.0 or 2.0.0), and no
  heading or tag has it yet;
- `## [Unreleased]` is the changelog's first section and holds at least one entry, and
  its entries say "Conventions" and "Update needs action" (the changelog's header);
- HEAD is the branch main (a release on a detached HEAD or another branch would commit
  and tag on no branch main ever gets);
- the working tree is clean (nothing staged, changed or untracked) and git can commit;
- scripts/releases.txt reads, and the release tags there agree with it (`make tags`).

Then two commits, then the tags:
1. "Release X.Y.Z": the heading becomes `## [X.Y.Z] - <today, UTC>` under a new, empty
   `## [Unreleased]`;
2. scripts/releases.txt records `X.Y.Z <hash of commit 1>` (a commit cannot name
   itself: scripts/releases.txt's header), and any older release still unrecorded at
   the commit that dated its heading;
3. scripts/tags.py (`make tags`) tags v<X.Y.Z> at commit 1.
Push both commits (and nothing else needs pushing: every clone recreates the tags with
`make tags`).  docs/releasing.md says when to release and how.
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # a refusal leaves nothing behind, not even scripts/__pycache__/
sys.path.insert(0, str(Path(__file__).resolve().parent))
import tags  # noqa: E402  (scripts/tags.py: the releases and their commits)

VERSION = re.compile(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)")
UNRELEASED = "## [Unreleased]"
RECORDS = "scripts/releases.txt"
# The branch releases are cut on (docs/releasing.md, "How").
BRANCH = "main"


class ReleaseError(Exception):
    pass


def next_versions(last: str) -> list[str]:
    """The versions that may follow `last`: the next patch, minor and major."""
    major, minor, patch = (int(n) for n in last.split("."))
    return [f"{major}.{minor}.{patch + 1}", f"{major}.{minor + 1}.0", f"{major + 1}.0.0"]


def unreleased_section(changelog: str) -> tuple[int, int]:
    """Where `## [Unreleased]` starts and where its body ends (the next `## ` heading)."""
    sections = [m.start() for m in re.finditer(r"^## ", changelog, re.M)]
    if not sections or not changelog.startswith(UNRELEASED + "\n", sections[0]):
        raise ReleaseError(f"CHANGELOG.md: the first section must be '{UNRELEASED}' (Keep a Changelog)")
    end = sections[1] if len(sections) > 1 else len(changelog)
    return sections[0], end


def has_entries(body: str) -> bool:
    """A section holds an entry: a line that is neither blank nor a `###` heading."""
    return any(line.strip() and not line.startswith("### ") for line in body.splitlines())


def dated(changelog: str, version: str, day: str) -> str:
    start, _ = unreleased_section(changelog)
    head = start + len(UNRELEASED) + 1
    return changelog[:head] + f"\n## [{version}] - {day}\n" + changelog[head:]


def check(repo: Path, version: str) -> str:
    """The changelog as it is, once every check passed; ReleaseError (one line) otherwise."""
    if not VERSION.fullmatch(version):
        raise ReleaseError(f"VERSION {version!r}: expected X.Y.Z, three numbers without leading zeros (e.g. 1.3.0)")
    try:
        changelog = (repo / "CHANGELOG.md").read_text()
    except OSError as exc:
        raise ReleaseError(f"CHANGELOG.md: cannot be read ({exc.strerror})") from None
    start, end = unreleased_section(changelog)
    body = changelog[start + len(UNRELEASED) : end]
    if not has_entries(body):
        raise ReleaseError(f"CHANGELOG.md: '{UNRELEASED}' is empty: nothing to release")
    for field in ("Conventions", "Update needs action"):
        if field not in " ".join(body.replace("**", "").split()):
            raise ReleaseError(f"CHANGELOG.md: '{UNRELEASED}' never says '{field}' (the header: every entry says it)")
    released = tags.releases(changelog)
    if version in released:
        raise ReleaseError(f"VERSION {version}: CHANGELOG.md has released it already")
    if released:
        allowed = next_versions(released[0])
        if version not in allowed:
            raise ReleaseError(
                f"VERSION {version}: the release after {released[0]} is {', '.join(allowed[:2])} or {allowed[2]}"
            )
    elif version not in ("0.1.0", "1.0.0"):
        raise ReleaseError(f"VERSION {version}: a first release is 0.1.0 or 1.0.0")
    if tags.git(repo, "rev-parse", "-q", "--verify", f"refs/tags/v{version}", check=False).stdout.strip():
        raise ReleaseError(f"VERSION {version}: the tag v{version} exists already (git tag -d v{version} if stray)")
    branch = tags.git(repo, "symbolic-ref", "-q", "HEAD", check=False).stdout.strip()
    if branch != f"refs/heads/{BRANCH}":
        where = f"on the branch {branch.removeprefix('refs/heads/')}" if branch else "on a detached HEAD"
        raise ReleaseError(
            f"HEAD is {where}: a release is cut on {BRANCH} (git switch {BRANCH}), or its commits and tag "
            f"reach no branch {BRANCH} gets"
        )
    status = tags.git(repo, "status", "--porcelain", "--untracked-files=all").stdout
    if status.strip():
        first = status.splitlines()[0][3:]
        raise ReleaseError(f"the working tree is not clean ({first}, ...): commit or stash first")
    if tags.git(repo, "var", "GIT_COMMITTER_IDENT", check=False).returncode != 0:
        raise ReleaseError("git cannot commit here: set user.name and user.email (git config)")
    try:
        for tag, commit, _ in tags.resolve(repo):
            now = tags.git(repo, "rev-parse", "-q", "--verify", f"refs/tags/{tag}^{{commit}}", check=False)
            if now.stdout.strip() and now.stdout.strip() != commit:
                raise ReleaseError(
                    f"tag {tag} is at {now.stdout.strip()[:12]}, the release is {commit[:12]} "
                    "(scripts/tags.py --force moves it)"
                )
    except tags.TagError as exc:
        raise ReleaseError(str(exc)) from None
    return changelog


def records_to_add(repo: Path, version: str, commit: str) -> list[str]:
    """The lines scripts/releases.txt lacks: this release's, and any older release's."""
    path = repo / RECORDS
    have = tags.recorded(path.read_text(), RECORDS) if path.is_file() else {}
    lines = []
    for old in reversed(tags.releases((repo / "CHANGELOG.md").read_text())):
        if old not in have:
            lines.append(f"{old} {commit if old == version else tags.heading_commit(repo, old)}")
    return lines


def release(repo: Path, version: str, day: str) -> str:
    changelog = check(repo, version)
    start = tags.git(repo, "rev-parse", "HEAD").stdout.strip()
    try:
        (repo / "CHANGELOG.md").write_text(dated(changelog, version, day))
        tags.git(repo, "commit", "-q", "-m", f"Release {version}", "--", "CHANGELOG.md")
        commit = tags.git(repo, "rev-parse", "HEAD").stdout.strip()
        path = repo / RECORDS
        text = path.read_text() if path.is_file() else ""
        added = records_to_add(repo, version, commit)
        path.write_text(text + ("" if not text or text.endswith("\n") else "\n") + "".join(f"{x}\n" for x in added))
        tags.git(repo, "add", "--", RECORDS)
        tags.git(repo, "commit", "-q", "-m", f"{RECORDS}: release {version} is {commit[:12]}", "--", RECORDS)
    except (tags.TagError, OSError) as exc:
        # The tree was clean before: going back to where we started loses nothing.
        tags.git(repo, "reset", "-q", "--hard", start, check=False)
        raise ReleaseError(f"{exc} (nothing changed)") from None
    return commit


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("version", metavar="VERSION", nargs="?", default="", help="X.Y.Z, the release to cut")
    ap.add_argument("--repo", type=Path, default=Path.cwd(), help="the template repository (default: here)")
    ap.add_argument(
        "--version-from-env",
        metavar="NAME",
        help="read VERSION from the environment variable NAME (the Makefile: no shell ever parses it)",
    )
    args = ap.parse_args(argv)
    if args.version_from_env:
        args.version = os.environ.get(args.version_from_env, "")
    if not args.version:
        print("make release: give the version: make release VERSION=X.Y.Z", file=sys.stderr)
        return 1
    top = tags.git(args.repo, "rev-parse", "--show-toplevel", check=False)
    if top.returncode != 0:
        print(f"make release: {args.repo} is not a git repository", file=sys.stderr)
        return 1
    repo = Path(top.stdout.strip())
    day = datetime.datetime.now(datetime.UTC).date().isoformat()
    try:
        commit = release(repo, args.version, day)
    except ReleaseError as exc:
        print(f"make release: {exc}", file=sys.stderr)
        return 1
    print(f"release {args.version}: CHANGELOG.md dated {day} in {commit[:12]}, recorded in {RECORDS}")
    tagged = subprocess.run([sys.executable, str(Path(tags.__file__)), "--repo", str(repo)], check=False)
    if tagged.returncode != 0:
        print("make release: the release is committed, but make tags failed (above)", file=sys.stderr)
        return 1
    print(f"release {args.version}: done; push the two commits (git push): every clone tags them with make tags")
    return 0


if __name__ == "__main__":
    sys.exit(main())
