"""A 2.1.x HTP project moves to the QHPI form by `copier update`, its math untouched.

The last 2.1 release (v2.1.4, its commit from scripts/releases.txt) renders
examples/custom.yaml (backends lpai + htp: a custom op whose math the user writes, and an
elementwise op) into a project whose user math is the one the examples of that release
hold; this working tree, committed as the next release of a copy of the template's
history, is what `update` goes to. After the update: no conflict, every user-owned file
byte-identical, the HTP package in QHPI form (nothing of the legacy registration left,
the files only the legacy form had gone), and the project's own HTP kernel tests (every
op, each element type, against eager through the user's Python math) pass.
"""

from __future__ import annotations

import subprocess

import pytest
import yaml

from conftest import ROOT, git, load_example, run_project_tests, template_files
from update_helpers import commit_all, copy_project, leftovers, update, user_files

OLD = "v2.1.4"


def _old_commit() -> str:
    """OLD's commit, as scripts/releases.txt records it (a clone may lack the tag: CI's has none)."""
    for line in (ROOT / "scripts" / "releases.txt").read_text().splitlines():
        words = line.split()
        if len(words) >= 2 and "v" + words[0] == OLD:
            return words[1]
    raise AssertionError(f"scripts/releases.txt records no {OLD}")


NEW = "v2.2.0"  # a test release: this working tree


def _template_history(repo) -> None:
    """A template repository holding OLD's tree (tagged OLD) and then this working tree (tagged NEW)."""
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", _old_commit()], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(repo)], input=archive, check=True)
    commit_all(repo, f"the template at {OLD}")
    git(repo, "tag", OLD)
    git(repo, "rm", "-r", "-q", "copier.yml", "hooks", "template")
    for rel in template_files():
        target = repo / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((ROOT / rel).read_bytes())
    commit_all(repo, "the template of this working tree")
    git(repo, "tag", NEW)


@pytest.fixture(scope="module")
def updated(tmp_path_factory):
    base = tmp_path_factory.mktemp("htp-update")
    repo = base / "template"
    _template_history(repo)
    spec = load_example("custom.yaml")
    assert spec["backends"] == ["lpai", "htp"]
    project = copy_project(repo, base / "project", spec=spec, ref=OLD)
    # The user's math, as the old release's example has it.
    for rel, dest in (
        ("examples/custom.user/MyNorm_math.c", f"op_package/{spec['package_name']}/user/MyNorm_math.c"),
        ("examples/custom.user/my_norm.py", f"{spec['namespace']}/user/my_norm.py"),
    ):
        text = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{_old_commit()}:{rel}"], capture_output=True, check=True
        )
        (project / dest).write_bytes(text.stdout)
    commit_all(project, "my math")
    before = user_files(project)
    result = update(project)
    return project, before, result


def test_the_update_applies_cleanly_and_keeps_every_user_file(updated):
    project, before, result = updated
    assert result.returncode == 0, result.stderr
    answers = yaml.safe_load((project / ".copier-answers.yml").read_text())
    assert answers["_commit"] == NEW
    assert leftovers(project) == []
    assert user_files(project) == before, "the update changed a user-owned file"


def test_the_htp_package_is_in_qhpi_form(updated):
    project, _, _ = updated
    htp = project / "op_package" / "htp"
    assert (htp / "src" / "qhpi_init.cpp").is_file()
    assert not (htp / "standin" / "x86" / "hexagon_protos.py").exists(), "a file only the legacy form had is left"
    for path in [*htp.glob("src/**/*.cpp"), *htp.glob("include/*.h"), *htp.glob("standin/*")]:
        text = path.read_text()
        for legacy in ("DEF_PACKAGE_OP", "BEGIN_PKG_OP_DEFINITION", "GraphStatus", "op_register_ext.h"):
            assert legacy not in text, f"{path.relative_to(project)} still has {legacy}"
    for op in ("MyNorm", "DoubleIt"):
        assert "qhpi_register_ops_v1" not in (htp / "src" / "ops" / f"{op}.cpp").read_text()
        assert f"void {op}_op_info(QHPI_OpInfo_v1 *info)" in (htp / "src" / "ops" / f"{op}.cpp").read_text()


def test_the_updated_project_s_htp_kernels_match_eager_with_the_user_s_math(updated):
    project, _, _ = updated
    run = run_project_tests(project, "tests/test_htp_kernels.py", "-k", "not hexagon")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout
