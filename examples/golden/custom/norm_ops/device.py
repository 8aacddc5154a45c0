# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Export with the op package registered, run on the device (direct mode), run on the simulator.

Built on ExecuTorch's own `backends.qualcomm.export_utils` (QnnConfig,
build_executorch_binary, SimpleADB or its later name Device, generate_inputs);
ExecuTorch is imported inside the functions because importing it takes seconds.
The op package is registered by registration.py; the inputs, references and
comparisons are device_data.py's.

The model: the package's own model (every op once, `PackageModel`) or yours, named
`package.module:attribute` (an nn.Module, a class or a factory called without
arguments).  Calibration data is yours for your model; for the package model it is
generated (see `device_data.input_ranges`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import torch

from ._package import NAMESPACE, SOC_MODEL
from .device_data import (
    MODEL_TOLERANCE_STEPS,
    PACKAGE_TOLERANCE_STEPS,
    Comparison,
    Ranges,
    TensorSpec,
    check_batch,
    check_finite,
    compare,
    load_model,
    one_line,
    output_names,
    read_file,
    reference_outputs,
    spec_of,
    tolerances,
)
from .ops import OPS
from .registration import op_package_options, require_op_package_support
from .toolchain import (
    BUILD_FOLDER_ENV,
    DEVICE_WORKSPACE,
    DIRECT_BUILD_FOLDER_ENV,
    DIRECT_MODE_LIBRARIES,
    DIRECT_RUNNER,
    DIRECT_STUB,
    EXECUTORCH_SOURCE_HINT,
    HTP_RUNNER,
    HTP_SKEL_NAME,
    MIN_SDK_BUILD,
    MIN_SDK_DEVICE,
    MIN_SDK_HTP,
    SERIAL_ENV,
    X86_BUILD_FOLDER_ENV,
    X86_RUNNER,
    Command,
    Project,
    ToolchainError,
    check_signed,
    env_path,
    env_value,
    hexagon_tools_root,
    lpai_signed_dir,
    require_host_runtime,
    require_qnn_sdk,
    run_command,
    soc_htp_arch,
)

DEVICE = "device"
SIMULATOR = "simulator"
# ExecuTorch's runner command writes 0x0C into <runner>.farf right before it starts the
# runner; `run --debug` runs the same command with this mask instead (all FARF levels).
DEBUG_FARF_MASK = "0x1f"


# --------------------------------------------------------------------------- the program


def _folder(name: str, explicit: str | None, required_file: str | None = None) -> Path:
    value = Path(explicit) if explicit else env_path(name)
    if value is None:
        raise ToolchainError(f"{name} is not set: pass the ExecuTorch build folder (export {name}=<folder>)")
    if not value.is_dir():
        raise ToolchainError(f"{name}={value} is not a directory")
    if required_file and not (value / required_file).is_file():
        raise ToolchainError(f"{value / required_file} is missing: build ExecuTorch's Qualcomm runner there")
    return value


@dataclass
class Folders:
    build: Path
    direct: Path | None = None


def qnn_config(
    target: str, folders: Folders, serial: str | None = None, host: str | None = None, backend: str = "lpai"
):
    """ExecuTorch's QnnConfig, built once with the values it checks in __post_init__.

    For the device, export passes compile_only=True (no serial needed, nothing runs), and
    `run` passes the serial; the simulator runs on the host (enable_x86_64).  Setting
    direct_build_folder is what selects direct mode: LPAI target environment aDSP at
    lowering, and the direct runner, domain 0 and the signed runtime on the device.
    `backend` "htp": ExecuTorch's HTP lowering for the device (no direct mode).
    """
    from executorch.backends.qualcomm.export_utils import QnnConfig

    try:
        if backend == "htp":
            return QnnConfig(
                soc_model=SOC_MODEL,
                build_folder=str(folders.build),
                backend="htp",
                device=serial,
                host=host,
                compile_only=serial is None,
            )
        if target == SIMULATOR:
            return QnnConfig(
                soc_model=SOC_MODEL,
                build_folder=str(folders.build),
                backend="lpai",
                enable_x86_64=True,
                compile_only=True,
            )
        return QnnConfig(
            soc_model=SOC_MODEL,
            build_folder=str(folders.build),
            direct_build_folder=str(folders.direct),
            backend="lpai",
            device=serial,
            host=host,
            compile_only=serial is None,
        )
    except (OSError, AssertionError, RuntimeError) as exc:
        raise ToolchainError(f"ExecuTorch QnnConfig: {one_line(exc)}") from None


def read_pte(pte: Path, what: str = "") -> bytes:
    """The bytes of a .pte file: a regular file of bounded size that starts like an
    ExecuTorch program (a flatbuffer whose file identifier is `ET` and two digits, as
    ExecuTorch's runtime checks); one line otherwise."""
    label = f"{what} {pte}" if what else str(pte)
    if pte.is_dir():
        raise ToolchainError(f"{label}: is a directory, not a .pte file")
    data = read_file(pte, what)
    if not data:
        raise ToolchainError(f"{label}: is empty, not an ExecuTorch program")
    magic = data[4:8]
    if len(data) < 8 or magic[:2] != b"ET" or not magic[2:].isdigit():
        raise ToolchainError(
            f"{label}: not an ExecuTorch program (no ExecuTorch file identifier 'ETnn' at byte 4; found {magic!r})"
        )
    return data


def read_program(pte: Path, what: str = "", data: bytes | None = None):
    """The deserialized program; one line if the file is not a readable ExecuTorch program."""
    label = f"{what} {pte}" if what else str(pte)
    data = read_pte(pte, what) if data is None else data
    from executorch.exir._serialize._program import deserialize_pte_binary

    try:
        return deserialize_pte_binary(data).program
    except Exception as exc:  # noqa: BLE001 - any parse failure means "not a program"
        kind = type(exc)
        raise ToolchainError(
            f"{label}: not an ExecuTorch program (cannot parse it: {kind.__module__}.{kind.__qualname__})"
        ) from None


def delegates_of(pte: Path, what: str = "") -> dict[str, list[str]]:
    """check_delegated on a .pte, every failure as a one-line ToolchainError."""
    from .delegation import DelegationError, check_delegated

    data = read_pte(pte, what)
    program = read_program(pte, what, data)  # a file that is not a program fails here, in one line
    if not program.execution_plan:
        raise ToolchainError(f"{f'{what} {pte}' if what else pte}: not an ExecuTorch program (no method)")
    try:
        return check_delegated(data)
    except DelegationError as exc:
        raise ToolchainError(one_line(exc)) from None


# ExecuTorch's ScalarType codes (same numbering as c10) of the dtypes a program input can have.
_SCALAR_TYPES = {
    0: "uint8",
    1: "int8",
    2: "int16",
    3: "int32",
    4: "int64",
    5: "float16",
    6: "float32",
    7: "float64",
    11: "bool",
    15: "bfloat16",
}


def program_inputs(pte: Path, method: str = "forward", what: str = "") -> list[TensorSpec]:
    """The inputs the program's method takes, read from the .pte itself."""
    program = read_program(pte, what)
    plans = {plan.name: plan for plan in program.execution_plan}
    if method not in plans:
        raise ToolchainError(f"{pte}: has no method {method!r} (has {', '.join(plans) or 'none'})")
    plan = plans[method]
    specs = []
    for i, index in enumerate(plan.inputs):
        value = plan.values[index].val
        if not hasattr(value, "sizes") or not hasattr(value, "scalar_type"):
            raise ToolchainError(f"{pte}: input {i} of {method!r} is a {type(value).__name__}, not a tensor")
        code = int(getattr(value.scalar_type, "value", value.scalar_type))
        specs.append(TensorSpec(tuple(int(v) for v in value.sizes), _SCALAR_TYPES.get(code, f"scalar type {code}")))
    return specs


def sidecar(pte: Path) -> Path:
    return pte.with_suffix(".json")


def example_file(pte: Path) -> Path:
    """The example inputs export saved next to the program (the default inputs of `run`)."""
    return pte.with_suffix(".inputs.pt")


def check_output_path(pte: Path) -> None:
    """One line unless a .pte can be written at `pte` (its folder is created if needed)."""
    if pte.suffix != ".pte":
        raise ToolchainError(f"--pte {pte}: the file name must end in .pte")
    if pte.is_dir():
        raise ToolchainError(f"--pte {pte}: is a directory")
    folder = pte.parent
    for parent in (folder, *folder.parents):
        if parent.exists():
            if not parent.is_dir():
                raise ToolchainError(f"--pte {pte}: {parent} is a file, not a folder")
            if not os.access(parent, os.W_OK | os.X_OK):
                raise ToolchainError(f"--pte {pte}: cannot write into {parent} (permission denied)")
            break


def check_data(
    calibration: Sequence[Sequence[torch.Tensor]],
    example: Sequence[torch.Tensor] | None = None,
    what: str = "calibration",
    example_what: str = "example inputs",
) -> list[TensorSpec]:
    """The example's input specs, unless a calibration batch differs from it or a value is not finite.

    `what` and `example_what` name where the data came from (`--calibration FILE`, ...)."""
    example = tuple(example) if example is not None else tuple(calibration[0])
    spec = spec_of(example)
    for b, batch in enumerate(calibration):
        check_batch(batch, spec, f"{what} batch {b}")
    check_finite(calibration, what)
    check_finite([example], example_what)
    return spec


def export(
    project: Project,
    target: str,
    pte: Path,
    calibration: list[tuple[torch.Tensor, ...]],
    folders: Folders,
    serial: str | None = None,
    model_spec: str | None = None,
    example: tuple[torch.Tensor, ...] | None = None,
    model: torch.nn.Module | None = None,
    ranges: Ranges | None = None,
    backend: str = "lpai",
    quant: str = "8a8w",
) -> dict[str, list[str]]:
    """Quantize, lower with the op package registered, write the .pte, check delegation.

    `backend` "htp": the HTP op package registered (registration.py), quantized with
    quant.make_htp_quantizer(`quant`), or, `quant` quant.HTP_FLOAT, not at all (HTP runs
    the float graph in fp16).

    `model_spec` None: the package model; else your model (`package.module:attr`).  The
    example inputs (default: the first calibration batch) fix the program's inputs; every
    calibration batch must match them.  ExecuTorch traces dataset[0], so the first batch is
    what the graph is traced with.
    """
    for_device = target == DEVICE
    model = model if model is not None else load_model(model_spec, project.root)
    example = tuple(example) if example is not None else tuple(calibration[0])
    spec = check_data(calibration, example)
    ranges = ranges if ranges is not None else Ranges.from_calibration(calibration, model)
    check_output_path(pte)
    require_op_package_support(for_device, backend=backend)
    sdk = require_qnn_sdk(minimum=MIN_SDK_DEVICE if for_device else MIN_SDK_BUILD)
    require_host_runtime(sdk)
    host_lib, build_it = project.host_lib, f"python -m {NAMESPACE} build --host-only"
    if backend == "htp":
        host_lib, build_it = project.htp_host_lib, f"make -C {project.htp_dir} htp_x86"
    if not host_lib.is_file():
        raise ToolchainError(f"{host_lib} is missing: run `{build_it}`")
    options = op_package_options(project, for_device, backend=backend)
    config = qnn_config(target, folders, backend=backend)
    try:
        pte.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ToolchainError(f"--pte {pte}: cannot create {pte.parent}: {exc.strerror or one_line(exc)}") from None
    # An old program must not survive a failed export and be run as if it were this one.
    for stale in (pte, sidecar(pte), example_file(pte)):
        stale.unlink(missing_ok=True)
    from executorch.backends.qualcomm.export_utils import build_executorch_binary
    from executorch.backends.qualcomm.quantizer.quantizer import QuantDtype

    from .builder import edge_passes
    from .quant import HTP_FLOAT, HTP_QUANTS, make_htp_quantizer, make_lpai_quantizer

    if backend == "htp" and quant == HTP_FLOAT:
        quant_dtype, quantizer = None, None  # None: ExecuTorch lowers the float graph for fp16
    elif backend == "htp":
        quant_dtype, quantizer = getattr(QuantDtype, HTP_QUANTS[quant][0]), make_htp_quantizer(SOC_MODEL, quant)
    else:
        quant_dtype, quantizer = QuantDtype.use_8a8w, make_lpai_quantizer(SOC_MODEL)

    passes_job, passes_dependency = edge_passes(backend)
    staging = pte.with_name(f".{pte.stem}.partial")
    written = staging.with_name(staging.name + ".pte")  # build_executorch_binary appends .pte
    what = f"{model_spec} ({type(model).__name__})" if model_spec else f"the package model ({len(OPS)} op(s))"
    print(f"lowering {what} for the {target} with {len(calibration)} calibration batch(es)", flush=True)
    try:
        try:
            build_executorch_binary(
                model=model,
                qnn_config=config,
                file_name=str(staging),
                dataset=calibration,
                quant_dtype=quant_dtype,
                custom_quantizer=quantizer,
                op_package_options=options,
                # ExecuTorch's to_edge passes and QuantizedConstantInputs, as check-model lowers.
                passes_job=passes_job,
                passes_dependency=passes_dependency,
            )
        except SystemExit as exc:
            # compile_only: build_executorch_binary calls sys.exit(0) after writing the program.
            if exc.code not in (0, None) or not written.is_file():
                raise ToolchainError(f"ExecuTorch's build_executorch_binary exited with status {exc.code}") from None
        if not written.is_file():
            raise ToolchainError(f"ExecuTorch's build_executorch_binary wrote no {written.name}")
        delegates = delegates_of(written)
        got = program_inputs(written)
        if got != spec:
            raise ToolchainError(
                f"the lowered program takes {[s.describe() for s in got]}, "
                f"the example inputs are {[s.describe() for s in spec]}"
            )
        torch.save(example, example_file(pte))
        sidecar(pte).write_text(
            json.dumps(
                {
                    "target": target,
                    "model": model_spec,
                    "inputs": [{"shape": list(s.shape), "dtype": s.dtype} for s in spec],
                    "ranges": ranges.to_json(),
                    **({} if backend == "lpai" else {"backend": backend, "quant": quant}),
                },
                indent=2,
            )
            + "\n"
        )
        os.replace(written, pte)
    finally:
        written.unlink(missing_ok=True)
    return delegates


@dataclass
class Exports:
    """What export recorded next to a program (its sidecar)."""

    target: str
    model: str | None
    inputs: list[TensorSpec]
    ranges: Ranges


def load_sidecar(pte: Path, target: str) -> Ranges:
    return read_sidecar(pte, target).ranges


def read_sidecar(pte: Path, target: str) -> Exports:
    path = sidecar(pte)
    hint = f"export again with `python -m {NAMESPACE} export --target {target}`"
    if not path.is_file():
        raise ToolchainError(f"{path} is missing: {hint}")
    try:
        data = json.loads(read_file(path, "", 1 << 24).decode("utf-8"))
        exports = Exports(
            data["target"],
            data.get("model"),
            [TensorSpec(tuple(i["shape"]), i["dtype"]) for i in data["inputs"]],
            Ranges.from_json(data["ranges"]),
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ToolchainError(f"{path}: unreadable ({type(exc).__name__}): {hint}") from None
    if exports.target != target:
        raise ToolchainError(f"{pte} was exported for the {exports.target}, not the {target}")
    return exports


def read_outputs(folder: Path, reference: Sequence[torch.Tensor]) -> list[torch.Tensor]:
    outputs = []
    for i, ref in enumerate(reference):
        path = folder / f"output_0_{i}.raw"
        if not path.is_file():
            raise ToolchainError(f"the runner wrote no {path.name} in {folder}")
        data = torch.frombuffer(bytearray(path.read_bytes()), dtype=torch.float32)
        if data.numel() != ref.numel():
            raise ToolchainError(f"{path.name} holds {data.numel()} floats, expected {ref.numel()}")
        outputs.append(data.reshape(ref.shape).clone())
    return outputs


@dataclass
class Prepared:
    """A program checked against its inputs, before anything runs."""

    delegates: dict[str, list[str]]
    exports: Exports
    model: torch.nn.Module


def check_program(pte: Path, target: str, what: str = "") -> tuple[dict[str, list[str]], Exports]:
    """The program `run` and `simulate` take, before any input or tool: it exists, is a
    program whose every op is delegated, and has the sidecar export wrote for `target`."""
    label = f"{what} {pte}" if what else str(pte)
    if not pte.exists() and not pte.is_symlink():
        raise ToolchainError(f"{label}: no such file: run `python -m {NAMESPACE} export --target {target}`")
    delegates = delegates_of(pte, what)
    return delegates, read_sidecar(pte, target)


def prepare_run(project: Project, pte: Path, inputs: Sequence[torch.Tensor], target: str, what: str = "") -> Prepared:
    """Everything `run` and `simulate` check before anything is pushed or started: the
    program, its delegation, and the inputs' count, shapes and dtypes against it."""
    delegates, exports = check_program(pte, target, what)
    program = program_inputs(pte, what=what)
    if program != exports.inputs:
        raise ToolchainError(
            f"{sidecar(pte)} does not describe {pte.name} (inputs "
            f"{[s.describe() for s in exports.inputs]} vs {[s.describe() for s in program]}): "
            f"export again"
        )
    check_batch(inputs, program, "the inputs")
    check_finite([inputs], "the inputs", "8-bit inputs have no code for it")
    return Prepared(delegates, exports, load_model(exports.model, project.root))


def _comparison(prepared: Prepared, inputs, outputs_dir: Path, steps: float | None) -> Comparison:
    ranges = prepared.exports.ranges
    want = reference_outputs(inputs, ranges, prepared.model)
    got = read_outputs(outputs_dir, want)
    if steps is None:
        steps = PACKAGE_TOLERANCE_STEPS if prepared.exports.model is None else MODEL_TOLERANCE_STEPS
    return compare(got, want, tolerances(ranges, steps), output_names(prepared.exports.model, len(want)))


# --------------------------------------------------------------------------- device

WORKSPACE = DEVICE_WORKSPACE


def device_class():
    """ExecuTorch's device wrapper: `Device` in later sources, `SimpleADB` before (same calls)."""
    from executorch.backends.qualcomm import export_utils

    cls = getattr(export_utils, "Device", None) or getattr(export_utils, "SimpleADB", None)
    if cls is None:
        raise ToolchainError(
            f"the installed ExecuTorch has neither export_utils.Device nor SimpleADB: {EXECUTORCH_SOURCE_HINT}"
        )
    return cls


def debug_runner_command(adb, domain_id: int, mask: str = DEBUG_FARF_MASK) -> str:
    """The command ExecuTorch's execute() runs in direct mode, with FARF mask `mask`.

    execute() writes 0x0C into <runner>.farf in the same shell line that starts the
    runner, so a mask written before it is overwritten: the debug run needs its own line.
    """
    runner = os.path.basename(adb.runner)
    args = " ".join(
        [
            f"--model_path {os.path.basename(adb.pte_path[0])}",
            f"--output_folder_path {adb.output_folder}",
            f"--input_list_path {adb.input_list_filename}",
            f"--etdump_path {adb.etdump_path}",
            "--method_index 0",
            f"--domain_id {domain_id}",
        ]
    )
    return (
        f"cd {adb.workspace} && chmod +x {runner} && export LD_LIBRARY_PATH=. && "
        f"export ADSP_LIBRARY_PATH=. && echo {mask} > {runner}.farf && ./{runner} {args}"
    )


def _text(result) -> str:
    """An execute() output_callback's argument: a CompletedProcess (SimpleADB) or its stdout (Device)."""
    return result if isinstance(result, str) else (getattr(result, "stdout", "") or "")


# The PR's device traps (its README), handled by `run`:
# - a transient `EAI_ERR: Failed to reset global enpu clock level` in the runner's output
#   comes with an all-zero output: run once more;
# - the DSP loader searches <workspace>/adsp/ before <workspace>/: a stale copy there wins;
# - a push can leave another copy on the device than the host's: compare md5 sums.
EAI_ERR = re.compile(r"EAI_ERR\b[^\n]*")
ADSP_SUBFOLDER = "adsp"


def _run_once(adb, debug: bool, domain_id: int) -> tuple[str, BaseException | None]:
    """One run of the runner: its output (printed as it is captured) and the failure, if any."""
    captured: list[str] = []

    def keep(result) -> None:
        text = _text(result)
        captured.append(text)
        if text:
            print(text, end="" if text.endswith("\n") else "\n", flush=True)

    try:
        if debug:
            adb.execute(custom_runner_cmd=debug_runner_command(adb, domain_id), output_callback=keep)
        else:
            adb.execute(output_callback=keep)
    except (AssertionError, RuntimeError, ValueError) as exc:
        return "".join(captured), exc
    return "".join(captured), None


def _run_with_retry(adb, debug: bool, domain_id: int, runner: str) -> None:
    """Run; when the runner reports EAI_ERR (its output is then all zeros), run once more and say so."""
    for attempt in (1, 2):
        output, failure = _run_once(adb, debug, domain_id)
        match = EAI_ERR.search(output)
        if match is None:
            if failure is not None:
                raise ToolchainError(f"{runner} failed on the device: {one_line(failure)}")
            return
        if attempt == 1:
            print(
                f"{runner} reported `{match.group(0).strip()}`: the PR's transient LPAI clock error, "
                "whose output is all zeros; running it again (once)",
                flush=True,
            )
    raise ToolchainError(
        f"{runner} reported `{match.group(0).strip()}` twice in a row (the output is all zeros): "
        "reboot the device or wait, then run again"
    )


def _shell_output(adb, command: str) -> str:
    captured: list[str] = []
    adb.execute(custom_runner_cmd=command, output_callback=lambda r: captured.append(_text(r)))
    return "".join(captured)


def _names(text: str) -> list[str]:
    """The names `ls -1` printed (a line with a space is another command's)."""
    return [line.strip() for line in text.splitlines() if line.strip() and " " not in line.strip()]


def _md5(path: Path) -> str:
    digest = hashlib.md5(usedforsecurity=False)
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def check_workspace(adb, files: Sequence[Path]) -> None:
    """After the push, in one shell line: the md5 sum of each pushed file on the device
    against the host's copy, and <workspace>/adsp/, removed if it holds anything (the DSP
    loader would take a library from there before the one just pushed into <workspace>/)."""
    on_device = {Path(f).name: f"{WORKSPACE}/{Path(f).name}" for f in files}
    folder = f"{WORKSPACE}/{ADSP_SUBFOLDER}"
    text = _shell_output(
        adb, f"md5sum {' '.join(on_device.values())} 2>/dev/null || true && ls -1 {folder} 2>/dev/null || true"
    )
    sums = {}
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 2 and re.fullmatch(r"[0-9a-f]{32}", words[0]):
            sums[words[-1]] = words[0]
    for f in files:
        remote = on_device[Path(f).name]
        want = _md5(Path(f))
        got = sums.get(remote)
        if got is None:
            raise ToolchainError(f"{remote} is not on the device after the push (no md5 sum): run again")
        if got != want:
            raise ToolchainError(
                f"{remote} on the device differs from {f} (md5 {got} != {want}): the push did not "
                "land whole, or another copy replaced it; run again"
            )
    print(f"md5 sums of {len(files)} pushed files match the host's", flush=True)
    stale = _names(text)
    if not stale:
        return
    print(
        f"removing {folder}/ ({', '.join(stale)}): the DSP loader searches it before {WORKSPACE}/, "
        "so a stale copy there would run instead of the one just pushed",
        flush=True,
    )
    left = _names(_shell_output(adb, f"rm -rf {folder} && ls -1 {folder} 2>/dev/null || true"))
    if left:
        raise ToolchainError(f"cannot remove the stale copies in {folder}/ ({', '.join(left)}): remove them by hand")


def run_device(
    project: Project,
    pte: Path,
    inputs: tuple[torch.Tensor, ...],
    folders: Folders,
    serial: str,
    host: str | None = None,
    debug: bool = False,
    steps: float | None = None,
    skip_sign: bool = False,
    prepared: Prepared | None = None,
    backend: str = "lpai",
) -> tuple[Comparison, dict[str, list[str]]]:
    """Push the .pte, the inputs and the backend's op package libraries (SimpleADB/Device),
    run, pull, compare with eager.

    LPAI: both signed libraries, the runner in direct mode on the aDSP; `skip_sign`: push
    the unsigned DSP libraries (a device that does not enforce signing). HTP: as
    ExecuTorch's HTP custom op example runs a program (examples/qualcomm/custom_op/
    custom_ops_1.py): with the .pte, the inputs, qnn_executor_runner and the SDK's HTP
    runtime go the package's skel for the SoC's HTP, under the name the program
    registered (HTP_SKEL_NAME), and its aarch64 Android library; the runner runs on the
    CPU and hands the graph to the HTP (ADSP_LIBRARY_PATH=. finds the skel)."""
    htp = backend == "htp"
    prepared = prepared or prepare_run(project, pte, inputs, DEVICE)
    require_op_package_support(for_device=True, backend=backend)
    sdk = require_qnn_sdk(minimum=MIN_SDK_HTP if htp else MIN_SDK_DEVICE)
    # ExecuTorch's QnnConfig loads libQnnHtp.so to read the SDK version (and aborts without it).
    require_host_runtime(sdk, lowering=False)
    libs, pushed, others = (
        _htp_libraries(project, folders) if htp else _lpai_libraries(project, sdk, folders, skip_sign)
    )
    config = qnn_config(DEVICE, folders, serial, host, backend=backend)
    device_cls = device_class()
    from executorch.backends.qualcomm.export_utils import get_dsp_id

    outputs_dir = pte.parent / "outputs"
    # Outputs of an earlier run must not be compared as if this run wrote them.
    shutil.rmtree(outputs_dir, ignore_errors=True)
    log_dir = project.root / "build" / "logs"
    try:
        adb = device_cls(qnn_config=config, pte_path=str(pte), workspace=WORKSPACE)
        print(f"pushing {pte.name}, the inputs{pushed} to {serial}:{WORKSPACE}", flush=True)
        adb.push(inputs=[tuple(inputs)], files=[str(p) for p in libs])
        check_workspace(adb, [pte, *libs, *others])
        runner = Path(adb.runner).name
        if debug:
            adb.execute(custom_runner_cmd="logcat -c")
        if htp:
            print(f"running {runner} on the device, the graph on its HTP (ADSP_LIBRARY_PATH=.)", flush=True)
            _, failure = _run_once(adb, False, 0)
            if failure is not None:
                raise ToolchainError(f"{runner} failed on the device: {one_line(failure)}")
        else:
            farf = f", FARF mask {DEBUG_FARF_MASK} in {WORKSPACE}/{runner}.farf" if debug else ""
            print(f"running {runner} on the aDSP (direct mode, ADSP_LIBRARY_PATH=.{farf})", flush=True)
            _run_with_retry(adb, debug, get_dsp_id(config.backend), runner)
        adb.pull(host_output_path=str(pte.parent))
    except (AssertionError, RuntimeError, ValueError) as exc:
        raise ToolchainError(one_line(exc)) from None
    finally:
        if debug and "adb" in locals():
            _capture_logcat(adb, log_dir)
    return _comparison(prepared, inputs, outputs_dir, steps), prepared.delegates


def _lpai_libraries(
    project: Project, sdk: Path, folders: Folders, skip_sign: bool
) -> tuple[list[Path], str, list[Path]]:
    """What run_device pushes for LPAI (both DSP libraries, signed unless `skip_sign`),
    their words in its "pushing" line, and what ExecuTorch pushes besides them (checked on
    the device too)."""
    if skip_sign:
        libs = list(project.dsp_libs)
        missing = [str(p) for p in libs if not p.is_file()]
        if missing:
            raise ToolchainError(f"--skip-sign: {', '.join(missing)} missing: run `python -m {NAMESPACE} build`")
    else:
        libs = check_signed(project)
    # SimpleADB reads HEXAGON_TOOLS_ROOT in direct mode; derive it from the SDK and version.
    if not env_value("HEXAGON_TOOLS_ROOT"):
        os.environ["HEXAGON_TOOLS_ROOT"] = str(hexagon_tools_root())
    which = "unsigned (--skip-sign)" if skip_sign else "signed"
    # What ExecuTorch pushes besides them: the runner, its stub, the six signed runtime libraries.
    others = [folders.build / DIRECT_RUNNER, folders.build / DIRECT_STUB]
    others += [lpai_signed_dir(sdk) / name for name in DIRECT_MODE_LIBRARIES]
    return libs, f" and the {which} {', '.join(p.name for p in libs)}", [p for p in others if p.is_file()]


def _htp_libraries(project: Project, folders: Folders) -> tuple[list[Path], str, list[Path]]:
    """What run_device pushes for HTP (the skel for the SoC's HTP, staged under the name
    the program registered, and the aarch64 library), their words in its "pushing" line,
    and the runner ExecuTorch pushes besides them."""
    arch = soc_htp_arch()
    skel, aarch64 = project.htp_hexagon_lib(arch), project.htp_aarch64_lib
    missing = [str(p) for p in (skel, aarch64) if not p.is_file()]
    if missing:
        raise ToolchainError(f"{', '.join(missing)} missing: run `python -m {NAMESPACE} build --backend htp`")
    # The program registered <workspace>/HTP_SKEL_NAME (registration.py): a copy of that name.
    staged = project.htp_dir / "build" / "device" / HTP_SKEL_NAME
    staged.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(skel, staged)
    pushed = f", {staged.name} (hexagon-{arch}) and {aarch64.name} (aarch64)"
    return [staged, aarch64], pushed, [folders.build / HTP_RUNNER]


def _capture_logcat(adb, log_dir: Path) -> None:
    captured: list[str] = []
    try:
        adb.execute(custom_runner_cmd="logcat -d -v time", output_callback=lambda r: captured.append(_text(r)))
    except (AssertionError, RuntimeError) as exc:
        print(f"could not capture logcat: {one_line(exc)}", flush=True)
        return
    log_dir.mkdir(parents=True, exist_ok=True)
    path = log_dir / "logcat.txt"
    path.write_text("".join(captured))
    print(f"device log (logcat, FARF mask {DEBUG_FARF_MASK}): {path}", flush=True)


# --------------------------------------------------------------------------- simulator


def simulator_command(sdk: Path, build: Path, pte: Path, input_list: Path, outputs: Path) -> Command:
    runner = build / X86_RUNNER
    return Command(
        [
            str(runner),
            "--model_path",
            str(pte),
            "--input_list_path",
            str(input_list.name),
            "--output_folder_path",
            str(outputs),
        ],
        input_list.parent,
        {"LD_LIBRARY_PATH": os.pathsep.join([str(sdk / "lib" / "x86_64-linux-clang"), str(build / "lib")])},
    )


def run_simulator(
    project: Project, pte: Path, inputs: tuple[torch.Tensor, ...], folders: Folders, steps: float | None = None
) -> tuple[Comparison, dict[str, list[str]]]:
    """Run the .pte on the host through the LPAI x86_64 simulator and compare with eager."""
    prepared = prepare_run(project, pte, inputs, SIMULATOR)
    sdk = require_qnn_sdk(minimum=MIN_SDK_BUILD)
    from executorch.backends.qualcomm.export_utils import generate_inputs

    work = pte.parent
    outputs_dir = work / "outputs"
    shutil.rmtree(outputs_dir, ignore_errors=True)
    outputs_dir.mkdir(parents=True)
    input_list, _ = generate_inputs(str(work), "input_list.txt", [tuple(inputs)])
    cmd = simulator_command(sdk, folders.build, pte.resolve(), Path(input_list), outputs_dir.resolve())
    # Keep what the caller already had on the path, but never add an empty entry: the
    # loader reads one as "the current folder".
    inherited = os.environ.get("LD_LIBRARY_PATH", "")
    if inherited:
        cmd.env["LD_LIBRARY_PATH"] += os.pathsep + inherited
    run_command(cmd, what="the LPAI x86_64 simulator")
    return _comparison(prepared, inputs, outputs_dir, steps), prepared.delegates


def serial_from(explicit: str | None) -> str:
    serial = explicit or env_value(SERIAL_ENV)
    if not serial:
        raise ToolchainError(
            f"no device serial: pass --device SERIAL or export {SERIAL_ENV}=<serial> (see `adb devices`)"
        )
    return serial


def device_folders(build: str | None, direct: str | None) -> Folders:
    return Folders(_folder(BUILD_FOLDER_ENV, build, DIRECT_RUNNER), _folder(DIRECT_BUILD_FOLDER_ENV, direct))


def simulator_folders(build: str | None) -> Folders:
    return Folders(_folder(X86_BUILD_FOLDER_ENV, build, X86_RUNNER))


def htp_build_folder(build: str | None, run: bool = False) -> Path:
    """The ExecuTorch Android build folder an HTP export is configured with (QnnConfig
    checks only that it is given: compile_only runs nothing there), and that `run` of an
    HTP program takes qnn_executor_runner from."""
    return _folder(BUILD_FOLDER_ENV, build, HTP_RUNNER if run else None)


def adb_devices() -> list[str]:
    """Serials adb lists as `device` (not offline/unauthorized)."""
    try:
        proc = subprocess.run(["adb", "devices"], capture_output=True, text=True, timeout=20)
    except (FileNotFoundError, subprocess.TimeoutExpired):
        return []
    serials = []
    for line in proc.stdout.splitlines()[1:]:
        parts = line.split()
        if len(parts) >= 2 and parts[1] == "device":
            serials.append(parts[0])
    return serials
