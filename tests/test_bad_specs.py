"""The invalid-spec corpus: every file in specs/bad/ breaks one rule, or a few
independent ones.

Each file's first line says which field the error must name and a fragment of the rule
(`# expect: ops[0].expr | function 'foo' is not allowed`). A file that breaks several
rules has one such line per problem, in the order the one run must print them (every
independent problem of a spec is named at once, one line each).

Every file goes through the hook copier runs (hooks/context.py `ContextUpdater.hook`,
which calls hooks/spec.py), in process, with the answers copier would give it: the
data file read as copier's command line reads it, each question's value cast by
copier's own cast for its type, the defaults of copier.yml for the rest. The message
must be the one line copier prints. A render per file cost 1.3 s (96 files, 125 s of
a 10-minute suite), for the same hook call.

Files whose line after the expectations says `# through: scripts/new` are ones copier's own
`--data-file` reading cannot take (a traceback: YAML errors, an empty or list file,
`!!binary`, a 5,000-digit number) or takes without a word (a key given twice, a
typo'd `_soc_model`): they go through the documented entry point, hooks/new.py
(`scripts/new`, `make new`), which reads the spec strictly before copier does, as a
real command line (0.25 s each: it refuses before it validates).  Every other file
goes through the entry point's check too, in process: it refuses every bad spec.

A few files, one per kind of error, also go through the real copier command line:
one line naming the field, exit non-zero, no traceback, nothing written (not into a
new folder, not into a folder that already holds a user's files).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import jinja2
import pytest
import yaml
from copier._user_data import CAST_STR_TO_NATIVE
from copier.errors import UserMessageError

from hooks import new, spec_file
from hooks.spec import SpecError

from conftest import copier_cli, tree

ROOT = Path(__file__).resolve().parents[1]
BAD = sorted((Path(__file__).parent / "specs" / "bad").glob("*.yaml"))
THROUGH_NEW = "# through: scripts/new"


EXPECT = "# expect: "


def through_new(path: Path) -> bool:
    """Only the strict reader of hooks/new.py can give this file one line."""
    lines = path.read_bytes().decode("utf-8", "replace").splitlines()
    after = next((line for line in lines if not line.startswith(EXPECT)), "")
    return after.startswith(THROUGH_NEW)


BAD_FOR_COPIER = [p for p in BAD if not through_new(p)]
BAD_FOR_NEW = [p for p in BAD if through_new(p)]

# One file per kind of error, through the command line: a required key (a question's
# default), an unknown key (copier's data, not a question), a value copier casts
# before the hook sees it (false -> "False"), a spec too large to print, a name rule
# (shell injection), an expression rule, a param rule, a wrong shape of the ops list
# (a yaml question).
CLI_CASES = (
    "missing-namespace",
    "unknown-top-level-key",
    "soc-model-false",
    "yaml-alias-bomb",
    "namespace-shell-injection",
    "expr-python-injection",
    "param-default-infinite",
    "ops-not-a-list",
    "three-independent-mistakes",
)


def expectations(path: Path) -> list[tuple[str, str]]:
    """(field, rule fragment) of each problem the file must be refused with, in order."""
    lines = path.read_bytes().decode("utf-8", "replace").splitlines()  # a file may be bad UTF-8 on purpose
    assert lines[0].startswith(EXPECT), f"{path.name}: first line must be '# expect: FIELD | RULE'"
    found = []
    for line in lines:
        if not line.startswith(EXPECT):
            break
        field, fragment = line[len(EXPECT) :].split(" | ", 1)
        found.append((field.strip(), fragment.strip()))
    return found


def expectation(path: Path) -> tuple[str, str]:
    """The one problem of a file that breaks one rule."""
    (only,) = expectations(path)
    return only


def assert_lines_expected(lines: list[str], path: Path) -> None:
    """`lines` are the refusal of `path`: one line per expected problem, in order."""
    expected = expectations(path)
    assert len(lines) == len(expected), "\n".join(lines)
    for line, (field, fragment) in zip(lines, expected):
        assert line.startswith(f"Invalid op spec: {field}: "), line
        assert fragment in line, line


def _context_updater():
    """hooks/context.py loaded from its path, as copier-template-extensions loads it."""
    spec = importlib.util.spec_from_file_location("_bad_specs_context_hook", ROOT / "hooks" / "context.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.ContextUpdater(jinja2.Environment())


HOOK = _context_updater()
QUESTIONS = {
    key: value for key, value in yaml.safe_load((ROOT / "copier.yml").read_text()).items() if not key.startswith("_")
}


def hook_message(path: Path) -> str | None:
    """The hook's error line for the data file `path`, None when it accepts it."""
    data = yaml.safe_load(path.read_text())  # as copier's --data-file does
    context = {"_copier_phase": "render", "_copier_conf": {"data": data}}
    for name, question in QUESTIONS.items():
        value = data[name] if isinstance(data, dict) and name in data else question.get("default")
        cast = CAST_STR_TO_NATIVE[question["type"]]
        try:
            context[name] = cast(value)
        except (TypeError, AttributeError):  # copier keeps a non-string yaml answer as is
            assert question["type"] in ("yaml", "json"), name
            context[name] = value
    try:
        HOOK.hook(context)
    except UserMessageError as exc:
        return str(exc)
    return None


def test_corpus_is_large_enough():
    assert len(BAD) >= 30


def test_cli_cases_exist():
    assert {p.stem for p in BAD} >= set(CLI_CASES)


@pytest.mark.parametrize("spec", BAD_FOR_COPIER, ids=[p.stem for p in BAD_FOR_COPIER])
def test_bad_spec_is_rejected_by_the_hook(spec):
    error = hook_message(spec)
    assert error is not None, "the hook accepted an invalid spec"
    assert_lines_expected(error.split("\n"), spec)


@pytest.mark.parametrize("name", ["scale.yaml", "activations.yaml", "custom.yaml"])
def test_the_in_process_check_accepts_the_examples(name):
    # Proves hook_message can say "valid": the corpus test is not passing by default.
    assert hook_message(ROOT / "examples" / name) is None
    new.check(str(ROOT / "examples" / name))


@pytest.mark.parametrize("spec", BAD_FOR_NEW, ids=[p.stem for p in BAD_FOR_NEW])
def test_bad_spec_file_is_rejected_in_one_line_by_the_entry_point(spec, tmp_path):
    field, fragment = expectation(spec)
    dest = tmp_path / "new-project"
    result = subprocess.run(
        [sys.executable, str(ROOT / "hooks" / "new.py"), str(spec), str(dest)], capture_output=True, text=True
    )
    assert result.returncode == 1, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"Invalid op spec: {field}: "), lines[0]
    assert fragment in lines[0], lines[0]
    assert len(lines[0]) < 400, "an echoed value must be cut"
    assert not dest.exists()


@pytest.mark.parametrize("spec", BAD_FOR_COPIER, ids=[p.stem for p in BAD_FOR_COPIER])
def test_the_entry_point_refuses_every_other_bad_spec_too(spec):
    with pytest.raises(SpecError) as info:
        new.check(str(spec))
    assert len(info.value.lines) == len(expectations(spec)), str(info.value)
    assert all("\n" not in line for line in info.value.lines)


def test_the_strict_reader_reads_what_copier_reads():
    """A file it accepts reads to the same values as copier's `yaml.safe_load`."""
    read = 0
    for path in [*sorted((ROOT / "examples").glob("*.yaml")), *BAD_FOR_COPIER]:
        try:
            raw = spec_file.read(path)
        except SpecError:  # e.g. the alias bomb's `_anchors:` key
            continue
        assert raw == yaml.safe_load(path.read_bytes()), path.name
        read += 1
    assert read > 100


@pytest.mark.parametrize("stem", CLI_CASES)
def test_bad_spec_is_rejected_cleanly_by_copier(stem, template_repo, tmp_path):
    spec = Path(__file__).parent / "specs" / "bad" / f"{stem}.yaml"
    count = len(expectations(spec))
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
    assert_lines_expected(lines[-count:], spec)
    assert "\n".join(lines[-count:]) == hook_message(spec), "the command line and the in-process check disagree"
    assert tree(dest) == before, "an invalid spec changed the destination folder"


def test_bad_spec_creates_no_new_folder(template_repo, tmp_path):
    dest = tmp_path / "new-project"
    result = copier_cli(
        "copy", "--trust", "--defaults", "--quiet", "--data-file", str(BAD[0]), str(template_repo), str(dest)
    )
    assert result.returncode != 0
    assert not dest.exists()


@pytest.mark.parametrize("check_only", [True, False], ids=["check", "new"])
def test_every_problem_is_one_line_of_the_entry_point_in_one_run(check_only, tmp_path):
    """scripts/new (and --check): a spec with three independent mistakes, three lines;
    nothing written."""
    spec = Path(__file__).parent / "specs" / "bad" / "three-independent-mistakes.yaml"
    dest = tmp_path / "new-project"
    args = ["--check", str(spec)] if check_only else [str(spec), str(dest)]
    result = subprocess.run([sys.executable, str(ROOT / "hooks" / "new.py"), *args], capture_output=True, text=True)
    assert result.returncode == 1, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 3, result.stderr
    assert_lines_expected(lines, spec)
    assert not dest.exists()
