"""Helpers of tests/test_update.py: template releases, projects, trees, leftovers.

A "release" is a commit of a temporary template repository (built by
`conftest.snapshot_template` from this working tree) with a PEP 440 tag, exactly what a
user's `copier update` sees.  `convention_fix()` turns such a repository into the next
release: a changed convention in template-owned files (Python and, when the op
package exists, the C conventions header) plus a revised stub of every user-owned
file, which existing projects must *not* receive.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from conftest import copier_cli, git, tree

# A small spec: one custom op (the user writes its math) and one elementwise op.
# Ops, inputs and params are deliberately not in alphabetical order and the op keys
# not in sorted order: the answers file sorts mapping keys, and nothing the template
# iterates may depend on that order.
SPEC = {
    "package_name": "UpdOpPackage",
    "namespace": "upd_ops",
    "ops": [
        {"name": "twice", "kind": "custom", "doc": "Doubles the input, written by the user.", "inputs": ["x"]},
        {
            "name": "shift_scale",
            "inputs": ["x"],
            "params": [
                {"name": "shift", "type": "float", "default": 0.5},
                {"name": "gain", "type": "int", "default": 2},
            ],
            "expr": "gain * x + shift",
        },
    ],
}

# The op a later update adds through `--data-file`.
ADDED_OP = {"name": "halve", "doc": "Halves the input.", "inputs": ["x"], "expr": "0.5 * x"}

# What the convention fix writes; the tests look for these exact lines.
FIX_PY = 'LPAI_TEST_CONVENTION = "1.1.0"  # convention fix of the test release'
FIX_C = "#define LPAI_TEST_CONVENTION 110 /* convention fix of the test release */"
STUB_PY = "# Stub revised in 1.1.0: reaches new projects only."
STUB_C = "/* Stub revised in 1.1.0: reaches new projects only. */"
STUB_MD = "Stub revised in 1.1.0: reaches new projects only."

QUANT = "template/{{pkg.namespace}}/quant.py"
CONVENTIONS_H = "template/op_package/{{pkg.package_name}}/include/lpai_conventions.h.jinja"
USER_TEMPLATE_DIRS = (
    "template/{{pkg.namespace}}/user",
    "template/op_package/{{pkg.package_name}}/user",
    "template/tests/user",
)

# Where user-owned files live in a rendered project (the `_skip_if_exists` globs).
USER_GLOBS = ("*/user/**", "op_package/*/user/**", "tests/user/**")

# Conflict leftovers, built from pieces so that this file never contains one.
MARK_START = b"<" * 7 + b" "
MARK_MIDDLE = b"=" * 7
MARK_END = b">" * 7 + b" "


def release(repo: Path, tag: str, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    git(repo, "tag", tag)


def convention_fix(repo: Path) -> list[str]:
    """Apply the test release's changes to a template repository; return the rendered
    paths (with the spec's names) of the template-owned files the fix changes."""
    changed = []
    quant = repo / QUANT
    assert quant.is_file(), f"{QUANT} is gone: point convention_fix() at another template-owned file"
    quant.write_text(quant.read_text().rstrip("\n") + "\n\n" + FIX_PY + "\n")
    changed.append(f"{SPEC['namespace']}/quant.py")

    header = repo / CONVENTIONS_H
    if header.is_file():
        lines = header.read_text().splitlines()
        endifs = [i for i, line in enumerate(lines) if line.startswith("#endif")]
        at = endifs[-1] if endifs else len(lines)
        lines[at:at] = [FIX_C, ""]
        header.write_text("\n".join(lines) + "\n")
        changed.append(f"op_package/{SPEC['package_name']}/include/lpai_conventions.h")

    stubs = 0
    for folder in USER_TEMPLATE_DIRS:
        for path in sorted((repo / folder).glob("*.jinja")):
            lines = path.read_text().splitlines()
            extra = {".py": STUB_PY, ".c": STUB_C, ".h": STUB_C, ".md": STUB_MD}[Path(path.stem).suffix]
            lines.insert(1, extra)
            path.write_text("\n".join(lines) + "\n")
            stubs += 1
    assert stubs >= 3, "the template has fewer user-owned stubs than the tests expect"
    return changed


def write_spec(path: Path, spec: dict) -> Path:
    path.write_text(yaml.safe_dump(spec, sort_keys=False))
    return path


def copy_project(template: Path, dest: Path, spec: dict = SPEC, ref: str | None = "v1.0.0") -> Path:
    """`copier copy` as a user runs it, then the commit `copier update` needs."""
    spec_file = write_spec(dest.parent / f"{dest.name}-spec.yaml", spec)
    args = ["copy", "--trust", "--defaults", "--data-file", str(spec_file)]
    if ref:
        args += ["--vcs-ref", ref]
    result = copier_cli(*args, str(template), str(dest))
    assert result.returncode == 0, result.stderr
    commit_all(dest, "copied from the template", init=True)
    return dest


def commit_all(project: Path, message: str, init: bool = False) -> None:
    if init:
        git(project, "init", "-q", "-b", "main")
    git(project, "add", "-A")
    git(project, "commit", "-q", "--allow-empty", "-m", message)


def update(project: Path, *args: str):
    return copier_cli("update", "--trust", "--defaults", *args, cwd=project)


def files(root: Path) -> dict[str, bytes]:
    """Every file of a project (not .git), the answers file without `_commit`."""
    out = tree(root)
    answers = out.get(".copier-answers.yml")
    if answers is not None:
        out[".copier-answers.yml"] = b"".join(
            line for line in answers.splitlines(keepends=True) if not line.startswith(b"_commit:")
        )
    return out


def is_user_owned(rel: str) -> bool:
    return re.match(r"([^/]+/user/|op_package/[^/]+/user/|tests/user/)", rel) is not None


def user_files(root: Path) -> dict[str, bytes]:
    return {rel: data for rel, data in files(root).items() if is_user_owned(rel)}


def leftovers(root: Path) -> list[str]:
    """Conflict markers and rejected hunks anywhere in a project (independent of the
    project's own check, which is what the tests exercise)."""
    found = []
    for rel, data in files(root).items():
        if rel.endswith(".rej"):
            found.append(f"{rel}: rejected hunk file")
            continue
        for n, line in enumerate(data.splitlines(), 1):
            if line.startswith((MARK_START, MARK_END)) or line == MARK_MIDDLE:
                found.append(f"{rel}:{n}: {line[:40]!r}")
    return found
