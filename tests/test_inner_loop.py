"""The user's inner loop (issue 47), on one rendered project shared by the run: a custom
op `agc` whose math is NaN outside its param's declared range, and an elementwise op.

- `make test OP=agc` (pytest --op agc) collects agc's tests only;
- a failing test names, in its first line, the op, the param values and the inputs it
  used, and what the user can do;
- the rendered .gitignore ignores what `pip install -e .` writes.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import copier_cli, git, once_per_run, run_budgeted, run_project_tests

SPECS = Path(__file__).parent / "specs" / "inner_loop"


def _render(folder: Path, template_repo: Path) -> Path:
    project = folder / "agc"
    spec = folder / "agc.yaml"
    spec.write_text((SPECS / "agc.yaml").read_text())
    result = copier_cli("copy", "--trust", "--defaults", "--data-file", str(spec), str(template_repo), str(project))
    assert result.returncode == 0, result.stderr
    shutil.copy(SPECS / "agc.py", project / "agc_ops" / "user" / "agc.py")
    shutil.copy(SPECS / "Agc_math.c", project / "op_package" / "AgcOpPackage" / "user" / "Agc_math.c")
    return project


def project(tmp_path_factory, template_repo, tmp_path) -> Path:
    """A copy of the shared render (a test may change its user math)."""
    built = once_per_run(tmp_path_factory, "inner-loop", lambda folder: _render(folder, template_repo))
    mine = tmp_path / "agc"
    shutil.copytree(built, mine)
    return mine


def test_make_test_op_runs_that_op_s_tests_only(tmp_path_factory, template_repo, tmp_path):
    root = project(tmp_path_factory, template_repo, tmp_path)
    # `make test OP=agc` runs `pytest --op agc` (the collection alone here: one run of
    # each form; the pytest form's own run is the refusal below).
    command = ["make", "--no-print-directory", "test", "OP=agc", f"PYTHON={sys.executable}", "ARGS=--collect-only -q"]
    result = run_budgeted(command, 300, cwd=root)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "-m pytest --op 'agc' --collect-only -q" in result.stdout, result.stdout[:500]
    ids = [line for line in result.stdout.splitlines() if "::" in line]
    assert len(ids) > 50, result.stdout
    others = [i for i in ids if "[agc" not in i and "-agc" not in i and "agc]" not in i and "/user/" not in i]
    assert not others, others[:5]
    assert not [i for i in ids if "gain" in i], ids
    wrong = run_budgeted(
        [sys.executable, "-m", "pytest", "--op", "nope", "-q", "-p", "no:cacheprovider"], 300, cwd=root
    )
    assert wrong.returncode != 0 and "--op nope: no such op (the ops: agc, gain)" in wrong.stdout + wrong.stderr


def test_a_failure_names_op_params_inputs_and_what_to_do(tmp_path_factory, template_repo, tmp_path):
    """The issue's agc, with alpha's range forgotten in the math: NaN at the defaults.
    pytest's summary line (the exception's first line) must say all of it."""
    root = project(tmp_path_factory, template_repo, tmp_path)
    eager = root / "agc_ops" / "user" / "agc.py"
    eager.write_text(eager.read_text().replace("g = (1 - alpha)", "g = (0.5 - alpha)"))
    result = run_project_tests(
        root,
        "--op",
        "agc",
        "tests/test_ops.py",
        "-k",
        "custom_op_math_is_written",
        "-rf",
        env_extra={"COLUMNS": "1000"},
    )
    assert result.returncode == 1, result.stdout + result.stderr
    [summary] = [line for line in result.stdout.splitlines() if line.startswith("FAILED ")]
    assert "agc_ops::agc(alpha=0.9, eps=0.01, order=2) (the defaults) on x in [0, 2]: " in summary, summary
    assert "declare where it works" in summary and "guard the math" in summary, summary
    # The failure's own lines follow, in the traceback of the test.
    assert "in test_custom_op_math_is_written" in result.stdout or "def test_custom_op_math_is_written" in result.stdout


def test_varied_params_stay_inside_the_declared_range(tmp_path_factory, template_repo, tmp_path):
    """alpha varies inside [0, 1] (0.45: half way from 0.9 to 0), eps and order stay at
    their defaults (no range, custom math); gain's k inside [0, 1], b around 0.25."""
    root = project(tmp_path_factory, template_repo, tmp_path)
    code = "from agc_ops.ops import OPS\nfor op in OPS: print(op.name, op.param_spans, op.other_params)\n"
    result = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "agc ((0.0, 1.0), None, None) (0.45, 0.01, 2)",
        "gain ((0.0, 1.0), (0.08333333333333333, 0.75)) (0.75, 0.5)",
    ]


def test_the_gitignore_ignores_what_pip_install_e_writes(tmp_path_factory, template_repo, tmp_path):
    root = project(tmp_path_factory, template_repo, tmp_path)
    git(root, "init", "-q")
    (root / "agc_ops.egg-info").mkdir()
    (root / "agc_ops.egg-info" / "PKG-INFO").write_text("Name: agc_ops\n")
    assert git(root, "status", "--porcelain", "--untracked-files=all", "agc_ops.egg-info") == ""


def test_the_readme_is_one_screen_of_commands_and_links(tmp_path_factory, template_repo, tmp_path):
    """What the project has and the commands in the order a user runs them; the rest one
    link away, each link a page of the project."""

    root = project(tmp_path_factory, template_repo, tmp_path)
    readme = (root / "README.md").read_text()
    assert len(readme.splitlines()) <= 60
    order = ["pip install -e .", "make test ", "make test OP=NAME", "check-model --model", "doctor", "export --model"]
    at = [readme.index(command) for command in order]
    assert at == sorted(at), order
    links = re.findall(r"\]\(([^)]+)\)", readme)
    assert {"docs/using.md", "docs/testing.md", "docs/device.md", "docs/updating.md"} <= set(links)
    assert all((root / link).exists() for link in links), links
