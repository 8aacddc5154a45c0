# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The HTP op package's implementations (op_package/htp/src/ops/) against torch eager.

Every op, for each element type an HTP graph gives it (Float32; QUInt8, the a8w8
quantizer's; QUInt16, a16w8's), at its param defaults and at other values, on inputs
drawn from its domain (OpInfo.domains) with the later inputs of an elementwise op
broadcast: the cases go to op_package/htp/host/test_htp.cpp (the implementations with
the template's stand-in of the HTP API), built on the host (`make host-test`: under
ASan and UBSan, HTP_SAN=1) and as Hexagon code (`make hexagon-test`, under
qemu-hexagon), which must write the host's bytes.

Expected values: torch eager on the inputs as the kernel reads them (for a quantized
input: (code - zero point) x scale); a quantized result is then rounded as the package
documents it (value x (1 / scale), half to even, plus the zero point, clamped), in numpy
here. Float32: within one ulp of eager for an elementwise op (the same float math); a
custom op's own C math within 1e-5. Codes: equal, or one off where eager's value lies
within a hair of a rounding tie.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import struct
from pathlib import Path

import numpy as np
import pytest
import torch

from norm_ops import op_package_xml
from norm_ops._package import PACKAGE_NAME
from norm_ops.ops import OPS

import failure
import op_package_host as host
from conftest import make_inputs

HTP_DIR = host.ROOT / "op_package" / "htp"
# The cases and results of this process (pytest-xdist's workers each their own).
BUILD = HTP_DIR / "build" / "pytest" / os.environ.get("PYTEST_XDIST_WORKER", "main")
# QHPI's element types (HTP/core/qhpi.h, standin/htp_standin.h), its layout, storage and
# placement values, and its kernel statuses.
FLOAT32, QUINT8, QUINT16, INT32 = 4, 1, 2, 5
FLAT4, DIRECT, DDR_OR_TCM = 2, 0, 2
DTYPES = {"float32": (FLOAT32, None), "uint8": (QUINT8, 255), "uint16": (QUINT16, 65535)}
SUCCESS, ERROR_FATAL = 0, 2
# The driver's status of a case no kernel's signatures take (host/test_htp.cpp).
NO_KERNEL = 255
# An int param past float32's exact integers: the runtime sends it as UINT_32 and the
# kernel must read its 32 bits as they are.
PAST_FLOAT = 2**24 + 1
# Elementwise ops whose expression calls exp, log, tanh, ... (qnn-op-template/hooks/expr.py `libm`): their
# C math is the template's float32 approximation (lpai_expr_math.h), the same on both
# backends, not torch's; within LIBM_ULPS ulps of max(|eager|, 1) rather than one ulp.
LIBM_OPS = frozenset()
LIBM_ULPS = 4
SHAPE = (1, 2, 4, 32)  # 256 elements: every 8-bit code of a one-input op once


def _driver(kind: str) -> Path:
    """Builds the host driver (or the Hexagon one) and returns its path; one process
    builds at a time (pytest-xdist's workers share the build folder)."""
    BUILD.mkdir(parents=True, exist_ok=True)
    with open(HTP_DIR / "build" / f".{kind}-driver.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _build_driver(kind)


def _build_driver(kind: str) -> Path:
    if kind == "hexagon":
        result = host.make("-C", str(HTP_DIR), "-f", "makefiles/hexagon_test.mk", "driver", budget=600)
        path = HTP_DIR / "build" / "hexagon-test" / "test_htp.hexagon"
    else:
        san = os.environ.get("HTP_SAN") == "1"
        cxx, cc = ("clang++", "clang") if san and shutil.which("clang++") else ("c++", "cc")
        args = ["-C", str(HTP_DIR), "-f", "makefiles/host.mk", "driver", f"SAN={int(san)}", f"CXX={cxx}", f"CC={cc}"]
        result = host.make(*args, budget=600)
        path = HTP_DIR / "build" / "host" / f"{cxx}{'-san' if san else ''}" / "test_htp"
    assert result.returncode == 0, f"building the HTP {kind} driver failed:\n{result.stdout}{result.stderr}"
    return path


# ---------------------------------------------------------------- the cases file
def _tensor_header(dtype: int, shape, scale: float, zero_point: int) -> bytes:
    return struct.pack(f"<II{len(shape)}IfI", dtype, len(shape), *shape, scale, zero_point & 0xFFFFFFFF)


def _param(kind: str, value) -> bytes:
    """A param as the runtime hands it to a kernel: a float as Float32, an int or bool
    (QNN_DATATYPE_UINT_32) as Int32 holding its 32 bits."""
    if kind == "float":
        return struct.pack("<If", FLOAT32, float(value))
    return struct.pack("<II", INT32, int(value) & 0xFFFFFFFF)


def _qparams(low: float, high: float, qmax: int) -> tuple[float, int]:
    """Asymmetric qparams covering [low, high] and 0, as the quantizers' observers make
    them (scale floored at float32 eps)."""
    low, high = min(low, 0.0), max(high, 0.0)
    scale = float(np.float32(max((high - low) / qmax, float(np.finfo(np.float32).eps))))
    zero_point = int(min(max(round(-low / scale), 0), qmax))
    return scale, zero_point


def _requantize(value: np.ndarray, scale: float, zero_point: int, qmax: int) -> np.ndarray:
    """The package's documented rounding, in numpy: x (1 / scale) in float32, half to even."""
    inv = np.float32(1.0) / np.float32(scale)
    codes = np.round(value.astype(np.float32) * inv).astype(np.float64) + zero_point
    return np.clip(np.nan_to_num(codes, nan=0.0), 0, qmax).astype(np.int64)


class Case:
    """One call of one op: what the driver gets, and what torch says it must write."""

    def __init__(self, op, dtype: str, params: list, seed: int):
        self.op, self.dtype, self.params = op, dtype, list(params)
        code, qmax = DTYPES[dtype]
        gen = torch.Generator().manual_seed(seed)
        floats = make_inputs(op, seed=seed, shape=SHAPE)
        self.inputs = []  # (header bytes, data bytes)
        real = []
        for k, (x, (low, high)) in enumerate(zip(floats, op.domains)):
            if qmax is None:
                real.append(x)
                self.inputs.append((_tensor_header(code, x.shape, 1.0, 0), x.numpy().astype("<f4").tobytes()))
                continue
            scale, zp = _qparams(low, high, qmax)
            if qmax == 255 and k == 0 and x.numel() == 256:
                codes = torch.randperm(256, generator=gen).reshape(x.shape)  # every code once
            else:
                codes = torch.randint(0, qmax + 1, x.shape, generator=gen)
            real.append(((codes - zp).to(torch.float32) * scale).to(torch.float32))
            width = "<u1" if qmax == 255 else "<u2"
            self.inputs.append((_tensor_header(code, x.shape, scale, zp), codes.numpy().astype(width).tobytes()))
        with torch.no_grad():
            result = op.default(*real, *self.params)
        self.expected = [t.contiguous() for t in (result if isinstance(result, tuple) else (result,))]
        self.outputs = []  # (header bytes, qparams or None)
        for t in self.expected:
            if qmax is None:
                self.outputs.append((_tensor_header(code, t.shape, 1.0, 0), None))
            else:
                finite = t[torch.isfinite(t)]
                low = float(finite.min()) if finite.numel() else 0.0
                high = float(finite.max()) if finite.numel() else 0.0
                scale, zp = _qparams(low, high, qmax)
                self.outputs.append((_tensor_header(code, t.shape, scale, zp), (scale, zp, qmax)))

    def encode(self) -> bytes:
        name = self.op.qnn_type.encode()
        out = struct.pack("<I", len(name)) + name
        out += struct.pack("<III", len(self.outputs), len(self.inputs), len(self.params))
        out += b"".join(header for header, _ in self.outputs)
        out += b"".join(header + struct.pack("<Q", len(data)) + data for header, data in self.inputs)
        out += b"".join(_param(kind, value) for (_, kind, _), value in zip(self.op.params, self.params))
        return out

    def check(self, status: int, outputs: list[bytes]) -> str | None:
        """None when the driver wrote what torch says, else what differs."""
        if status != SUCCESS:
            return f"status {status}"
        for k, (data, expected, (_, quant)) in enumerate(zip(outputs, self.expected, self.outputs)):
            name = f"output {k}"
            if quant is None:
                got = torch.from_numpy(np.frombuffer(data, dtype="<f4").copy()).reshape(expected.shape)
                if self.op.kind == "elementwise":
                    # Within one ulp of eager (LIBM_ULPS for LIBM_OPS), NaN where eager has NaN.
                    base = expected.abs().clamp(min=1.0) if self.op.name in LIBM_OPS else expected.abs()
                    ulp = torch.nextafter(base, torch.tensor(float("inf"))) - base
                    ulp = ulp * (LIBM_ULPS if self.op.name in LIBM_OPS else 1)
                    close = ((got - expected).abs() <= ulp) | (got == expected) | (got.isnan() & expected.isnan())
                else:
                    # NaN where eager has NaN (its payload is not compared); the tolerance
                    # from the finite values (a NaN would make it NaN).
                    finite = expected[torch.isfinite(expected)]
                    largest = float(finite.abs().max()) if finite.numel() else 0.0
                    close = torch.isclose(got, expected, rtol=1e-5, atol=1e-5 * largest, equal_nan=True)
                if not bool(close.all()):
                    i = int((~close).flatten().nonzero()[0])
                    return f"{name}: {int((~close).sum())} values differ; first at {i}: {float(got.flatten()[i])!r} torch {float(expected.flatten()[i])!r}"
                continue
            scale, zp, qmax = quant
            width = "<u1" if qmax == 255 else "<u2"
            got = torch.from_numpy(np.frombuffer(data, dtype=width).astype(np.int64)).reshape(expected.shape)
            want = torch.from_numpy(_requantize(expected.numpy(), scale, zp, qmax))
            # A tie within the float math's own error: 16-bit codes are fine enough for an ulp
            # or two of the result to cross one.
            largest = float(expected[torch.isfinite(expected)].abs().max()) if expected.numel() else 0.0
            error = (
                LIBM_ULPS * float(np.spacing(np.float32(max(largest, 1.0))))
                if self.op.name in LIBM_OPS or self.op.kind == "custom"
                else 2 * float(np.spacing(np.float32(largest)))
            )
            tie = max(1e-4, error / scale)
            problem = host.compare(got, want, expected.clamp(-scale * zp, scale * (qmax - zp)), scale, zp, tie)
            if problem:
                return f"{name}: {problem}"
        return None


def _cases() -> list[Case]:
    cases = []
    for i, op in enumerate(OPS):
        defaults = list(op.param_defaults)
        other = host.random_params(op, torch.Generator().manual_seed(100 + i))
        sets = [defaults, other] if other != defaults else [defaults]
        # An int param past float32's exact integers, where its declared range takes one:
        # read as the runtime sends it (UINT_32), not through float.
        past = [
            span is not None and kind == "int" and span[0] <= PAST_FLOAT <= span[1]
            for (_, kind, _), span in zip(op.params, op.param_spans)
        ]
        if any(past):
            sets.append([PAST_FLOAT if p else value for p, value in zip(past, defaults)])
        for dtype in DTYPES:
            for j, params in enumerate(sets):
                cases.append(Case(op, dtype, params, seed=1000 * i + 10 * j + len(cases)))
    return cases


def _write_cases(path: Path, cases: list[Case]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"HTPC" + struct.pack("<I", len(cases)) + b"".join(c.encode() for c in cases))


def _read_results(path: Path, cases: list[Case]) -> list[tuple[int, list[bytes]]]:
    data = path.read_bytes()
    assert data[:4] == b"HTPR" and struct.unpack_from("<I", data, 4)[0] == len(cases)
    at, results = 8, []
    for case in cases:
        (status,) = struct.unpack_from("<i", data, at)
        at += 4
        outs = []
        for _ in case.outputs:
            (n,) = struct.unpack_from("<Q", data, at)
            outs.append(data[at + 8 : at + 8 + n])
            at += 8 + n
        results.append((status, outs))
    assert at == len(data)
    return results


@pytest.fixture(scope="module")
def run():
    """Every case through the host driver: (cases, their results, the cases file, the results file)."""
    driver = _driver("host")
    cases = _cases()
    cases_file, results_file = BUILD / "cases.bin", BUILD / "results.host.bin"
    _write_cases(cases_file, cases)
    result = host.run_command([str(driver), str(cases_file), str(results_file)], 600)
    assert result.returncode == 0, result.stderr
    return cases, _read_results(results_file, cases), cases_file, results_file


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_every_op_matches_torch_eager(run, op, dtype):
    cases, results, _, _ = run
    checked = 0
    for case, (status, outputs) in zip(cases, results):
        if case.op is op and case.dtype == dtype:
            failure.note(op, params=case.params, inputs=f"{failure.domains_text(op, op.domains)} as {dtype}")
            problem = case.check(status, outputs)
            assert problem is None, f"{op.qnn_type} {dtype} params {case.params}: {problem}"
            checked += 1
    assert checked >= 1


def test_the_driver_registers_every_op_with_flat_direct_kernels_and_the_xml_s_params():
    """qhpi_init registers every op of the XML under "<package>::<Op>": three kernels
    (Float32, QUInt8, QUInt16) whose tensors are flat and direct, then one input per
    param in OpDef order, Float32 for a float and Int32 for an int or bool (UINT_32)."""
    driver = _driver("host")
    listed = host.run_command([str(driver), "--list"], 60).stdout.splitlines()
    opdefs = {d.name: d for d in op_package_xml.parse(HTP_DIR / "config" / f"{PACKAGE_NAME}.xml").ops}
    assert {d.backends for d in opdefs.values()} == {("HTP",)}
    assert f"package {PACKAGE_NAME}" in listed
    prefix = f"{PACKAGE_NAME}::"
    ops = {line.split()[1]: line.split()[2:] for line in listed if line.startswith("op ")}
    assert all(name.startswith(prefix) for name in ops), ops
    assert sorted(name[len(prefix) :] for name in ops) == sorted(op.qnn_type for op in OPS) == sorted(opdefs)
    kernels = [line.split()[1:] for line in listed if line.startswith("kernel ")]
    for op in OPS:
        declared = opdefs[op.qnn_type]
        n_in = len(declared.inputs) + len(declared.params)
        assert ops[prefix + op.qnn_type] == [str(len(declared.outputs)), str(n_in), "3"], op.qnn_type
        params = [f"{FLOAT32 if kind == 'float' else INT32}/{FLAT4}/{DIRECT}/{DDR_OR_TCM}" for _, kind, _ in op.params]
        mine = sorted(k[1:] for k in kernels if k[0] == prefix + op.qnn_type)
        want = []
        for code, _ in DTYPES.values():
            tensor = f"{code}/{FLAT4}/{DIRECT}/{DDR_OR_TCM}"
            outs = [tensor] * len(declared.outputs)
            want.append([tensor] * len(declared.inputs) + params + ["->"] + outs + ["cost=yes", "multithreaded=0"])
        assert mine == sorted(want), op.qnn_type


def _refused(op, mutate) -> tuple[int, bytes, bytes]:
    """The driver's status and first output for a float32 case of `op` changed by mutate(case)."""
    case = Case(op, "float32", list(op.param_defaults), seed=7)
    mutate(case)
    path = BUILD / f"refused-{op.qnn_type}.bin"
    _write_cases(path, [case])
    out = path.with_suffix(".out")
    result = host.run_command([str(_driver("host")), str(path), str(out)], 60)
    assert result.returncode == 0, result.stderr
    [(status, outputs)] = _read_results(out, [case])
    return status, outputs[0], result.stderr


def test_an_output_of_the_wrong_shape_is_refused_and_left_untouched(op):
    def grow(case):
        header, quant = case.outputs[0]
        shape = tuple(case.expected[0].shape)
        wider = shape[:-1] + (shape[-1] + 1,) if shape else (2,)
        case.outputs[0] = (_tensor_header(FLOAT32, wider, 1.0, 0), quant)
        case.expected[0] = torch.zeros(wider)

    status, output, said = _refused(op, grow)
    assert status == ERROR_FATAL
    assert set(output) == {0xA5}, "the op wrote into an output it refused"
    assert "shape" in said


def test_no_kernel_takes_an_element_type_the_package_does_not_compute(op):
    """An Int32 tensor matches no kernel's signature: the runtime converts it or refuses
    the graph, and never calls a kernel with it."""

    def retype(case):
        header, data = case.inputs[0]
        case.inputs[0] = (struct.pack("<I", INT32) + header[4:], data)

    status, output, said = _refused(op, retype)
    assert status == NO_KERNEL and set(output) == {0xA5}
    assert "no kernel takes these tensors" in said


@pytest.mark.parametrize("scale", [0.0, float("nan"), float("inf"), 1e-45])
def test_an_unusable_scale_is_refused_with_one_line(scale):
    """Scale 0, NaN, inf and a denormal (whose 1 / scale is infinite) get the same line."""
    op = OPS[0]
    case = Case(op, "uint8", list(op.param_defaults), seed=7)
    header, data = case.inputs[0]
    rank = struct.unpack_from("<I", header, 4)[0]
    at = 8 + 4 * rank
    case.inputs[0] = (header[:at] + struct.pack("<f", scale) + header[at + 4 :], data)
    path = BUILD / "refused-scale.bin"
    _write_cases(path, [case])
    out = path.with_suffix(".out")
    result = host.run_command([str(_driver("host")), str(path), str(out)], 60)
    assert result.returncode == 0, result.stderr
    [(status, outputs)] = _read_results(out, [case])
    assert status == ERROR_FATAL and set(outputs[0]) == {0xA5}
    lines = [line for line in result.stderr.splitlines() if "not a usable quantization" in line]
    assert len(lines) == 1, result.stderr


@pytest.mark.hexagon
def test_hexagon_code_writes_the_host_s_bytes(run):
    if shutil.which("qemu-hexagon") is None:
        pytest.skip("no qemu-hexagon (apt-get install qemu-user)")
    if host.run_command(["python3", "-m", "ziglang", "version"], 60).returncode != 0:
        pytest.skip("zig does not run (pip install ziglang)")
    cases, _, cases_file, host_results = run
    driver = _driver("hexagon")
    out = BUILD / "results.hexagon.bin"
    result = host.run_command(["qemu-hexagon", "-cpu", "v67", str(driver), str(cases_file), str(out)], 900)
    assert result.returncode == 0, result.stderr
    hexagon = _read_results(out, cases)
    problems = [
        problem
        for case, mine, theirs in zip(cases, _read_results(host_results, cases), hexagon)
        if (problem := hexagon_differs(case, mine, theirs)) is not None
    ]
    assert not problems, f"Hexagon results differ from the host's in {len(problems)} cases; {problems[0]}"


def hexagon_differs(case: Case, host_result, hexagon_result) -> str | None:
    """None when the Hexagon code wrote what the host driver wrote, else the first
    difference: op, element type, params, element and both values.  Exactly, except
    where the two builds' libm may differ (x86_64 glibc, Hexagon musl): an op of LIBM_OPS
    or a custom op (whose C math may call powf, sqrtf, ...) may differ within LIBM_ULPS
    ulps of max(|value|, 1) in float32 and by one code when quantized.  NaN equals NaN
    (the payload bytes are not compared)."""
    (status, outputs), (hex_status, hex_outputs) = host_result, hexagon_result
    about = f"{case.op.qualified_name} {case.dtype} params {case.params}"
    if status != hex_status:
        return f"{about}: status {hex_status} on Hexagon, {status} on the host"
    libm = case.op.name in LIBM_OPS or case.op.kind == "custom"
    for k, (mine, theirs, (_, quant)) in enumerate(zip(outputs, hex_outputs, case.outputs)):
        if len(mine) != len(theirs):
            return f"{about}: output {k} has {len(theirs)} bytes on Hexagon, {len(mine)} on the host"
        if quant is None:
            a, b = np.frombuffer(mine, dtype="<f4"), np.frombuffer(theirs, dtype="<f4")
            same = (a == b) | (np.isnan(a) & np.isnan(b))
            if libm:
                ulps = LIBM_ULPS * np.spacing(np.maximum(np.abs(a), np.float32(1.0)))
                same |= np.abs(a.astype(np.float64) - b.astype(np.float64)) <= ulps
        else:
            width = "<u1" if quant[2] == 255 else "<u2"
            a = np.frombuffer(mine, dtype=width).astype(np.int64)
            b = np.frombuffer(theirs, dtype=width).astype(np.int64)
            same = np.abs(a - b) <= (1 if libm else 0)
        if not same.all():
            i = int(np.flatnonzero(~same)[0])
            allowed = f" (beyond the {LIBM_ULPS} ulps libm may differ by)" if libm and quant is None else ""
            return (
                f"{about}: output {k} element {i}: Hexagon {b[i]!r}, host {a[i]!r}{allowed}; "
                f"{int((~same).sum())} of {same.size} elements differ"
            )
    return None


def test_the_hexagon_comparison_allows_libm_s_ulps_and_nan_payloads_only():
    """hexagon_differs on made-up results (no Hexagon needed): NaN of another payload is
    NaN; an ulp is within libm's error for a custom op or a libm op only, beyond it a
    failure names op, params, element and both values; a status is compared exactly."""
    for case in [c for c in _cases() if c.dtype == "float32"][:4]:
        host_bytes = [t.numpy().astype("<f4").tobytes() for t in case.expected]
        first = np.frombuffer(host_bytes[0], dtype="<u4").copy()
        nan = first.copy()
        nan[0] = 0x7FC00000 if nan[0] != 0x7FC00000 else 0xFFFFFFFF
        both_nan = first.copy()
        both_nan[0] = 0xFFC00000
        host_nan = [both_nan.tobytes(), *host_bytes[1:]]
        assert hexagon_differs(case, (SUCCESS, host_nan), (SUCCESS, [nan.tobytes(), *host_bytes[1:]])) is None
        ulp = first.copy()
        ulp[1] += 1
        one_ulp = hexagon_differs(case, (SUCCESS, host_bytes), (SUCCESS, [ulp.tobytes(), *host_bytes[1:]]))
        libm = case.op.name in LIBM_OPS or case.op.kind == "custom"
        assert (one_ulp is None) == libm, one_ulp
        far = first.view("<f4").copy()
        far[2] = far[2] * 2 + 1
        said = hexagon_differs(case, (SUCCESS, host_bytes), (SUCCESS, [far.tobytes(), *host_bytes[1:]]))
        assert said is not None and said.startswith(f"{case.op.qualified_name} float32 params {case.params}: ")
        assert "output 0 element 2: Hexagon " in said, said
        status = hexagon_differs(case, (SUCCESS, host_bytes), (ERROR_FATAL, host_bytes))
        assert status is not None and "status 2 on Hexagon, 0 on the host" in status
