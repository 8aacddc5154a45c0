# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The layout of this project: where the op package, its libraries and the artifacts live."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .._package import (
    ISLAND_LIBRARY_NAME,
    LIBRARY_NAME,
    NAMESPACE,
    OP_PACKAGE_ARCH,
    PACKAGE_NAME,
)
from .sdk import ToolchainError

HOST_LIB_DIR = "libs/x86_64-linux-clang"
DSP_LIB_DIR = f"libs/hexagon-{OP_PACKAGE_ARCH}"


# --------------------------------------------------------------------------- the project


@dataclass(frozen=True)
class Project:
    """The folders of a generated project, from its root."""

    root: Path

    @property
    def op_dir(self) -> Path:
        return self.root / "op_package" / PACKAGE_NAME

    @property
    def host_lib(self) -> Path:
        return self.op_dir / HOST_LIB_DIR / LIBRARY_NAME

    @property
    def dsp_libs(self) -> tuple[Path, Path]:
        return (self.op_dir / DSP_LIB_DIR / LIBRARY_NAME, self.op_dir / DSP_LIB_DIR / ISLAND_LIBRARY_NAME)

    @property
    def signed_dir(self) -> Path:
        # A folder of the project, never the SDK tree: the island library's fixed name
        # would collide with another package's there.
        return self.root / "build" / "signed" / f"hexagon-{OP_PACKAGE_ARCH}"

    @property
    def signed_libs(self) -> tuple[Path, Path]:
        return tuple(self.signed_dir / lib.name for lib in self.dsp_libs)  # type: ignore[return-value]

    @property
    def artifacts(self) -> Path:
        return self.root / "build" / "artifacts"

    def opdef_xml(self) -> Path:
        configs = sorted((self.op_dir / "config").glob("*.xml"))
        if not configs:
            raise ToolchainError(f"no OpDef XML in {self.op_dir / 'config'}")
        if len(configs) > 1:
            raise ToolchainError(
                f"more than one OpDef XML in {self.op_dir / 'config'}: " + ", ".join(p.name for p in configs)
            )
        return configs[0]


def find_project(start: Path | str | None = None) -> Project:
    """The project whose op_package/<package> folder is at or above `start` (default: cwd)."""
    here = Path(start if start is not None else os.getcwd()).resolve()
    for candidate in (here, *here.parents):
        if (candidate / "op_package" / PACKAGE_NAME).is_dir():
            return Project(candidate)
    own = Path(__file__).resolve().parents[2]  # the project this package is in (pip install -e .)
    where = str(own) if (own / "op_package" / PACKAGE_NAME).is_dir() else "the project folder"
    raise ToolchainError(
        f"{here} is not inside a {NAMESPACE} project (no op_package/{PACKAGE_NAME} here or above): "
        f"run it in {where} or a folder below it, or pass --project"
    )
