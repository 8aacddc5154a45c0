# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Registration of the op package with ExecuTorch's Qualcomm backend: which
(target, platform, library) each op is registered for, and the check that the installed
ExecuTorch can register it at all.

Registration for LPAI:
- (LPAI, X86_64, absolute path of the host library), always: it compiles the graph on
  the host and is what the x86_64 simulator runs;
- (LPAI, HEXAGON, bare library name), for the device: in direct mode the delegate runs
  on the aDSP and resolves the library by name through ADSP_LIBRARY_PATH.
ExecuTorch 1.5.1 (PyPI) has neither the LPAI target nor the HEXAGON platform.

Registration for HTP (a project with op_package/htp/), as ExecuTorch's own example
(examples/qualcomm/custom_op/custom_ops_1.py) registers its HTP op package:
- for the device, (HTP, AARCH64_ANDROID, <workspace>/libQnn<Package>_HTP.so), the
  Hexagon library renamed, and (CPU, AARCH64_ANDROID, <workspace>/libQnn<Package>.so),
  the aarch64 Android library;
- (CPU, X86_64, absolute path of build/x86_64-linux-clang/libQnn<Package>.so), always:
  the host compiles the graph with it (CPU, not HTP: the x86_64 build is the HTP
  package's CPU implementation).
The runtime registers only the infos of its own platform; 1.5.1 has both targets.
"""

from __future__ import annotations

from . import op_package_xml
from ._package import BACKENDS, INTERFACE_PROVIDER, LIBRARY_NAME, NAMESPACE, PACKAGE_NAME, XML_BACKENDS
from .ops import OPS
from .toolchain import (
    DEVICE_WORKSPACE,
    EXECUTORCH_SOURCE_HINT,
    HTP_SKEL_NAME,
    Project,
    ToolchainError,
    qc_schema,
)

# What each backend registers its op package with: (target, platform) enum member names,
# on the host and, for the device, in addition.
REGISTERED = {
    "lpai": {"host": (("LPAI", "X86_64"),), "device": (("LPAI", "HEXAGON"),)},
    "htp": {"host": (("CPU", "X86_64"),), "device": (("HTP", "AARCH64_ANDROID"), ("CPU", "AARCH64_ANDROID"))},
}


def require_backend(project: Project | None, backend: str) -> None:
    """Fail with one line unless this project has the op package of `backend`."""
    if backend not in BACKENDS:
        raise ToolchainError(
            f"--backend {backend}: this project has no {backend.upper()} op package (its spec's backends: "
            f"{', '.join(BACKENDS)}); add {backend} to `backends` in your spec and run "
            f"`python -m {NAMESPACE} update --spec <your spec>`"
        )
    if backend == "htp" and project is not None and not project.htp_dir.is_dir():
        raise ToolchainError(f"--backend htp: {project.htp_dir} is missing")


def require_op_package_support(for_device: bool, schema=None, backend: str = "lpai") -> None:
    """Fail with one line unless the installed ExecuTorch can register the backend's op package."""
    schema = schema or qc_schema()
    kinds = REGISTERED[backend]["host"] + (REGISTERED[backend]["device"] if for_device else ())
    missing = []
    for target, platform in kinds:
        for enum, member in (("Target", target), ("Platform", platform)):
            name = f"QnnExecuTorchOpPackage{enum}.{member}"
            if not hasattr(getattr(schema, f"QnnExecuTorchOpPackage{enum}"), member) and name not in missing:
                missing.append(name)
    if missing:
        raise ToolchainError(
            f"the installed ExecuTorch ({_executorch_version()}) lacks {' and '.join(missing)}: {EXECUTORCH_SOURCE_HINT}"
        )


def _executorch_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"executorch {version('executorch')}"
    except PackageNotFoundError:
        return "executorch, version unknown"


def registrations(project: Project, for_device: bool, backend: str = "lpai") -> list[tuple[str, str, str]]:
    """(target, platform, library) per implementation, by enum member name (REGISTERED):
    the host's, then the device's."""
    libraries = {
        ("LPAI", "X86_64"): str(project.host_lib.resolve()),
        ("LPAI", "HEXAGON"): LIBRARY_NAME,
        ("CPU", "X86_64"): str(project.htp_host_lib.resolve()),
        ("HTP", "AARCH64_ANDROID"): f"{DEVICE_WORKSPACE}/{HTP_SKEL_NAME}",
        ("CPU", "AARCH64_ANDROID"): f"{DEVICE_WORKSPACE}/{LIBRARY_NAME}",
    }
    kinds = REGISTERED[backend]["host"] + (REGISTERED[backend]["device"] if for_device else ())
    return [(target, platform, libraries[target, platform]) for target, platform in kinds]


def op_package_info(op, schema, target: str, platform: str, path: str):
    """The QnnExecuTorchOpPackageInfo of one op for one (target, platform, library).

    ExecuTorch's partitioner finds a node's builder by `custom_op_name`, which must be
    the node target's name: str() of the functional overload (`<ns>.<op>.default`);
    tests/test_executorch_builder.py runs ExecuTorch's builder with these infos."""
    return schema.QnnExecuTorchOpPackageInfo(
        op_package_name=PACKAGE_NAME,
        op_package_path=path,
        interface_provider=INTERFACE_PROVIDER,
        target=getattr(schema.QnnExecuTorchOpPackageTarget, target),
        custom_op_name=str(op.default),
        qnn_op_type_name=op.qnn_type,
        platform=getattr(schema.QnnExecuTorchOpPackagePlatform, platform),
    )


def opdefs(project: Project, backend: str = "lpai") -> dict[str, op_package_xml.OpDef]:
    """The backend's op package's OpDef of each op, by QNN type: its XML read and checked
    against the ops this package registers (one line naming what does not match)."""
    try:
        collection = op_package_xml.parse(project.opdef_xml(backend))
        op_package_xml.check_matches(
            collection,
            PACKAGE_NAME,
            {op.qnn_type: (len(op.inputs), len(op.outputs)) for op in OPS},
            XML_BACKENDS[backend],
        )
    except op_package_xml.OpDefError as exc:
        raise ToolchainError(str(exc)) from None
    return {opdef.name: opdef for opdef in collection.ops}


def op_package_options(project: Project, for_device: bool, schema=None, backend: str = "lpai"):
    """QnnExecuTorchOpPackageOptions for build_executorch_binary(op_package_options=...)."""
    schema = schema or qc_schema()
    require_backend(project, backend)
    require_op_package_support(for_device, schema, backend)
    opdefs(project, backend)
    infos = [
        op_package_info(op, schema, target, platform, path)
        for target, platform, path in registrations(project, for_device, backend)
        for op in OPS
    ]
    options = schema.QnnExecuTorchOpPackageOptions()
    options.op_package_infos = infos
    return options
