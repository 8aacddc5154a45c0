"""Golden renders: examples/golden/<example>/ holds a fresh render of examples/<example>.yaml.

A pull request that changes the template changes these files too, so a reviewer sees
its effect on the generated C, C++ and Python line by line (tests/test_golden.py
fails until they are regenerated).  Regenerate them with one command:

    make golden        # or: python tests/golden.py

The only volatile values of a render, the template's commit and its path in
.copier-answers.yml, are left out; everything else is byte for byte what
`copier copy` writes.
"""

from __future__ import annotations

import difflib
import shutil
import sys
import tempfile
from pathlib import Path

from conftest import EXAMPLES, copier_cli, snapshot_template, tree

GOLDEN = EXAMPLES / "golden"
REGENERATE = "make golden   (or: python tests/golden.py)"
# Lines of .copier-answers.yml that differ from render to render.
VOLATILE_ANSWERS = ("_commit:", "_src_path:")


def examples() -> list[str]:
    """The example specs, by name (examples/<name>.yaml)."""
    return sorted(path.stem for path in EXAMPLES.glob("*.yaml"))


def render(name: str, template: Path, dest: Path) -> dict[str, bytes]:
    """Render examples/<name>.yaml from the template snapshot into dest; its golden tree."""
    result = copier_cli(
        "copy",
        "-q",
        "--trust",
        "--defaults",
        "--vcs-ref",
        "HEAD",
        "--data-file",
        str(EXAMPLES / f"{name}.yaml"),
        str(template),
        str(dest),
    )
    if result.returncode != 0:
        raise RuntimeError(f"copier failed on examples/{name}.yaml:\n{result.stderr}")
    return golden_tree(dest)


def golden_tree(root: Path) -> dict[str, bytes]:
    """The files of a render as the golden copy holds them (no volatile answers, no caches)."""
    files = {rel: data for rel, data in tree(root).items() if "__pycache__" not in rel.split("/")}
    answers = files.get(".copier-answers.yml")
    if answers is not None:
        lines = answers.decode().splitlines(keepends=True)
        files[".copier-answers.yml"] = "".join(line for line in lines if not line.startswith(VOLATILE_ANSWERS)).encode()
    return files


def differences(
    expected: dict[str, bytes], actual: dict[str, bytes], where: str, max_files: int = 3, max_lines: int = 60
) -> str:
    """'' when equal; else the missing and extra files and the diff of the first differing ones."""
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    changed = sorted(rel for rel in set(expected) & set(actual) if expected[rel] != actual[rel])
    if not (missing or extra or changed):
        return ""
    out = [f"{where} differs from a fresh render; regenerate with: {REGENERATE}"]
    out += [f"  only in the golden copy: {rel}" for rel in missing]
    out += [f"  only in the fresh render: {rel}" for rel in extra]
    for rel in changed[:max_files]:
        diff = list(
            difflib.unified_diff(
                expected[rel].decode(errors="replace").splitlines(),
                actual[rel].decode(errors="replace").splitlines(),
                f"golden/{rel}",
                f"render/{rel}",
                lineterm="",
            )
        )
        out += diff[:max_lines] + (["  ..."] if len(diff) > max_lines else [])
    if len(changed) > max_files:
        out.append(f"  ... and {len(changed) - max_files} more changed files: {', '.join(changed[max_files:])}")
    return "\n".join(out)


def write(name: str, files: dict[str, bytes]) -> None:
    dest = GOLDEN / name
    shutil.rmtree(dest, ignore_errors=True)
    for rel, data in files.items():
        path = dest / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def main() -> int:
    """Regenerate every golden render from the template as it is in the working tree."""
    with tempfile.TemporaryDirectory() as tmp:
        template = snapshot_template(Path(tmp) / "template")
        names = examples()
        for name in names:
            write(name, render(name, template, Path(tmp) / "render" / name))
        for stale in sorted(p for p in GOLDEN.iterdir() if p.is_dir() and p.name not in names):
            shutil.rmtree(stale)
    print(f"wrote {', '.join(f'examples/golden/{n}/' for n in names)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
