# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The layout of this project: where the op package, its libraries and the artifacts live."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .._package import (
    BACKENDS,
    ISLAND_LIBRARY_NAME,
    LIBRARY_NAME,
    NAMESPACE,
    OP_PACKAGE_ARCH,
    PACKAGE_NAME,
)
from .sdk import ToolchainError

HOST_LIB_DIR = "libs/x86_64-linux-clang"
DSP_LIB_DIR = f"libs/hexagon-{OP_PACKAGE_ARCH}"
# The HTP op package (a project whose spec has `backends: [lpai, htp]`): its folder, and
# where its Makefile puts each library (x86_64 for the host, aarch64 Android for the CPU
# side on the device, build/hexagon-<arch>/ for the HTP itself).
HTP_DIR = "op_package/htp"
HTP_HOST_LIB_DIR = "build/x86_64-linux-clang"
HTP_AARCH64_LIB_DIR = "build/aarch64-android"
# The Hexagon library as pushed to and registered on the device: renamed, as ExecuTorch's
# example (examples/qualcomm/custom_op/custom_ops_1.py) does, so it neither shadows the
# aarch64 library of the same name in the workspace nor is skipped by the runtime, which
# registers a path once.
HTP_SKEL_NAME = LIBRARY_NAME.removesuffix(".so") + "_HTP.so"
# The folder on the device that ExecuTorch's adb helper pushes the program, the runner
# and the libraries to, and runs in.
DEVICE_WORKSPACE = f"/data/local/tmp/{NAMESPACE}"


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

    @property
    def htp_dir(self) -> Path:
        return self.root / HTP_DIR

    @property
    def has_htp(self) -> bool:
        """Whether this project has an HTP op package (spec key `backends`)."""
        return "htp" in BACKENDS and self.htp_dir.is_dir()

    @property
    def htp_host_lib(self) -> Path:
        """The HTP package built for x86_64 (`make htp_x86`): what the host compiles with."""
        return self.htp_dir / HTP_HOST_LIB_DIR / LIBRARY_NAME

    @property
    def htp_aarch64_lib(self) -> Path:
        return self.htp_dir / HTP_AARCH64_LIB_DIR / LIBRARY_NAME

    def htp_hexagon_lib(self, arch: str) -> Path:
        """The HTP package built for the Hexagon target `arch` (e.g. v79)."""
        return self.htp_dir / "build" / f"hexagon-{arch}" / LIBRARY_NAME

    def opdef_xml(self, backend: str = "lpai") -> Path:
        """The OpDef XML of the backend's op package (op_package/<package>/config/ for
        LPAI, op_package/htp/config/ for HTP)."""
        folder = (self.htp_dir if backend == "htp" else self.op_dir) / "config"
        configs = sorted(folder.glob("*.xml"))
        if not configs:
            raise ToolchainError(f"no OpDef XML in {folder}")
        if len(configs) > 1:
            raise ToolchainError(f"more than one OpDef XML in {folder}: " + ", ".join(p.name for p in configs))
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
