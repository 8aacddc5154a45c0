"""`copier update`: convention fixes reach existing projects, a user's work is never lost.

Real copier (the command line, as a user runs it), real git, and a temporary template
repository built from this working tree: tag v1.0.0, then the test release v1.1.0
(`update_helpers.convention_fix`: a changed convention in template-owned files and a
revised stub of every user-owned file).  Each project is copied at v1.0.0, committed
(update needs a clean git tree) and updated to v1.1.0.

Expected behaviour, also written down in docs/updating.md:
- template-owned files receive the fix; user-owned files are never rewritten, edited
  or not (a revised stub reaches new projects only);
- a template-owned file the user deleted stays deleted (and misses its fixes);
- a user-owned file the user deleted comes back as the stub of the new release, as
  long as its op is in the spec;
- a collision between a user edit and the fix inside a template-owned file leaves
  conflict markers (copier's behaviour, exit 0), and the project's report
  (tests/update_report.py, run by copier.yml's `_migrations` after the merge) makes the
  update exit non-zero naming the file; tests/test_no_merge_leftovers.py fails too.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from importlib.machinery import SourceFileLoader
from pathlib import Path
from types import SimpleNamespace

import pathspec
import pytest
import yaml
from packaging.version import InvalidVersion, Version

from conftest import ROOT, run_budgeted, run_project_tests, snapshot_template
from update_helpers import (
    ADDED_OP,
    FIX_C,
    FIX_PY,
    MARK_END,
    MARK_MIDDLE,
    MARK_START,
    SPEC,
    USER_GLOBS,
    commit_all,
    convention_fix,
    copy_project,
    files,
    git,
    is_user_owned,
    leftovers,
    release,
    update,
    user_files,
    write_spec,
)

NS = SPEC["namespace"]
PKG = SPEC["package_name"]
QUANT = f"{NS}/quant.py"
OWNED_HEADER = "owned by the qnn-op-template"
USER_HEADER = "This file is yours"


@pytest.fixture(scope="module")
def releases(tmp_path_factory):
    """A template repository with the releases v1.0.0 and v1.1.0."""
    repo = snapshot_template(tmp_path_factory.mktemp("template"), tag="v1.0.0")
    fixed = convention_fix(repo)
    release(repo, "v1.1.0", "Test release: a convention fix and revised stubs")
    return SimpleNamespace(path=repo, fixed=fixed)


@pytest.fixture(scope="module")
def fresh_v1(releases, tmp_path_factory):
    """A fresh copy at v1.0.0 (read only)."""
    return copy_project(releases.path, tmp_path_factory.mktemp("fresh") / "v1", ref="v1.0.0")


@pytest.fixture(scope="module")
def fresh_v11(releases, tmp_path_factory):
    """A fresh copy at the newest release, v1.1.0 (read only)."""
    return copy_project(releases.path, tmp_path_factory.mktemp("fresh") / "v11", ref=None)


def clone_fresh(fresh: Path, dest: Path) -> Path:
    """A copy of the fresh v1.0.0 project, its git history included: the same bytes as
    another `copier copy` of the same spec and ref (test_answers_file_reproduces_the_project
    holds that), without the 2.5 s of copier for each of a dozen tests."""
    shutil.copytree(fresh, dest, symlinks=True)
    return dest


def commit_of(project: Path) -> str:
    return yaml.safe_load((project / ".copier-answers.yml").read_text())["_commit"]


def assert_updated(result: subprocess.CompletedProcess, project: Path) -> None:
    assert result.returncode == 0, result.stderr
    assert commit_of(project) == "v1.1.0"


def assert_fix_arrived(project: Path, paths: list[str]) -> None:
    for rel in paths:
        line = FIX_PY if rel.endswith(".py") else FIX_C
        assert line in (project / rel).read_text().splitlines(), f"the convention fix did not reach {rel}"


def changed_paths(project: Path) -> set[str]:
    """Paths `git status` reports after an update (the update is not committed)."""
    out = git(project, "status", "--porcelain", "--untracked-files=all")
    return {line[3:] for line in out.splitlines()}


# --- what a user writes ---------------------------------------------------------------


def write_user_work(project: Path) -> None:
    """A user's session: the math of the custom op `twice` (eager and kernel), a test of
    their own, and a note in tests/user/README.md."""
    eager = project / f"{NS}/user/twice.py"
    text = eager.read_text()
    head, sep, _ = text.partition("def twice(")
    assert sep, "the eager stub no longer defines twice(): update write_user_work()"
    signature = sep + text[len(head) + len(sep) :].split("\n", 1)[0]
    eager.write_text(head + signature + "\n    # Mine: exact in float32.\n    return x * 2.0\n")

    kernels = sorted((project / f"op_package/{PKG}/user").glob("Twice*.c"))
    assert len(kernels) == 1, f"expected one kernel stub of Twice, found {kernels}"
    text = kernels[0].read_text()
    match = re.search(r"^int Twice_compute\(const Twice_args \*args\)\n\{\n.*\n\}\n?\Z", text, re.S | re.M)
    assert match, "the kernel stub changed shape: update write_user_work()"
    kernels[0].write_text(
        text[: match.start()]
        + (
            "int Twice_compute(const Twice_args *args)\n"
            "{\n"
            "    /* Mine: the eager math, element by element. */\n"
            "    for (uint64_t i = 0; i < args->count; ++i) {\n"
            "        args->out[i] = 2.0f * args->x[i];\n"
            "    }\n"
            "    return 0;\n"
            "}\n"
        )
    )

    (project / "tests/user/test_twice.py").write_text(
        "import torch\n\n"
        f"import {NS}  # noqa: F401  (registers the ops)\n\n\n"
        "def test_twice_doubles():\n"
        "    x = torch.linspace(-3.0, 3.0, 25).reshape(5, 5)\n"
        f"    torch.testing.assert_close(torch.ops.{NS}.twice(x), 2.0 * x)\n"
    )
    notes = project / "tests/user/README.md"
    notes.write_text(notes.read_text() + "\nMy notes: twice is exact, no tolerance needed.\n")


def load_hooks_module(name: str):
    """A module of hooks/ as the spec hook loads it (a package named after its path)."""
    sys.path.insert(0, str(ROOT))
    try:
        from hooks.context import _load_hooks_package

        return importlib.import_module(f"{_load_hooks_package().__name__}.{name}")
    finally:
        sys.path.remove(str(ROOT))


# --- the generated check, on its own ---------------------------------------------------


def load_check():
    path = ROOT / "template/tests/test_no_merge_leftovers.py"
    loader = SourceFileLoader("_no_merge_leftovers", str(path))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def test_leftover_check_finds_markers_and_rej_files_only_where_they_are(tmp_path):
    check = load_check()
    start, middle, end = (m.decode() for m in (MARK_START, MARK_MIDDLE, MARK_END))
    conflict = f"a = 1\n{start}before updating\nb = 2\n{middle}\nb = 3\n{end}after updating\n"
    (tmp_path / "src/pkg").mkdir(parents=True)
    (tmp_path / "src/pkg/mod.py").write_text(conflict)
    (tmp_path / "src/pkg/half_resolved.py").write_text(f"b = 2\n{middle}\nb = 3\n")
    (tmp_path / "src/pkg/mod.py.rej").write_text("@@ -1 +1 @@\n")
    (tmp_path / "notes.md").write_text(f"Heading\n{middle}\n\ntext\n")  # a heading underline
    (tmp_path / "blob.bin").write_bytes(b"\0" + start.encode() + b"x\n")
    for ignored in (".git", ".venv", "build", "op_package/Pkg/obj", "src/pkg/__pycache__"):
        (tmp_path / ignored).mkdir(parents=True, exist_ok=True)
        (tmp_path / ignored / "x.py").write_text(conflict)
        (tmp_path / ignored / "x.rej").write_text("")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests/test_no_merge_leftovers.py").write_text(
        (ROOT / "template/tests/test_no_merge_leftovers.py").read_text()
    )

    assert check.rejected_hunks(tmp_path) == ["src/pkg/mod.py.rej"]
    found = check.conflict_markers(tmp_path)
    assert [f.split(": ")[0] for f in found] == [
        "src/pkg/half_resolved.py:2",
        "src/pkg/mod.py:2",
        "src/pkg/mod.py:4",
        "src/pkg/mod.py:6",
    ]

    clean = tmp_path / "clean"
    (clean / "tests").mkdir(parents=True)
    (clean / "tests/test_no_merge_leftovers.py").write_text(
        (ROOT / "template/tests/test_no_merge_leftovers.py").read_text()
    )
    assert check.conflict_markers(clean) == [] and check.rejected_hunks(clean) == []


# --- settings and ownership ------------------------------------------------------------


def test_copier_settings_make_updates_safe():
    conf = yaml.safe_load((ROOT / "copier.yml").read_text())
    assert conf["_answers_file"] == ".copier-answers.yml"
    assert (ROOT / "template/{{_copier_conf.answers_file}}.jinja").is_file()
    globs = conf["_skip_if_exists"]
    assert sorted(globs) == sorted(USER_GLOBS)
    # Jinja in these patterns renders before the answers load on update: no match, ever.
    assert not any("{" in g or "%" in g for g in globs)
    from copier import __version__ as installed

    assert Version(conf["_min_copier_version"]) <= Version(installed)
    assert Version(conf["_min_copier_version"]) >= Version("9.19.1"), "update behaviour is measured with 9.19.1"


def test_every_file_says_who_owns_it(fresh_v1):
    """Line 1 of each rendered file names its owner, and "yours" holds exactly for the
    files Copier's `_skip_if_exists` protects."""
    conf = yaml.safe_load((ROOT / "copier.yml").read_text())
    style = "gitignore" if Version(pathspec.__version__) >= Version("1.0.0") else "gitwildmatch"  # as copier
    protected = pathspec.PathSpec.from_lines(style, conf["_skip_if_exists"])
    problems = []
    for rel, data in files(fresh_v1).items():
        if rel == ".copier-answers.yml":
            continue
        lines = data.decode("utf-8", "replace").splitlines() or [""]
        # An XML declaration or a shebang must come first; the owner line follows it.
        first = lines[1] if lines[0].startswith(("<?xml", "#!")) and len(lines) > 1 else lines[0]
        owner = "user" if USER_HEADER in first else "template" if OWNED_HEADER in first else None
        if owner is None:
            problems.append(f"{rel}: line 1 names no owner")
        elif (owner == "user") != protected.match_file(rel):
            problems.append(f"{rel}: says {owner}-owned, but _skip_if_exists disagrees")
        elif (owner == "user") != is_user_owned(rel):
            problems.append(f"{rel}: says {owner}-owned, outside the user folders")
    assert not problems, "\n".join(problems)
    assert any(is_user_owned(rel) for rel in files(fresh_v1))


def test_answers_file_reproduces_the_project(fresh_v1, releases, tmp_path):
    """Copier re-sorts mapping keys in the answers file; update renders the old version
    from it.  So a copy from the answers file must equal the original copy, byte for
    byte, and every list from the spec keeps the user's order."""
    answers = yaml.safe_load((fresh_v1 / ".copier-answers.yml").read_text())
    assert [op["name"] for op in answers["ops"]] == [op["name"] for op in SPEC["ops"]]
    assert [p["name"] for p in answers["ops"][1]["params"]] == ["shift", "gain"]
    data = {k: v for k, v in answers.items() if not k.startswith("_")}
    again = copy_project(releases.path, tmp_path / "again", spec=data, ref="v1.0.0")
    assert files(again) == files(fresh_v1)


def project_cli(project: Path, *args: str) -> subprocess.CompletedProcess:
    """The project's own command line, run from the project as its README says."""
    return run_budgeted([sys.executable, "-m", NS, *args], 600, cwd=project, stdin=subprocess.DEVNULL)


def test_spec_command_prints_the_spec_that_renders_this_project(fresh_v1, releases, tmp_path):
    """`python -m <ns> spec` is what a user edits and passes back with --data-file: fed to
    copier as is, it renders the same project."""
    run = project_cli(fresh_v1, "spec")
    assert run.returncode == 0, run.stderr
    printed = yaml.safe_load(run.stdout)
    assert (printed["namespace"], printed["package_name"]) == (NS, PKG)
    assert [op["name"] for op in printed["ops"]] == [op["name"] for op in SPEC["ops"]]
    assert printed["ops"][0]["kind"] == "custom" and printed["ops"][0]["doc"] == SPEC["ops"][0]["doc"]
    assert printed["ops"][1]["params"] == SPEC["ops"][1]["params"]
    assert printed["ops"][1]["expr"] == SPEC["ops"][1]["expr"]
    again = copy_project(releases.path, tmp_path / "again", spec=printed, ref="v1.0.0")
    ours, theirs = files(again), files(fresh_v1)
    assert sorted(ours) == sorted(theirs)
    assert [rel for rel in ours if ours[rel] != theirs[rel] and rel != ".copier-answers.yml"] == []


def test_the_command_line_works_whatever_state_user_math_is_in(fresh_v1, tmp_path):
    """An update flow that moves or drops a user/*.py (an op renamed, a stub deleted to get
    it back): importing the package imports no user module, so `--help`, `spec` and
    `info` still run; the op whose eager math is gone fails at its call, in one line
    naming the file."""
    project = clone_fresh(fresh_v1, tmp_path / "project")
    (project / f"{NS}/user/twice.py").unlink()
    for args in (["--help"], ["spec"], ["info"]):
        run = project_cli(project, *args)
        assert run.returncode == 0 and "Traceback" not in run.stderr, f"{args}: {run.stderr[-2000:]}"
    call = call_twice(project)
    assert call.returncode == 1
    assert call.stderr.splitlines()[-1] == (
        f"ModuleNotFoundError: {NS}::twice: {NS}/user/twice.py is missing: it holds the op's eager math, "
        f"def twice(...); put it back (git restore {NS}/user/twice.py), or get its stub back with "
        f"python -m {NS} update"
    ), call.stderr[-2000:]


def test_the_update_command_says_what_git_lacks_in_one_line(releases, fresh_v1, tmp_path):
    """`python -m <ns> update` before copier runs: with no git on PATH one line (copier
    ended in plumbum's CommandNotFound traceback), on a dirty tree one line naming the
    changed and untracked files (copier said only "Destination repository is dirty"),
    the project untouched; the spec edited outside the project dirties nothing."""
    project = clone_fresh(fresh_v1, tmp_path / "project")
    (project / "README.md").write_text((project / "README.md").read_text() + "my notes\n")
    spec = project_cli(project, "spec")
    (project / "my_spec.yaml").write_text(spec.stdout)
    before = files(project)
    dirty = project_cli(project, "update")
    assert dirty.returncode == 1 and dirty.stderr.count("\n") == 1, dirty.stdout + dirty.stderr
    assert dirty.stderr == (
        "error: the project has uncommitted changes (README.md, my_spec.yaml): commit or stash them first, "
        "copier update needs a clean tree (keep the spec you edit outside the project)\n"
    )
    assert files(project) == before and commit_of(project) == "v1.0.0"

    no_tools = tmp_path / "no-tools"
    no_tools.mkdir()
    env = {**os.environ, "PATH": str(no_tools)}
    run = run_budgeted([sys.executable, "-m", NS, "update"], 600, cwd=project, stdin=subprocess.DEVNULL, env=env)
    assert run.returncode == 1, run.stdout + run.stderr
    assert run.stderr == "error: git is not on PATH: copier update needs it (install git and run again)\n"
    assert files(project) == before

    git(project, "checkout", "--", "README.md")
    outside = tmp_path / "my_spec.yaml"
    (project / "my_spec.yaml").rename(outside)
    assert git(project, "status", "--porcelain", "--untracked-files=all") == ""
    result = project_cli(project, "update", "--spec", str(outside))
    assert_updated(result, project)


def test_changelog_has_an_entry_for_every_release():
    """Release discipline: each PEP 440 tag of this repository has a CHANGELOG entry
    that says whether an update needs action; newest first."""
    text = (ROOT / "CHANGELOG.md").read_text()
    entries = {}
    for section in re.split(r"^## ", text, flags=re.M)[1:]:
        name = re.match(r"\[([^\]]+)\]", section)
        assert name, f"a version heading must be '## [X.Y.Z] - date': {section.splitlines()[0]}"
        entries[name.group(1)] = section
    assert next(iter(entries)) == "Unreleased"
    versions = [Version(v) for v in entries if v != "Unreleased"]  # raises unless PEP 440
    assert versions and versions == sorted(versions, reverse=True)
    for version, body in entries.items():
        if version != "Unreleased":
            assert "Update needs action" in body and "Conventions" in body, version
    for tag in git(ROOT, "tag", "--list").split():
        try:
            version = Version(tag)
        except InvalidVersion:
            continue  # not a release (a work marker such as r11): copier updates to PEP 440 tags only
        assert str(version) in entries, f"tag {tag} has no CHANGELOG entry"


# --- updates -------------------------------------------------------------------------


@pytest.mark.slow
def test_update_brings_the_fix_and_keeps_the_users_work(releases, fresh_v1, tmp_path):
    project = clone_fresh(fresh_v1, tmp_path / "project")
    write_user_work(project)
    commit_all(project, "my math, my test, my notes")
    mine = user_files(project)
    assert "tests/user/test_twice.py" in mine

    result = update(project)

    assert_updated(result, project)
    assert_fix_arrived(project, releases.fixed)
    assert user_files(project) == mine, "copier update changed a user-owned file"
    assert leftovers(project) == []
    assert changed_paths(project) == {".copier-answers.yml", *releases.fixed}
    # The user's own test, the leftover check, and the ops and kernels the user's math feeds
    # (the whole rendered suite is the render matrix's job).
    tests = run_project_tests(
        project,
        "-rA",
        "tests/user",
        "tests/test_no_merge_leftovers.py",
        "tests/test_ops.py",
        "tests/test_op_package_kernels.py",
    )
    assert tests.returncode == 0, tests.stdout[-4000:] + tests.stderr[-2000:]
    assert "PASSED tests/user/test_twice.py::test_twice_doubles" in tests.stdout
    assert "PASSED tests/test_no_merge_leftovers.py::test_no_conflict_markers" in tests.stdout


def test_unedited_project_updated_equals_a_fresh_copy(releases, fresh_v1, fresh_v11, tmp_path):
    project = clone_fresh(fresh_v1, tmp_path / "project")
    before = files(project)

    result = update(project)
    assert_updated(result, project)
    # The project's report (tests/update_report.py, run by copier after the merge): the
    # versions, each changed file as git status says it, no conflict.
    assert "copier update: template version 1.0.0 -> 1.1.0\n" in result.stdout, result.stdout
    listed = re.findall(r"^  [ MADRU?]{2} (\S+)$", result.stdout, re.M)
    assert set(listed) == changed_paths(project) and listed, result.stdout
    assert f"{len(listed)} files changed (git status):" in result.stdout
    assert "no conflict left" in result.stdout and "error:" not in result.stderr

    after, fresh = files(project), files(fresh_v11)
    assert sorted(after) == sorted(fresh)
    template_owned = [rel for rel in fresh if not is_user_owned(rel)]
    assert [rel for rel in template_owned if after[rel] != fresh[rel]] == []
    # User-owned files are never rewritten, not even unedited ones: the stub revised
    # in v1.1.0 reaches new projects only.
    assert user_files(project) == {rel: before[rel] for rel in before if is_user_owned(rel)}
    assert [rel for rel in fresh if is_user_owned(rel) and fresh[rel] != after[rel]], (
        "the test release should revise the stubs"
    )


def test_deleted_template_owned_file_stays_deleted(releases, fresh_v1, tmp_path):
    project = clone_fresh(fresh_v1, tmp_path / "project")
    (project / QUANT).unlink()
    commit_all(project, "I do not want quant.py")

    assert_updated(update(project), project)

    # Copier honours the deletion: the file and its fix stay away (docs/updating.md says
    # how to get it back); the rest of the fix arrives, cleanly.
    assert not (project / QUANT).exists()
    assert_fix_arrived(project, [rel for rel in releases.fixed if rel != QUANT])
    assert leftovers(project) == []


def test_deleted_user_owned_file_comes_back_as_the_new_stub(releases, fresh_v1, fresh_v11, tmp_path):
    project = clone_fresh(fresh_v1, tmp_path / "project")
    eager = f"{NS}/user/twice.py"
    (project / eager).unlink()
    (project / "tests/user/README.md").unlink()
    kernel = next((project / f"op_package/{PKG}/user").glob("Twice*.c"))
    kernel.write_text(kernel.read_text() + "/* mine */\n")
    commit_all(project, "deleted two of my files, edited one")
    kept = kernel.read_bytes()

    assert_updated(update(project), project)

    # Deleting a user-owned file does not opt out of it while its op is in the spec:
    # the update recreates it from the new release's stub.
    fresh = files(fresh_v11)
    for rel in (eager, "tests/user/README.md"):
        assert (project / rel).read_bytes() == fresh[rel]
    assert kernel.read_bytes() == kept
    assert leftovers(project) == []


def test_adding_ops_through_update(releases, fresh_v1, tmp_path):
    project = clone_fresh(fresh_v1, tmp_path / "project")
    write_user_work(project)
    commit_all(project, "my work")
    mine = user_files(project)
    custom = {"name": "clip_it", "kind": "custom", "inputs": ["x"]}
    spec = write_spec(tmp_path / "spec-v2.yaml", {**SPEC, "ops": [*SPEC["ops"], ADDED_OP, custom]})

    result = update(project, "--data-file", str(spec))

    assert_updated(result, project)
    answers = yaml.safe_load((project / ".copier-answers.yml").read_text())
    assert [op["name"] for op in answers["ops"]] == ["twice", "shift_scale", "halve", "clip_it"]
    assert_fix_arrived(project, releases.fixed)
    assert "def halve(" in (project / f"{NS}/ops.py").read_text()
    assert list((project / f"op_package/{PKG}/src/ops").glob("Halve_*")), "no kernel for the added op"
    assert (project / f"{NS}/user/clip_it.py").is_file(), "no stub for the added custom op"
    assert "halve" in (project / "README.md").read_text()
    now = user_files(project)
    assert {rel: now[rel] for rel in mine} == mine
    assert leftovers(project) == []


def test_the_update_command_reads_a_new_spec_before_copier_does(releases, fresh_v1, tmp_path):
    """`python -m <ns> update --spec FILE`: a YAML slip, a key given twice or a broken
    rule is one line naming the file, the project untouched (copier, reading the data
    file itself, ended the slip in a traceback and took the last of two keys); a good
    spec is copier update --data-file: the new op arrives, and the convention fix."""
    project = clone_fresh(fresh_v1, tmp_path / "project")
    before = files(project)
    spare = {"name": "spare", "type": "float", "default": 1.0}  # read by no expr: a note, not a refusal
    good = {**SPEC, "ops": [*SPEC["ops"], {**ADDED_OP, "params": [spare]}]}
    slip = tmp_path / "slip.yaml"
    slip.write_text(write_spec(tmp_path / "good.yaml", good).read_text() + "soc_model: [SM8850\n")  # unclosed
    twice = tmp_path / "twice.yaml"
    twice.write_text(f"namespace: {NS}\n" + (tmp_path / "good.yaml").read_text())
    rule = write_spec(tmp_path / "rule.yaml", {**SPEC, "ops": [*SPEC["ops"], {**ADDED_OP, "expr": "0.5 * y"}]})
    # Two independent mistakes: two lines, one run.
    rules = write_spec(
        tmp_path / "rules.yaml",
        {**SPEC, "soc_model": "SM0000", "ops": [*SPEC["ops"], {**ADDED_OP, "expr": "0.5 * y"}]},
    )
    for path, words in (
        (slip, ["not valid YAML at line "]),
        (twice, ["key 'namespace' is given twice"]),
        (rule, ["ops[2].expr: unknown name 'y'"]),
        (rules, ["soc_model: must be one of", "ops[2].expr: unknown name 'y'"]),
    ):
        result = project_cli(project, "update", "--spec", str(path))
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert result.returncode == 1 and len(lines) == len(words), result.stdout + result.stderr
        for line, said in zip(lines, words):
            assert line.startswith(f"error: --spec {path}: ") and said in line, line
        assert files(project) == before and commit_of(project) == "v1.0.0"

    # The template moved away since the copy: copier said "Updating is only supported in
    # git-tracked templates"; the command names the recorded path and what to do.
    answers = project / ".copier-answers.yml"
    recorded = answers.read_text()
    answers.write_text(re.sub(r"(?m)^_src_path: .*$", f"_src_path: {tmp_path / 'moved'}", recorded))
    moved = project_cli(project, "update")
    assert moved.returncode == 1 and moved.stderr.count("\n") == 1, moved.stderr
    assert moved.stderr.startswith(f"error: the template this project was made from, {tmp_path / 'moved'} "), moved
    assert "set _src_path to where it is now" in moved.stderr
    answers.write_text(recorded)

    result = project_cli(project, "update", "--spec", str(tmp_path / "good.yaml"))

    assert_updated(result, project)
    assert list((project / f"op_package/{PKG}/src/ops").glob("Halve_*")), "no kernel for the added op"
    assert_fix_arrived(project, releases.fixed)
    assert "Traceback" not in result.stderr
    note = f"note: --spec {tmp_path / 'good.yaml'}: ops[2].params[0] (spare): the expr of halve never reads it"
    assert result.stderr.startswith(note), result.stderr


def assert_refused(
    result: subprocess.CompletedProcess, project: Path, before: dict[str, bytes], named: list[str]
) -> str:
    """The update failed with one line naming `named`, and left the project as it was."""
    assert result.returncode == 1, result.stdout + result.stderr
    # Copier's own progress line comes first; the refusal is the one line after it.
    lines = [
        line
        for line in result.stderr.splitlines()
        if line.strip() and not line.startswith("Updating to template version")
    ]
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for rel in named:
        assert rel in lines[0], f"the refusal does not name {rel}: {lines[0]}"
    assert "git mv" in lines[0] and "git rm" in lines[0], "the refusal must say how to proceed"
    assert files(project) == before, "a refused update changed the project"
    assert git(project, "status", "--porcelain", "--untracked-files=all") == ""
    assert commit_of(project) == "v1.0.0"
    return lines[0]


def without_twice() -> dict:
    return {**SPEC, "ops": [op for op in SPEC["ops"] if op["name"] != "twice"]}


def twice_files(project: Path) -> list[str]:
    kernel = next((project / f"op_package/{PKG}/user").glob("Twice*.c"))
    return [f"{NS}/user/twice.py", kernel.relative_to(project).as_posix()]


def test_dropping_a_custom_op_with_edited_math_refuses_and_keeps_every_file(releases, fresh_v1, tmp_path):
    project = clone_fresh(fresh_v1, tmp_path / "project")
    write_user_work(project)
    commit_all(project, "my work")
    before = files(project)
    spec = write_spec(tmp_path / "spec-v2.yaml", without_twice())

    result = update(project, "--data-file", str(spec))

    assert_refused(result, project, before, twice_files(project))


def test_dropping_a_custom_op_whose_math_is_untouched_proceeds(releases, fresh_v1, tmp_path):
    """Stubs nobody edited carry no work: the op's files go, as copier does it."""
    project = clone_fresh(fresh_v1, tmp_path / "project")
    (project / "tests/user/test_mine.py").write_text("def test_mine():\n    assert True\n")
    commit_all(project, "a test of mine, the math untouched")
    gone = twice_files(project)
    spec = write_spec(tmp_path / "spec-v2.yaml", without_twice())

    assert_updated(update(project, "--data-file", str(spec)), project)

    for rel in gone:
        assert not (project / rel).exists(), rel
    assert not list((project / f"op_package/{PKG}/src/ops").glob("Twice_*"))
    assert "def twice(" not in (project / f"{NS}/ops.py").read_text()
    assert (project / "tests/user/test_mine.py").is_file(), "a file the user added is kept"
    assert leftovers(project) == []


def test_renaming_the_namespace_with_edited_math_refuses(releases, fresh_v1, tmp_path):
    project = clone_fresh(fresh_v1, tmp_path / "project")
    write_user_work(project)
    commit_all(project, "my work")
    before = files(project)
    spec = write_spec(tmp_path / "spec-v2.yaml", {**SPEC, "namespace": "renamed_ops"})

    result = update(project, "--data-file", str(spec))

    # The kernel's folder stays (same package); the eager math would go with the old
    # namespace's package.
    line = assert_refused(result, project, before, [f"{NS}/user/twice.py"])
    assert f"git mv {NS}/user/twice.py renamed_ops/user/twice.py" in line


def test_after_renaming_the_namespace_the_example_kernel_test_still_imports(releases, fresh_v1, tmp_path):
    """tests/user/test_my_kernel.py is the user's (an update never touches it): it names
    no namespace (it reads host.OPS), so the documented rename leaves it importable;
    one that imported `<old namespace>.ops` failed the suite's collection."""
    project = clone_fresh(fresh_v1, tmp_path / "project")
    example = (project / "tests/user/test_my_kernel.py").read_bytes()
    spec = write_spec(tmp_path / "spec-v2.yaml", {**SPEC, "namespace": "renamed_ops"})

    assert_updated(update(project, "--data-file", str(spec)), project)

    assert (project / "tests/user/test_my_kernel.py").read_bytes() == example
    assert not (project / NS).exists() and (project / "renamed_ops").is_dir()
    collected = run_project_tests(project, "--collect-only", "--all-tests", "tests/user")
    assert collected.returncode == 0, collected.stdout[-3000:] + collected.stderr[-2000:]
    assert "tests/user/test_my_kernel.py::test_kernel_at_the_default_params" in collected.stdout


def test_renaming_the_package_orphans_a_file_the_user_added_so_it_refuses(releases, fresh_v1, tmp_path):
    project = clone_fresh(fresh_v1, tmp_path / "project")
    helper = f"op_package/{PKG}/user/my_helpers.h"
    (project / helper).write_text("/* mine */\n")
    commit_all(project, "a helper of mine next to the (untouched) kernel stub")
    before = files(project)
    spec = write_spec(tmp_path / "spec-v2.yaml", {**SPEC, "package_name": "RenamedOpPackage"})

    result = update(project, "--data-file", str(spec))

    line = assert_refused(result, project, before, [helper])
    assert "Twice_math.c" not in line, "an untouched stub is not the user's work"
    assert f"git mv {helper} op_package/RenamedOpPackage/user/my_helpers.h" in line


@pytest.mark.slow
def test_renaming_an_op_after_moving_its_math_keeps_the_math(releases, fresh_v1, tmp_path):
    """The way on that the refusal names: git mv to the new names, then update."""
    project = clone_fresh(fresh_v1, tmp_path / "project")
    write_user_work(project)
    commit_all(project, "my work")
    renamed = {**SPEC, "ops": [{**SPEC["ops"][0], "name": "double_it"}, SPEC["ops"][1]]}
    spec = write_spec(tmp_path / "spec-v2.yaml", renamed)
    refused = update(project, "--data-file", str(spec))
    assert refused.returncode == 1, refused.stderr

    eager, kernel = twice_files(project)
    new_kernel = kernel.replace("Twice", "DoubleIt")
    # The refusal names the moves (the one dropped custom op pairs with the one added).
    assert f"git mv {eager} {NS}/user/double_it.py" in refused.stderr
    assert f"git mv {kernel} {new_kernel}" in refused.stderr
    git(project, "mv", eager, f"{NS}/user/double_it.py")
    git(project, "mv", kernel, new_kernel)
    for rel, old, new in (
        (f"{NS}/user/double_it.py", "def twice(", "def double_it("),
        (new_kernel, "Twice", "DoubleIt"),
    ):
        (project / rel).write_text((project / rel).read_text().replace(old, new))
    (project / "tests/user/test_twice.py").write_text(
        (project / "tests/user/test_twice.py").read_text().replace(".twice(", ".double_it(")
    )
    example = project / "tests/user/test_my_kernel.py"  # names the op it tests
    example.write_text(example.read_text().replace('NAME = "twice"', 'NAME = "double_it"'))
    commit_all(project, "renamed twice to double_it")
    mine = user_files(project)

    assert_updated(update(project, "--data-file", str(spec)), project)

    assert user_files(project) == mine
    assert "return x * 2.0" in (project / f"{NS}/user/double_it.py").read_text()
    assert not (project / eager).exists() and not (project / kernel).exists()
    assert leftovers(project) == []
    tests = run_project_tests(project, "-x", "tests/user", "tests/test_op_package_kernels.py")
    assert tests.returncode == 0, tests.stdout[-4000:] + tests.stderr[-2000:]


def test_the_guard_knows_every_user_owned_file_the_template_renders(fresh_v1):
    """hooks/update_guard.user_paths() predicts the rendered user-owned files."""
    guard = load_hooks_module("update_guard")
    pkg = load_hooks_module("spec").validate(SPEC)
    assert guard.user_paths(pkg) == set(user_files(fresh_v1))


def test_pinning_a_tag_or_a_commit(releases, tmp_path):
    """README "Pin a version": what copy and update do with --vcs-ref, measured.

    A tag is recorded as is, an untagged commit as `git describe` (PEP 440 post-release
    of the tag before it).  A plain `copier update` goes to the newest tag, never back:
    from a commit newer than every tag it refuses ("downgrading"), until --vcs-ref names
    a newer commit or a newer tag exists."""
    repo = tmp_path / "template"
    git(tmp_path, "clone", "-q", str(releases.path), str(repo))
    spec = {**SPEC, "ops": [SPEC["ops"][1]]}

    at_tag = copy_project(repo, tmp_path / "at-tag", spec=spec, ref="v1.0.0")
    assert commit_of(at_tag) == "v1.0.0"
    kept = update(at_tag, "--vcs-ref", "v1.0.0")
    assert kept.returncode == 0 and commit_of(at_tag) == "v1.0.0", kept.stderr
    assert_updated(update(at_tag), at_tag)  # no --vcs-ref: the newest tag
    commit_all(at_tag, "updated")
    back = update(at_tag, "--vcs-ref", "v1.0.0")
    assert back.returncode == 1 and "Downgrades are not supported" in back.stderr

    for n in (1, 2):
        # The first changes no render (a note beside the template), the second does.
        (repo / ("NOTES.md" if n == 1 else "template/NOTES.md")).write_text(f"untagged change {n}\n")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", f"untagged change {n}")
        if n == 1:
            first = git(repo, "rev-parse", "HEAD").strip()
    second = git(repo, "rev-parse", "HEAD").strip()

    # scripts/new (hooks/new.py) without --vcs-ref: copier's choice, the newest tag, and
    # one line that says this checkout has commits after it that change a render (one
    # here: the first changed only a file no render is made of); with --vcs-ref, no line.
    spec_file = write_spec(tmp_path / "spec.yaml", spec)
    new = [sys.executable, str(repo / "hooks/new.py"), str(spec_file)]
    made = run_budgeted([*new, str(tmp_path / "via-new")], 300, stdin=subprocess.DEVNULL)
    assert made.returncode == 0 and commit_of(tmp_path / "via-new") == "v1.1.0", made.stderr
    assert made.stderr.splitlines()[-1] == (
        "scripts/new: rendered v1.1.0, the newest release of the template; this checkout has 1 commit after "
        "it that changes what a render holds (CHANGELOG.md, [Unreleased]): add --vcs-ref HEAD to render it "
        'instead (README, "Pin a version")'
    ), made.stderr
    at_commit = tmp_path / "at-commit"
    made = run_budgeted([*new, str(at_commit), "--vcs-ref", first], 300, stdin=subprocess.DEVNULL)
    assert made.returncode == 0 and "scripts/new:" not in made.stderr, made.stderr
    commit_all(at_commit, "copied from the template", init=True)
    assert commit_of(at_commit) == f"v1.1.0-1-g{first[:7]}"
    before = files(at_commit)
    refused = update(at_commit)
    assert refused.returncode == 1 and "Downgrades are not supported" in refused.stderr
    assert files(at_commit) == before
    # The project's own command says the way on: copier's line, then one of its own.
    hinted = project_cli(at_commit, "update")
    assert hinted.returncode == 1 and "Downgrades are not supported" in hinted.stderr, hinted.stderr
    assert hinted.stderr.splitlines()[-1].endswith(
        f"this project is at v1.1.0-1-g{first[:7]}, after the template's last release: "
        "update with --vcs-ref HEAD until the next one"
    ), hinted.stderr
    assert files(at_commit) == before
    moved = update(at_commit, "--vcs-ref", second)
    assert moved.returncode == 0, moved.stderr
    assert commit_of(at_commit) == f"v1.1.0-2-g{second[:7]}"
    commit_all(at_commit, "updated to a commit")
    git(repo, "tag", "v1.2.0")
    newest = update(at_commit)
    assert newest.returncode == 0 and commit_of(at_commit) == "v1.2.0", newest.stderr


def test_collision_in_a_template_owned_file_fails_the_projects_check(releases, fresh_v1, tmp_path):
    project = clone_fresh(fresh_v1, tmp_path / "project")
    quant = project / QUANT
    quant.write_text(quant.read_text() + "\nMY_TWEAK = 1  # edited where I should not\n")
    commit_all(project, "edit inside a template-owned file")

    result = update(project)

    # copier alone reports success and leaves conflict markers; the project's report
    # (tests/update_report.py, a migration of copier.yml) fails the update and names them.
    assert result.returncode != 0, result.stdout + result.stderr
    assert commit_of(project) == "v1.1.0"
    assert [f for f in leftovers(project) if f.startswith(QUANT)], "expected a conflict in quant.py"
    assert f"UU {QUANT}" in git(project, "status", "--porcelain")
    assert "copier update: template version 1.0.0 -> 1.1.0\n" in result.stderr, result.stderr
    assert f"\n  UU {QUANT}\n" in result.stderr
    assert re.search(rf"^  {re.escape(QUANT)}:\d+: " + re.escape(MARK_START.decode()), result.stderr, re.M)
    assert f"error: the update left conflicts in {QUANT}\n" in result.stderr, result.stderr
    check = run_project_tests(project, "tests/test_no_merge_leftovers.py")
    assert check.returncode == 1, check.stdout
    assert "1 failed, 1 passed" in check.stdout
    assert f"{QUANT}:" in check.stdout, "the check must name the file"

    # Resolved by hand (keep both lines): the check passes again.
    text = quant.read_text()
    start, middle, end = (m.decode() for m in (MARK_START, MARK_MIDDLE, MARK_END))
    kept = [line for line in text.splitlines() if not line.startswith((start, end)) and line != middle]
    quant.write_text("\n".join(kept) + "\n")
    script = subprocess.run(
        [sys.executable, "tests/test_no_merge_leftovers.py"], cwd=project, capture_output=True, text=True
    )
    assert script.returncode == 0, script.stdout
    assert FIX_PY in quant.read_text() and "MY_TWEAK = 1" in quant.read_text()
    again = subprocess.run([sys.executable, "tests/update_report.py"], cwd=project, capture_output=True, text=True)
    assert again.returncode == 0 and "no conflict left" in again.stdout, again.stdout + again.stderr


def test_rejected_hunk_fails_the_projects_check(releases, fresh_v1, tmp_path):
    project = clone_fresh(fresh_v1, tmp_path / "project")
    quant = project / QUANT
    quant.write_text(quant.read_text() + "\nMY_TWEAK = 1  # edited where I should not\n")
    commit_all(project, "edit inside a template-owned file")

    result = update(project, "--conflict", "rej")

    assert result.returncode != 0 and commit_of(project) == "v1.1.0", result.stderr
    assert f"  {QUANT}.rej: rejected hunk" in result.stderr
    assert f"error: the update left conflicts in {QUANT}\n" in result.stderr, result.stderr
    assert (project / f"{QUANT}.rej").is_file()
    script = subprocess.run(
        [sys.executable, "tests/test_no_merge_leftovers.py"], cwd=project, capture_output=True, text=True
    )
    assert script.returncode == 1
    assert f"{QUANT}.rej: rejected hunk" in script.stdout


# --- updates that would break the user's math without a word (issue 22) ----------------


def with_twice(**changes) -> dict:
    return {**SPEC, "ops": [{**op, **changes} if op["name"] == "twice" else op for op in SPEC["ops"]]}


def call_twice(project: Path) -> subprocess.CompletedProcess:
    code = f"import torch, {NS}; print({NS}.twice(torch.ones(3)))"
    return subprocess.run([sys.executable, "-c", code], cwd=project, capture_output=True, text=True, timeout=300)


def compile_kernel_math(project: Path, rel: str) -> subprocess.CompletedProcess:
    pkg = project / f"op_package/{PKG}"
    return subprocess.run(
        ["gcc", "-fsyntax-only", "-std=c11", "-Wall", "-Wextra", "-Werror", "-Iinclude", "-Ihost", rel],
        cwd=pkg,
        capture_output=True,
        text=True,
    )


KERNEL = f"op_package/{PKG}/user/Twice_math.c"


@pytest.mark.parametrize("marked", [True, False], ids=["kernel-says-its-args", "kernel-from-before-the-check"])
def test_adding_a_param_to_a_custom_op_names_the_function_to_change_and_its_first_call_fails_so(
    releases, fresh_v1, tmp_path, marked
):
    """The update goes on (the new signature exists only after it), says which user
    functions must change, the eager one and the kernel one, and the project refuses the
    op's first call in the same words; the kernel math, which names the arguments it was
    written for, no longer compiles, and its error names the file and the line to write.
    A kernel file written before that line existed is named too."""
    project = clone_fresh(fresh_v1, tmp_path / "project")
    write_user_work(project)
    kernel = project / KERNEL
    old_line = "#define Twice_MATH_WRITTEN_FOR Twice_ARGS_IN_x_OUT_out\n"
    assert old_line in kernel.read_text(), "the kernel stub no longer names its arguments"
    if not marked:
        kernel.write_text(kernel.read_text().replace(old_line, ""))
    commit_all(project, "my work")
    assert compile_kernel_math(project, "user/Twice_math.c").returncode == 0
    mine = user_files(project)
    assert call_twice(project).returncode == 0
    param = {"name": "gain", "type": "float", "default": 2.0}
    spec = write_spec(tmp_path / "spec-v2.yaml", with_twice(params=[param]))

    result = update(project, "--data-file", str(spec))

    assert_updated(result, project)
    assert f"{NS}/user/twice.py: def twice(x: torch.Tensor) must take (x, gain)" in result.stderr, result.stderr
    if marked:
        assert (
            f"{KERNEL}: written for Twice_ARGS_IN_x_OUT_out, and Twice_compute's args are now input x; output out; "
            "param float gain: change the math, then its line to "
            "#define Twice_MATH_WRITTEN_FOR Twice_ARGS_IN_x_OUT_out_FLOAT_gain (it does not compile until then)"
        ) in result.stderr, result.stderr
    else:
        assert (
            f"{KERNEL}: Twice_compute's args are now input x; output out; param float gain: change the math to "
            "match (and add #define Twice_MATH_WRITTEN_FOR Twice_ARGS_IN_x_OUT_out_FLOAT_gain above its #include"
        ) in result.stderr, result.stderr
    assert {rel: user_files(project)[rel] for rel in mine} == mine, "the update rewrote the user's math"
    call = call_twice(project)
    assert call.returncode != 0
    assert f"{NS}/user/twice.py defines twice(x: torch.Tensor)" in call.stderr, call.stderr[-2000:]
    assert "change it to take (x, gain)" in call.stderr
    build = compile_kernel_math(project, "user/Twice_math.c")
    if marked:
        assert build.returncode != 0, "the kernel math written for the old arguments still compiles"
        assert "user/Twice_math.c was written for other arguments of Twice_compute" in build.stderr, build.stderr
        assert "#define Twice_MATH_WRITTEN_FOR Twice_ARGS_IN_x_OUT_out_FLOAT_gain" in build.stderr, build.stderr
        # ... and once the math and its line are changed, it compiles again.
        text = kernel.read_text().replace(old_line, old_line.replace("_OUT_out", "_OUT_out_FLOAT_gain"))
        kernel.write_text(text.replace("2.0f * args->x[i]", "args->gain * args->x[i]"))
        assert "args->gain" in kernel.read_text()
        fixed = compile_kernel_math(project, "user/Twice_math.c")
        assert fixed.returncode == 0, fixed.stderr


def test_renaming_a_custom_ops_input_names_the_kernel_line_to_change(releases, fresh_v1, tmp_path):
    project = clone_fresh(fresh_v1, tmp_path / "project")
    write_user_work(project)
    commit_all(project, "my work")
    spec = write_spec(tmp_path / "spec-v2.yaml", with_twice(inputs=["y"]))

    result = update(project, "--data-file", str(spec))

    assert_updated(result, project)
    [kernel] = twice_files(project)[1:]
    assert f"{kernel}: args->x no longer exists in Twice_args" in result.stderr, result.stderr
    # ... and the compiler says so too: the kernel math no longer builds.
    pkg = project / f"op_package/{PKG}"
    build = subprocess.run(
        ["gcc", "-fsyntax-only", "-std=c11", f"-I{pkg}/include", f"-I{pkg}/host", f"-I{pkg}", str(project / kernel)],
        capture_output=True,
        text=True,
    )
    assert build.returncode != 0 and "x" in build.stderr, build.stderr


def test_a_new_custom_op_whose_stub_path_holds_a_users_file_refuses(releases, fresh_v1, tmp_path):
    project = clone_fresh(fresh_v1, tmp_path / "project")
    helper = f"{NS}/user/helpers.py"
    (project / helper).write_text("# mine: shared helpers of my math\nSCALE = 2.0\n")
    commit_all(project, "a helper module of mine")
    before = files(project)
    added = {"name": "helpers", "kind": "custom", "inputs": ["x"]}
    spec = write_spec(tmp_path / "spec-v2.yaml", {**SPEC, "ops": [*SPEC["ops"], added]})

    result = update(project, "--data-file", str(spec))

    assert result.returncode == 1, result.stdout + result.stderr
    lines = [x for x in result.stderr.splitlines() if x.strip() and not x.startswith("Updating to template version")]
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert f"the new custom op 'helpers' gets its stub at {helper}, which already holds your file" in lines[0]
    assert files(project) == before, "a refused update changed the project"
    assert commit_of(project) == "v1.0.0"


# --- an update that drops a header -----------------------------------------------------

PROBE_H = "lpai_update_probe.h"
OP_DIR_TEMPLATE = "template/op_package/{{pkg.package_name}}"
OP_MAKEFILES = ("host_emulator.mk", "hexagon_test.mk", "hexagon.mk", "lpai_x86.mk")


def _as_an_older_release(repo: Path) -> None:
    """The release a user updates from: today's tree with the header PROBE_H that the
    next release drops (included by lpai_conventions.h, so by every source file), and
    makefiles as they were before the fix: -MMD alone, no `%.h: ;`."""
    inc = repo / OP_DIR_TEMPLATE / "include"
    (inc / PROBE_H).write_text("/* Dropped by the next release. */\n#define LPAI_UPDATE_PROBE 1\n")
    conventions = inc / "lpai_conventions.h"
    text = conventions.read_text()
    assert '#include "lpai_package.h"\n' in text, "lpai_conventions.h changed: update _as_an_older_release()"
    conventions.write_text(
        text.replace('#include "lpai_package.h"\n', f'#include "lpai_package.h"\n#include "{PROBE_H}"\n')
    )
    for name in OP_MAKEFILES:
        mk = repo / OP_DIR_TEMPLATE / "makefiles" / name
        old = mk.read_text().replace(" -MMD -MP ", " -MMD ")
        old, n = re.subn(r"^%\.h: ;\n", "", old, flags=re.M)
        assert n == 1, f"{name}: no `%.h: ;` line to take out"
        mk.write_text(old)


def _build_objects(op: Path) -> dict[str, subprocess.CompletedProcess]:
    """One object of the user's math built by each makefile of the op package, in its
    own build folder. The two SDK builds get the host compiler and plain flags (no SDK
    here): the makefile's compile rule, its -MMD / -MP and its .d files stay its own."""
    arch = re.search(r"^DSP_ARCH\s*:=\s*(\S+)", (op / "makefiles/package.mk").read_text(), re.M).group(1)
    plain = ["CC=/usr/bin/cc", "CFLAGS=-std=c11 -Iinclude"]
    runs = {
        "host_emulator.mk": ["BUILD=build/probe", "build/probe/full/user/Twice_math.o"],
        "hexagon.mk": [*plain, f"obj/hexagon-{arch}/main/user/Twice_math.o"],
        "lpai_x86.mk": [*plain, "obj/x86_64-linux-clang/user/Twice_math.o"],
    }
    if subprocess.run([sys.executable, "-m", "ziglang", "version"], capture_output=True).returncode == 0:
        runs["hexagon_test.mk"] = [
            f"PYTHON={sys.executable}",
            "BUILD=build/probe-hx",
            "build/probe-hx/x86/user/Twice_math.o",
        ]
    return {
        name: subprocess.run(
            ["make", "--no-print-directory", "-f", f"makefiles/{name}", *args],
            cwd=op,
            capture_output=True,
            text=True,
            timeout=300,
        )
        for name, args in runs.items()
    }


def test_every_build_folder_builds_after_an_update_that_drops_a_header(tmp_path):
    """A build at the older release leaves .d files naming PROBE_H in each build folder;
    the update deletes it; the next build of each folder compiles again instead of
    stopping at "No rule to make target" (the .d files are the old build's, without -MP:
    the new makefiles' `%.h: ;` carries them)."""
    repo = snapshot_template(tmp_path / "template", tag=None)
    _as_an_older_release(repo)
    release(repo, "v1.0.0", "Test release: a header the next one drops, makefiles before -MP")
    git(repo, "checkout", "-q", "HEAD~1", "--", "template")
    (repo / OP_DIR_TEMPLATE / "include" / PROBE_H).unlink()
    release(repo, "v1.1.0", "Test release: the header dropped")
    project = copy_project(repo, tmp_path / "project", ref="v1.0.0")
    op = project / f"op_package/{PKG}"
    assert (op / f"include/{PROBE_H}").is_file()

    before = _build_objects(op)
    for name, run in before.items():
        assert run.returncode == 0, f"{name} at v1.0.0:\n{run.stdout}{run.stderr}"
    deps = sorted(op.glob("**/Twice_math.d"))
    assert len(deps) == len(before) and all(PROBE_H in d.read_text() for d in deps), deps

    result = update(project)
    assert result.returncode == 0, result.stderr
    assert commit_of(project) == "v1.1.0"
    assert not (op / f"include/{PROBE_H}").exists(), "the update did not drop the header"

    after = _build_objects(op)
    for name, run in after.items():
        assert run.returncode == 0, f"{name} after the update:\n{run.stdout}{run.stderr}"
        assert "No rule to make target" not in run.stderr
    assert not any(PROBE_H in d.read_text() for d in deps), "the objects were not compiled again"
