"""`make tags` (scripts/tags.py): every release of CHANGELOG.md becomes its git tag in a
clone that has none, offline and idempotently (docs/new.md, "Pin a version").

Each test works in a fresh local clone of this repository (`--no-tags`, as a clone of
main here has none) holding this working tree's CHANGELOG.md and scripts/releases.txt,
never in the repository itself.  About 1 s in all, and a render of scripts/new (10 s).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import GIT_ENV, ROOT, git

TAGS = ROOT / "scripts" / "tags.py"

pytestmark = pytest.mark.skipif(
    git(ROOT, "rev-parse", "--is-shallow-repository").strip() == "true",
    reason="a shallow clone has not the release commits (git fetch --unshallow)",
)


def changelog_releases(text: str) -> list[str]:
    """The dated version headings, read here independently of scripts/tags.py."""
    return [line.split("]")[0][4:] for line in text.splitlines() if re.match(r"## \[\d+\.\d+\.\d+\] - \d{4}-", line)]


def clone(tmp_path: Path) -> Path:
    dest = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--no-tags", str(ROOT), str(dest))
    assert git(dest, "tag", "--list") == ""
    # The files the script reads as they are now, committed or not (as snapshot_template).
    for rel in ("CHANGELOG.md", "scripts/releases.txt"):
        (dest / rel).write_bytes((ROOT / rel).read_bytes())
    return dest


def tags(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(TAGS), "--repo", str(repo), *args], capture_output=True, text=True, timeout=60
    )


def test_every_release_of_the_changelog_is_tagged_once(tmp_path):
    repo = clone(tmp_path)
    expected = changelog_releases((repo / "CHANGELOG.md").read_text())
    assert len(expected) >= 3, expected

    first = tags(repo)
    assert first.returncode == 0, first.stderr
    assert sorted(git(repo, "tag", "--list").split()) == sorted(f"v{v}" for v in expected)
    for version in expected:
        at = git(repo, "show", f"v{version}:CHANGELOG.md")
        # At its tag, the release is the newest dated heading of the changelog.
        assert changelog_releases(at)[0] == version, f"v{version} is not at the release of {version}"
    assert f"{len(expected)} written, 0 already there" in first.stdout

    again = tags(repo)
    assert again.returncode == 0 and f"0 written, {len(expected)} already there" in again.stdout, again.stdout
    # What copier reads: the newest release describes HEAD.
    assert git(repo, "describe", "--tags", "--abbrev=0").strip() == f"v{expected[0]}"


def test_a_release_not_recorded_is_tagged_where_its_heading_was_dated(tmp_path):
    repo = clone(tmp_path)
    records = repo / "scripts" / "releases.txt"
    newest = changelog_releases((repo / "CHANGELOG.md").read_text())[0]
    records.write_text("".join(line for line in records.read_text().splitlines(True) if not line.startswith(newest)))
    run = tags(repo, "--dry-run")
    assert run.returncode == 0, run.stderr
    line = next(line for line in run.stdout.splitlines() if line.startswith(f"v{newest} "))
    assert "would tag (the commit that dated its CHANGELOG.md heading)" in line
    commit = line.split()[1]
    assert newest in changelog_releases(git(repo, "show", f"{commit}:CHANGELOG.md"))
    assert newest not in changelog_releases(git(repo, "show", f"{commit}~1:CHANGELOG.md"))
    assert git(repo, "tag", "--list") == "", "--dry-run wrote a tag"


@pytest.mark.parametrize(
    "record, error",
    [
        ("1.0.0 1234\n", "scripts/releases.txt:1: expected '<X.Y.Z> <40-hex commit>', got '1.0.0 1234'"),
        ("0.9.0 " + "a" * 40 + "\n", "scripts/releases.txt: 0.9.0 has no dated heading in CHANGELOG.md"),
        ("1.0.0 " + "a" * 40 + "\n", f"1.0.0: commit {'a' * 40} of scripts/releases.txt is not in this clone"),
    ],
    ids=["malformed", "unknown-version", "missing-commit"],
)
def test_a_bad_record_is_one_line_and_tags_nothing(tmp_path, record, error):
    repo = clone(tmp_path)
    (repo / "scripts" / "releases.txt").write_text(record)
    run = tags(repo)
    assert run.returncode == 1 and run.stderr == f"error: {error}\n", run.stderr
    assert git(repo, "tag", "--list") == ""


def test_a_tag_at_another_commit_is_not_moved(tmp_path):
    repo = clone(tmp_path)
    newest = changelog_releases((repo / "CHANGELOG.md").read_text())[0]
    # The first commit, never a release (HEAD~1 is one right after `make release`).
    elsewhere = git(repo, "rev-list", "--max-parents=0", "HEAD").split()[0]
    git(repo, "tag", f"v{newest}", elsewhere)
    run = tags(repo)
    assert run.returncode == 1 and f"error: tag v{newest} is at " in run.stderr and "--force moves it" in run.stderr
    assert git(repo, "rev-parse", f"v{newest}").strip() == elsewhere
    assert tags(repo, "--force").returncode == 0
    assert changelog_releases(git(repo, "show", f"v{newest}:CHANGELOG.md"))[0] == newest


def test_scripts_new_renders_the_newest_release_in_a_clone_without_tags(tmp_path):
    """README's `scripts/new` in a fresh `--no-tags` clone: it recreates the tags first,
    so the project is the newest release of CHANGELOG.md, not the clone's HEAD."""
    repo = clone(tmp_path)
    newest = changelog_releases((repo / "CHANGELOG.md").read_text())[0]
    dest = tmp_path / "project"
    run = subprocess.run(
        [str(repo / "scripts" / "new"), str(repo / "examples" / "scale.yaml"), str(dest), "--quiet"],
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
        env={**os.environ, **GIT_ENV},
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert f"_commit: v{newest}\n" in (dest / ".copier-answers.yml").read_text()
