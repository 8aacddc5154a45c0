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
"""

from __future__ import annotations

from . import op_package_xml
from ._package import INTERFACE_PROVIDER, LIBRARY_NAME, PACKAGE_NAME
from .ops import OPS
from .toolchain import (
    EXECUTORCH_SOURCE_HINT,
    Project,
    ToolchainError,
    qc_schema,
)


def require_op_package_support(for_device: bool, schema=None) -> None:
    """Fail with one line unless the installed ExecuTorch can register an LPAI op package."""
    schema = schema or qc_schema()
    missing = []
    if not hasattr(schema.QnnExecuTorchOpPackageTarget, "LPAI"):
        missing.append("QnnExecuTorchOpPackageTarget.LPAI")
    if for_device and not hasattr(schema.QnnExecuTorchOpPackagePlatform, "HEXAGON"):
        missing.append("QnnExecuTorchOpPackagePlatform.HEXAGON")
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


def registrations(project: Project, for_device: bool) -> list[tuple[str, str, str]]:
    """(target, platform, library) per implementation, by enum member name."""
    result = [("LPAI", "X86_64", str(project.host_lib.resolve()))]
    if for_device:
        result.append(("LPAI", "HEXAGON", LIBRARY_NAME))
    return result


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


def opdefs(project: Project) -> dict[str, op_package_xml.OpDef]:
    """The op package's OpDef of each op, by QNN type: its XML read and checked against
    the ops this package registers (one line naming what does not match)."""
    try:
        collection = op_package_xml.parse(project.opdef_xml())
        op_package_xml.check_matches(
            collection, PACKAGE_NAME, {op.qnn_type: (len(op.inputs), len(op.outputs)) for op in OPS}
        )
    except op_package_xml.OpDefError as exc:
        raise ToolchainError(str(exc)) from None
    return {opdef.name: opdef for opdef in collection.ops}


def op_package_options(project: Project, for_device: bool, schema=None):
    """QnnExecuTorchOpPackageOptions for build_executorch_binary(op_package_options=...)."""
    schema = schema or qc_schema()
    require_op_package_support(for_device, schema)
    opdefs(project)
    infos = [
        op_package_info(op, schema, target, platform, path)
        for target, platform, path in registrations(project, for_device)
        for op in OPS
    ]
    options = schema.QnnExecuTorchOpPackageOptions()
    options.op_package_infos = infos
    return options
