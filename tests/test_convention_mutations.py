"""Break each LPAI convention on purpose in a rendered project: its tests must fail.

A convention test that still passes with the convention removed proves nothing.  Each
case applies one edit to the rendered op package (never to the template) and runs the
project's kernel tests (pytest, kernels against eager) and its C suite (`make
host-test`, which pins exact values such as ties rounding to even); at least one must
fail.  The unmodified project passes both in test_render.py.
"""

from __future__ import annotations

import re
import shutil

import pytest

from conftest import load_example, run_budgeted, run_project_tests

HEADER = "op_package/ActivationOpPackage/include/lpai_conventions.h"
LOOPS = "op_package/ActivationOpPackage/include/lpai_elementwise.h"

GLUE = "op_package/ActivationOpPackage/include/lpai_glue.h"
DRIVERS = "op_package/ActivationOpPackage/include/lpai_drivers.h"
SCALED_TANH = "op_package/ActivationOpPackage/src/ops/ScaledTanh_inference.c"
VALIDATE = "op_package/ActivationOpPackage/include/lpai_validate.h"

# (file, exact text of the convention, its broken replacement[, options]). Options:
# "binary", the C suite's build that holds the convention (the inference-only build by
# default: it compiles no C++ and is what runs on the DSP; "test_kernels" is the full
# host build, whose suite adds the compiler side's validation); "san", with ASan/UBSan.
MUTATIONS = {
    "C1 scale via 1u << shift instead of ldexpf": (
        HEADER,
        "return ldexpf((float)scale, (int)-shift);",
        "return (float)scale / (float)(1u << (shift & 31));",
    ),
    "C2 no wrap modulo the storage width": (
        HEADER,
        "return (int32_t)(biased & q->mask) + q->lo;",
        "return (int32_t)biased + q->lo;",
    ),
    "C3 no saturation of the code": (
        HEADER,
        "    c = (c > r->lo) ? c : r->lo;\n    c = (c < r->hi) ? c : r->hi;\n",
        "",
    ),
    "C3 ties rounded up, not to even": (HEADER, "return (x + magic) - magic;", "(void)magic; return floorf(x + 0.5f);"),
    # torch.quantize_per_tensor's order (zero point, then rounding) instead of the exported
    # graph's: one code off at exact ties with an odd zero point (test_requant_ties).
    "C3 zero point added before rounding": (
        HEADER,
        "const int32_t code = (int32_t)lpai_round_half_even(c);",
        "const int32_t code = (int32_t)lpai_round_half_even(c + (float)(int32_t)r->offset_u) - (int32_t)r->offset_u;",
    ),
    "C5 strides read in layout order, not per logical dimension": (
        HEADER,
        "v->stride[order[i]] = layout_stride[i];",
        "v->stride[i] = layout_stride[i];",
    ),
    # Up to 8 elements the inner dimensions are merged into one row only while every
    # operand's byte steps allow it: merged regardless, a padded or permuted layout is
    # read and written at the wrong bytes (test_small's permuted padded variant).
    "C5 small tensors' dimensions merged whatever their byte steps": (
        LOOPS,
        "            if (!even) {\n                break;\n            }\n",
        "            (void)even;\n",
        {"san": True},
    ),
    # The fast loops have their own 8-bit copies of C2 and C3 (lpai_elementwise.h).
    "C2 fast loop: no wrap modulo 256": (
        LOOPS,
        "(float)((int32_t)(uint8_t)((uint32_t)(byte) + (d).add) + (d).lo)",
        "(float)((int32_t)((uint32_t)(byte) + (d).add) + (d).lo)",
    ),
    "C3 fast loop: no saturation of the code": (
        LOOPS,
        (
            "    c = (c > r->lo) ? c : r->lo; /* NaN lands on lo, as in lpai_requant_store */\n"
            "    c = (c < r->hi) ? c : r->hi;\n"
        ),
        "",
    ),
    # The glue checks each tensor's byte extent as it reads it: without the carry, a sum
    # of spans that wraps 64 bits lands below PTRDIFF_MAX and is accepted (x86 hosts).
    "C10 byte extent's carry ignored": (HEADER, "        wrapped |= extent < span;\n", ""),
    "C10 negative and infinite scales accepted": (
        HEADER,
        "return scale > 0.0f && scale <= FLT_MAX;",
        "return scale != 0.0f;",
    ),
    # The device reports INT_8 for an unsigned tensor: trusting it refuses every tensor.
    "C4 the reported signedness trusted": (
        GLUE,
        "    case LPAI_CUSTOM_OP_DATATYPE_INT_8:\n    case LPAI_CUSTOM_OP_DATATYPE_UINT_8:\n",
        "    case LPAI_CUSTOM_OP_DATATYPE_UINT_8:\n",
    ),
    # Set on the compiler side only: registration fails in the inference (DSP) build.
    "C6 layout support flag left out of the inference build": (
        GLUE,
        "    info->getLayoutSupportFlag = lpai_layout_support;\n",
        "#if !defined(LPAI_INFERENCE_ONLY)\n    info->getLayoutSupportFlag = lpai_layout_support;\n#endif\n",
    ),
    # Only the folded spelling declared: the validation before folding sees UINT_8.
    "C7 only UFIXED_POINT_8 accepted by validation": (
        VALIDATE,
        "const uint32_t bits = lpai_qnn_width_bits(t->v1.dataType);",
        "const uint32_t bits = t->v1.dataType == QNN_DATATYPE_UFIXED_POINT_8 ? 8u : 0u;",
        {"binary": "test_kernels"},
    ),
    "C8 16-bit activations accepted by the kernel": (
        GLUE,
        "if (bits != LPAI_SUPPORTED_BITS) { /* C8 */",
        "if (bits != LPAI_SUPPORTED_BITS && bits != 16u) {",
    ),
    # A plain load of a param at an odd address: only UBSan sees it on x86.
    "C9 params loaded through a cast, not memcpy": (
        HEADER,
        "    float v;\n    memcpy(&v, p, sizeof v);\n    return v;\n",
        "    return *(const float *)p;\n",
        {"san": True},
    ),
    # The SDK's getParamTensor takes the param's NAME. Asked by position instead (the
    # index where the name goes), the first param is looked up under NULL: refused.
    "params asked by index, not by name": (
        GLUE,
        "        st = lpai_glue_param(node, &kinds[p], &params[p], &params_u32[p]);\n",
        "        const lpai_param_spec by_index = {(const char *)(uintptr_t)p, kinds[p].kind};\n"
        "        st = lpai_glue_param(node, &by_index, &params[p], &params_u32[p]);\n",
    ),
    # A name the node does not carry: getParamTensor gives NULL, the op never runs.
    "params asked by a wrong name": (SCALED_TANH, '{"gain", LPAI_PARAM_F32}', '{"Gain", LPAI_PARAM_F32}'),
    # getTempBuffer reports the size it serves: a kernel that trusts any buffer writes
    # past a short one (the emulator serves fewer bytes than asked in a test).
    "scratch size from getTempBuffer unchecked": (
        DRIVERS,
        "!scratch.buffer || (uint64_t)scratch.bufferSize < floats * sizeof(float)) {",
        "!scratch.buffer) {",
    ),
    # The spec (layout_support: shape_ne_layout, the default) decides the flag.
    "layout support flag not the spec's": (
        GLUE,
        "    *flag = LPAI_LAYOUT_FLAG;\n",
        "    *flag = QNN_LPAI_OP_LAYOUT_DEFAULT;\n",
    ),
}


# examples/activations.yaml's unary, int-and-float-param and binary ops: every case
# builds the package's whole C suite (and some its kernel tests), so three of its six
# ops, which every convention reaches, halve the module's time.
MUTATED_OPS = ("hard_swish_ish", "scaled_tanh", "add_scaled")


@pytest.fixture(scope="module")
def activations(copie_session, template_repo):
    spec = load_example("activations.yaml")
    spec["ops"] = [op for op in spec["ops"] if op["name"] in MUTATED_OPS]
    assert len(spec["ops"]) == len(MUTATED_OPS)
    result = copie_session.copy(extra_answers=spec, template_dir=template_repo)
    assert result.exit_code == 0, result.exception
    return result.project_dir


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_breaking_a_convention_fails_the_kernel_tests(name, activations, tmp_path):
    rel, original, broken, *options = MUTATIONS[name]
    options = options[0] if options else {}
    project = tmp_path / "project"
    shutil.copytree(activations, project, ignore=shutil.ignore_patterns("build", "libs", "obj", "__pycache__"))
    path = project / rel
    text = path.read_text()
    assert text.count(original) == 1, f"{rel} no longer holds the convention text this test breaks"
    path.write_text(text.replace(original, broken))

    # The C suite first: it builds in seconds and pins exact values, so it catches most
    # breaks; the kernel tests (torch, every code) run only when it passes. One build of
    # the two `make host-test` runs, the one that holds the convention: each build
    # compiles every kernel, and these cases ran 20 s each with both.
    # Unoptimised (-O0; the sanitized build is -O0 already): a convention is a value,
    # which no optimisation level changes here (-ffp-contract=off stays, no fast-math),
    # and -O0 compiles the kernels six times faster than -O2 (measured); without forced
    # inlining (LPAI_NO_FORCED_INLINE, the sanitized builds' switch) about three times
    # faster again: the same code, called instead of inlined.
    package = project / "op_package/ActivationOpPackage"
    binary = f"build/mutated/{options.get('binary', 'test_kernels_inference')}"
    san = ["SAN=1"] if options.get("san") else ["OPT=-O0 -DLPAI_NO_FORCED_INLINE"]
    build = run_budgeted(
        ["make", "-C", str(package), "-f", "makefiles/host_emulator.mk", *san, "BUILD=build/mutated", binary], 600
    )
    c_suite = build
    if build.returncode == 0:
        c_suite = run_budgeted([str(package / binary)], 600)
    if c_suite.returncode != 0:
        # A suite killed by a signal was caught too: C5's strides send writes past the
        # buffer and glibc aborts on the heap it finds corrupted (after FAIL lines); so
        # is one that AddressSanitizer stopped (an out-of-bounds access, reported).
        crashed = c_suite.returncode < 0 and "FAIL host/" in c_suite.stdout
        failed = re.search(r"[1-9]\d* failures|Error|error|ERROR: AddressSanitizer", c_suite.stdout + c_suite.stderr)
        assert crashed or failed, c_suite.stdout[-2000:]
        return
    run = run_project_tests(project, "-x", "tests/test_op_package_kernels.py")
    assert run.returncode != 0, (
        f"kernel tests and C suite pass with '{name}':\n{run.stdout[-1000:]}\n{c_suite.stdout[-2000:]}"
    )
    assert re.search(r"\d+ (failed|error)", run.stdout), run.stdout[-2000:]


# A custom op with a param, its math written by the user: the kernel either uses the
# param or bakes its default in (the mistake that passed the whole suite when the
# kernel tests ran at the defaults only).  The param declares its range: the tests vary a
# custom op's param only there (without one only the default is known to work, and the
# random-params test skips, saying so; docs/spec.md "Param ranges").
GAIN_SPEC = {
    "package_name": "GainOpPackage",
    "namespace": "gain_ops",
    "ops": [
        {
            "name": "gained",
            "kind": "custom",
            "doc": "x times gain.",
            "inputs": ["x"],
            "params": [{"name": "gain", "type": "float", "default": 2.0, "range": [0.5, 4.0]}],
        }
    ],
}
GAIN_EAGER = """import torch


def gained(x: torch.Tensor, gain: float = 2.0) -> torch.Tensor:
    return x * gain
"""
GAIN_KERNEL = """#include "ops/Gained_user.h"

int Gained_compute(const Gained_args *args)
{
    for (uint64_t i = 0; i < args->count; ++i) {
        args->out[i] = %s * args->x[i];
    }
    return 0;
}
"""


@pytest.fixture(scope="module")
def gain_project(copie_session, template_repo):
    result = copie_session.copy(extra_answers=GAIN_SPEC, template_dir=template_repo)
    assert result.exit_code == 0, result.exception
    project = result.project_dir
    (project / "gain_ops/user/gained.py").write_text(GAIN_EAGER)
    return project


@pytest.mark.parametrize("gain", ["args->gain", "2.0f"], ids=["uses-param", "ignores-param"])
def test_a_kernel_that_ignores_its_param_fails_the_kernel_tests(gain, gain_project, tmp_path):
    project = tmp_path / "project"
    shutil.copytree(gain_project, project, ignore=shutil.ignore_patterns("build", "libs", "obj", "__pycache__"))
    (project / "op_package/GainOpPackage/user/Gained_math.c").write_text(GAIN_KERNEL % gain)

    run = run_project_tests(project, "-rA", "tests/test_op_package_kernels.py", "tests/user")
    if gain == "args->gain":
        assert run.returncode == 0, run.stdout[-3000:]
        return
    assert run.returncode != 0, f"a kernel ignoring its param passes the kernel tests:\n{run.stdout[-1000:]}"
    failed = set(re.findall(r"FAILED (\S+)", run.stdout))
    assert "tests/test_op_package_kernels.py::test_kernel_matches_eager_at_random_params[gained-auto]" in failed
    # At the defaults alone the mistake is invisible: what the random params are for.
    assert "tests/test_op_package_kernels.py::test_kernel_matches_eager[gained-auto]" not in failed
    assert "PASSED tests/test_op_package_kernels.py::test_kernel_matches_eager[gained-auto]" in run.stdout
    assert "tests/user/test_my_kernel.py::test_kernel_at_other_params" in failed
