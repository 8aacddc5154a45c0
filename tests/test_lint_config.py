"""The lint configuration: one ruff version everywhere, one rule set for the template and
the rendered project, and no `.jinja` file without Jinja (a plain file is copied
verbatim, so that linters and formatters read it as what it is).

The lint itself runs in `make lint` (the template's sources) and in the render matrix
(tests/test_render.py: every rendered project, under the configuration it ships).
"""

from __future__ import annotations

import re
import sys
import tomllib

import pytest
import yaml

from conftest import ROOT, run_budgeted

TEMPLATE = ROOT / "template"
JINJA = re.compile(r"\{\{|\{%|\{#")


def pinned_ruff() -> str:
    pins = [
        line.split("==")[1].strip()
        for line in (ROOT / "requirements.txt").read_text().splitlines()
        if line.startswith("ruff==")
    ]
    assert len(pins) == 1, "requirements.txt must pin ruff exactly once"
    return pins[0]


def ruff_rev(config: dict) -> str:
    [repo] = [r for r in config["repos"] if r["repo"] == "https://github.com/astral-sh/ruff-pre-commit"]
    assert {h["id"] for h in repo["hooks"]} == {"ruff-check", "ruff-format"}
    return repo["rev"]


def hook_ids(config: dict) -> set[str]:
    return {hook["id"] for repo in config["repos"] for hook in repo["hooks"]}


def rendered_pyproject() -> dict:
    # The Jinja of pyproject.toml.jinja is the namespace only; any identifier stands for it.
    text = (TEMPLATE / "pyproject.toml.jinja").read_text()
    return tomllib.loads(text.replace("{{ pkg.namespace }}", "some_ops").replace("{{ pkg.package_name }}", "P"))


def test_one_ruff_version_everywhere():
    version = pinned_ruff()
    for path in (ROOT / ".pre-commit-config.yaml", TEMPLATE / ".pre-commit-config.yaml"):
        assert ruff_rev(yaml.safe_load(path.read_text())) == f"v{version}", path
    assert rendered_pyproject()["project"]["optional-dependencies"]["lint"] == [f"ruff=={version}"]


def test_the_rendered_pre_commit_checks_conflicts_and_rej_files():
    config = yaml.safe_load((TEMPLATE / ".pre-commit-config.yaml").read_text())
    assert {"ruff-check", "ruff-format", "check-merge-conflict", "clang-format", "no-merge-leftovers"} <= hook_ids(
        config
    )
    [leftovers] = [h for r in config["repos"] for h in r["hooks"] if h["id"] == "no-merge-leftovers"]
    script = leftovers["entry"].split()[-1]
    assert (TEMPLATE / script).is_file(), f"the hook runs {script}, which the template does not ship"
    assert ".rej" in (TEMPLATE / script).read_text()
    assert leftovers["always_run"] and not leftovers["pass_filenames"]


def test_the_template_pre_commit_checks_ruff_and_conflicts():
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    assert {"ruff-check", "ruff-format", "check-merge-conflict", "clang-format"} <= hook_ids(config)


def test_template_and_rendered_project_lint_with_the_same_rules():
    template = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]
    rendered = rendered_pyproject()["tool"]["ruff"]
    assert template["line-length"] == rendered["line-length"]
    assert template["lint"]["select"] == rendered["lint"]["select"]
    # The rendered project ignores a subset of what the template repo ignores.
    assert set(rendered["lint"]["ignore"]) <= set(template["lint"]["ignore"])
    # hooks/view_py.py lays out generated tuples for this line length.
    from hooks import view_py

    assert rendered["line-length"] == view_py.PY_LINE_LENGTH


def test_no_jinja_file_lacks_jinja():
    plain = [
        p.relative_to(TEMPLATE).as_posix()
        for p in TEMPLATE.rglob("*.jinja")
        if not JINJA.search(p.read_text(encoding="utf-8"))
    ]
    assert not plain, f"no Jinja inside, drop the .jinja suffix (copied verbatim): {plain}"


@pytest.mark.parametrize("n_params", [0, 1, 2, 8])
@pytest.mark.parametrize("n_inputs", [1, 2])
def test_ops_table_rows_are_laid_out_as_ruff_format_writes_them(n_params, n_inputs):
    """op.py.inputs_tuple / op.py.params_tuple, placed as ops.py places them, are left
    unchanged by ruff format (short rows on one line, long ones one item per line)."""
    from hooks import spec

    inputs = ["first_input_tensor", "second_input_tensor"][:n_inputs]
    params = [{"name": f"parameter_number_{i}", "type": "float", "default": 1.5} for i in range(n_params)]
    expr = " + ".join(inputs + [p["name"] for p in params])
    pkg = spec.validate(
        {
            "package_name": "P",
            "namespace": "my_ops",
            "ops": [{"name": "op", "inputs": inputs, "params": params, "expr": expr}],
        }
    )
    op = pkg.ops[0]
    snippet = (
        f"OPS = (\n    OpInfo(\n        inputs={op.py.inputs_tuple},\n        params={op.py.params_tuple},\n    ),\n)\n"
    )
    rendered = rendered_pyproject()["tool"]["ruff"]
    run = run_budgeted(
        [
            sys.executable,
            "-m",
            "ruff",
            "format",
            "--no-cache",
            "--isolated",
            f"--line-length={rendered['line-length']}",
            "-",
        ],
        60,
        input=snippet,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == snippet


def test_template_sources_are_lint_clean():
    """`make lint` (scripts/lint.sh) inside `make test`, so CI, which runs README's test
    command only, fails on a ruff or clang-format finding in the template's own sources."""
    run = run_budgeted(["bash", str(ROOT / "scripts" / "lint.sh")], 300, cwd=ROOT)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
