"""Releases: `make release` (scripts/release.py), and what a user renders is released.

- The release tool, in a fresh local clone of this repository (`--no-tags`, this working
  tree's CHANGELOG.md, Makefile and scripts/ committed in it): every bad input is refused in one
  line with the repository untouched; a release dates the heading, commits, records
  that commit in scripts/releases.txt in the commit after, and tags it.
- This repository: CHANGELOG.md's dated headings, scripts/releases.txt and the tags
  `make tags` makes agree.
- The release gate (`test_nothing_a_render_is_made_of_is_unreleased`): every file a
  render is made of is at HEAD as it is in the newest release, so that `scripts/new`
  without `--vcs-ref` (copier's newest tag) renders what main's tests prove.  It fails
  on a main with unreleased render changes until someone runs `make release`
  (docs/releasing.md).

The expected changelog text, versions and commits are worked out here from git and the
files, not with scripts/release.py or scripts/tags.py.  About 3 s in all.
"""

from __future__ import annotations

import datetime
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, git, tree

RELEASE = ROOT / "scripts" / "release.py"
TAGS = ROOT / "scripts" / "tags.py"
DATED = re.compile(r"^## \[(\d+)\.(\d+)\.(\d+)\] - (\d{4}-\d{2}-\d{2})$")

# The releases tagged before scripts/releases.txt and `make release` existed: their line
# names the last commit of the release's landing (scripts/releases.txt's header), not
# the commit that dated the heading.  Every later release is recorded at that commit.
FIRST_TAGGED = ("1.0.0", "1.1.0", "1.2.0")

pytestmark = pytest.mark.skipif(
    git(ROOT, "rev-parse", "--is-shallow-repository").strip() == "true",
    reason="a shallow clone has not the release commits (git fetch --unshallow)",
)


# --- this repository's releases, read independently of scripts/ ---------------------------


def headings(changelog: str) -> list[str]:
    """Every `## ` heading line of a changelog, in order."""
    return [line.rstrip() for line in changelog.splitlines() if line.startswith("## ")]


def dated_versions(changelog: str) -> list[str]:
    return [".".join(m.groups()[:3]) for m in map(DATED.match, headings(changelog)) if m]


def records(text: str) -> list[tuple[str, str]]:
    return [tuple(line.split()) for line in text.splitlines() if line.strip() and not line.startswith("#")]


def as_tuple(version: str) -> tuple[int, ...]:
    return tuple(int(n) for n in version.split("."))


def commit_that_dated(repo: Path, version: str) -> str:
    """The first commit whose CHANGELOG.md has `## [version] - <date>` (git log -S)."""
    found = git(repo, "log", "--format=%H", "--reverse", "-S", f"## [{version}] - ", "--", "CHANGELOG.md").split()
    for commit in found:
        if version in dated_versions(git(repo, "show", f"{commit}:CHANGELOG.md")):
            return commit
    raise AssertionError(f"no commit dates the heading of {version}")


def release_commits(repo: Path) -> dict[str, str]:
    """Each release's commit: its scripts/releases.txt line, or (the newest only, before
    the commit after it records it) the commit that dated its heading."""
    recorded = dict(records((repo / "scripts/releases.txt").read_text()))
    versions = dated_versions((repo / "CHANGELOG.md").read_text())
    return {v: recorded[v] if v in recorded else commit_that_dated(repo, v) for v in versions}


def test_changelog_releases_and_tags_agree(tmp_path):
    changelog = (ROOT / "CHANGELOG.md").read_text()
    heads = headings(changelog)
    assert heads[0] == "## [Unreleased]", f"the first section of CHANGELOG.md is {heads[0]!r}"
    undated = [h for h in heads[1:] if not DATED.match(h)]
    assert not undated, f"CHANGELOG.md: headings that are not '## [X.Y.Z] - YYYY-MM-DD': {undated}"
    versions = dated_versions(changelog)
    assert len(versions) >= 3, versions
    assert [as_tuple(v) for v in versions] == sorted((as_tuple(v) for v in versions), reverse=True)
    assert len(set(versions)) == len(versions), f"a version is released twice: {versions}"
    dates = [DATED.match(h).group(4) for h in heads[1:]]
    assert dates == sorted(dates, reverse=True), f"CHANGELOG.md: release dates out of order: {dates}"

    lines = records((ROOT / "scripts/releases.txt").read_text())
    assert all(len(line) == 2 and re.fullmatch(r"[0-9a-f]{40}", line[1]) for line in lines), lines
    recorded = dict(lines)
    assert [as_tuple(v) for v, _ in lines] == sorted(as_tuple(v) for v in recorded), "releases.txt is out of order"
    assert set(recorded) <= set(versions), f"releases.txt records a version CHANGELOG.md never dated: {recorded}"
    head = git(ROOT, "rev-parse", "HEAD").strip()
    for version in versions:
        if version in recorded:
            continue
        # Only the newest release may lack its line, and only in its own commit: the line
        # comes in the commit after it (a commit cannot name itself).
        assert version == versions[0] and commit_that_dated(ROOT, version) == head, (
            f"{version} has no line in scripts/releases.txt (make release adds it in the commit after the release)"
        )

    for version, commit in recorded.items():
        assert git(ROOT, "cat-file", "-t", commit).strip() == "commit", f"{version}: {commit} is not a commit here"
        assert subprocess.run(["git", "merge-base", "--is-ancestor", commit, head], cwd=ROOT).returncode == 0, (
            f"{version}: {commit[:12]} is not in the history of HEAD"
        )
        at = git(ROOT, "show", f"{commit}:CHANGELOG.md")
        assert dated_versions(at)[0] == version, f"{version}: at {commit[:12]} it is not the newest release"
        if version not in FIRST_TAGGED:
            assert commit == commit_that_dated(ROOT, version), f"{version}: not recorded at the commit that dated it"

    # `make tags` in a clone without tags tags exactly these commits.
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--no-tags", str(ROOT), str(clone))
    run = subprocess.run([sys.executable, str(TAGS), "--repo", str(clone)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    made = {
        line.split()[0]: line.split()[1]
        for line in git(clone, "for-each-ref", "--format=%(refname:short) %(objectname)", "refs/tags").splitlines()
    }
    assert made == {f"v{v}": c for v, c in release_commits(ROOT).items()}


# --- the release gate ------------------------------------------------------------------------


def render_paths() -> list[str]:
    """The paths a render is made of: copier.yml, its `_subdirectory` and the folders of
    its Jinja extensions (hooks/context.py imports its siblings)."""
    config = yaml.safe_load((ROOT / "copier.yml").read_text())
    # Keys that would make a render read (or run) more than these paths: name what they
    # read here before adding one to copier.yml.
    unknown = {"_tasks", "_external_data", "_message_before_copy", "_message_after_copy"} & set(config)
    assert not unknown, f"copier.yml has {sorted(unknown)}: add what it reads to render_paths()"
    paths = {"copier.yml", config["_subdirectory"]}
    for ext in config["_jinja_extensions"]:
        if ":" in ext:  # a file of this repository; otherwise an installed module
            paths.add(str(Path(ext.split(":")[0]).parent))
    return sorted(paths)


def test_render_paths_are_what_copier_reads():
    """scripts/new's count of the commits after a release reads the same paths."""
    from hooks.new import RENDER_PATHS

    assert render_paths() == ["copier.yml", "hooks", "template"] == sorted(RENDER_PATHS)


@pytest.mark.release_gate
def test_nothing_a_render_is_made_of_is_unreleased():
    """RELEASE GATE: fails while a change to template/, hooks/ or copier.yml on this
    branch is in no release; `make release VERSION=X.Y.Z` (docs/releasing.md) makes it
    pass.  Changes elsewhere (docs, tests, bench) need no release."""
    versions = dated_versions((ROOT / "CHANGELOG.md").read_text())
    newest = versions[0]
    commit = release_commits(ROOT)[newest]
    paths = render_paths()
    changed = git(ROOT, "diff", "--name-only", commit, "HEAD", "--", *paths).split()
    behind = git(ROOT, "rev-list", "--count", f"{commit}..HEAD", "--", *paths).strip()
    nxt = ".".join(str(n) for n in (as_tuple(newest)[0], as_tuple(newest)[1] + 1, 0))
    assert not changed, (
        f"files of a render changed since the newest release v{newest} ({commit[:12]}), in {behind} commit(s): "
        f"{len(changed)} file(s), {', '.join(changed[:3])}{', ...' if len(changed) > 3 else ''}; scripts/new "
        f"renders v{newest} by default. Release them: "
        f"make release VERSION={nxt} (or the patch/major; docs/releasing.md)"
    )


# --- the release tool, in a clone ------------------------------------------------------------


TEST_ENTRY = "- The test's release. **Conventions**: none. **Files**: none. **Update needs action**: no."


@pytest.fixture
def clone(tmp_path) -> Path:
    """A clone of this repository without tags, this working tree's CHANGELOG.md (with
    TEST_ENTRY under [Unreleased]), Makefile and scripts/ committed in it, and a git
    identity (make release commits)."""
    dest = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--no-tags", str(ROOT), str(dest))
    for rel in ("CHANGELOG.md", "Makefile", "scripts/releases.txt", "scripts/tags.py", "scripts/release.py"):
        (dest / rel).write_bytes((ROOT / rel).read_bytes())
    git(dest, "config", "user.name", "release test")
    git(dest, "config", "user.email", "release@example.invalid")
    # Something to release (right after a release, [Unreleased] is empty).
    changelog = dest / "CHANGELOG.md"
    changelog.write_text(changelog.read_text().replace("## [Unreleased]\n", f"## [Unreleased]\n\n{TEST_ENTRY}\n", 1))
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "--allow-empty", "-m", "this working tree's changelog and scripts")
    # Releases are cut on main: the clone's branch is main whatever this checkout's is
    # (a feature branch, CI's detached HEAD).
    git(dest, "checkout", "-q", "-B", "main")
    return dest


def release(repo: Path, *args: str) -> subprocess.CompletedProcess:
    # Python as a user runs it: writing bytecode (scripts/__pycache__/ would be a change).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return subprocess.run(
        [sys.executable, str(repo / "scripts/release.py"), *args],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def state(repo: Path) -> tuple:
    """Everything a release could change: HEAD, every ref, the index (each file's blob),
    which files differ from it or are untracked or ignored (git compares their bytes),
    and the bytes of those.  Reading the clone's thousands of files instead costs a
    second per call."""
    status = git(repo, "status", "--porcelain", "--untracked-files=all", "--ignored")
    differing = [line[3:] for line in status.splitlines()]
    return (
        git(repo, "rev-parse", "HEAD"),
        git(repo, "for-each-ref", "--format=%(refname) %(objectname)"),
        git(repo, "ls-files", "-s"),
        status,
        {rel: (repo / rel).read_bytes() for rel in differing if (repo / rel).is_file()},
    )


def bumped(version: str, part: int) -> str:
    numbers = list(as_tuple(version))
    numbers[part] += 1
    return ".".join(str(n) for n in numbers[: part + 1] + [0] * (2 - part))


def unreleased_body(changelog: str) -> str:
    start = changelog.index("## [Unreleased]\n") + len("## [Unreleased]\n")
    end = changelog.index("\n## [", start) + 1
    return changelog[start:end]


def test_release_refuses_bad_input_and_changes_nothing(clone):
    last = dated_versions((clone / "CHANGELOG.md").read_text())[0]
    major, minor, patch = as_tuple(last)
    older = dated_versions((clone / "CHANGELOG.md").read_text())[1]
    refused = {
        "": "give the version",
        "1.3": "expected X.Y.Z",
        f"v{major}.{minor + 1}.0": "expected X.Y.Z",
        f"{major}.0{minor + 1}.0": "expected X.Y.Z",
        f"{major}.{minor + 1}.0-rc1": "expected X.Y.Z",
        last: "released it already",
        older: "released it already",
        f"{major}.{minor + 2}.0": "the release after",
        f"{major}.{minor}.{patch + 2}": "the release after",
        f"{major + 1}.{minor + 1}.0": "the release after",
    }
    if patch:  # releases are consecutive: the patch before the last is released too
        refused[f"{major}.{minor}.{patch - 1}"] = "released it already"
    for version, why in refused.items():
        before = state(clone)
        run = release(clone, version)
        lines = run.stderr.splitlines()
        assert run.returncode == 1 and len(lines) == 1 and why in lines[0], (version, run.stderr)
        assert "Traceback" not in run.stderr and run.stdout == ""
        assert state(clone) == before, f"{version!r}: refused, but the repository changed"

    good = bumped(last, 1)
    changelog = clone / "CHANGELOG.md"
    text = changelog.read_text()

    def refused_when(why: str, prepare, undo) -> None:
        prepare()
        before = state(clone)
        run = release(clone, good)
        assert run.returncode == 1 and len(run.stderr.splitlines()) == 1 and why in run.stderr, run.stderr
        assert state(clone) == before, f"{why}: refused, but the repository changed"
        undo()
        assert git(clone, "status", "--porcelain") == ""

    def commit_changelog(new: str):
        def prepare():
            changelog.write_text(new)
            git(clone, "commit", "-q", "-am", "changelog variant")

        return prepare

    def back():
        git(clone, "reset", "-q", "--hard", "HEAD~1")

    # A tree that is not clean: a changed file, a staged one, an untracked one.
    readme = clone / "README.md"
    refused_when("not clean", lambda: readme.write_text("edited\n"), lambda: git(clone, "checkout", "README.md"))
    refused_when(
        "not clean",
        lambda: (readme.write_text("staged\n"), git(clone, "add", "README.md")),
        lambda: git(clone, "reset", "-q", "--hard"),
    )
    stray = clone / "notes.txt"
    refused_when("not clean", lambda: stray.write_text("mine\n"), stray.unlink)
    # [Unreleased] empty, or holding only subsection headings.
    body = unreleased_body(text)
    for empty in ("\n", "\n### Added\n\n### Fixed\n\n"):
        refused_when("is empty", commit_changelog(text.replace(body, empty, 1)), back)
    # Entries that never say what the changelog's header asks of each.
    for field in ("Conventions", "Update needs action"):
        entry = "\n- A change. **Conventions**: none. **Update needs action**: no.\n\n".replace(f"**{field}**", "**X**")
        refused_when(f"never says '{field}'", commit_changelog(text.replace(body, entry, 1)), back)
    # [Unreleased] not the first section.
    refused_when("the first section", commit_changelog(text.replace("## [Unreleased]", "## [Next]", 1)), back)
    # A tag of that version already there, or a release tag elsewhere than its commit.
    refused_when("exists already", lambda: git(clone, "tag", f"v{good}"), lambda: git(clone, "tag", "-d", f"v{good}"))
    refused_when(
        f"tag v{last} is at", lambda: git(clone, "tag", f"v{last}", "HEAD"), lambda: git(clone, "tag", "-d", f"v{last}")
    )
    # HEAD not the branch main: a detached HEAD, another branch (the commits and the tag
    # would reach no branch main gets).
    refused_when(
        "on a detached HEAD",
        lambda: git(clone, "checkout", "-q", "--detach"),
        lambda: git(clone, "checkout", "-q", "main"),
    )
    refused_when(
        "on the branch topic",
        lambda: git(clone, "checkout", "-q", "-b", "topic"),
        lambda: (git(clone, "checkout", "-q", "main"), git(clone, "branch", "-q", "-D", "topic")),
    )
    # scripts/releases.txt unreadable.
    records_file = clone / "scripts/releases.txt"
    good_records = records_file.read_text()

    def bad_records():
        records_file.write_text(good_records + "1.9 not-a-hash\n")
        git(clone, "commit", "-q", "-am", "bad record")

    refused_when("releases.txt", bad_records, back)


def test_release_dates_commits_records_and_tags(clone):
    text = (clone / "CHANGELOG.md").read_text()
    last = dated_versions(text)[0]
    new = bumped(last, 1)
    start = git(clone, "rev-parse", "HEAD").strip()
    day_before = datetime.datetime.now(datetime.UTC).date().isoformat()
    run = release(clone, new)
    day_after = datetime.datetime.now(datetime.UTC).date().isoformat()
    assert run.returncode == 0, run.stderr
    assert run.stderr == "", run.stderr

    commits = git(clone, "rev-list", "--reverse", f"{start}..HEAD").split()
    assert len(commits) == 2, commits
    dating, recording = commits
    assert git(clone, "log", "-1", "--format=%s", dating).strip() == f"Release {new}"
    assert git(clone, "diff", "--name-only", start, dating).split() == ["CHANGELOG.md"]
    assert git(clone, "diff", "--name-only", dating, recording).split() == ["scripts/releases.txt"]

    # Commit 1: a fresh, empty [Unreleased] above the old one's entries, now dated.
    dated_text = git(clone, "show", f"{dating}:CHANGELOG.md")
    body = unreleased_body(text)
    day = next(d for d in (day_before, day_after) if f"## [{new}] - {d}\n" in dated_text)
    assert dated_text == text.replace("## [Unreleased]\n", f"## [Unreleased]\n\n## [{new}] - {day}\n", 1)
    assert dated_text.count(body) == 1 and unreleased_body(dated_text) == "\n"
    # Commit 2: the line naming commit 1, appended.
    assert (clone / "scripts/releases.txt").read_text() == (
        git(clone, "show", f"{start}:scripts/releases.txt") + f"{new} {dating}\n"
    )
    # make tags ran: every release tagged, the new one at commit 1.
    made = git(clone, "for-each-ref", "--format=%(refname:short) %(objectname)", "refs/tags").splitlines()
    assert f"v{new} {dating}" in made
    assert len(made) == len(dated_versions(dated_text))
    assert git(clone, "status", "--porcelain") == ""
    # The agreement this module checks in this repository holds in the clone.
    assert release_commits(clone)[new] == dating == commit_that_dated(clone, new)

    # Nothing new since: refused, nothing changed.
    before = state(clone)
    again = release(clone, bumped(new, 2))
    assert again.returncode == 1 and "is empty" in again.stderr and state(clone) == before


def test_make_release_runs_the_script(clone):
    """The Makefile target passes VERSION through (a refusal shows it; nothing changes)."""
    before = state(clone)
    run = subprocess.run(["make", "-s", "release", "VERSION=0.0.1"], cwd=clone, capture_output=True, text=True)
    assert run.returncode != 0 and "VERSION 0.0.1: the release after" in run.stderr, run.stderr
    assert state(clone) == before
    # A VERSION no shell may see: make writes a recipe's variables into the shell's
    # command line, and a quote in VERSION ended the argument there.
    for version in ('2.1.5" ; touch INJECTED ; echo "', "2.1.5' ; touch INJECTED ; echo '", "$(shell touch INJECTED)"):
        run = subprocess.run(["make", "-s", "release", f"VERSION={version}"], cwd=clone, capture_output=True, text=True)
        assert run.returncode != 0 and f"make release: VERSION {version!r}: expected X.Y.Z" in run.stderr, run.stderr
        assert not (clone / "INJECTED").exists(), f"VERSION={version}: the shell ran it"
        assert state(clone) == before


# --- a user's project of v1.2.0 updates to a release cut by make release ---------------------

# What the user's project is: examples/custom.yaml (a custom op whose math the user writes,
# and an elementwise op), rendered at v1.2.0 with that release's examples/custom.user/.
USER_SPEC = "examples/custom.yaml"
OLD_RELEASE = "v1.2.0"
# The rendered tests that need the user's math or build what it feeds (the whole suite
# is about 85 s more): the check that the math is written, the user's own test, the ops
# (eager, with the user's math), the C kernels through the host emulator, no leftovers.
SUITE_SUBSET = (
    "tests/test_user_math.py",
    "tests/user",
    "tests/test_ops.py",
    "tests/test_op_package_kernels.py",
    "tests/test_no_merge_leftovers.py",
)
ACTION_TEXT = "run `make clean` once (the test release's action)"


def add_entry(repo: Path, entry: str) -> None:
    changelog = repo / "CHANGELOG.md"
    changelog.write_text(changelog.read_text().replace("## [Unreleased]\n", f"## [Unreleased]\n\n{entry}\n", 1))
    git(repo, "commit", "-q", "-am", "a changelog entry")


@pytest.mark.slow
def test_a_v1_2_0_project_with_its_math_updates_to_a_new_release(clone, tmp_path):
    """make release in a clone of this template (this working tree's template/, hooks/ and
    copier.yml in it), a project rendered at v1.2.0 with its user math, copier update to
    the new release: the suite's subset that runs the math passes, the user's files are
    theirs.  Then a second release with an "Update needs action": the project's own
    `update` names it and its action before it updates."""
    from conftest import copier_cli, run_project_tests, template_files

    for rel in template_files():
        (clone / rel).parent.mkdir(parents=True, exist_ok=True)
        (clone / rel).write_bytes((ROOT / rel).read_bytes())
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "--allow-empty", "-m", "this working tree's template")
    last = dated_versions((clone / "CHANGELOG.md").read_text())[0]
    first = bumped(last, 1)
    cut = release(clone, first)
    assert cut.returncode == 0, cut.stderr

    project = tmp_path / "project"
    # The spec as v1.2.0 reads it: without the keys it did not have yet (backends, 2.1.0).
    old_spec = tmp_path / "old_spec.yaml"
    old_spec.write_text(
        yaml.safe_dump({k: v for k, v in yaml.safe_load((ROOT / USER_SPEC).read_text()).items() if k != "backends"})
    )
    copy = ["copy", "--trust", "--defaults", "--vcs-ref", OLD_RELEASE, "--data-file", str(old_spec)]
    made = copier_cli(*copy, str(clone), str(project))
    assert made.returncode == 0, made.stderr
    spec = yaml.safe_load((ROOT / USER_SPEC).read_text())
    ns, pkg = spec["namespace"], spec["package_name"]
    math = {
        f"{ns}/user/my_norm.py": git(clone, "show", f"{OLD_RELEASE}:examples/custom.user/my_norm.py"),
        f"op_package/{pkg}/user/MyNorm_math.c": git(clone, "show", f"{OLD_RELEASE}:examples/custom.user/MyNorm_math.c"),
    }
    for rel, text in math.items():
        assert "NotImplementedError" in (project / rel).read_text() or "MISSING" in (project / rel).read_text()
        (project / rel).write_text(text)
    git(project, "init", "-q", "-b", "main")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", f"{OLD_RELEASE} with my math")
    mine = {rel: (project / rel).read_bytes() for rel in tree(project) if "/user/" in f"/{rel}"}

    updated = copier_cli("update", "--trust", "--defaults", cwd=project)
    assert updated.returncode == 0, updated.stdout + updated.stderr
    answers = yaml.safe_load((project / ".copier-answers.yml").read_text())
    assert answers["_commit"] == f"v{first}", answers["_commit"]
    assert {rel: (project / rel).read_bytes() for rel in mine} == mine, "the update changed a user-owned file"
    suite = run_project_tests(project, "-x", *SUITE_SUBSET, budget=300)
    assert suite.returncode == 0, suite.stdout[-3000:] + suite.stderr[-2000:]
    assert " failed" not in suite.stdout and " passed" in suite.stdout
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", f"update to {first}")

    # A second release, whose entry needs an action: `update` names both before copier runs.
    add_entry(clone, f"- The test's second release. **Conventions**: none. **Update needs action**: {ACTION_TEXT}.")
    second = bumped(first, 2)
    cut = release(clone, second)
    assert cut.returncode == 0, cut.stderr
    again = subprocess.run(
        [sys.executable, "-m", ns, "update"], cwd=project, capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    assert again.returncode == 0, again.stdout + again.stderr
    lines = again.stdout.splitlines()
    assert lines[0].startswith(f"update: the template has 1 release(s) newer than this project's {first}: {second} ")
    assert lines[1] == f"  {second}: (The test's second release. Conventions: none.) {ACTION_TEXT}."
    assert yaml.safe_load((project / ".copier-answers.yml").read_text())["_commit"] == f"v{second}"
