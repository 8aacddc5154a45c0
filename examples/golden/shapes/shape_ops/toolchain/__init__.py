# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Where the tools are and which commands this project runs with them.

One module per concern: sdk.py (the SDKs, ExecuTorch and the environment variables
that name them), project.py (this project's layout), build.py (make, and running any
command), sign.py (the Hexagon signer).  This module is their public API.

Everything here is plain Python (no torch, no ExecuTorch import) so that `doctor`,
`build` and `sign` start instantly.  Every path is handled as a `Path` and every
command as an argument list, never a shell string: paths with spaces work.

An empty environment variable counts as unset (the tests set QNN_SDK_ROOT="" to stop
ExecuTorch from downloading an SDK).
"""

from .build import (
    MAKE_DSP_TARGET,
    MAKE_HOST_TARGET,
    MAKE_HOST_VARIABLES,
    Command,
    build,
    build_commands,
    run_command,
)
from .project import (
    DSP_LIB_DIR,
    HOST_LIB_DIR,
    Project,
    find_project,
)
from .sdk import (
    BUILD_FOLDER_ENV,
    DIRECT_BUILD_FOLDER_ENV,
    DIRECT_BUILD_OUTPUTS,
    DIRECT_MODE_LIBRARIES,
    DIRECT_RUNNER,
    DIRECT_STUB,
    EXECUTORCH_DIRECT_BUILD,
    EXECUTORCH_PR,
    EXECUTORCH_REVISION,
    EXECUTORCH_SOURCE_HINT,
    HEXAGON_TOOLS,
    LPAI_HEADER,
    LPAI_MAKEFILES,
    MIN_SDK_BUILD,
    MIN_SDK_DEVICE,
    SERIAL_ENV,
    SIGNER,
    SIGNER_MAX_PYTHON,
    SIGNER_PYTHON_CANDIDATES,
    SIGNER_PYTHON_ENV,
    X86_BUILD_FOLDER_ENV,
    X86_RUNNER,
    ToolchainError,
    env_path,
    env_value,
    format_version,
    hexagon_tools_root,
    lpai_signed_dir,
    parse_version,
    qc_schema,
    qnn_sdk_version,
    require_hexagon_sdk,
    require_qnn_sdk,
    signer_python,
    which,
)
from .sign import (
    SIGNED_MANIFEST,
    check_signed,
    sign,
    sign_commands,
)

__all__ = [
    "MIN_SDK_BUILD",
    "MIN_SDK_DEVICE",
    "LPAI_HEADER",
    "LPAI_MAKEFILES",
    "SIGNER",
    "HEXAGON_TOOLS",
    "SIGNER_MAX_PYTHON",
    "SIGNER_PYTHON_CANDIDATES",
    "SERIAL_ENV",
    "BUILD_FOLDER_ENV",
    "DIRECT_BUILD_FOLDER_ENV",
    "X86_BUILD_FOLDER_ENV",
    "SIGNER_PYTHON_ENV",
    "DIRECT_RUNNER",
    "DIRECT_STUB",
    "X86_RUNNER",
    "DIRECT_BUILD_OUTPUTS",
    "EXECUTORCH_PR",
    "EXECUTORCH_REVISION",
    "EXECUTORCH_SOURCE_HINT",
    "DIRECT_MODE_LIBRARIES",
    "EXECUTORCH_DIRECT_BUILD",
    "lpai_signed_dir",
    "ToolchainError",
    "qc_schema",
    "env_value",
    "env_path",
    "which",
    "parse_version",
    "format_version",
    "qnn_sdk_version",
    "require_qnn_sdk",
    "require_hexagon_sdk",
    "hexagon_tools_root",
    "signer_python",
    "HOST_LIB_DIR",
    "DSP_LIB_DIR",
    "Project",
    "find_project",
    "MAKE_HOST_TARGET",
    "MAKE_DSP_TARGET",
    "MAKE_HOST_VARIABLES",
    "Command",
    "run_command",
    "build_commands",
    "build",
    "SIGNED_MANIFEST",
    "sign_commands",
    "sign",
    "check_signed",
]
