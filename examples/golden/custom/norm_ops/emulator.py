# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Drives the op package's kernels through its host emulator (ctypes), on this machine.

`make host-lib` builds op_package/<Package>/build/host/emu-lib/libemu.so: the package's
kernels, its compiler side and the emulator in host/. This module mirrors host/lpai_emu.h
and turns torch codes, scales and layouts into emulator calls. Torch-side quantization
is the oracle: a uint8 tensor with (scale, zero_point) is what the emulator serves as
LPAI offset zero_point - 128, so kernel codes and torch codes compare one to one.
The tests (tests/op_package_host.py) and `python -m <namespace> report` use it.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import torch

from ._package import PACKAGE_NAME

# The op package of the project this package sits in (the project root holds both);
# use(op_dir) drives another one (`report --project`).
OP_DIR = Path(__file__).resolve().parents[1] / "op_package" / PACKAGE_NAME
BUILD = "build/host/emu-lib"
# The library's compiler and flags are the C suite's gcc -Werror build's
# (tests/test_op_package_build.py builds that one in BUILD too): the kernels' -O2
# objects, most of a build's time, are compiled once for both.
LIB_CC = "gcc"
MAX_DIMS = 8
SCALE_FLOAT, SCALE_INT, SCALE_UNDEFINED = 0, 1, 2
LPAI_DATATYPE_INT_32 = 7  # LPAI_CUSTOM_OP_DATATYPE_INT_32, the SDK's value (sdk_standin/lpai_sdk_standin.h)
QNN = {"UINT_8": 0x0108, "UFIXED_POINT_8": 0x0408, "INT_32": 0x0032, "UFIXED_POINT_16": 0x0416}


class Desc(ctypes.Structure):
    _fields_ = [
        ("rank", ctypes.c_uint32),
        ("dims", ctypes.c_uint32 * MAX_DIMS),
        ("layout_rank", ctypes.c_uint32),
        ("order", ctypes.c_uint8 * MAX_DIMS),
        ("stride", ctypes.c_uint32 * MAX_DIMS),
        ("bits", ctypes.c_uint32),
        ("report_type", ctypes.c_int32),
        ("layout_form", ctypes.c_int32),
        ("scale_form", ctypes.c_uint32),
        ("scale", ctypes.c_float),
        ("shift", ctypes.c_int32),
        ("zero_point", ctypes.c_int32),
    ]


@contextlib.contextmanager
def build_lock(op_dir: Path):
    """One make at a time writing into the op package's build/ folder, across processes:
    two pytest-xdist workers (or a `report` beside the tests) building the same objects
    linked a test binary without `main` and ran one while it was relinked ("Text file
    busy"), seen in about half the `python -m pytest -n 2` runs of a project whose tests
    split the C suite between the workers. flock(2) on build/.lock: released when the
    holder ends, however it ends."""
    build = Path(op_dir) / "build"
    build.mkdir(parents=True, exist_ok=True)
    with open(build / ".lock", "a") as f:
        try:
            import fcntl
        except ImportError:  # not a POSIX system: no second process to keep out here
            yield
            return
        fcntl.flock(f, fcntl.LOCK_EX)
        yield


def compilers() -> list[str]:
    """The C compilers to build the suite with: gcc always, clang when installed."""
    return [cc for cc in ("gcc", "clang") if shutil.which(cc)]


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True)


# How make runs and where a long build says what it does: the tests set both (a time
# limit that stretches with the machine's load; a line past pytest's capture).
RUNNER = _run
PROGRESS = None


def make(*args: str, op_dir: Path | None = None) -> subprocess.CompletedProcess:
    return RUNNER(["make", "--no-print-directory", *args], op_dir or OP_DIR)


class BuildError(RuntimeError):
    """make host-lib failed; the message holds make's output."""


def use(op_dir: Path) -> None:
    """Drive the op package in `op_dir` from now on (`report --project`)."""
    global OP_DIR
    OP_DIR = Path(op_dir).resolve()


def library() -> ctypes.CDLL:
    """The emulator library of the op package (OP_DIR), built with `make host-lib` once
    per process and folder."""
    return _library(OP_DIR.resolve())


@functools.cache
def _library(op_dir: Path) -> ctypes.CDLL:
    if PROGRESS is not None:
        PROGRESS(f"op package: building the host library (make host-lib BUILD={BUILD} CC={LIB_CC}, every kernel)...")
    start = time.monotonic()
    with build_lock(op_dir):
        result = make("host-lib", f"BUILD={BUILD}", f"CC={LIB_CC}", "-j2", op_dir=op_dir)
    if result.returncode != 0:
        raise BuildError(f"make host-lib failed:\n{result.stdout}\n{result.stderr}")
    if PROGRESS is not None:
        PROGRESS(f"op package: host library built in {time.monotonic() - start:.0f} s")
    lib = ctypes.CDLL(str(op_dir / BUILD / "libemu.so"))
    lib.lpai_emu_add_input.argtypes = [ctypes.POINTER(Desc), ctypes.c_void_p]
    lib.lpai_emu_add_output.argtypes = [ctypes.POINTER(Desc)]
    lib.lpai_emu_add_param_f32.argtypes = [ctypes.c_char_p, ctypes.c_float]
    lib.lpai_emu_add_param_u32.argtypes = [ctypes.c_char_p, ctypes.c_uint32]
    lib.lpai_emu_execute.argtypes = [ctypes.c_char_p, ctypes.c_int32]
    lib.lpai_emu_read_output.argtypes = [ctypes.c_void_p]
    lib.lpai_emu_read_output_k.argtypes = [ctypes.c_uint32, ctypes.c_void_p]
    lib.lpai_emu_temp.argtypes = [ctypes.c_int64]
    lib.lpai_emu_temp_served.restype = ctypes.c_uint64
    lib.lpai_emu_last_scratch.restype = ctypes.c_uint64
    lib.lpai_emu_row_max.restype = ctypes.c_uint32
    lib.lpai_emu_last_reject.restype = ctypes.c_char_p
    lib.lpai_emu_last_path.restype = ctypes.c_char_p
    lib.lpai_emu_layout_flag.argtypes = [ctypes.c_char_p]
    lib.lpai_emu_layout_flag.restype = ctypes.c_uint32
    lib.lpai_emu_int_scale.argtypes = [ctypes.c_float, ctypes.c_int32, ctypes.POINTER(ctypes.c_int32)]
    lib.lpai_emu_validate.restype = ctypes.c_int64
    lib.lpai_emu_register.restype = ctypes.c_int64
    lib.lpai_emu_quiet(1)
    return lib


@dataclass
class Tensor:
    """One tensor as the emulator serves it. `order` is layoutOrder (slowest first);
    `pad` adds that many bytes to every stride, the fastest included."""

    shape: tuple[int, ...]
    scale: float = 1.0 / 255.0
    zero_point: int = 0
    order: tuple[int, ...] | None = None
    pad: int = 0
    scale_form: int = SCALE_FLOAT
    shift: int = 37
    bits: int = 8
    report_type: int = -1
    layout_rank: int = 0
    layout_form: int = 0
    extra: dict = field(default_factory=dict)

    def desc(self) -> Desc:
        d = Desc()
        rank = len(self.shape)
        d.rank = rank
        order = self.order if self.order is not None else tuple(range(rank))
        for i, n in enumerate(self.shape):
            d.dims[i] = n
        for i, o in enumerate(order):
            d.order[i] = o
        elem = max(1, self.bits // 8)
        stride = elem + self.pad
        for i in reversed(range(rank)):
            d.stride[i] = stride
            stride = stride * self.shape[order[i]] + self.pad
        d.layout_rank = self.layout_rank
        d.bits = self.bits
        d.report_type = self.report_type
        d.layout_form = self.layout_form
        d.scale_form = self.scale_form
        d.scale = self.scale
        d.zero_point = self.zero_point
        shift = self.shift
        if self.scale_form == SCALE_INT:
            # The largest shift <= the requested one that represents the scale exactly.
            out = ctypes.c_int32()
            while shift > 0 and library().lpai_emu_int_scale(self.scale, shift, ctypes.byref(out)) != 0:
                shift -= 1
        d.shift = shift
        return d


class Rejected(Exception):
    def __init__(self, status: int, reason: str):
        super().__init__(f"kernel returned {status}: {reason}")
        self.status = status
        self.reason = reason


# Which loop of the kernel runs (host/lpai_emu.h LPAI_EMU_PATH_*): "auto" lets the
# kernel choose by cost, the others force one ("table" is for unary ops).
PATHS = {"auto": 0, "reference": 1, "direct": 2, "table": 3}


# What getTempBuffer serves (host/lpai_emu.h LPAI_EMU_TEMP_*): "asked" is exactly the
# bytes of the op's getTempBufferSize; "null" a failure (no buffer); "no-call" no
# getTempBuffer; a byte count serves exactly that many, its size reported.
TEMP = {"asked": -1, "null": -2, "no-call": -3}


def _named(op_type: str, params) -> list[tuple[str, str, object]]:
    """Each param as (name, kind, value). A (kind, value) pair, as tests written before
    the kernels asked for params by name pass them, takes the op's param name at its
    position."""
    named = []
    for i, param in enumerate(params):
        if len(param) == 3:
            named.append(tuple(param))
            continue
        from .ops import OPS

        op = next(op for op in OPS if op.qnn_type == op_type)
        named.append((op.params[i][0], *param))
    return named


def run(
    op_type: str,
    inputs: list[tuple[Tensor, torch.Tensor]],
    output: Tensor,
    params: list[tuple[str, str, object]] = (),
    reference: bool = False,
    path: str = "auto",
) -> torch.Tensor:
    """Runs one node; returns the output as torch codes (uint8, output.shape).
    `reference=True` is `path="reference"`. Raises Rejected when the kernel refuses the node."""
    return run_n(op_type, inputs, [output], params, "reference" if reference else path)[0]


def run_n(
    op_type: str,
    inputs: list[tuple[Tensor, torch.Tensor]],
    outputs: list[Tensor],
    params: list[tuple[str, str, object]] = (),
    path: str = "auto",
    temp: str | int = "asked",
) -> list[torch.Tensor]:
    """Runs one node with several outputs; returns each as torch codes (uint8, its
    shape). `temp` is what getTempBuffer serves (TEMP, or a byte count)."""
    lib = library()
    lib.lpai_emu_reset()
    keep = []
    for spec, codes in inputs:
        data = codes.to(torch.uint8).contiguous().flatten().numpy().copy()
        keep.append(data)
        d = spec.desc()
        if lib.lpai_emu_add_input(ctypes.byref(d), data.ctypes.data) < 0:
            raise ValueError(f"emulator refused input descriptor {spec}")
    for j, output in enumerate(outputs):
        d = output.desc()
        if lib.lpai_emu_add_output(ctypes.byref(d)) != j:
            raise ValueError(f"emulator refused output descriptor {output}")
    for name, kind, value in _named(op_type, params):  # getParamTensor looks each up by name
        if kind == "float":
            lib.lpai_emu_add_param_f32(name.encode(), float(value))
        else:  # int and bool: UINT_32, as ExecuTorch sends them
            lib.lpai_emu_add_param_u32(name.encode(), int(value))
    lib.lpai_emu_temp(TEMP[temp] if isinstance(temp, str) else int(temp))
    status = lib.lpai_emu_execute(op_type.encode(), PATHS[path])
    if status != 0:
        raise Rejected(status, lib.lpai_emu_last_reject().decode())
    results = []
    for j, output in enumerate(outputs):
        out = torch.empty(output.shape, dtype=torch.uint8)
        lib.lpai_emu_read_output_k(j, out.numpy().ctypes.data)
        results.append(out)
    return results


def scratch() -> tuple[int, int, bool]:
    """Of the last call: bytes of scratch the kernel used (temp buffer, or rowwise its
    stack buffer), bytes getTempBuffer had to serve, whether the kernel called it."""
    lib = library()
    return int(lib.lpai_emu_last_scratch()), int(lib.lpai_emu_temp_served()), bool(lib.lpai_emu_temp_called())


def output_untouched() -> bool:
    return bool(library().lpai_emu_output_untouched())


def padding_untouched() -> bool:
    return bool(library().lpai_emu_padding_untouched())


def last_path() -> str:
    return library().lpai_emu_last_path().decode()


def last_repacked() -> bool:
    """Whether the last call handed the kernel dense copies of permuted or padded
    tensors: what the backend does for an op declaring QNN_LPAI_OP_LAYOUT_DEFAULT."""
    return bool(library().lpai_emu_last_repacked())


# ---- the torch oracle -------------------------------------------------------------
def dequantize(codes: torch.Tensor, scale: float, zero_point: int) -> torch.Tensor:
    q = torch._make_per_tensor_quantized_tensor(codes.to(torch.uint8), scale, zero_point)
    return q.dequantize()


def quantize(values: torch.Tensor, scale: float, zero_point: int) -> torch.Tensor:
    """The quantization of the exported graph (torch's quantized_decomposed.quantize_per_tensor
    and ExecuTorch's quantize_per_tensor kernel): round half to even of value * (1 / scale)
    in float32, then add the zero point, then clamp; plus the kernels' NaN rule
    (qnn-op-template/docs/spec.md): NaN becomes the lowest code, 0.

    Not torch.quantize_per_tensor: on quint8 tensors (FBGEMM) it adds the zero point
    before rounding, so at an exact tie with an odd zero point it is one code off both
    (test_the_oracle_rounds_like_the_exported_graph_at_odd_zero_point_ties). torch has
    no NaN rule: quantize_per_tensor gives the highest code on x86 and quantized_decomposed
    converts NaN to an integer, which is undefined (0 on x86)."""
    inv_scale = torch.tensor(1.0 / scale, dtype=torch.float32)
    codes = torch.round(values.to(torch.float32) * inv_scale) + zero_point
    codes = torch.where(torch.isnan(values), torch.zeros_like(codes), codes)
    return codes.clamp(0, 255).to(torch.uint8)
