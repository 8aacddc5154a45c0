"""The invalid-spec corpus: every file in specs/bad/ breaks one rule.

Each file's first line says which field the error must name and a fragment of the rule
(`# expect: ops[0].expr | function 'pow' is not allowed`).  Through the real copier
command line, each must give one line naming the field, exit non-zero, print no
traceback, and write nothing: not into a new folder, and not into a folder that
already holds a user's files.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import copier_cli, tree

BAD = sorted((Path(__file__).parent / "specs" / "bad").glob("*.yaml"))


def expectation(path: Path) -> tuple[str, str]:
    first = path.read_text().splitlines()[0]
    assert first.startswith("# expect: "), f"{path.name}: first line must be '# expect: FIELD | RULE'"
    field, fragment = first[len("# expect: ") :].split(" | ", 1)
    return field.strip(), fragment.strip()


def test_corpus_is_large_enough():
    assert len(BAD) >= 30


@pytest.mark.parametrize("spec", BAD, ids=[p.stem for p in BAD])
def test_bad_spec_is_rejected_cleanly(spec, template_repo, tmp_path):
    field, fragment = expectation(spec)
    dest = tmp_path / "existing-project"
    (dest / "src").mkdir(parents=True)
    (dest / "src" / "mine.py").write_text("print('the user wrote this')\n")
    (dest / "README.md").write_text("my notes\n")
    before = tree(dest)

    result = copier_cli(
        "copy", "--trust", "--defaults", "--quiet", "--data-file", str(spec), str(template_repo), str(dest)
    )

    assert result.returncode != 0
    assert "Traceback" not in result.stderr + result.stdout
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    error = lines[-1]
    assert error.startswith(f"Invalid op spec: {field}: "), error
    assert fragment in error, error
    assert tree(dest) == before, "an invalid spec changed the destination folder"


def test_bad_spec_creates_no_new_folder(template_repo, tmp_path):
    dest = tmp_path / "new-project"
    result = copier_cli(
        "copy", "--trust", "--defaults", "--quiet", "--data-file", str(BAD[0]), str(template_repo), str(dest)
    )
    assert result.returncode != 0
    assert not dest.exists()
