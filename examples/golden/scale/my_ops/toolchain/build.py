# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Building the op package with make, and running any tool as an argument list."""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .._package import SOC_MODEL
from .project import Project
from .sdk import (
    HTP_HEADERS,
    LPAI_HEADER,
    LPAI_MAKEFILES,
    MIN_SDK_BUILD,
    MIN_SDK_HTP,
    ToolchainError,
    env_path,
    hexagon_tools_root,
    qc_schema,
    require_hexagon_sdk,
    require_qnn_sdk,
)

# Targets of op_package/<package>/Makefile.
MAKE_HOST_TARGET = "lpai_x86"
MAKE_DSP_TARGET = "lpai_dsp"  # also known as lpai_hexagon_<arch>
# The LPAI headers include <cstdint>: the host build needs a C++ standard library.
MAKE_HOST_VARIABLES = ("CC=gcc", "CXX=g++")
# Targets of op_package/htp/Makefile (and htp_v<NN> for the SoC's HTP).
MAKE_HTP_HOST_TARGET = "htp_x86"
MAKE_HTP_AARCH64_TARGET = "htp_aarch64"


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


# --------------------------------------------------------------------------- HTP


def soc_htp_arch(soc_model: str = SOC_MODEL, schema=None) -> str:
    """The Hexagon version of the SoC's HTP (`v81` for SM8850), from ExecuTorch's own SoC
    table (qc_schema._soc_info_table): the arch `build --backend htp` builds the skel for."""
    from .._package import HTP_ARCHS  # a project with op_package/htp/ only

    schema = schema or qc_schema()
    chipset = getattr(schema.QcomChipset, soc_model, None)
    info = schema._soc_info_table.get(chipset) if chipset is not None else None
    if info is None or getattr(info, "htp_info", None) is None:
        raise ToolchainError(f"soc_model {soc_model}: the installed ExecuTorch knows no HTP for this SoC")
    arch = f"v{int(info.htp_info.htp_arch)}"
    if arch not in HTP_ARCHS:
        raise ToolchainError(
            f"soc_model {soc_model}: its HTP is {arch}, which op_package/htp does not build ({', '.join(HTP_ARCHS)})"
        )
    return arch


def require_ndk(environ: Mapping[str, str] | None = None) -> Path:
    root = env_path("ANDROID_NDK_ROOT", environ)
    if root is None or not root.is_dir():
        shown = "is not set" if root is None else f"={root} is not a folder"
        raise ToolchainError(
            f"ANDROID_NDK_ROOT {shown}: the HTP package's aarch64 Android library needs the Android NDK (r25 or later)"
        )
    return root


def htp_build_commands(
    project: Project, host_only: bool, environ: Mapping[str, str] | None = None, arch: str | None = None
) -> list[Command]:
    """make in op_package/htp: the x86_64 library (what the host compiles the graph with),
    and unless host_only the skel for the SoC's HTP (htp_v<NN>) and the aarch64 Android
    library, as ExecuTorch's HTP custom op example registers them."""
    sdk = require_qnn_sdk(environ, MIN_SDK_HTP)
    if not (sdk / HTP_HEADERS[0]).is_file():
        raise ToolchainError(f"{sdk / HTP_HEADERS[0]} is missing: the HTP package's ops are QHPI's (QNN SDK >= 2.44)")
    if not project.htp_dir.is_dir():
        raise ToolchainError(f"{project.htp_dir} does not exist")
    env = {"QNN_SDK_ROOT": str(sdk)}
    commands = [Command(["make", MAKE_HTP_HOST_TARGET], project.htp_dir, env)]
    if not host_only:
        arch = arch or soc_htp_arch()
        hexagon = require_hexagon_sdk(environ)
        tools = hexagon_tools_root(environ)
        ndk = require_ndk(environ)
        hexagon_env = {**env, "HEXAGON_SDK_ROOT": str(hexagon), "HEXAGON_TOOLS_VERSION": tools.name}
        commands.append(Command(["make", f"htp_{arch}"], project.htp_dir, hexagon_env))
        commands.append(
            Command(["make", MAKE_HTP_AARCH64_TARGET], project.htp_dir, {**env, "ANDROID_NDK_ROOT": str(ndk)})
        )
    return commands


def build_htp(project: Project, host_only: bool, environ: Mapping[str, str] | None = None) -> list[Path]:
    arch = None if host_only else soc_htp_arch()
    commands = htp_build_commands(project, host_only, environ, arch)
    outputs = [project.htp_host_lib]
    if not host_only:
        outputs += [project.htp_hexagon_lib(arch), project.htp_aarch64_lib]
    for path in outputs:
        # A library left over from an earlier build must not pass for a fresh one.
        path.unlink(missing_ok=True)
    for cmd, expected in zip(commands, outputs):
        run_command(cmd, what=f"make {cmd.argv[1]}")
        if not expected.is_file():
            raise ToolchainError(f"make {cmd.argv[1]} succeeded but did not produce {expected}")
    return outputs
