"""The op package's stand-in for Qualcomm's declarations keeps the SDK's ABI.

`host/sdk_abi_check.c` pins sizes, member offsets, enum and macro values and function
types measured on public copies of the SDK's headers. It must pass against the
stand-in (`sdk_standin/lpai_sdk_standin.h`) as the template ships it, and fail when
any one pinned fact of the stand-in changes: each case below edits one declaration in
a copy and expects the build (or the check's run, for the initializer macros) to fail
naming the fact. Plain files of the template, compiled straight from template/ (no
render): about 0.1 s a compile.

With QNN_SDK_ROOT pointing to a folder laid out as the SDK (include/QNN/...), the same
check runs against those headers, and `make sdk-check` on a render of
examples/scale.yaml; skipped otherwise.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import load_example

OP_PACKAGE = Path(__file__).resolve().parents[1] / "template" / "op_package" / "{{pkg.package_name}}"
STANDIN = OP_PACKAGE / "sdk_standin" / "lpai_sdk_standin.h"
CHECK = OP_PACKAGE / "host" / "sdk_abi_check.c"
COMPILERS = [cc for cc in ("gcc", "clang") if shutil.which(cc)]

# (name: one pinned fact, the stand-in's text, the changed text, what the failure names)
MUTATIONS = {
    "infrastructure members swapped": (
        "    QnnLpaiCustomOp_GetInputTensor_t getInputTensor;\n    QnnLpaiCustomOp_GetOutputTensor_t getOutputTensor;\n",
        "    QnnLpaiCustomOp_GetOutputTensor_t getOutputTensor;\n    QnnLpaiCustomOp_GetInputTensor_t getInputTensor;\n",
        "getInputTensor",
    ),
    "infrastructure without its version first": ("    QnnLpaiCustomOp_Version_t version;\n", "", "version"),
    "getParamTensor by index": (
        "(QnnLpai_CustomOpNode_t node, const char *name);",
        "(QnnLpai_CustomOpNode_t node, uint32_t index);",
        "getParamTensor",
    ),
    "getTempBuffer returning a bare pointer": (
        "typedef QnnLpaiCustomOp_Error_t (*QnnLpaiCustomOp_GetTempBuffer_t)(QnnLpai_CustomOpNode_t node,\n"
        "                                                                   QnnLpaiCustomOp_BufferInfo_t *bufferParams);",
        "typedef void *(*QnnLpaiCustomOp_GetTempBuffer_t)(QnnLpai_CustomOpNode_t node,\n"
        "                                                 QnnLpaiCustomOp_BufferInfo_t *bufferParams);",
        "getTempBuffer",
    ),
    "layout form FLAT = 0": (
        "QNN_LPAI_CUSTOM_OP_LAYOUT_FORM_FLAT = 1,",
        "QNN_LPAI_CUSTOM_OP_LAYOUT_FORM_FLAT = 0,",
        "FLAT",
    ),
    "LPAI data type INT_8 renumbered": (
        "LPAI_CUSTOM_OP_DATATYPE_INT_8 = 3,",
        "LPAI_CUSTOM_OP_DATATYPE_INT_8 = 2,",
        "INT_8",
    ),
    "quant type PER_TENSOR = 0": (
        "QNN_LPAI_CUSTOM_OP_QUANT_TYPE_PER_TENSOR = 1,",
        "QNN_LPAI_CUSTOM_OP_QUANT_TYPE_PER_TENSOR = 0,",
        "PER_TENSOR",
    ),
    "scale types swapped": (
        "QNN_LPAI_CUSTOM_OP_QUANT_SCALE_TYPE_INT = 1,\n    QNN_LPAI_CUSTOM_OP_QUANT_SCALE_TYPE_FLOAT = 2,",
        "QNN_LPAI_CUSTOM_OP_QUANT_SCALE_TYPE_INT = 2,\n    QNN_LPAI_CUSTOM_OP_QUANT_SCALE_TYPE_FLOAT = 1,",
        "SCALE_TYPE",
    ),
    "validation failure code": (
        "QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE = QNN_MIN_ERROR_OP_PACKAGE + 110,",
        "QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE = QNN_MIN_ERROR_OP_PACKAGE + 6,",
        "VALIDATION_FAILURE",
    ),
    "QnnLog VERBOSE level": ("QNN_LOG_LEVEL_VERBOSE = 4,", "QNN_LOG_LEVEL_VERBOSE = 5,", "VERBOSE"),
    "QnnLog callback variadic": (
        "uint64_t timestamp, va_list args);",
        "uint64_t timestamp, ...);",
        "QnnLog_Callback_t",
    ),
    "Qnn_TensorV1_t with a member less": (
        "    Qnn_TensorMemType_t memType;\n    union {\n        Qnn_ClientBuffer_t clientBuf;\n        Qnn_MemHandle_t memHandle;\n    };\n} Qnn_TensorV1_t;",
        "    union {\n        Qnn_ClientBuffer_t clientBuf;\n        Qnn_MemHandle_t memHandle;\n    };\n} Qnn_TensorV1_t;",
        "Qnn_TensorV1_t",
    ),
    "Qnn_TensorV2_t without isProduced": (
        "    uint8_t isProduced;\n} Qnn_TensorV2_t;",
        "} Qnn_TensorV2_t;",
        "Qnn_Tensor",
    ),
    "Qnn_Scalar_t without its 64-bit members": (
        "        double doubleValue;\n        uint64_t uint64Value;\n        int64_t int64Value;\n",
        "",
        "Qnn_Scalar_t",
    ),
    "quantize params with a narrower union": (
        "        Qnn_BwAxisScaleOffset_t bwAxisScaleOffsetEncoding;\n",
        "",
        "Qnn_QuantizeParams_t",
    ),
    "Qnn_ApiVersion_t as three numbers": (
        "    Qnn_Version_t coreApiVersion;\n    Qnn_Version_t backendApiVersion;\n} Qnn_ApiVersion_t;",
        "    uint32_t major, minor, patch;\n    Qnn_Version_t coreApiVersion;\n} Qnn_ApiVersion_t;",
        "Qnn_ApiVersion_t",
    ),
    "package info without its reserved words": (
        "    size_t reserved[QNN_OP_PACKAGE_RESERVED_INFO_SIZE];\n} QnnOpPackage_Info_t;",
        "} QnnOpPackage_Info_t;",
        "QnnOpPackage_Info_t",
    ),
    "operation info opType const": (
        "typedef struct _QnnOpPackage_OperationInfo_t {\n    char *opType;",
        "typedef struct _QnnOpPackage_OperationInfo_t {\n    const char *opType;",
        "opType",
    ),
    "getTempBufferSize in 32 bits": (
        "typedef Qnn_ErrorHandle_t (*QnnLpaiOpPackage_GetTempBufferSize_Fn)(Qnn_OpConfig_t, size_t *);",
        "typedef Qnn_ErrorHandle_t (*QnnLpaiOpPackage_GetTempBufferSize_Fn)(Qnn_OpConfig_t, uint32_t *);",
        "getTempBufferSize",
    ),
    "error handle in 32 bits": (
        "typedef uint64_t Qnn_ErrorHandle_t;",
        "typedef uint32_t Qnn_ErrorHandle_t;",
        "Qnn_ErrorHandle_t",
    ),
    "SHAPE_NE_LAYOUT bit": (
        "#define QNN_LPAI_OP_LAYOUT_SHAPE_NE_LAYOUT (1u << 0)",
        "#define QNN_LPAI_OP_LAYOUT_SHAPE_NE_LAYOUT (1u << 1)",
        "SHAPE_NE_LAYOUT",
    ),
    "max layout rank": (
        "#define QNN_LPAI_CUSTOM_OP_MAX_LAYOUT_RANK 5",
        "#define QNN_LPAI_CUSTOM_OP_MAX_LAYOUT_RANK 4",
        "",
    ),
    # The initializer macros are checked when the check runs.
    "op package API version": (
        "#define QNN_OP_PACKAGE_API_VERSION_1_4_0 {1u, 4u, 0u}",
        "#define QNN_OP_PACKAGE_API_VERSION_1_4_0 {1u, 3u, 0u}",
        "v14",
    ),
}


def build_and_run(cc: str, root: Path, *flags: str) -> subprocess.CompletedProcess:
    exe = root / f"abi-{cc}"
    build = subprocess.run(
        [cc, "-std=c11", "-Wall", "-Wextra", "-Werror", *flags, str(root / "host" / "sdk_abi_check.c"), "-o", str(exe)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if build.returncode != 0:
        return build
    return subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)


def copy_check(tmp_path: Path, standin: str) -> Path:
    (tmp_path / "host").mkdir()
    (tmp_path / "sdk_standin").mkdir()
    shutil.copy(CHECK, tmp_path / "host" / "sdk_abi_check.c")
    (tmp_path / "sdk_standin" / "lpai_sdk_standin.h").write_text(standin)
    return tmp_path


@pytest.mark.parametrize("cc", COMPILERS)
def test_the_stand_in_has_the_sdk_abi(cc, tmp_path):
    run = build_and_run(cc, copy_check(tmp_path, STANDIN.read_text()), "-DLPAI_EMU_OWN_DECLS")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "the template's stand-in" in run.stdout and " 0 static facts" not in run.stdout, run.stdout


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_changing_a_pinned_fact_fails_the_abi_check(name, tmp_path):
    original, changed, named = MUTATIONS[name]
    text = STANDIN.read_text()
    assert text.count(original) == 1, f"the stand-in no longer holds the text of '{name}'"
    run = build_and_run(COMPILERS[0], copy_check(tmp_path, text.replace(original, changed)), "-DLPAI_EMU_OWN_DECLS")
    assert run.returncode != 0, f"the ABI check passes with '{name}':\n{run.stdout}"
    out = run.stdout + run.stderr
    assert "ABI" in out and named in out, out[-3000:]


SDK = os.environ.get("QNN_SDK_ROOT", "")
needs_sdk = pytest.mark.skipif(
    not (SDK and Path(SDK, "include/QNN/LPAI/QnnLpaiOpPackage.h").is_file()),
    reason="QNN_SDK_ROOT is not set to a folder with include/QNN/LPAI/QnnLpaiOpPackage.h",
)


@needs_sdk
@pytest.mark.parametrize("cc", COMPILERS)
def test_the_sdk_headers_have_the_pinned_abi(cc, tmp_path):
    inc = Path(SDK, "include", "QNN")
    run = build_and_run(cc, copy_check(tmp_path, STANDIN.read_text()), f"-I{inc}", f"-I{inc / 'LPAI'}")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "the SDK's headers" in run.stdout, run.stdout


@needs_sdk
def test_sdk_check_of_a_render_passes(copie_session, template_repo):
    result = copie_session.copy(extra_answers=load_example("scale.yaml"), template_dir=template_repo)
    assert result.exit_code == 0, result.exception
    package = result.project_dir / "op_package" / "ScaleOpPackage"
    run = subprocess.run(["make", "-C", str(package), "sdk-check", "-j2"], capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert run.stdout.count("sdk-check: ok") >= 4 and "FAIL" not in run.stdout, run.stdout
