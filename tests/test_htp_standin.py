"""The HTP package's stand-in of QHPI (Qualcomm's HTP op interface) keeps the SDK's facts.

`host/htp_facts.cpp` pins, as static_asserts, every name, type, enum value, struct
member order and signature of QHPI that the generated sources use (read in the public
`HTP/core/qhpi.h`, QNN SDK 2.44 and later). It must compile against the stand-in
(`standin/htp_standin.h`) as the template ships it, and fail when any one pinned fact
of the stand-in changes: each case below edits one declaration in a copy and expects
the compile to fail naming the fact. Plain files of the template, compiled straight
from template/ (no render).

With QNN_SDK_ROOT pointing to a folder laid out as the SDK, with QHPI's header
(include/QNN/HTP/core/qhpi.h) and the core QNN headers, the same check runs against those headers, and a render with
`backends: [lpai, htp]` must pass `make sdk-check` there, and fail it when a kernel
calls a function nothing provides; skipped otherwise.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, load_example

HTP = ROOT / "template" / "op_package" / "{% if pkg.htp %}htp{% endif %}"
STANDIN = HTP / "standin" / "htp_standin.h"
COMPILERS = [cxx for cxx in ("g++", "clang++") if shutil.which(cxx)]

# (name: one pinned fact, the stand-in's text, the changed text, what the failure names)
MUTATIONS = {
    "Float32 renumbered": ("    QHPI_Float32 = 4,", "    QHPI_Float32 = 3,", "QHPI_Float32"),
    "Int32 renumbered": ("    QHPI_Int32 = 5,", "    QHPI_Int32 = 6,", "QHPI_Int32"),
    "QUInt16 renumbered": ("    QHPI_QUInt16 = 2,", "    QHPI_QUInt16 = 3,", "QHPI_QUInt16"),
    "Flat4 renumbered": ("    QHPI_Layout_Flat4 = 2,", "    QHPI_Layout_Flat4 = 1,", "QHPI_Layout_Flat4"),
    "Direct renumbered": ("    QHPI_Storage_Direct = 0,", "    QHPI_Storage_Direct = 1,", "QHPI_Storage_Direct"),
    "ErrorFatal renumbered": ("    QHPI_ErrorFatal = 2,", "    QHPI_ErrorFatal = 3,", "QHPI_ErrorFatal"),
    "zero point and step swapped": (
        "    int32_t zero_offset;\n    float stepsize;",
        "    float stepsize;\n    int32_t zero_offset;",
        "member order: zero_offset before stepsize",
    ),
    "zero point as unsigned": ("    int32_t zero_offset;", "    uint32_t zero_offset;", "zero_offset is int32_t"),
    "signature storage widened": ("    unsigned char storage;", "    uint32_t storage;", "storage is unsigned char"),
    "kernel members reordered": (
        "    uint32_t min_outputs;\n    QHPI_Tensor_Signature_v1 *output_signature;\n    QHPI_Cost_Function cost_function;",
        "    uint32_t min_outputs;\n    QHPI_Cost_Function cost_function;\n    QHPI_Tensor_Signature_v1 *output_signature;",
        "output_signature before cost_function",
    ),
    "op info without tile_output": ("    unsigned tile_output;\n", "", "tile_output"),
    "raw data const": (
        "void *qhpi_tensor_raw_data(const QHPI_Tensor *tensor);",
        "const void *qhpi_tensor_raw_data(const QHPI_Tensor *tensor);",
        "qhpi_tensor_raw_data",
    ),
    "cost function in double": (
        "typedef float (*QHPI_Cost_Function)",
        "typedef double (*QHPI_Cost_Function)",
        "QHPI_Cost_Function",
    ),
    "registration without the package": (
        "QHPI_StatusCode qhpi_register_ops_v1(uint32_t num_ops, QHPI_OpInfo_v1 *operators, const char *package);",
        "QHPI_StatusCode qhpi_register_ops_v1(uint32_t num_ops, QHPI_OpInfo_v1 *operators);",
        "qhpi_register_ops_v1",
    ),
}


def compile_facts(cxx: str, root: Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            cxx,
            "-std=c++17",
            "-fsyntax-only",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-DTHIS_PKG_NAME=Facts",
            *flags,
            f"-I{root / 'include'}",
            str(root / "host" / "htp_facts.cpp"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )


def copy_check(tmp_path: Path, standin: str) -> Path:
    for sub in ("host", "include", "standin"):
        (tmp_path / sub).mkdir()
    shutil.copy(HTP / "host" / "htp_facts.cpp", tmp_path / "host")
    shutil.copy(HTP / "include" / "htp_sdk.h", tmp_path / "include")
    (tmp_path / "standin" / "htp_standin.h").write_text(standin)
    return tmp_path


@pytest.mark.parametrize("cxx", COMPILERS)
def test_the_stand_in_has_the_sdk_s_facts(cxx, tmp_path):
    run = compile_facts(cxx, copy_check(tmp_path, STANDIN.read_text()), "-DHTP_STANDIN")
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_changing_a_pinned_fact_fails_the_facts_check(name, tmp_path):
    original, changed, named = MUTATIONS[name]
    text = STANDIN.read_text()
    assert text.count(original) == 1, f"the stand-in no longer holds the text of '{name}'"
    run = compile_facts(COMPILERS[0], copy_check(tmp_path, text.replace(original, changed)), "-DHTP_STANDIN")
    assert run.returncode != 0, f"the facts check passes with '{name}'"
    assert named in run.stderr, run.stderr[-3000:]


SDK = os.environ.get("QNN_SDK_ROOT", "")
needs_sdk = pytest.mark.skipif(
    not (SDK and Path(SDK, "include/QNN/HTP/core/qhpi.h").is_file() and shutil.which("clang++")),
    reason="QNN_SDK_ROOT is not set to a folder with include/QNN/HTP/core/qhpi.h (QNN SDK 2.44+; or no clang++)",
)


@needs_sdk
def test_the_sdk_headers_have_the_pinned_facts(tmp_path):
    root = copy_check(tmp_path, STANDIN.read_text())
    inc = Path(SDK, "include", "QNN")
    flags = ["-stdlib=libc++", f"-isystem{inc}", f"-isystem{inc / 'HTP' / 'core'}"]
    run = compile_facts("clang++", root, *flags)
    assert run.returncode == 0, run.stdout + run.stderr


@needs_sdk
def test_a_render_passes_sdk_check_and_fails_it_on_a_call_nothing_provides(tmp_path):
    spec = load_example("activations.yaml")
    spec["backends"] = ["lpai", "htp"]
    spec_file = tmp_path / "spec.yaml"
    spec_file.write_text(yaml.safe_dump(spec))
    project = tmp_path / "project"
    render = subprocess.run(
        [
            sys.executable,
            "-m",
            "copier",
            "copy",
            "-q",
            "--trust",
            "--defaults",
            "--vcs-ref",
            "HEAD",
            "--data-file",
            str(spec_file),
            str(ROOT),
            str(project),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert render.returncode == 0, render.stderr
    htp = project / "op_package" / "htp"

    def sdk_check():
        return subprocess.run(["make", "-C", str(htp), "sdk-check"], capture_output=True, text=True, timeout=1200)

    good = sdk_check()
    assert good.returncode == 0, good.stdout + good.stderr
    assert good.stdout.count("sdk-check: ok") >= 7 and "builds" in good.stdout, good.stdout
    assert "Hexagon v81" in good.stdout, good.stdout
    source = htp / "src" / "ops" / "AddScaled.cpp"
    text = source.read_text()
    call = "    (void)handle;"
    assert text.count(call) == 1
    source.write_text(
        'extern "C" void qnn_template_no_such_function(void);\n'
        + text.replace(call, "    qnn_template_no_such_function();\n" + call)
    )
    bad = sdk_check()
    assert bad.returncode != 0
    assert "FAIL  x86_64: undefined symbols nothing provides: qnn_template_no_such_function" in bad.stdout, bad.stdout
