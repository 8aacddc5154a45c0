#!/usr/bin/env python3
"""`make tags`: recreate the release tags (v1.0.0, ...) of this repository, offline.

Git tags do not travel with every clone, and copier needs them: without them it calls
the template version 0.0.0.post<N>, and `copier copy --vcs-ref v1.1.0` fails with
"Unknown revision".  The releases are the dated headings of CHANGELOG.md
(`## [X.Y.Z] - YYYY-MM-DD`); the commit of each is its line in scripts/releases.txt,
or, for a release without one, the commit that dated its heading.

Idempotent: a tag already at its commit is left as it is; a tag at another commit is
an error (nothing is moved) unless --force.  --dry-run prints the tags without
writing them.  Needs no network, only the history (a shallow clone lacks it:
`git fetch --unshallow`).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

HEADING = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}\s*$", re.M)
RECORD = re.compile(r"^(\d+\.\d+\.\d+)\s+([0-9a-f]{40})\s*$")


class TagError(Exception):
    pass


def git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise TagError(f"git {' '.join(args)}: {result.stderr.strip() or 'failed'}")
    return result


def releases(changelog: str) -> list[str]:
    """The released versions of CHANGELOG.md, newest first (as written)."""
    return HEADING.findall(changelog)


def recorded(text: str, where: str) -> dict[str, str]:
    out = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        match = RECORD.match(line)
        if not match:
            raise TagError(f"{where}:{n}: expected '<X.Y.Z> <40-hex commit>', got {line.strip()!r}")
        version, commit = match.groups()
        if version in out:
            raise TagError(f"{where}:{n}: {version} is recorded twice")
        out[version] = commit
    return out


def heading_commit(repo: Path, version: str) -> str:
    """The oldest commit that added the dated heading of `version` to CHANGELOG.md."""
    pattern = rf"^## \[{re.escape(version)}\] - [0-9]{{4}}-"
    log = git(repo, "log", "--format=%H", "--reverse", "-G", pattern, "--", "CHANGELOG.md").stdout.split()
    for commit in log:  # -G also lists commits that removed or moved the line
        if re.search(pattern, git(repo, "show", f"{commit}:CHANGELOG.md").stdout, re.M):
            return commit
    raise TagError(f"CHANGELOG.md: no commit in the history dates the heading of {version}")


def resolve(repo: Path) -> list[tuple[str, str, str]]:
    """(tag, commit, source) for every release of CHANGELOG.md, oldest first."""
    changelog = (repo / "CHANGELOG.md").read_text()
    record_file = repo / "scripts" / "releases.txt"
    record = recorded(record_file.read_text(), "scripts/releases.txt") if record_file.is_file() else {}
    versions = releases(changelog)
    unknown = sorted(set(record) - set(versions))
    if unknown:
        raise TagError(f"scripts/releases.txt: {', '.join(unknown)} has no dated heading in CHANGELOG.md")
    shallow = git(repo, "rev-parse", "--is-shallow-repository").stdout.strip() == "true"
    out = []
    for version in reversed(versions):
        if version in record:
            commit, source = record[version], "scripts/releases.txt"
            if git(repo, "cat-file", "-e", f"{commit}^{{commit}}", check=False).returncode != 0:
                hint = " (a shallow clone: git fetch --unshallow)" if shallow else ""
                raise TagError(f"{version}: commit {commit} of scripts/releases.txt is not in this clone{hint}")
        else:
            commit, source = heading_commit(repo, version), "the commit that dated its CHANGELOG.md heading"
        at = git(repo, "show", f"{commit}:CHANGELOG.md", check=False).stdout
        if version not in releases(at):
            raise TagError(f"{version}: CHANGELOG.md at {commit[:12]} has no dated heading for it")
        out.append((f"v{version}", commit, source))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", type=Path, default=Path.cwd(), help="the repository (default: the current folder)")
    ap.add_argument("--dry-run", action="store_true", help="print the tags, write none")
    ap.add_argument("--force", action="store_true", help="move a release tag that points elsewhere")
    args = ap.parse_args(argv)
    if shutil.which("git") is None:
        print("error: git is not on PATH: the release tags are git tags (install git and run again)", file=sys.stderr)
        return 1
    repo = Path(git(args.repo, "rev-parse", "--show-toplevel").stdout.strip())
    try:
        tags = resolve(repo)
        created = kept = 0
        for tag, commit, source in tags:
            existing = git(repo, "rev-parse", "-q", "--verify", f"refs/tags/{tag}^{{commit}}", check=False)
            now = existing.stdout.strip()
            if now == commit:
                state, kept = "already there", kept + 1
            elif now and not args.force:
                raise TagError(f"tag {tag} is at {now[:12]}, the release is {commit[:12]} ({source}); --force moves it")
            else:
                if not args.dry_run:
                    git(repo, "tag", "-f", tag, commit)
                state = "would tag" if args.dry_run else ("moved" if now else "tagged")
                created += 1
            print(f"{tag} {commit[:12]} {state} ({source})")
    except TagError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    verb = "to write" if args.dry_run else "written"
    print(f"tags: {len(tags)} releases of CHANGELOG.md, {created} {verb}, {kept} already there")
    return 0


if __name__ == "__main__":
    sys.exit(main())
