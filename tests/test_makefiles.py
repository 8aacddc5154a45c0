"""The rendered makefiles, read as text: every build folder survives an update that
removes a header.

A compile rule that writes a dependency file (-MMD, -MD) must also write a phony rule
for each header it names (-MP): otherwise the next build of a folder whose .d names a
header an update deleted stops at "No rule to make target 'x.h'". And a makefile that
reads .d files must also have the catch-all `%.h: ;`, for the .d files a build of an
older version (before -MP) left behind. tests/test_update.py proves both with a real
update that drops a header; this check makes sure a new makefile or a new compile rule
cannot forget them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import ROOT

TEMPLATE = ROOT / "template"


def makefiles() -> list[Path]:
    found = [p for p in TEMPLATE.rglob("*") if p.is_file() and re.fullmatch(r"Makefile|.*\.mk(\.jinja)?", p.name)]
    return sorted(found)


def logical_lines(text: str) -> list[str]:
    """The makefile's lines with backslash continuations joined."""
    return re.sub(r"\\\n", " ", text).splitlines()


def test_the_scan_finds_the_op_package_makefiles():
    names = {p.name for p in makefiles()}
    assert {"Makefile", "host_emulator.mk", "hexagon_test.mk", "hexagon.mk", "lpai_x86.mk"} <= names, names


@pytest.mark.parametrize("path", makefiles(), ids=lambda p: p.relative_to(TEMPLATE).as_posix())
def test_every_dependency_file_names_its_headers_as_phony_targets(path):
    lines = logical_lines(path.read_text())
    writes_deps = [line for line in lines if re.search(r"\s-M{1,2}D\b", line)]
    missing = [line.strip() for line in writes_deps if not re.search(r"\s-MP\b", line)]
    assert not missing, f"{path}: -MMD without -MP (a header an update removes stops the next build):\n" + "\n".join(
        missing
    )
    reads_deps = any(re.match(r"-?include\b.*\.d\b", line) for line in lines)
    if reads_deps:
        assert any(re.fullmatch(r"%\.h\s*:\s*;\s*", line) for line in lines), (
            f"{path} reads .d files but has no `%.h: ;` rule: a .d of an older build (no -MP) naming a removed "
            "header stops the next build"
        )
    assert reads_deps or not writes_deps, f"{path} writes .d files and never reads them"


def test_the_check_finds_a_rule_without_mp(tmp_path, monkeypatch):
    """The scan can fail: a compile rule with -MMD alone, and a reader of .d files without
    the catch-all, are both found."""
    bad = tmp_path / "bad.mk"
    bad.write_text("obj/%.o: %.c\n\t$(CC) $(CFLAGS) \\\n\t  -MMD -c $< -o $@\n-include $(OBJS:.o=.d)\n")
    with pytest.raises(AssertionError, match="-MMD without -MP"):
        test_every_dependency_file_names_its_headers_as_phony_targets(bad)
    bad.write_text("obj/%.o: %.c\n\t$(CC) -MMD -MP -c $< -o $@\n-include $(OBJS:.o=.d)\n")
    with pytest.raises(AssertionError, match="no `%.h: ;` rule"):
        test_every_dependency_file_names_its_headers_as_phony_targets(bad)
