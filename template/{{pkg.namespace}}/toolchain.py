# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Where the tools are and which commands this project runs with them.

Everything here is plain Python (no torch, no ExecuTorch import) so that `doctor`,
`build` and `sign` start instantly.  Every path is handled as a `Path` and every
command as an argument list, never a shell string: paths with spaces work.

An empty environment variable counts as unset (the tests set QNN_SDK_ROOT="" to stop
ExecuTorch from downloading an SDK).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ._package import (
    ISLAND_LIBRARY_NAME,
    LIBRARY_NAME,
    LPAI_HW_VERSION,
    LPAI_SDK_HEADER,
    NAMESPACE,
    OP_PACKAGE_ARCH,
    PACKAGE_NAME,
    SOC_MODEL,
)

# QNN SDK: 2.48 is the first release with the LPAI op package header and makefiles,
# 2.49 the first whose on-device (direct mode) path works with op packages.
MIN_SDK_BUILD = (2, 48)
MIN_SDK_DEVICE = (2, 49)
LPAI_HEADER = f"include/{LPAI_SDK_HEADER}"
LPAI_MAKEFILES = "share/QNN/OpPackageGenerator/makefiles/LPAI"
HOST_LIB_DIR = "libs/x86_64-linux-clang"
DSP_LIB_DIR = f"libs/hexagon-{OP_PACKAGE_ARCH}"
# Hexagon SDK
SIGNER = "tools/elfsigner/elfsigner.py"
HEXAGON_TOOLS = "tools/HEXAGON_Tools"
# elfsigner.py imports `imp`, which Python 3.12 removed.
SIGNER_MAX_PYTHON = (3, 12)
SIGNER_PYTHON_CANDIDATES = ("python3.11", "python3.10", "python3.9", "python3.8")

# Targets of op_package/<package>/Makefile.
MAKE_HOST_TARGET = "lpai_x86"
MAKE_DSP_TARGET = "lpai_dsp"  # also known as lpai_hexagon_<arch>
# The LPAI headers include <cstdint>: the host build needs a C++ standard library.
MAKE_HOST_VARIABLES = ("CC=gcc", "CXX=g++")

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


def lpai_signed_dir(sdk: Path) -> Path:
    """$QNN_SDK_ROOT/lib/lpai-v<hw>/signed for this SoC: where SimpleADB takes the direct-mode runtime."""
    return sdk / "lib" / f"lpai-v{LPAI_HW_VERSION}" / "signed"


SIGNED_MANIFEST = "SIGNED.json"


class ToolchainError(Exception):
    """A precondition or a tool failed; the message is one line."""


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
    raise ToolchainError(
        f"{here} is not inside a {NAMESPACE} project (no op_package/{PACKAGE_NAME}); "
        "run from the project folder or pass --project"
    )


# --------------------------------------------------------------------------- commands


@dataclass
class Command:
    argv: list[str]
    cwd: Path
    env: dict[str, str] = field(default_factory=dict)  # the variables this command relies on

    def describe(self) -> str:
        shown = " ".join(f"{k}={shlex.quote(v)}" for k, v in self.env.items())
        return f"(cd {shlex.quote(str(self.cwd))} && {shown + ' ' if shown else ''}{shlex.join(self.argv)})"


def _short(output: str) -> str:
    lines = [line.strip() for line in (output or "").splitlines() if line.strip()]
    return lines[-1] if lines else "no output"


def run_command(cmd: Command, *, stdin_text: str | None = None, what: str = "") -> subprocess.CompletedProcess:
    """Print and run one command; its own exit status decides, its last output line is the reason."""
    print(f"$ {cmd.describe()}", flush=True)
    env = {**os.environ, **cmd.env}
    try:
        proc = subprocess.run(
            cmd.argv,
            cwd=cmd.cwd,
            env=env,
            input=stdin_text,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
    except FileNotFoundError:
        raise ToolchainError(f"{cmd.argv[0]}: command not found") from None
    if proc.stdout:
        print(proc.stdout, end="" if proc.stdout.endswith("\n") else "\n", flush=True)
    if proc.returncode != 0:
        raise ToolchainError(f"{what or cmd.argv[0]} failed (exit {proc.returncode}): {_short(proc.stdout)}")
    return proc


def build_commands(project: Project, host_only: bool, environ: Mapping[str, str] | None = None) -> list[Command]:
    """make for the host library, and unless host_only the DSP + island libraries."""
    sdk = require_qnn_sdk(environ, MIN_SDK_BUILD)
    if not (sdk / LPAI_HEADER).is_file():
        raise ToolchainError(f"{sdk / LPAI_HEADER} is missing: this SDK has no LPAI op package support (need >= 2.48)")
    if not (sdk / LPAI_MAKEFILES).is_dir():
        raise ToolchainError(f"{sdk / LPAI_MAKEFILES} is missing: this SDK has no LPAI op package makefiles")
    if not project.op_dir.is_dir():
        raise ToolchainError(f"{project.op_dir} does not exist")
    commands = [Command(["make", MAKE_HOST_TARGET, *MAKE_HOST_VARIABLES], project.op_dir, {"QNN_SDK_ROOT": str(sdk)})]
    if not host_only:
        hexagon = require_hexagon_sdk(environ)
        tools = hexagon_tools_root(environ)
        # The DSP build uses hexagon-clang from the Hexagon SDK: no CC/CXX override here.
        commands.append(
            Command(
                ["make", MAKE_DSP_TARGET],
                project.op_dir,
                {
                    "QNN_SDK_ROOT": str(sdk),
                    "HEXAGON_SDK_ROOT": str(hexagon),
                    "HEXAGON_TOOLS_VERSION": tools.name,
                },
            )
        )
    return commands


def build(project: Project, host_only: bool, environ: Mapping[str, str] | None = None) -> list[Path]:
    commands = build_commands(project, host_only, environ)
    outputs: list[list[Path]] = [[project.host_lib]] + ([] if host_only else [list(project.dsp_libs)])
    built = []
    for cmd, expected in zip(commands, outputs):
        for path in expected:
            # A library left over from an earlier build must not pass for a fresh one.
            path.unlink(missing_ok=True)
        run_command(cmd, what=f"make {cmd.argv[1]}")
        missing = [p for p in expected if not p.is_file()]
        if missing:
            raise ToolchainError(
                f"make {cmd.argv[1]} succeeded but did not produce " + ", ".join(str(p) for p in missing)
            )
        built.extend(expected)
    return built


# --------------------------------------------------------------------------- signing


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sign_commands(project: Project, out_dir: Path, environ: Mapping[str, str] | None = None) -> list[Command]:
    hexagon = require_hexagon_sdk(environ)
    signer = hexagon / SIGNER
    if not signer.is_file():
        raise ToolchainError(f"signer not found: {signer}")
    python = signer_python(environ)
    if python is None:
        raise ToolchainError(
            "the signer needs Python < 3.12 (elfsigner.py imports `imp`): install python3.11 "
            f"or set {SIGNER_PYTHON_ENV}=<python3.11>"
        )
    missing = [str(p) for p in project.dsp_libs if not p.is_file()]
    if missing:
        raise ToolchainError("nothing to sign, missing " + ", ".join(missing) + f": run `python -m {NAMESPACE} build`")
    return [
        Command(
            [python, str(signer), "-i", str(lib), "-o", str(out_dir)],
            out_dir.parent,
            {"HEXAGON_SDK_ROOT": str(hexagon)},
        )
        for lib in project.dsp_libs
    ]


def sign(project: Project, environ: Mapping[str, str] | None = None) -> list[Path]:
    """Sign both DSP libraries into build/signed/hexagon-<arch>, all or nothing.

    The signer writes into a staging folder; only when every library came out signed
    does the staging folder replace the deployed one (a rename).  A failure leaves the
    previous complete set untouched, and `run` refuses a set whose manifest does not
    match the current DSP libraries, so a stale library is never deployed.
    """
    dest = project.signed_dir
    sign_commands(project, dest, environ)  # every precondition, before anything is written
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".signing-", dir=dest.parent))
    out = staging / "out"
    out.mkdir()
    (staging / "work").mkdir()
    try:
        for cmd in sign_commands(project, out, environ):
            # The signer may leave files in its working folder: give it one of its own.
            cmd.cwd = staging / "work"
            # The signer asks for confirmation: answer on stdin instead of piping `yes`,
            # so that the signer's own exit status is the one checked.
            run_command(cmd, stdin_text="y\n" * 32, what=f"signing {Path(cmd.argv[3]).name}")
        manifest = {}
        for lib in project.dsp_libs:
            signed = out / lib.name
            if not signed.is_file() or signed.stat().st_size == 0:
                raise ToolchainError(f"the signer exited 0 but wrote no {signed.name}: nothing was signed")
            if signed.read_bytes() == lib.read_bytes():
                raise ToolchainError(f"the signer exited 0 but {signed.name} is an unsigned copy")
            manifest[lib.name] = {"source_sha256": _sha256(lib), "signed_sha256": _sha256(signed)}
        leftovers = sorted(p.name for p in out.iterdir() if p.name not in manifest)
        for name in leftovers:
            (out / name).unlink()
        (out / SIGNED_MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
        old = staging / "previous"
        if dest.exists():
            os.rename(dest, old)
        try:
            os.rename(out, dest)
        except OSError:
            if old.exists():
                os.rename(old, dest)
            raise
        return list(project.signed_libs)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def check_signed(project: Project) -> list[Path]:
    """The signed libraries, if they are complete and signed from the current DSP libraries."""
    manifest_path = project.signed_dir / SIGNED_MANIFEST
    if not manifest_path.is_file():
        raise ToolchainError(f"no signed libraries in {project.signed_dir}: run `python -m {NAMESPACE} sign`")
    manifest = json.loads(manifest_path.read_text())
    for lib, signed in zip(project.dsp_libs, project.signed_libs):
        entry = manifest.get(lib.name)
        if entry is None or not signed.is_file() or _sha256(signed) != entry["signed_sha256"]:
            raise ToolchainError(f"{signed} is missing or altered: run `python -m {NAMESPACE} sign`")
        if not lib.is_file() or _sha256(lib) != entry["source_sha256"]:
            raise ToolchainError(
                f"{signed.name} was signed from another build of {lib}: stale, run `python -m {NAMESPACE} sign`"
            )
    return list(project.signed_libs)
