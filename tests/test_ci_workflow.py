"""The rendered project's CI workflow (.github/workflows/ci.yml) runs what its README
says proves a change: the project installed, its pytest suite, the C kernel suite and
the same under the sanitizers.

Read from the golden renders (examples/golden/, equal to a fresh render by
tests/test_golden.py), so no extra render is needed.
"""

from __future__ import annotations

import re

import pytest
import yaml

from golden import GOLDEN, examples


def workflow(name: str) -> dict:
    return yaml.safe_load((GOLDEN / name / ".github/workflows/ci.yml").read_text())


def commands(flow: dict) -> list[str]:
    return [
        line.strip()
        for job in flow["jobs"].values()
        for step in job["steps"]
        for line in step.get("run", "").splitlines()
        if line.strip()
    ]


@pytest.mark.parametrize("name", examples())
def test_workflow_runs_the_suites(name):
    answers = yaml.safe_load((GOLDEN / name / ".copier-answers.yml").read_text())
    pkg = answers["package_name"]
    flow = workflow(name)
    # PyYAML reads the bare key `on` as True (YAML 1.1).
    triggers = flow.get("on", flow.get(True))
    assert {"push", "pull_request"} <= set(triggers)
    run = commands(flow)
    assert 'python -m pip install -e ".[test]"' in run
    assert "python -m pytest" in run
    assert f"make -C op_package/{pkg} host-test" in run
    assert f"make -C op_package/{pkg} host-test SAN=1" in run
    # Before the project's own install, torch comes from the CPU index (PyPI's pulls CUDA).
    torch = next(i for i, c in enumerate(run) if " torch==" in c)
    assert "download.pytorch.org/whl/cpu" in run[torch]
    assert torch < run.index('python -m pip install -e ".[test]"')


@pytest.mark.parametrize("name", examples())
def test_what_the_workflow_names_exists(name):
    """The make target, the install extra and the README commands the workflow runs."""
    project = GOLDEN / name
    pkg = yaml.safe_load((project / ".copier-answers.yml").read_text())["package_name"]
    makefile = (project / "op_package" / pkg / "Makefile").read_text()
    assert re.search(r"^host-test:", makefile, re.MULTILINE)
    assert re.search(r"^\s*test = \[", (project / "pyproject.toml").read_text(), re.MULTILINE)
    readme = "\n".join(p.read_text() for p in [project / "README.md", *sorted((project / "docs").glob("*.md"))])
    for command in (f"make -C op_package/{pkg} host-test", f"make -C op_package/{pkg} host-test SAN=1"):
        assert command in readme, command
