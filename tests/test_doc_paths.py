"""Docs true to the files: every path a rendered file or a doc names exists.

Rendered READMEs, comments and docstrings point users at files ("the kernel math goes
in op_package/<Package>/user/<Type>_math.c").  A path that names nothing sends them
nowhere (the C stub said `src/<namespace>/user/` long after the package moved to
`<namespace>/`).  This scans every text file of rendered projects, and the template's
own docs, for relative paths and checks each against the files that exist.

A rendered project is self-contained: a path it names must exist in the project itself
(its docs/conventions/ pages ship with it).  A file of the template repository is cited
as `qnn-op-template/<path>` (the template at the version `.copier-answers.yml` records)
and must exist in the template.

What counts as a path: a token starting with one of the project's top-level folders
(or, inside the op package, one of its folders), made of path characters.  Placeholders
(`<namespace>`), globs and Jinja are skipped, as are build outputs (`build/`, `libs/`,
`obj/`, `artifacts/`), which exist only after a build.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import ROOT, load_example, tree

OUTPUT_PARTS = {"build", "libs", "obj", "artifacts", "signed", "__pycache__"}
TEXT_SUFFIXES = {".md", ".py", ".c", ".h", ".cpp", ".mk", ".xml", ".toml", ".yaml", ".yml", ""}
OP_PACKAGE_DIRS = ("include", "src", "host", "user", "config", "makefiles")
# Paths inside the Qualcomm SDK, which comments name too.
SDK_PATHS = ("include/QNN/", "share/QNN/")


def path_tokens(text: str, roots: tuple[str, ...]) -> set[str]:
    starts = "|".join(re.escape(r) for r in roots)
    found = set()
    for match in re.finditer(rf"(?<![\w./<>{{}}$-])((?:{starts})/[\w./<>{{}}*$-]*)", text):
        token = match.group(1).rstrip(".,:;")
        if re.search(r"[<>{}*$]", token) or "..." in token:
            continue
        if OUTPUT_PARTS & set(token.split("/")) or token.startswith(SDK_PATHS):
            continue
        found.add(token)
    return found


def exists(token: str, *bases: Path) -> bool:
    return any((base / token).exists() or (base / f"{token}.jinja").exists() for base in bases)


# Top-level folders of the template repository (examples/ is left out: ExecuTorch has
# one too, which the toolchain names). Named bare in a rendered file, they
# would be paths the project lacks (cite them as qnn-op-template/<path>).
TEMPLATE_REPO_ROOTS = ("hooks", "bench", "template")
TEMPLATE_PREFIX = "qnn-op-template"


# The op package of a backend the spec may leave out (`backends`): the Python modules,
# plain files of every project, name its paths; a project without it has none.
OPTIONAL_ROOTS = ("op_package/htp",)


def missing_in_project(project: Path, ns: str, pkg: str) -> list[str]:
    problems = []
    op_dir = project / "op_package" / pkg
    optional = tuple(root for root in OPTIONAL_ROOTS if not (project / root).is_dir())
    for rel in tree(project):
        if Path(rel).suffix not in TEXT_SUFFIXES or rel.startswith(".git/"):
            continue
        text = (project / rel).read_text(errors="replace")
        for token in path_tokens(text, ("op_package", ns, "tests", "docs", *TEMPLATE_REPO_ROOTS)):
            if token.startswith(optional):
                continue
            if not exists(token, project):
                problems.append(f"{rel}: {token}")
        for token in path_tokens(text, (TEMPLATE_PREFIX,)):
            if not exists(token.removeprefix(f"{TEMPLATE_PREFIX}/"), ROOT):
                problems.append(f"{rel}: {token} (not in the template repository)")
        if rel.startswith(f"op_package/{pkg}/"):
            for token in path_tokens(text, OP_PACKAGE_DIRS):
                if not exists(token, op_dir, project):
                    problems.append(f"{rel}: {token} (in the op package)")
    return problems


@pytest.fixture(scope="module")
def projects(copie_session, template_repo):
    out = {}
    for name in ("custom.yaml", "activations.yaml"):
        spec = load_example(name)
        result = copie_session.copy(extra_answers=spec, template_dir=template_repo)
        assert result.exit_code == 0, result.exception
        out[name] = (result.project_dir, spec)
    return out


@pytest.mark.parametrize("name", ["custom.yaml", "activations.yaml"])
def test_every_path_a_rendered_file_names_exists(projects, name):
    project, spec = projects[name]
    problems = missing_in_project(project, spec["namespace"], spec["package_name"])
    assert not problems, "paths that name nothing:\n" + "\n".join(sorted(problems))


def test_every_path_the_templates_docs_name_exists(projects):
    """README.md, CHANGELOG.md, docs/ and examples/ of the template: a path exists in the
    template (as is or as its .jinja source) or in a rendered project (the docs talk
    about a project's `tests/test_no_merge_leftovers.py`)."""
    project, _spec = projects["custom.yaml"]
    docs = [
        ROOT / "README.md",
        ROOT / "CHANGELOG.md",
        *sorted((ROOT / "docs").rglob("*.md")),
        *sorted((ROOT / "examples").glob("*.yaml")),
    ]
    roots = ("docs", "tests", "hooks", "template", "examples", "bench", "op_package")
    problems = []
    for doc in docs:
        for token in path_tokens(doc.read_text(), roots):
            if not exists(token, ROOT, ROOT / "template", project):
                problems.append(f"{doc.relative_to(ROOT)}: {token}")
    assert not problems, "paths that name nothing:\n" + "\n".join(sorted(problems))


def test_the_scan_finds_a_wrong_path(tmp_path):
    """The scan itself: a stale path is reported, a real one is not."""
    (tmp_path / "ns/user").mkdir(parents=True)
    (tmp_path / "ns/user/op.py").write_text("")
    (tmp_path / "op_package/Pkg/user").mkdir(parents=True)
    (tmp_path / "op_package/Pkg/user/Op_math.c").write_text(
        "/* Match the eager math in src/ns/user/: see ns/user/op.py and user/Op_math.c. */\n"
    )
    problems = missing_in_project(tmp_path, "ns", "Pkg")
    assert problems == ["op_package/Pkg/user/Op_math.c: src/ns/user/ (in the op package)"]


def test_the_scan_wants_template_files_cited_as_such(tmp_path):
    """A template-repo path named bare is a path the project lacks; cited as
    qnn-op-template/<path> it must exist in the template."""
    (tmp_path / "ns").mkdir()
    (tmp_path / "ns/a.py").write_text(
        "# see hooks/spec.py, qnn-op-template/hooks/spec.py and qnn-op-template/hooks/gone.py\n"
    )
    assert sorted(missing_in_project(tmp_path, "ns", "Pkg")) == [
        "ns/a.py: hooks/spec.py",
        "ns/a.py: qnn-op-template/hooks/gone.py (not in the template repository)",
    ]


# `file`: `function`, `function` in docs/conventions/README.md's table.
_ENCODED_IN = re.compile(r"`([\w/]+\.[ch])`: ((?:`\w+`(?:, )?)+)")


def conventions_table(readme: str) -> dict[str, list[tuple[str, str]]]:
    """{C#: [(file, function), ...]} from the "encoded in" column."""
    rows = {}
    for line in readme.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and re.fullmatch(r"C\d+", cells[0]):
            rows[cells[0]] = [
                (path, fn) for path, fns in _ENCODED_IN.findall(cells[2]) for fn in re.findall(r"`(\w+)`", fns)
            ]
    return rows


def defines(text: str, function: str) -> bool:
    """A C definition (not a call or a declaration): the name at the start of a
    declarator, its parameter list followed by a body, or a #define."""
    return bool(
        re.search(rf"^[\w \t*]*\b{function}\([^;{{]*\)\s*\{{", text, re.MULTILINE)
        or re.search(rf"^#\s*define\s+{function}\b", text, re.MULTILINE)
    )


def test_conventions_table_names_where_each_function_is_defined(projects):
    """docs/conventions/README.md says in which file each convention is encoded; the
    rendered op package must define each function in the file the table names."""
    project, spec = projects["activations.yaml"]
    op_dir = project / "op_package" / spec["package_name"]
    table = conventions_table((project / "docs/conventions/README.md").read_text())
    assert sorted(table, key=lambda c: int(c[1:])) == [f"C{i}" for i in range(1, 11)]
    problems = [
        f"{c}: {fn} is not defined in {path}"
        for c, pairs in table.items()
        for path, fn in pairs
        if not (op_dir / path).is_file() or not defines((op_dir / path).read_text(), fn)
    ]
    assert all(table.values()), table
    assert not problems, "\n".join(problems)


def test_defines_tells_a_definition_from_a_call():
    text = "static inline int f(int a)\n{\n    return g(a);\n}\nint h(void);\n#define K(x) x\n"
    assert defines(text, "f") and defines(text, "K")
    assert not defines(text, "g") and not defines(text, "h")


@pytest.mark.parametrize("name", ["custom.yaml", "activations.yaml"])
def test_rendered_readme_names_this_projects_ops_and_commands_only(projects, name):
    """The README once said "mul3" (the pull request's example op) in every project."""
    project, spec = projects[name]
    # README and the pages one link away from it (docs/*.md).
    readme = "\n".join(p.read_text() for p in [project / "README.md", *sorted((project / "docs").glob("*.md"))])
    assert "mul3" not in readme
    for op in spec["ops"]:
        assert f"{spec['namespace']}::{op['name']}" in readme
    assert f"python -m {spec['namespace']} spec > ../my_spec.yaml" in readme
    assert "copier update --trust --defaults --data-file my_spec.yaml" in readme
