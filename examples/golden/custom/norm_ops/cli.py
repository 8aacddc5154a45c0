# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Command line of this package: `python -m <namespace> <command>`.

Every command prints what it does and fails with a one-line reason (exit status 1; a
usage error: exit status 2, also one line).

    doctor      a checklist: the laptop path (pytest, host-test, hexagon-test), then the
                device path, one line per missing thing, each fix once; with QNN_SDK_ROOT
                set it also runs `make sdk-check` (check this SDK; --quick skips it)
    build       the host library (always) and the DSP + island libraries (unless --host-only)
    sign        both DSP libraries with the Hexagon SDK signer, into build/signed/
    export      quantize, lower with the op package registered, write the .pte, check delegation
                (the package's model, or yours: --model package.module:attr --calibration FILE)
    run         check the inputs against the program, push, compare md5 sums, clear stale
                <workspace>/adsp/ copies, run on the device (direct mode; once more on
                EAI_ERR), pull, compare with eager (--debug: FARF mask 0x1f, logcat in
                build/logs/; --skip-sign: unsigned DSP libraries)
    simulate    export for and run on the LPAI x86_64 simulator, compare with eager
    info        the ops of this package
    spec        the spec of this project, to edit and pass to `update --spec`
    update      copier update: convention fixes; with --spec FILE a new spec, read first
                (a YAML slip or a bad rule is one line, nothing changed)
    check-pte   fail unless every op is delegated in a .pte
    check-model your model (--model package.module:attr --calibration FILE), before any
                SDK: quantized, lowered to edge, ExecuTorch's CustomOp builder on every node
                of this package's ops (one line each: shapes, quant params, accepted or
                why not), the accuracy of fake quantization against float (--json FILE)
    report      accuracy of every kernel (host emulator) against eager and a float64
                reference over the calibrated range: numbers and plots in build/report/
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from ._package import BACKENDS, NAMESPACE

# Set it to see the traceback of an unexpected error (one line otherwise).
TRACEBACK_ENV = f"{NAMESPACE.upper()}_TRACEBACK"


class CommandError(Exception):
    """A command failed; the message is the one-line reason."""


def _project(args: argparse.Namespace):
    from .toolchain import find_project

    return find_project(args.project)


def _cmd_info(args: argparse.Namespace) -> None:
    from ._package import PACKAGE_NAME
    from .ops import OPS

    print(f"op package {PACKAGE_NAME}")
    for op in OPS:
        print(f"  {op.qualified_name:<32} QNN type {op.qnn_type:<24} {op.kind}")
        print(f"    {op.schema}")


def _cmd_spec(args: argparse.Namespace) -> None:
    # spec.yaml is rendered from the validated spec; its first line is the owner's.
    text = Path(__file__).with_name("spec.yaml").read_text(encoding="utf-8")
    sys.stdout.write(text.split("\n", 1)[1])


def _cmd_update(args: argparse.Namespace) -> None:
    from .toolchain import (
        check_ref,
        check_spec_file,
        check_spec_rules,
        newer_releases,
        recorded_template,
        run_update,
    )

    spec = check_spec_file(args.spec) if args.spec else None  # before anything else is read
    project = _project(args)
    recorded = recorded_template(project.root)
    if spec is not None:
        check_spec_rules(args.spec, spec, recorded.folder)
    check_ref(recorded.folder, args.vcs_ref)
    for line in newer_releases(recorded.folder, recorded.commit, args.vcs_ref):
        print(line)
    run_update(project.root, spec, args.vcs_ref, recorded.commit)


def _cmd_check_pte(args: argparse.Namespace) -> None:
    from .device import delegates_of

    path = Path(args.pte)
    if not path.exists() and not path.is_symlink():
        raise CommandError(f"{path}: no such file")
    delegates = delegates_of(path)  # a regular file of bounded size, an ExecuTorch program
    for method, ids in delegates.items():
        print(f"{path}: method {method!r}: every op delegated ({', '.join(ids)})")


def _cmd_check_model(args: argparse.Namespace) -> None:
    from . import check_model, device, device_data

    project = _project(args)
    # Every argument before the model runs: the report's file, the data, then the model.
    json_path = check_model.check_json_path(args.json, (args.calibration, args.example_inputs))
    data = _calibration_data(args, None)
    device.check_data(data.batches, data.example, data.what, data.example_what)
    model = device_data.load_model(args.model, project.root)
    # The model on every batch and the example, in eager mode: data it cannot take is one line.
    device_data.Ranges.from_calibration(data.batches, model, data.what)
    if data.example is not None:
        device_data.run_model(model, data.example, data.example_what)
    backend, quant = _backend(args, project)
    check_model.run(project, model, args.model, data.batches, data.example, data.what, json_path, backend, quant)


def _backend(args: argparse.Namespace, project) -> tuple[str, str]:
    """(backend, quantization) of --backend and --quant (offered when the project has an
    HTP op package), checked: LPAI is 8a8w only."""
    from .quant import HTP_FLOAT, HTP_QUANTS
    from .registration import require_backend

    backend = getattr(args, "backend", None) or "lpai"
    quant = getattr(args, "quant", None)
    require_backend(project, backend)
    if backend == "lpai":
        if quant not in (None, "8a8w"):
            raise CommandError(
                f"--quant {quant}: LPAI custom ops take 8-bit activations only (8a8w); 16a8w and fp16 are HTP's"
            )
        return backend, "8a8w"
    if quant is not None and quant not in (*HTP_QUANTS, HTP_FLOAT):
        raise CommandError(f"--quant {quant}: HTP takes {', '.join((*HTP_QUANTS, HTP_FLOAT))}")
    return backend, quant or "8a8w"


def _cmd_doctor(args: argparse.Namespace) -> None:
    from .doctor import doctor
    from .toolchain import ToolchainError, find_project

    try:
        project = find_project(args.project)
    except ToolchainError:
        project = None
    print(f"checking what {NAMESPACE} needs (project: {project.root if project else 'not found'})")
    from .doctor import HEXAGON_TEST, LAPTOP_STEPS, STEPS

    checks, ready = doctor(project, sdk_check=not args.quick)
    # The laptop path is what every user needs; hexagon-test is optional (zig, qemu-hexagon).
    blocked = [s for s in LAPTOP_STEPS if s != HEXAGON_TEST and ready[s]]
    if blocked:
        raise CommandError(f"the laptop path is not ready for {', '.join(blocked)}: see the fixes above")
    if args.device and any(ready[s] for s in STEPS):
        steps = [s for s in STEPS if ready[s]]
        raise CommandError(f"--device: the device path is not ready ({', '.join(steps)}): see the fixes above")


def _cmd_build(args: argparse.Namespace) -> None:
    from .toolchain import build, build_htp

    project = _project(args)
    if getattr(args, "backend", "lpai") == "htp":
        from .registration import require_backend

        require_backend(project, "htp")
        what = "the x86_64 library" + ("" if args.host_only else ", the skel for the SoC's HTP and the aarch64 library")
        print(f"building {what} of {project.htp_dir}")
        for path in build_htp(project, host_only=args.host_only):
            print(f"built {path}")
        return
    what = "the host library" + ("" if args.host_only else ", the DSP library and the island library")
    print(f"building {what} of {project.op_dir}")
    for path in build(project, host_only=args.host_only):
        print(f"built {path}")


def _cmd_sign(args: argparse.Namespace) -> None:
    from .toolchain import sign

    project = _project(args)
    print(f"signing {', '.join(p.name for p in project.dsp_libs)} into {project.signed_dir}")
    for path in sign(project):
        print(f"signed {path}")


def _shape(text: str | None, default):
    from .device_data import check_shape

    if not text:
        return tuple(default)
    try:
        shape = tuple(int(v) for v in text.split(","))
    except ValueError:
        raise CommandError(f"--shape {text!r}: expected comma-separated integers, e.g. 1,32,28,28") from None
    return check_shape(shape)


def _value(value: float | None, option: str) -> float | None:
    from .device_data import check_value

    return None if value is None else check_value(value, option)


def _steps(args) -> float | None:
    steps = getattr(args, "tolerance_steps", None)
    if steps is not None and not (0 < steps < 1e6):
        raise CommandError(f"--tolerance-steps {steps!r}: must be a positive number of 8-bit steps")
    return steps


@dataclass
class _Data:
    """Calibration batches and example inputs, with the argument each came from (for messages)."""

    batches: list
    example: tuple | None
    what: str
    example_what: str


def _calibration_data(args, shape) -> _Data:
    """The calibration batches and example inputs of an export, each checked for what the
    model takes (the package model: one float32 tensor per op input) before any tool."""
    from . import device_data

    batches, example = _calibration(args, shape)
    if args.calibration:
        what = f"--calibration {args.calibration}"
    elif args.calibration_value is not None:
        what = f"--calibration-value {args.calibration_value!r}"
    else:
        what = "the generated calibration"
    example_what = f"--example-inputs {args.example_inputs}" if args.example_inputs else f"{what} (batch 0)"
    if not args.model:
        for b, batch in enumerate(batches):
            device_data.check_package_batch(batch, f"{what} batch {b}")
        if example is not None:
            device_data.check_package_batch(example, example_what)
    return _Data(batches, example, what, example_what)


def _calibration(args, shape):
    """Calibration batches and example inputs; for your model both come from you."""
    from . import device_data

    example = device_data.load_batches(Path(args.example_inputs), "--example-inputs") if args.example_inputs else None
    if example is not None and len(example) != 1:
        raise CommandError(f"--example-inputs {args.example_inputs}: holds {len(example)} batches, expected one")
    if args.model:
        if args.calibration_value is not None or args.shape:
            raise CommandError(
                "--model: your model's inputs come from files: pass --calibration FILE "
                "(and --example-inputs FILE), not --calibration-value or --shape"
            )
        if not args.calibration:
            raise CommandError(
                f"--model {args.model}: needs --calibration FILE: calibrate your model on your data "
                "(torch.save of a list of input tuples)"
            )
    value = _value(args.calibration_value, "--calibration-value")
    if args.calibration:
        batches = device_data.load_batches(Path(args.calibration), "--calibration")
    elif value is not None:
        batches = [device_data.constant_inputs(value, shape)]
    else:
        batches = [device_data.random_inputs(seed, shape) for seed in range(device_data.CALIBRATION_BATCHES)]
    return batches, (example[0] if example else None)


def _inputs_file(args) -> tuple | None:
    """The batch of --inputs FILE (None without it): read and checked before any tool."""
    from . import device_data

    if not getattr(args, "inputs", None):
        return None
    batches = device_data.load_batches(Path(args.inputs), "--inputs", float32=False)
    if len(batches) != 1:
        raise CommandError(f"--inputs {args.inputs}: holds {len(batches)} batches, run takes one")
    return batches[0]


def _inputs(args, pte: Path, shape, given: tuple | None = None):
    """Inference inputs: --inputs FILE, --input-value V, the example inputs export saved, or generated."""
    from . import device, device_data

    if args.inputs:
        return given if given is not None else _inputs_file(args)
    value = _value(args.input_value, "--input-value")
    model = _exported_model(pte)
    if model is not None and args.shape:
        raise CommandError(
            f"--shape: {pte.name} is your model ({model}), whose input shapes are fixed by its "
            "example inputs: pass --inputs FILE or --input-value V"
        )
    if value is not None:
        if model is None:
            return device_data.constant_inputs(value, shape)
        return device_data.constant_like(device.read_sidecar(pte, _target_of(pte)).inputs, value)
    if model is not None:
        return device_data.load_batches(device.example_file(pte), "the saved example inputs", float32=False)[0]
    return device_data.random_inputs(1000, shape)


def _pte(args, project, target):

    return Path(args.pte) if args.pte else project.artifacts / target / f"{NAMESPACE}.pte"


@dataclass
class _Lowering:
    """The model and data of an export, read and checked before anything else."""

    model: object
    calibration: list
    example: tuple | None
    ranges: object = None


def _lowering(args, project, target) -> _Lowering:
    from . import device, device_data

    shape = _shape(args.shape, device_data.DEFAULT_SHAPE)
    data = _calibration_data(args, shape)
    device.check_data(data.batches, data.example, data.what, data.example_what)
    model = device_data.load_model(args.model, project.root)
    device.check_output_path(_pte(args, project, target))
    # The model on every batch, in eager mode: data it cannot take is refused here, naming
    # the argument, and the calibrated ranges are what export records.
    ranges = device_data.Ranges.from_calibration(data.batches, model, data.what)
    if data.example is not None:
        device_data.run_model(model, data.example, data.example_what)
    return _Lowering(model, data.batches, data.example, ranges)


def _export(args, project, target, folders, lowering: _Lowering, serial=None, backend="lpai", quant="8a8w"):
    from . import device, device_data

    pte = _pte(args, project, target)
    print(f"exporting for the {target}: {pte}" + ("" if backend == "lpai" else f" (HTP, {quant})"))
    delegates = device.export(
        project,
        target,
        pte,
        lowering.calibration,
        folders,
        serial,
        model_spec=args.model,
        example=lowering.example,
        model=lowering.model,
        ranges=lowering.ranges,
        backend=backend,
        quant=quant,
    )
    print(f"wrote {pte}; delegation check passed ({device_data.delegate_summary(delegates)})")
    return pte


def _cmd_export(args: argparse.Namespace) -> None:
    from . import device, registration

    project = _project(args)
    backend, quant = _backend(args, project)
    if backend == "htp" and args.target != device.DEVICE:
        raise CommandError(f"--target {args.target}: the simulator is LPAI's; --backend htp exports for the device")
    # Your arguments, model and data first, then what only installing things fixes.
    lowering = _lowering(args, project, args.target)
    registration.require_op_package_support(for_device=args.target == device.DEVICE, backend=backend)
    if backend == "htp":
        folders = device.Folders(device.htp_build_folder(args.build_folder))
    elif args.target == device.DEVICE:
        folders = device.device_folders(args.build_folder, args.direct_build_folder)
    else:
        folders = device.simulator_folders(args.build_folder)
    _export(args, project, args.target, folders, lowering, args.device, backend, quant)


def _finish(comparison, delegates) -> None:
    from .device_data import report

    print(report(comparison, delegates))
    if not comparison.ok:
        worst = max(range(len(comparison.errors)), key=lambda i: comparison.errors[i] - comparison.tolerances[i])
        raise CommandError(
            f"output {worst} differs from eager: max abs error {comparison.errors[worst]:.6g} "
            f"> tolerance {comparison.tolerances[worst]:.6g}"
        )


def _cmd_run(args: argparse.Namespace) -> None:
    from . import device, registration

    project = _project(args)
    pte = _pte(args, project, device.DEVICE)
    what = "--pte" if args.pte else ""
    _steps(args)
    _value(args.input_value, "--input-value")
    # Every argument before the environment: the program, then the inputs against it.
    device.check_program(pte, device.DEVICE, what)
    sidecar = _sidecar_data(pte)
    htp = sidecar.get("backend", "lpai") == "htp"
    if htp and (args.skip_sign or args.direct_build_folder):
        option = "--skip-sign" if args.skip_sign else "--direct-build-folder"
        raise CommandError(f"{option}: LPAI's (direct mode); {pte} is an HTP program")
    given = _inputs_file(args)
    shape = _shape(args.shape, _exported_shape(pte))
    inputs = _inputs(args, pte, shape, given)
    prepared = device.prepare_run(project, pte, inputs, device.DEVICE, what)
    if htp:
        serial = device.serial_from(args.device)
        folders = device.Folders(device.htp_build_folder(args.build_folder, run=True))
        how = f"HTP, {sidecar.get('quant', '8a8w')}"
    else:
        registration.require_op_package_support(for_device=True)
        serial = device.serial_from(args.device)
        folders = device.device_folders(args.build_folder, args.direct_build_folder)
        how = "LPAI, direct mode"
    print(f"running {pte} on device {serial} ({how})")
    comparison, delegates = device.run_device(
        project,
        pte,
        inputs,
        folders,
        serial,
        args.adb_host,
        debug=args.debug,
        steps=_steps(args),
        skip_sign=args.skip_sign,
        prepared=prepared,
        backend="htp" if htp else "lpai",
    )
    _finish(comparison, delegates)


def _sidecar_data(pte: Path) -> dict:
    from .device import sidecar

    try:
        data = json.loads(sidecar(pte).read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _exported_shape(pte: Path):
    from .device_data import DEFAULT_SHAPE

    try:
        return tuple(int(v) for v in _sidecar_data(pte)["inputs"][0]["shape"])
    except (KeyError, IndexError, TypeError, ValueError):
        return DEFAULT_SHAPE


def _exported_model(pte: Path) -> str | None:
    model = _sidecar_data(pte).get("model")
    return model if isinstance(model, str) else None


def _target_of(pte: Path) -> str:
    return str(_sidecar_data(pte).get("target", "device"))


def _cmd_simulate(args: argparse.Namespace) -> None:
    from . import device, registration

    project = _project(args)
    _steps(args)
    _value(args.input_value, "--input-value")
    given = _inputs_file(args)
    lowering = _lowering(args, project, device.SIMULATOR)
    registration.require_op_package_support(for_device=False)
    folders = device.simulator_folders(args.build_folder)
    pte = _export(args, project, device.SIMULATOR, folders, lowering)
    inputs = _inputs(args, pte, _shape(args.shape, _exported_shape(pte)), given)
    print(f"running {pte} on the LPAI x86_64 simulator")
    comparison, delegates = device.run_simulator(project, pte, inputs, folders, steps=_steps(args))
    _finish(comparison, delegates)


def _cmd_report(args: argparse.Namespace) -> None:
    from . import emulator, report
    from .ops import OPS

    project = _project(args)
    names = [op.name for op in OPS]
    for name in args.op or []:
        if name not in names:
            raise CommandError(f"--op {name!r}: not an op of this package ({', '.join(names)})")
    ranges = None
    if args.range:
        try:
            ranges = [report.check_range(lo, hi) for lo, hi in args.range]
        except ValueError as exc:
            raise CommandError(str(exc)) from None
    shape = _shape(args.shape, report.CUSTOM_SHAPE)
    out_dir = Path(args.out) if args.out else project.root / "build" / "report"
    _check_out_dir(out_dir, f"--out {args.out}" if args.out else str(out_dir))
    emulator.use(project.op_dir)
    print(f"building the host emulator of {project.op_dir} (make host-lib)")
    try:
        emulator.library()
    except emulator.BuildError as exc:
        raise CommandError(" ".join(str(exc).split())[:400]) from None
    try:
        report.run(out_dir, args.op, ranges, shape=shape)
    except ValueError as exc:
        raise CommandError(str(exc)) from None


def _check_out_dir(folder: Path, what: str) -> None:
    """CommandError, one line, unless `folder` is a folder or can be made one: a file on
    the way is named (report ended in "unexpected FileExistsError")."""
    for up in (folder, *folder.parents):
        if up.is_dir():
            break
        if up.exists() or up.is_symlink():
            which = "" if up == folder else f" {up} is"
            raise CommandError(f"{what}:{which} not a folder: give a folder for the report (made if missing)")


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (exit status 2)."""

    def error(self, message):
        self.exit(2, f"error: {self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=f"python -m {NAMESPACE}",
        description=__doc__.replace("<namespace>", NAMESPACE),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)

    def command(name, func, help_text, project=True):
        p = sub.add_parser(name, help=help_text, description=help_text)
        if project:
            p.add_argument("--project", help="the project folder (default: the one containing the current folder)")
        p.set_defaults(func=func)
        return p

    def model_options(p):
        p.add_argument(
            "--model",
            help="your model instead of the package's: package.module:attribute, an "
            "nn.Module, a class or a factory called without arguments (imported from the project "
            "folder); needs --calibration",
        )
        p.add_argument(
            "--example-inputs",
            help="the model's example inputs: a torch.save'd tuple of tensors (default: the first calibration batch)",
        )

    def data_options(p, calibration=True, inputs=True):
        p.add_argument(
            "--shape",
            help="package model: shape of each op's first input (the later inputs of "
            "an elementwise op broadcast to it), e.g. 1,32,28,28",
        )
        if calibration:
            group = p.add_mutually_exclusive_group()
            group.add_argument("--calibration", help="calibration batches: a torch.save'd list of input tuples")
            group.add_argument(
                "--calibration-value", type=float, help="package model: calibrate on constant tensors of this value"
            )
        if inputs:
            group = p.add_mutually_exclusive_group()
            group.add_argument("--inputs", help="inference inputs: a torch.save'd tuple of tensors")
            group.add_argument("--input-value", type=float, help="run on constant tensors of this value")
            p.add_argument(
                "--tolerance-steps",
                type=float,
                help="allowed error per output, in 8-bit steps of its "
                "calibrated range (default 4 for the package model, 8 for yours)",
            )

    def backend_options(p):
        if "htp" not in BACKENDS:
            return
        p.add_argument(
            "--backend",
            choices=BACKENDS,
            default="lpai",
            help="the op package to check against and lower to (default: lpai)",
        )
        p.add_argument(
            "--quant",
            choices=["8a8w", "16a8w", "fp16"],
            help="htp: 8-bit or 16-bit activations, or fp16 (not quantized; default: 8a8w); lpai: 8a8w only",
        )

    command("info", _cmd_info, "list the ops of this package", project=False)
    command("spec", _cmd_spec, "print the spec of this project (to edit and pass to update --spec)", project=False)
    p = command(
        "update", _cmd_update, "copier update this project: convention fixes, or a new spec (--spec) read first"
    )
    p.add_argument("--spec", help=f"a new spec for the project (python -m {NAMESPACE} spec prints the current one)")
    p.add_argument("--vcs-ref", help="the template version to update to (default: its newest release tag)")
    p = command("check-pte", _cmd_check_pte, "fail unless every op is delegated in a .pte", project=False)
    p.add_argument("pte", help="path of the lowered program")
    p = command(
        "check-model",
        _cmd_check_model,
        "would every op node of your model reach the op package? (no SDK: ExecuTorch's "
        "CustomOp builder on each node, and the accuracy of fake quantization)",
    )
    p.add_argument(
        "--model",
        required=True,
        help="your model: package.module:attribute, an nn.Module, a class or a factory called "
        "without arguments (imported from the project folder)",
    )
    p.add_argument("--calibration", help="calibration batches: a torch.save'd list of input tuples (required)")
    p.add_argument(
        "--example-inputs",
        help="the model's example inputs: a torch.save'd tuple of tensors (default: the first calibration batch)",
    )
    p.add_argument("--json", help="also write the report to this file, as JSON")
    p.set_defaults(calibration_value=None, shape=None)
    backend_options(p)
    p = command("doctor", _cmd_doctor, "check the SDKs, tools, ExecuTorch and the device")
    p.add_argument(
        "--device",
        action="store_true",
        help="fail (exit status 1) unless the device path is ready too (default: only the laptop path must be)",
    )
    p.add_argument(
        "--quick", action="store_true", help="do not run `make sdk-check` (check this SDK) even with QNN_SDK_ROOT set"
    )
    p = command("build", _cmd_build, "build the op package libraries with make")
    p.add_argument("--host-only", action="store_true", help="only the x86_64 host library (simulator)")
    if "htp" in BACKENDS:
        p.add_argument(
            "--backend",
            choices=BACKENDS,
            default="lpai",
            help="the op package to build (default: lpai); htp: the x86_64 library, the skel for the SoC's HTP "
            "and the aarch64 Android library",
        )
    command("sign", _cmd_sign, "sign both DSP libraries into build/signed/")
    p = command("export", _cmd_export, "lower the package's model (or yours) with the op package registered")
    p.add_argument("--target", choices=["device", "simulator"], default="device")
    p.add_argument("--pte", help=f"output .pte (default: build/artifacts/<target>/{NAMESPACE}.pte)")
    p.add_argument("--build-folder", help="ExecuTorch build folder (device: build-android, simulator: build-x86)")
    p.add_argument("--direct-build-folder", help="ExecuTorch direct-mode build folder (build-direct)")
    p.add_argument("--device", help="device serial (optional for export)")
    model_options(p)
    data_options(p, inputs=False)
    backend_options(p)
    p = command("run", _cmd_run, "run the exported .pte on the device and compare with eager")
    p.add_argument("--pte", help=f"the .pte (default: build/artifacts/device/{NAMESPACE}.pte)")
    p.add_argument("--device", help="device serial (default: $ANDROID_SERIAL)")
    p.add_argument("--adb-host", help="host the device is attached to (adb -H)")
    p.add_argument("--build-folder", help="ExecuTorch Android build folder (default: $EXECUTORCH_BUILD_FOLDER)")
    p.add_argument(
        "--direct-build-folder", help="ExecuTorch direct-mode build folder (default: $EXECUTORCH_DIRECT_BUILD_FOLDER)"
    )
    p.add_argument(
        "--debug",
        action="store_true",
        help="FARF mask 0x1f next to the runner; the device log (logcat) lands in build/logs/logcat.txt",
    )
    p.add_argument(
        "--skip-sign",
        action="store_true",
        help="push the unsigned DSP libraries (build/ output, no `sign`): only for a device that does not "
        "enforce signing",
    )
    data_options(p, calibration=False)
    p = command("simulate", _cmd_simulate, "export for and run on the LPAI x86_64 simulator, compare with eager")
    p.add_argument("--pte", help=f"the .pte (default: build/artifacts/simulator/{NAMESPACE}.pte)")
    p.add_argument("--build-folder", help="ExecuTorch x86_64 build folder (default: $EXECUTORCH_X86_BUILD_FOLDER)")
    model_options(p)
    data_options(p)
    p = command("report", _cmd_report, "accuracy of each kernel against eager and float64: build/report/summary.md")
    p.add_argument("--op", action="append", help="only this op (repeatable; default: every op)")
    p.add_argument(
        "--range",
        nargs=2,
        type=float,
        action="append",
        metavar=("LO", "HI"),
        help="input range instead of the calibrated one: once for every input, or once per input of each op",
    )
    p.add_argument("--shape", help="a custom op's input shape (default 1,8,16,16)")
    p.add_argument("--out", help="output folder (default: build/report/ of the project)")
    return parser


def _quiet_imports() -> None:
    """Keep stderr for this command's own one-line error: torch and torchao log warnings
    about their own setup when ExecuTorch is imported (a missing optional CUDA kernel
    library, a deprecated registration); they say nothing about this project."""
    import logging
    import warnings

    for name in ("torchao", "torch.utils._pytree"):
        logging.getLogger(name).setLevel(logging.ERROR)
    for category in (FutureWarning, DeprecationWarning):
        warnings.filterwarnings("ignore", category=category)


def _drop_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's flush at exit cannot fail again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _ascii_safe_output() -> None:
    """A character stdout's encoding lacks (PYTHONIOENCODING=ascii, an ASCII-only
    terminal) is printed as a backslash escape, not an UnicodeEncodeError: a path or a
    value of yours echoed degrades, the command still runs (stderr does so already)."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None and sys.stdout.errors == "strict":
        reconfigure(errors="backslashreplace")


def _negative_numbers(argv: list[str]) -> list[str]:
    """argparse reads a value like -1e3 (or -inf) as an option ("--range: expected 2
    arguments"): it takes only -1 and -0.5 for numbers. Every word that is a negative
    float is given a leading space, so argparse reads it as a value (float() ignores it)."""

    def negative_number(word: str) -> bool:
        try:
            float(word)
        except ValueError:
            return False
        return word.startswith("-")

    return [f" {word}" if negative_number(word) else word for word in argv]


def main(argv: list[str] | None = None) -> int:
    import os

    from .toolchain import ToolchainError

    _ascii_safe_output()
    args = build_parser().parse_args(_negative_numbers(sys.argv[1:] if argv is None else argv))
    _quiet_imports()
    try:
        args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
    except BrokenPipeError:
        # `info | head`: the reader left; say nothing more, as `cat` does.
        _drop_stdout()
        return 141
    except (CommandError, ToolchainError) as exc:
        for problem in getattr(exc, "problems", None) or (str(exc),):  # one line each
            print("error: " + " ".join(problem.splitlines()), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except SystemExit as exc:
        # Code of yours (a model, a factory) that called sys.exit() while this command ran.
        print(f"error: {args.command}: stopped by sys.exit({exc.code!r}) in code it ran", file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - the last resort: one line, the traceback on request
        if os.environ.get(TRACEBACK_ENV):
            raise
        missing = (exc.name or "").partition(".")[0] if isinstance(exc, ModuleNotFoundError) else ""
        if missing and missing != NAMESPACE:
            # A Python package this command needs (torch for `info`, `export`, `report`, ...):
            # doctor, spec and update run without it, and doctor says what to install.
            print(
                f"error: {args.command} needs the Python package {missing}, which is not installed in this "
                f"Python ({sys.executable}): python -m {NAMESPACE} doctor says what to install",
                file=sys.stderr,
            )
            return 1
        text = " ".join(str(exc).split()) or "no message"
        print(
            f"error: unexpected {type(exc).__name__}: {text} (set {TRACEBACK_ENV}=1 for the traceback)", file=sys.stderr
        )
        return 1
    return 0
