"""examples/golden/<example>/ equals a fresh render of examples/<example>.yaml (tests/golden.py)."""

from __future__ import annotations

import pytest

from golden import GOLDEN, differences, examples, golden_tree, render


@pytest.mark.parametrize("name", examples())
def test_golden_render_is_fresh(name, template_repo, tmp_path):
    assert (GOLDEN / name).is_dir(), f"examples/golden/{name}/ is missing; run: make golden"
    fresh = render(name, template_repo, tmp_path / name)
    problem = differences(golden_tree(GOLDEN / name), fresh, f"examples/golden/{name}/")
    assert not problem, problem


def test_differences_name_the_file_and_the_command():
    """The failure message is what a reviewer acts on: the file, the diff, the command."""
    text = differences({"a.c": b"int x = 1;\n", "gone.py": b""}, {"a.c": b"int x = 2;\n", "new.h": b""}, "g/")
    assert "make golden" in text
    assert "only in the golden copy: gone.py" in text and "only in the fresh render: new.h" in text
    assert "-int x = 1;" in text and "+int x = 2;" in text
    assert differences({"a": b"1"}, {"a": b"1"}, "g/") == ""


def test_golden_copies_are_not_collected_or_linted():
    """The golden projects carry their own tests and configuration: the template's pytest
    must not collect them, and ruff must leave them to their own configuration."""
    import tomllib

    config = tomllib.loads((GOLDEN.parents[1] / "pyproject.toml").read_text())
    assert config["tool"]["pytest"]["ini_options"]["testpaths"] == ["tests"]
    assert "golden" in config["tool"]["pytest"]["ini_options"]["norecursedirs"]
    assert "examples/golden" in config["tool"]["ruff"]["extend-exclude"]
