# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Where the tools are: the QNN and Hexagon SDKs, the signer's Python, ExecuTorch's
revision and build folders, the environment variables that name them.

An empty environment variable counts as unset (the tests set QNN_SDK_ROOT="" to stop
ExecuTorch from downloading an SDK).
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path

from .._package import (
    LPAI_HW_VERSION,
    LPAI_SDK_HEADER,
    SOC_MODEL,
)

# QNN SDK: 2.48 is the first release with the LPAI op package header and makefiles,
# 2.49 the first whose on-device (direct mode) path works with op packages.
MIN_SDK_BUILD = (2, 48)
MIN_SDK_DEVICE = (2, 49)
LPAI_HEADER = f"include/{LPAI_SDK_HEADER}"
LPAI_MAKEFILES = "share/QNN/OpPackageGenerator/makefiles/LPAI"
# The SDK headers op_package/htp builds against (from include/QNN/): QHPI, the HTP op
# interface its ops register through (QNN SDK 2.44 and later), and the op package interface.
HTP_HEADERS = ("include/QNN/HTP/core/qhpi.h", "include/QNN/QnnOpPackage.h")
MIN_SDK_HTP = (2, 44)
# Hexagon SDK
SIGNER = "tools/elfsigner/elfsigner.py"
HEXAGON_TOOLS = "tools/HEXAGON_Tools"
# elfsigner.py imports `imp`, which Python 3.12 removed.
SIGNER_MAX_PYTHON = (3, 12)
SIGNER_PYTHON_CANDIDATES = ("python3.11", "python3.10", "python3.9", "python3.8")

# Environment variables this project reads (besides the SDK roots).
SERIAL_ENV = "ANDROID_SERIAL"
BUILD_FOLDER_ENV = "EXECUTORCH_BUILD_FOLDER"  # e.g. executorch/build-android
DIRECT_BUILD_FOLDER_ENV = "EXECUTORCH_DIRECT_BUILD_FOLDER"  # e.g. executorch/build-direct
X86_BUILD_FOLDER_ENV = "EXECUTORCH_X86_BUILD_FOLDER"  # e.g. executorch/build-x86
SIGNER_PYTHON_ENV = "LPAI_SIGNER_PYTHON"

# Files of the ExecuTorch build folders the device and simulator paths need.
DIRECT_RUNNER = "examples/qualcomm/direct_executor_runner/qnn_executor_direct_runner"
DIRECT_STUB = "examples/qualcomm/direct_executor_runner/libqnn_executorch_stub.so"
X86_RUNNER = "examples/qualcomm/executor_runner/qnn_executor_runner"
# The same runner built for Android (in build-android): what an HTP program runs with on
# the device, as ExecuTorch's HTP custom op example runs it (SimpleADB, not direct mode).
HTP_RUNNER = X86_RUNNER
# What ExecuTorch's build.sh --build_direct_mode 0 leaves in <executorch>/build-direct
# (unsigned; sign_library.sh signs copies of them into the SDK, see below).
DIRECT_BUILD_OUTPUTS = (
    "backends/qualcomm/libqnn_executorch_backend.so",
    "backends/qualcomm/qnn_executorch/direct_mode/libqnn_executorch_skel.so",
)

# ExecuTorch: the one source revision this project is written against (its
# backends/qualcomm/export_utils.py, with `Device`, and examples/qualcomm/custom_op/
# custom_ops_lpai.py, which the LPAI custom op pull request added, were read at this
# commit).  The PyPI wheel (1.5.1) predates that pull request; every message that asks
# for a source build names this revision, and nothing else spells it.
EXECUTORCH_PR = "pytorch/executorch#22659"
EXECUTORCH_REVISION = "795e03ce4a420a0d8468440921d59abb4e92272f"
EXECUTORCH_SOURCE_HINT = (
    f"build ExecuTorch from source at revision {EXECUTORCH_REVISION[:12]} "
    f"(at or after the LPAI custom op pull request {EXECUTORCH_PR}) and install that build"
)

# Direct mode on the aDSP: ExecuTorch's SimpleADB (later: Device) pushes these six from
# $QNN_SDK_ROOT/lib/lpai-v<hw>/signed and refuses to run without them ("Missing the
# following libraries").  The folder is not shipped by the SDK: ExecuTorch's
# `backends/qualcomm/scripts/build.sh --build_direct_mode 0 --soc_model <SoC>` builds the
# first two into <executorch>/build-direct and ends with sign_library.sh --direct_mode,
# which signs all six into it.
DIRECT_MODE_LIBRARIES = (
    "libqnn_executorch_backend.so",
    "libqnn_executorch_skel.so",
    "libQnnLpai.so",
    "libQnnSystem.so",
    "libc++abi.so.1",
    "libc++.so.1",
)
EXECUTORCH_DIRECT_BUILD = f"backends/qualcomm/scripts/build.sh --build_direct_mode 0 --soc_model {SOC_MODEL}"


# Lowering on the host, read in ExecuTorch's post-PR source: the backend dlopens
# libQnnLpai.so by its bare name (so the SDK's host library folder must be on the loader
# path, LD_LIBRARY_PATH, as the SDK's bin/envsetup.sh sets it), and QnnConfig's SDK check
# loads libQnnHtp.so from that folder and aborts the whole Python process (an assert in
# C++, exit status 134) when it is missing.
HOST_SDK_LIB_DIR = "lib/x86_64-linux-clang"
HOST_SDK_LIBRARIES = ("libQnnHtp.so", "libQnnLpai.so")
LOADER_PATH_ENV = "LD_LIBRARY_PATH"
SDK_ENVSETUP = "bin/envsetup.sh"


def lpai_signed_dir(sdk: Path) -> Path:
    """$QNN_SDK_ROOT/lib/lpai-v<hw>/signed for this SoC: where SimpleADB takes the direct-mode runtime."""
    return sdk / "lib" / f"lpai-v{LPAI_HW_VERSION}" / "signed"


class ToolchainError(Exception):
    """A precondition or a tool failed; the message is one line, or one line per
    problem when several independent ones are named at once (`problems`)."""

    def __init__(self, *problems: str) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def qc_schema():
    """ExecuTorch's Qualcomm compile-spec schema (QnnExecuTorchOpPackageTarget, ...),
    imported on use: importing ExecuTorch takes seconds."""
    from executorch.backends.qualcomm.serialization import qc_schema as schema

    return schema


def env_value(name: str, environ: Mapping[str, str] | None = None) -> str | None:
    value = (os.environ if environ is None else environ).get(name, "")
    return value or None


def env_path(name: str, environ: Mapping[str, str] | None = None) -> Path | None:
    value = env_value(name, environ)
    return Path(value) if value else None


def which(program: str, environ: Mapping[str, str] | None = None) -> str | None:
    env = os.environ if environ is None else environ
    return shutil.which(program, path=env.get("PATH", ""))


# --------------------------------------------------------------------------- versions

_VERSION = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?")


def parse_version(text: str) -> tuple[int, ...] | None:
    """'2.48.0.250101' -> (2, 48, 0); None when there is no dotted version in the text."""
    match = _VERSION.search(text)
    if not match:
        return None
    return tuple(int(g) for g in match.groups() if g is not None)


def format_version(version: tuple[int, ...]) -> str:
    return ".".join(str(v) for v in version)


def qnn_sdk_version(root: Path) -> tuple[tuple[int, ...] | None, str]:
    """The SDK version and where it was read: `sdk.yaml` (`version: 2.48.0.x`), else the folder name."""
    sdk_yaml = root / "sdk.yaml"
    if sdk_yaml.is_file():
        for line in sdk_yaml.read_text(errors="replace").splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "version" and value.strip():
                return parse_version(value), str(sdk_yaml)
    match = re.match(r"^(?:qnn-|qairt-)?v?(\d+\.\d+(?:\.\d+)?)", root.resolve().name)
    if match:
        return parse_version(match.group(1)), f"folder name {root.resolve().name!r}"
    return None, f"no sdk.yaml in {root} and no version in its folder name"


def require_qnn_sdk(environ: Mapping[str, str] | None = None, minimum: tuple[int, int] = MIN_SDK_BUILD) -> Path:
    root = env_path("QNN_SDK_ROOT", environ)
    if root is None:
        raise ToolchainError(
            "QNN_SDK_ROOT is not set: install the Qualcomm AI Engine Direct SDK "
            f">= {format_version(minimum)} and export QNN_SDK_ROOT=<sdk>"
        )
    if not root.is_dir():
        raise ToolchainError(f"QNN_SDK_ROOT={root} is not a directory")
    version, source = qnn_sdk_version(root)
    if version is None:
        raise ToolchainError(f"cannot tell the QNN SDK version ({source})")
    if version[:2] < minimum:
        raise ToolchainError(
            f"QNN SDK {format_version(version)} is too old: this step needs "
            f">= {format_version(minimum)} (read from {source})"
        )
    return root


def loader_path_has(folder: Path, environ: Mapping[str, str] | None = None) -> bool:
    """Whether LD_LIBRARY_PATH names `folder` (resolved: a symlinked path counts)."""
    entries = [e for e in (env_value(LOADER_PATH_ENV, environ) or "").split(os.pathsep) if e]
    want = os.path.realpath(folder)
    return any(os.path.realpath(e) == want for e in entries)


def host_runtime_problems(sdk: Path, environ: Mapping[str, str] | None = None, lowering: bool = True) -> list[str]:
    """What lowering on this machine lacks from the SDK: its host libraries, the loader
    path (`lowering` False: only what QnnConfig's SDK check loads, for `run`)."""
    lib_dir = sdk / HOST_SDK_LIB_DIR
    names = HOST_SDK_LIBRARIES if lowering else HOST_SDK_LIBRARIES[:1]
    problems = [f"{lib_dir / name} is missing" for name in names if not (lib_dir / name).is_file()]
    if lowering and not loader_path_has(lib_dir, environ):
        problems.append(f"{LOADER_PATH_ENV} does not hold {lib_dir}")
    return problems


def require_host_runtime(sdk: Path, environ: Mapping[str, str] | None = None, lowering: bool = True) -> None:
    """One line, before ExecuTorch is asked to lower, instead of its abort (exit 134) or a
    failed dlopen of libQnnLpai.so deep inside lowering."""
    problems = host_runtime_problems(sdk, environ, lowering)
    if problems:
        raise ToolchainError(
            f"{'; '.join(problems)}: lowering loads the SDK's host libraries from there "
            f"(ExecuTorch aborts the process without libQnnHtp.so); use a complete SDK and run "
            f"`source {sdk / SDK_ENVSETUP}` (or export {LOADER_PATH_ENV}={sdk / HOST_SDK_LIB_DIR}:${LOADER_PATH_ENV})"
        )


def require_hexagon_sdk(environ: Mapping[str, str] | None = None) -> Path:
    root = env_path("HEXAGON_SDK_ROOT", environ)
    if root is None:
        raise ToolchainError("HEXAGON_SDK_ROOT is not set: install the Hexagon SDK and export HEXAGON_SDK_ROOT=<sdk>")
    if not root.is_dir():
        raise ToolchainError(f"HEXAGON_SDK_ROOT={root} is not a directory")
    return root


def hexagon_tools_root(environ: Mapping[str, str] | None = None) -> Path:
    """$HEXAGON_SDK_ROOT/tools/HEXAGON_Tools/$HEXAGON_TOOLS_VERSION (ExecuTorch calls it HEXAGON_TOOLS_ROOT)."""
    root = require_hexagon_sdk(environ)
    version = env_value("HEXAGON_TOOLS_VERSION", environ)
    if version is None:
        raise ToolchainError(
            "HEXAGON_TOOLS_VERSION is not set: export the version folder under "
            f"{root / HEXAGON_TOOLS}, e.g. HEXAGON_TOOLS_VERSION=19.0.04"
        )
    tools = root / HEXAGON_TOOLS / version
    if not tools.is_dir():
        raise ToolchainError(f"HEXAGON_TOOLS_VERSION={version}: {tools} does not exist")
    return tools


def signer_python(environ: Mapping[str, str] | None = None, current: tuple[int, int] | None = None) -> str | None:
    """An interpreter the signer runs under (Python < 3.12), or None."""
    explicit = env_value(SIGNER_PYTHON_ENV, environ)
    if explicit:
        return explicit
    current = current or sys.version_info[:2]
    if current < SIGNER_MAX_PYTHON:
        return sys.executable
    for name in SIGNER_PYTHON_CANDIDATES:
        found = which(name, environ)
        if found:
            return found
    return None
