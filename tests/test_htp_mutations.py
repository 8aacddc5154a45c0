"""Break the HTP package on purpose in a rendered project: its kernel tests must fail.

Each case applies one edit to the rendered HTP op package (never to the template) and
runs the project's tests/test_htp_kernels.py (every op against torch eager, each element
type, through the host driver) or, for a fast path those do not take, tests/test_htp_paths.py
(every path of the engine forced, against eager and the reference path's bytes); at least
one test must fail (`-x`: the first is the verdict). The unmodified project passes both
files in test_render.py (the activations-and-shapes variant renders both
backends). One case calls a QHPI function the template never declared: the stand-in
does not declare it, so the package does not compile (`make sdk-check` catches a
call to a function nothing provides with the real headers: tests/test_htp_standin.py).
"""

from __future__ import annotations

import shutil

import pytest

from conftest import load_example, run_project_tests

ENGINE = "op_package/htp/include/htp_engine.h"
FAKE_QUANT = "op_package/htp/src/ops/FakeQuant.cpp"
ADD_SCALED = "op_package/htp/src/ops/AddScaled.cpp"
KERNELS = "op_package/htp/include/htp_kernels.h"

# (file, exact text, its broken replacement)
MUTATIONS = {
    "requantization off by one code": (
        ENGINE,
        "const int32_t code = static_cast<int32_t>(lpai_round_half_even(c)) + v.offset;",
        "const int32_t code = static_cast<int32_t>(lpai_round_half_even(c)) + v.offset + 1;",
    ),
    "broadcast dropped (a size-1 dim walked like any other)": (
        ENGINE,
        "stride[k][lead + d] = v[k].shape.dims[d] == 1u ? 0u : s;",
        "stride[k][lead + d] = s;",
    ),
    # The fast paths of htp_engine.h (tests/test_htp_paths.py forces each; the kernel
    # tests take the blocked ones by themselves).
    "the 8-bit table built from the wrong codes": (
        ENGINE,
        "const unsigned char *codes = lpai_all_bytes + b;",
        "const unsigned char *codes = lpai_all_bytes + (b ^ 128u);",
    ),
    "blocked requantization off by one code": (
        ENGINE,
        "codes[j] = static_cast<code_t>(lpai_bits_from_f32(c + 12582912.0f) + zp);",
        "codes[j] = static_cast<code_t>(lpai_bits_from_f32(c + 12582912.0f) + zp + 1u);",
    ),
    "blocked 16-bit dequantization off by one code": (
        ENGINE,
        "x[j] = static_cast<float>(static_cast<int32_t>(c[j]) - offset) * scale;",
        "x[j] = static_cast<float>(static_cast<int32_t>(c[j]) + 1 - offset) * scale;",
    ),
    "broadcast walk over flat strides": (
        ENGINE,
        "        lv->stride[d] = s;\n",
        "        lv->stride[d] = bytes;\n",
    ),
    "params in the wrong order": (
        FAKE_QUANT,
        "    const float params[] = {static_cast<float>(htp_param_u32(inputs[kInputs + 0u])), htp_param_f32(inputs[kInputs + 1u])};",
        "    const float params[] = {static_cast<float>(htp_param_u32(inputs[kInputs + 1u])), htp_param_f32(inputs[kInputs + 0u])};",
    ),
    "an int param's UINT_32 bits read as a float": (
        FAKE_QUANT,
        "static_cast<float>(htp_param_u32(inputs[kInputs + 0u]))",
        "htp_param_f32(inputs[kInputs + 0u])",
    ),
    "a kernel that takes crouton (indirect) tensors": (
        KERNELS,
        "    s.storage = QHPI_Storage_Direct;",
        "    s.storage = 1; // QHPI_Storage_Indirect",
    ),
    "a call QHPI does not declare": (
        ADD_SCALED,
        "    (void)handle;",
        "    (void)handle;\n    (void)qhpi_tensor_block_table(inputs[0]);",
    ),
}
MUTATED_OPS = ("add_scaled", "fake_quant", "hard_swish_ish")
# The rendered tests each mutation runs: the kernel tests (every op against eager),
# or, for a fast path of the engine that the kernel tests do not force, the path tests.
# One file each, stopping at the first failure: one failing test is the verdict.
KERNEL_TESTS = ("tests/test_htp_kernels.py",)
PATH_TESTS = ("tests/test_htp_paths.py",)
CAUGHT_BY = {
    "requantization off by one code": PATH_TESTS,  # the reference loop: up to 8 elements
    "broadcast dropped (a size-1 dim walked like any other)": PATH_TESTS,
    "the 8-bit table built from the wrong codes": PATH_TESTS,
    "broadcast walk over flat strides": PATH_TESTS,
}


@pytest.fixture(scope="module")
def project(copie_session, template_repo):
    spec = load_example("activations.yaml")
    spec["ops"] = [op for op in spec["ops"] if op["name"] in MUTATED_OPS]
    spec["backends"] = ["lpai", "htp"]
    assert len(spec["ops"]) == len(MUTATED_OPS)
    result = copie_session.copy(extra_answers=spec, template_dir=template_repo)
    assert result.exit_code == 0, result.exception
    return result.project_dir


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_breaking_the_htp_package_fails_its_kernel_tests(name, project, tmp_path):
    rel, original, broken = MUTATIONS[name]
    copy = tmp_path / "project"
    shutil.copytree(project, copy, ignore=shutil.ignore_patterns("build", "libs", "obj", "__pycache__"))
    path = copy / rel
    text = path.read_text()
    assert text.count(original) == 1, f"{rel} no longer holds the text this test breaks"
    path.write_text(text.replace(original, broken))
    run = run_project_tests(copy, *CAUGHT_BY.get(name, KERNEL_TESTS), "-x", "-k", "not hexagon")
    assert run.returncode != 0, f"the HTP kernel tests pass with '{name}':\n{run.stdout[-3000:]}"
    assert " failed" in run.stdout or " error" in run.stdout, run.stdout[-3000:]
