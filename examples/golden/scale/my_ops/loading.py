# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Your model and your data, loaded, exported and lowered, every failure one line.

`check-model`, `export` and `run` (through device_data.py) and the template's
`scripts/scan` (qnn-op-template/hooks/scan.py, which loads this very file, before any
project exists) read a model and its data here: one loader, one set of messages.

Plain torch and the standard library; ExecuTorch only inside `lower_to_edge`.  No import
of the package: scan loads the file on its own, so ToolchainError is the toolchain's
when the file is a module of the package, and a class of its own otherwise.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import logging
import os
import re
import stat
import sys
import unittest.mock
import warnings
from collections.abc import Sequence

import torch

try:
    from .toolchain import ToolchainError
except ImportError:  # loaded as a file of its own (scripts/scan): no package around it

    class ToolchainError(Exception):
        """A problem of the command line's input, said in one line."""


# The largest tensor the command line generates or accepts (elements per tensor).
MAX_ELEMENTS = 1 << 26
# The largest file the command line reads (a .pte, a torch.save'd file, a sidecar): a
# bound, so that a device or an endless file cannot be read until memory runs out.
MAX_FILE_BYTES = 1 << 31
# An error of a stage that runs your model through torch and ExecuTorch, shortened to this.
MAX_REASON = 300


def one_line(exc: BaseException) -> str:
    """An exception as one line of text (the command line's errors are one line)."""
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


_FILE_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _kind(mode: int) -> str:
    return next((name for test, name in _FILE_KINDS if test(mode)), "not a regular file")


def read_file(path, what: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of `path`, unless it is not a regular file of at most `limit` bytes (one line).

    Opened without blocking (a FIFO is refused, not waited on) and checked on the open
    file itself; at most `limit` + 1 bytes are ever read, so a file that grows or never
    ends (a /proc file, /dev/zero behind a symlink) is refused instead of filling memory."""
    label = f"{what} {path}" if what else str(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise ToolchainError(f"{label}: no such file") from None
    except IsADirectoryError:
        raise ToolchainError(f"{label}: is a directory, expected a file") from None
    except OSError as exc:
        raise ToolchainError(f"{label}: cannot open it: {exc.strerror or one_line(exc)}") from None
    with os.fdopen(fd, "rb", buffering=0) as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = _kind(info.st_mode)
            raise ToolchainError(f"{label}: is {kind}, expected a regular file")
        if info.st_size > limit:
            raise ToolchainError(f"{label}: {info.st_size} bytes, more than the {limit} this command reads")
        chunks, size = [], 0
        try:
            while size <= limit:
                chunk = f.read(min(1 << 24, limit + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
        except OSError as exc:
            raise ToolchainError(f"{label}: cannot read it: {exc.strerror or one_line(exc)}") from None
    if size > limit:
        raise ToolchainError(f"{label}: more than the {limit} bytes this command reads")
    return b"".join(chunks)


# --------------------------------------------------------------------------- the model

_MODEL_SPEC = re.compile(
    r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$"
)


def load_model(spec: str, root=None) -> torch.nn.Module:
    """`package.module:attr` -> the nn.Module (an instance, or a class/factory called with no
    arguments), imported with `root` (a folder: the project, or the current one) first on sys.path."""
    if (spec or "").endswith(".pt2"):
        return _load_program(spec)
    if not _MODEL_SPEC.match(spec or ""):
        raise ToolchainError(f"--model {spec!r}: expected package.module:attribute, e.g. my_models.net:build")
    module_name, _, attr = spec.partition(":")
    if root is not None and str(root) not in sys.path:
        sys.path.insert(0, str(root))
    try:
        target = importlib.import_module(module_name)
        for part in attr.split("."):
            target = getattr(target, part)
    except (SystemExit, KeyboardInterrupt) as exc:
        raise ToolchainError(f"--model {spec}: importing it {_stopped(exc)}") from None
    except Exception as exc:  # noqa: BLE001 - the user's code: any failure is one reason
        raise ToolchainError(f"--model {spec}: cannot load it: {one_line(exc)}") from None
    if isinstance(target, torch.nn.Module):
        model = target
    elif callable(target):
        try:
            model = target()
        except (SystemExit, KeyboardInterrupt) as exc:
            raise ToolchainError(f"--model {spec}: calling it {_stopped(exc)}") from None
        except Exception as exc:  # noqa: BLE001
            raise ToolchainError(f"--model {spec}: calling it failed: {one_line(exc)}") from None
    else:
        raise ToolchainError(f"--model {spec}: is a {type(target).__name__}, not an nn.Module, class or factory")
    if not isinstance(model, torch.nn.Module):
        raise ToolchainError(f"--model {spec}: returned a {type(model).__name__}, not an nn.Module")
    return _eval(model)


def _eval(model: torch.nn.Module) -> torch.nn.Module:
    """The model in eval mode; a module of torch.export (a QAT model after convert_pt2e) refuses
    .eval(), torchao's move_exported_model_to_eval does it."""
    try:
        return model.eval()
    except NotImplementedError:
        if not isinstance(model, torch.fx.GraphModule):
            raise
        from torchao.quantization.pt2e import move_exported_model_to_eval

        return move_exported_model_to_eval(model)


def _load_program(spec: str) -> torch.nn.Module:
    """`--model FILE.pt2`: a program torch.export.save wrote (e.g. docs/using.md's QAT model), its module."""
    from pathlib import Path

    path = Path(spec)
    if not path.is_file():
        raise ToolchainError(f"--model {spec}: no such file")
    import torchao.quantization.pt2e.quantize_pt2e  # noqa: F401 - registers quantized_decomposed, which it calls

    previous = logging.root.manager.disable
    logging.disable(logging.WARNING)  # torch.export.load logs each node it cannot read, then raises
    try:
        program = torch.export.load(path)
    except Exception as exc:  # noqa: BLE001 - any unreadable file is one reason
        raise ToolchainError(f"--model {spec}: cannot load it with torch.export.load: {one_line(exc)[:300]}") from None
    finally:
        logging.disable(previous)
    return _eval(program.module())


def _stopped(exc: BaseException) -> str:
    """What a SystemExit or KeyboardInterrupt raised by the user's code did, for one line."""
    if isinstance(exc, SystemExit):
        return f"called sys.exit({exc.code!r})"
    return "was interrupted (KeyboardInterrupt)"


def run_model(model: torch.nn.Module, batch: Sequence[torch.Tensor], what: str):
    """model(*batch) without gradients; any failure of the model's code is one line naming `what`."""
    try:
        with torch.no_grad():
            return as_outputs(model(*batch))
    except ToolchainError:
        raise
    except (SystemExit, KeyboardInterrupt) as exc:
        raise ToolchainError(f"{what}: the model {_stopped(exc)}") from None
    except Exception as exc:  # noqa: BLE001 - the model's code: any failure is one reason
        raise ToolchainError(f"{what}: the model fails on it: {type(exc).__name__}: {one_line(exc)[:300]}") from None


def as_outputs(result) -> tuple[torch.Tensor, ...]:
    """A model's result as a tuple of tensors (one tensor, or a tuple/list of them)."""
    outputs = result if isinstance(result, (tuple, list)) else (result,)
    if not all(isinstance(t, torch.Tensor) for t in outputs):
        raise ToolchainError("the model must return a tensor or a tuple of tensors")
    return tuple(outputs)


# --------------------------------------------------------------------------- data

# What a file of inputs must be, said whenever one is not.
DATA_RULE = "expected a tensor, a tuple of tensors (one batch) or a list of such tuples"
# How torch.save writes (a zip archive since torch 1.6), and the older format's first bytes
# (a pickle of protocol 2 holding torch's magic number).
_ZIP_MAGIC = b"PK\x03\x04"
_LEGACY_MAGIC = b"\x80\x02\x8a\x0al\xfc\x9cF\xf9 j\xa8P\x19."


def load_batches(
    path, what: str, max_rank: int | None, backend: str = "LPAI", float32: bool = True
) -> list[tuple[torch.Tensor, ...]]:
    """A file saved with torch.save: a tensor, a tuple of tensors (one batch), or a list of
    such tuples, each tensor of at most `max_rank` dims (None: any) and, with `float32`, float32 when
    floating point (data to calibrate or export a model on: a float64 tensor would die in
    lowering, in a line about FakeTensors).  Read with torch.load(weights_only=True):
    nothing in the file runs."""
    raw = read_file(path, what)
    saved = f"save {DATA_RULE.removeprefix('expected ')} with torch.save"
    if not raw.startswith((_ZIP_MAGIC, _LEGACY_MAGIC)):
        kind = "empty" if not raw else "not a file torch.save wrote"
        raise ToolchainError(f"{what} {path}: is {kind}: {saved}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch's notes on pickle protocols: the line below says it all
            data = torch.load(io.BytesIO(raw), weights_only=True)
    except Exception as exc:  # noqa: BLE001 - any unreadable file is one reason
        text = one_line(exc)
        if "weights_only" in text or "Unpickl" in text:  # torch's advice to load it unsafely: not ours to give
            reason = "holds objects other than tensors, tuples, lists and numbers, which are not loaded"
        else:
            reason = f"cannot load it with torch.load ({type(exc).__name__}: {text[:MAX_REASON]})"
        raise ToolchainError(f"{what} {path}: {reason}: {saved}") from None
    if isinstance(data, torch.Tensor):
        data = [(data,)]
    elif isinstance(data, (tuple, list)) and data and all(isinstance(t, torch.Tensor) for t in data):
        data = [tuple(data)]
    if not isinstance(data, (tuple, list)) or not data:
        raise ToolchainError(f"{what} {path}: holds {type(data).__name__}{' (empty)' if not data else ''}: {DATA_RULE}")
    batches = []
    for b, batch in enumerate(data):
        if isinstance(batch, torch.Tensor):
            batch = (batch,)
        if not isinstance(batch, (tuple, list)) or not batch or not all(isinstance(t, torch.Tensor) for t in batch):
            raise ToolchainError(f"{what} {path}: batch {b} is not a tuple of tensors: {DATA_RULE}")
        for i, t in enumerate(batch):
            if t.numel() > MAX_ELEMENTS:
                raise ToolchainError(
                    f"{what} {path}: batch {b} input {i} has {t.numel()} elements, more than {MAX_ELEMENTS}"
                )
            problem = tensor_problem(t, max_rank, backend, float32)
            if problem:
                raise ToolchainError(f"{what} {path}: batch {b} input {i} is {problem}")
        batches.append(tuple(batch))
    return batches


def tensor_problem(t: torch.Tensor, max_rank: int | None, backend: str = "LPAI", float32: bool = True) -> str | None:
    """Why a tensor cannot be a model input of a program of `backend` (None: it can;
    `float32`: a floating-point tensor must be float32)."""
    shape = list(t.shape)
    dtype = str(t.dtype).removeprefix("torch.")
    if t.is_complex():
        return f"complex ({dtype}{shape}): the quantizer takes real tensors"
    if float32 and t.is_floating_point() and t.dtype != torch.float32:
        return f"{dtype}{shape}: the model's float inputs must be float32 (save tensor.float())"
    if t.numel() == 0:
        return f"empty ({dtype}{shape}, no element)"
    if max_rank is not None and t.dim() > max_rank:
        return f"{dtype}{shape}: {t.dim()} dims, {backend} tensors have at most {max_rank}"
    return None


# --------------------------------------------------------------------------- export and lowering


@contextlib.contextmanager
def quiet():
    """ExecuTorch's and torch's warnings, log lines and prints while they quantize and lower
    (deprecations, QnnQuantizer's "No quant config is implemented for op" lines, the graph
    torch.export logs before it raises, which the error's one line replaces): nothing a
    user can act on."""
    previous = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        with (
            warnings.catch_warnings(),
            contextlib.redirect_stdout(io.StringIO()),
            contextlib.redirect_stderr(io.StringIO()),
        ):
            warnings.simplefilter("ignore")
            yield
    finally:
        logging.disable(previous)


def stage(what: str, spec: str, func, *args, cause: tuple | None = None):
    """func(*args), quietly; any failure of torch, ExecuTorch or your model's code is one line
    (`cause`: (model, example inputs), whose export may show why, see why_it_failed)."""
    try:
        with quiet():
            return func(*args)
    except ToolchainError:
        raise
    except (SystemExit, KeyboardInterrupt) as exc:
        raise ToolchainError(f"--model {spec}: {what}: stopped ({type(exc).__name__})") from None
    except Exception as exc:  # noqa: BLE001 - the model's, torch's or ExecuTorch's failure, one reason
        named = why_it_failed(spec, *cause) if cause is not None else None
        if named is not None:
            raise named from None
        raise ToolchainError(
            f"--model {spec}: {what} failed: {type(exc).__name__}: {one_line(exc)[:MAX_REASON]}"
        ) from None


# torch's control-flow operators (torch.ops.higher_order): ExecuTorch's Qualcomm passes
# take none (1.5.1: "An error occurred when running the 'LiftConstantScalarOperands' pass").
CONTROL_FLOW = {"cond": "torch.cond", "while_loop": "torch.while_loop", "map_impl": "torch.map", "scan": "torch.scan"}


def control_flow(exported: torch.export.ExportedProgram) -> list[str]:
    """'torch.cond (node cond)' for every control-flow node of an exported program."""
    return [
        f"{CONTROL_FLOW[name]} (node {node.name})"
        for node in exported.graph_module.graph.nodes
        if node.op == "call_function" and (name := getattr(node.target, "__name__", "")) in CONTROL_FLOW
    ]


def control_flow_problem(spec: str, exported: torch.export.ExportedProgram) -> ToolchainError | None:
    """The one line for a model whose export holds control flow (None: it holds none)."""
    found = control_flow(exported)
    if not found:
        return None
    return ToolchainError(
        f"--model {spec}: uses {', '.join(found)}: ExecuTorch's Qualcomm lowering takes no control-flow "
        "operator; compute both branches and select with torch.where, or export each branch as its own model"
    )


def why_it_failed(spec: str, model: torch.nn.Module, example: Sequence[torch.Tensor]) -> ToolchainError | None:
    """After a failed quantization or lowering: the cause that torch.export shows (control
    flow), or None.  Exports once more, quietly; any failure of that is no answer."""
    try:
        with quiet():
            exported = torch.export.export(model, tuple(example))
    except Exception:  # noqa: BLE001 - the stage's own line stands
        return None
    return control_flow_problem(spec, exported)


class _Reached(Exception):
    """The edge program, raised from the partitioner's place to end the lowering there."""

    def __init__(self, program):
        super().__init__("the partitioner's input")
        self.program = program


def lower_to_edge(
    module: torch.nn.Module, example: tuple, backend: str = "lpai", passes_job=None, dep_table=None
) -> torch.export.ExportedProgram:
    """The edge program to_edge_transform_and_lower_to_qnn hands its QnnPartitioner:
    torch.export (strict), the backend's pass manager's export passes, to_edge keeping the
    ops QnnPartitioner.ops_to_not_decompose keeps (leaky_relu, linear, ...), and its
    to_edge passes (all but LpaiPartitionFallbackSupport, which asks the QNN backend).
    A partitioner of ours takes QnnPartitioner's place and ends the lowering there.
    `passes_job`, `dep_table`: the to_edge passes' table and their order, as
    build_executorch_binary takes them (None: the backend's own)."""
    from executorch.backends.qualcomm.partition.qnn_partitioner import QnnPartitioner
    from executorch.backends.qualcomm.serialization.qc_schema import QnnExecuTorchBackendType
    from executorch.backends.qualcomm.utils.utils import get_qnn_pass_manager_cls, qnn_edge_config
    from executorch.exir import to_edge_transform_and_lower
    from executorch.exir.backend.partitioner import Partitioner

    class InPlaceOfQnn(Partitioner):
        def ops_to_not_decompose(self, program):
            return QnnPartitioner.ops_to_not_decompose(self, program)  # reads nothing of self

        def partition(self, program):
            raise _Reached(program)

    backend_type = {"lpai": QnnExecuTorchBackendType.kLpaiBackend, "htp": QnnExecuTorchBackendType.kHtpBackend}
    exported = torch.export.export(module, tuple(example), strict=True)
    manager = get_qnn_pass_manager_cls(backend_type[backend])()
    aten = manager.transform_for_export_pipeline(exported)
    passes = [
        p
        for p in manager.get_to_edge_transform_passes(exported, passes_job=passes_job, dep_table=dep_table)
        if type(p).__name__ != "LpaiPartitionFallbackSupport"
    ]
    # ExecuTorch hands a partitioner a copy whose weights are fake tensors
    # (backend_api.get_fake_program); the builders read the real ones: keep the program it copied.
    from executorch.exir.backend import backend_api

    copied = []
    fake_program = backend_api.get_fake_program

    def recording(program):
        copied.append(program)
        return fake_program(program)

    try:
        with unittest.mock.patch.object(backend_api, "get_fake_program", recording):
            to_edge_transform_and_lower(
                aten, transform_passes=passes, partitioner=[InPlaceOfQnn()], compile_config=qnn_edge_config()
            )
    except _Reached as reached:
        return copied[-1] if copied else reached.program
    raise RuntimeError("to_edge_transform_and_lower never called the partitioner")
