"""The kernels as Hexagon code: `make hexagon-test` of rendered op packages.

`make hexagon-test` (template/op_package/<Pkg>/makefiles/hexagon_test.mk) builds a
package's C suite with zig's clang for hexagon-linux-musl (v79, HVX v66 integer
instructions, which QEMU runs bit-exact) and runs it under qemu-hexagon; it builds the
same suite for x86_64-linux-musl with the same zig and musl libm and compares the two
runs' digests of every status and output byte; and it compiles every inference-side
file for v79 with all its HVX features at -Werror.

Here: a sized subset of the render matrix's ops (tests/test_render.py's variants; one op
of each kernel path, custom ops with their user math); a spec of this module's own whose
custom op calls musl's expf; then two breakages of the latter that
`make hexagon-test` must catch (tests/test_convention_mutations.py does the same for the
host suite): an HVX lane off by one code, and a fused multiply-add in the Hexagon build
alone. Marker `hexagon` (make test runs it); skipped, with the package to install, where
ziglang or qemu-user is missing.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from test_render import USER_MATH, VARIANTS, qnn_type_of, write_user_math

from conftest import copier_cli, hexagon_tools_missing, once_per_run

MISSING = hexagon_tools_missing()
pytestmark = [pytest.mark.hexagon, pytest.mark.skipif(MISSING is not None, reason=f"hexagon-test: {MISSING}")]

# A spec of this module's own: a unary op (its table runs through HVX when forced or
# large), a binary op whose math is a multiply-add (what clang fuses on Hexagon without
# -ffp-contract=off) and a custom op whose user math, below, calls expf and sums in
# float: the same musl libm on both sides must give the same bytes.
DSP_SPEC = {
    "package_name": "DspOpPackage",
    "namespace": "dsp_ops",
    "ops": [
        {"name": "cube_gain", "inputs": ["x"], "params": [{"name": "gain", "type": "float", "default": 0.5}],
         "expr": "gain * x * x * x"},
        {"name": "axpy", "inputs": ["a", "b"], "params": [{"name": "k", "type": "float", "default": 0.75}],
         "expr": "a * k + b"},
        {"name": "unit_softmax", "kind": "custom", "doc": "exp(x - max) / sum over the whole tensor.",
         "inputs": ["x"]},
    ],
}  # fmt: skip
DSP_MATH = """\
/* This file is yours: the template created it once and never touches it again. */
/* The kernel math of dsp_ops::unit_softmax: exp(x - max) / sum, over the whole tensor. */
#include <math.h>

#include "ops/UnitSoftmax_user.h"

int UnitSoftmax_compute(const UnitSoftmax_args *args)
{
    float top = -INFINITY;
    for (uint64_t i = 0; i < args->count; ++i) {
        top = args->x[i] > top ? args->x[i] : top;
    }
    float sum = 0.0f;
    for (uint64_t i = 0; i < args->count; ++i) {
        args->out[i] = expf(args->x[i] - top);
        sum += args->out[i];
    }
    for (uint64_t i = 0; i < args->count; ++i) {
        args->out[i] /= sum;
    }
    return 0;
}
"""

# The render matrix's ops, a sized subset (make test's time budget: the two variants'
# own Hexagon suites cost about 500 CPU-seconds): one op of each kind of kernel path, in
# one project built and run once. A unary op with clamps (table, direct and HVX paths),
# a broadcasting binary op, three inputs, where / floor / ceil / sign (inline, no libm:
# lpai_floorf and lpai_ceilf on both sides), a power (inline lpai_powf on both sides),
# int and bool params, and two custom-op forms: two outputs, one of them reduce-shaped, with a bool param, and a
# rowwise op (user math from
# examples/shapes.user/, as the render matrix writes it). expf is DSP_SPEC's (its
# custom math, and sigmoid nowhere else: soft_min is left out). The breakages below
# break the smaller DSP_SPEC project: they rebuild every kernel they reach.
SUBSET = {
    "activations-and-shapes": [
        "hard_swish_ish",
        "pick_floor",
        "power_compress",
        "add_bias",
        "fma3",
        "center",
        "rms_norm",
    ],
    "scale-unary-no-params-binary-int-bool-params": ["blend"],
}
MATRIX_OPS = [op for variant, names in SUBSET.items() for op in VARIANTS[variant]["ops"] if op["name"] in names]
assert len(MATRIX_OPS) == sum(map(len, SUBSET.values())), "an op of SUBSET is no longer in the render matrix"
MATRIX_SPEC = {"package_name": "MatrixOpPackage", "namespace": "matrix_ops", "ops": MATRIX_OPS}


def hexagon_test(project: Path, spec: dict, timeout: int = 900) -> subprocess.CompletedProcess:
    """`make hexagon-test` in the project's op package, with this Python's ziglang."""
    return subprocess.run(
        ["make", "-C", str(project / "op_package" / spec["package_name"]), "hexagon-test", f"PYTHON={sys.executable}"],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def passed(run: subprocess.CompletedProcess) -> bool:
    return run.returncode == 0 and "ok: Hexagon results byte-identical to x86_64" in run.stdout


def build_project(folder: Path, template_repo: Path, spec: dict) -> Path:
    """copier copy of `spec` into folder/project (not pytest-copie's, whose projects go
    at the end of the worker that made them: these are shared by the run's workers)."""
    spec_file = folder / "spec.yaml"
    spec_file.write_text(yaml.safe_dump(spec, sort_keys=False))
    project = folder / "project"
    copied = copier_cli(
        "copy", "--trust", "--defaults", "--vcs-ref", "HEAD", "--data-file", str(spec_file),
        str(template_repo), str(project),
    )  # fmt: skip
    assert copied.returncode == 0, copied.stderr[-3000:]
    return project


@pytest.fixture(scope="module")
def dsp_project(tmp_path_factory, template_repo) -> tuple[Path, subprocess.CompletedProcess]:
    """The module's own spec with its user math, built and run once per test run
    (whichever workers run these tests); the breakages below copy it, build directory
    included, so that only what they change is rebuilt."""

    def build(folder: Path) -> tuple[Path, subprocess.CompletedProcess]:
        project = build_project(folder, template_repo, DSP_SPEC)
        path = project / "op_package/DspOpPackage/user/UnitSoftmax_math.c"
        assert "LPAI_USER_MATH_MISSING" in path.read_text()
        path.write_text(DSP_MATH)
        return project, hexagon_test(project, DSP_SPEC)

    return once_per_run(tmp_path_factory, "hexagon-dsp", build)


def check_passed(project: Path, spec: dict, run: subprocess.CompletedProcess) -> None:
    assert passed(run), run.stdout[-6000:] + run.stderr[-3000:]
    assert "NOTE" not in run.stdout, "a custom op's math did not run"
    # Two runs of the C suite, both clean: the Hexagon one and the x86_64 one.
    assert run.stdout.count(" 0 failures") == 2, run.stdout[-3000:]
    # Every op's digest, on both sides (the DIGEST lines name the op's QNN type).
    digests = (project / "op_package" / spec["package_name"] / "build/hexagon/hexagon.digests").read_text()
    for op in spec["ops"]:
        assert f" {qnn_type_of(op)} " in digests, f"no digest of {op['name']} from the Hexagon run"


def test_hexagon_suite_of_a_spec_with_custom_math(dsp_project):
    project, run = dsp_project
    check_passed(project, DSP_SPEC, run)


def test_hexagon_suite_of_the_render_matrix_ops(tmp_path, template_repo):
    project = build_project(tmp_path, template_repo, MATRIX_SPEC)
    write_user_math(project, MATRIX_SPEC, USER_MATH["activations-and-shapes"])
    check_passed(project, MATRIX_SPEC, hexagon_test(project, MATRIX_SPEC))


HVX = "op_package/DspOpPackage/include/lpai_hvx.h"
MAKEFILE = "op_package/DspOpPackage/makefiles/hexagon_test.mk"
# (file, exact text, its broken replacement, what the failure must say)
BREAKAGES = {
    # Lane 0 of every looked-up vector one code higher (HVX v60 instructions): only the
    # Hexagon build has the HVX path, so its own checks against the reference path fail.
    "an HVX lane off by one code": (
        HVX,
        "    return Q6_Vb_vlut32or_VbVbVbR(r, x, t->hi, 7);\n",
        "    r = Q6_Vb_vlut32or_VbVbVbR(r, x, t->hi, 7);\n"
        "    return Q6_Vb_vadd_VbVb(r, Q6_V_vand_QR(Q6_Q_vsetq_R(1), 0x01010101));\n",
        "FAIL ",
    ),
    # Fusion in the Hexagon build alone: -ffp-contract=fast (merely dropping =off changes
    # nothing: lpai_conventions.h's `#pragma STDC FP_CONTRACT OFF` holds; =fast overrides
    # it), so clang fuses axpy's a * k + b. The fast and reference paths fuse alike: only
    # the comparison with x86_64 (its float digest) sees it.
    "a Hexagon-only fused multiply-add": (
        MAKEFILE,
        "HEX_RUN  := -target hexagon-linux-musl -mcpu=$(HEX_RUN_CPU) -ffp-contract=off\n",
        "HEX_RUN  := -target hexagon-linux-musl -mcpu=$(HEX_RUN_CPU) -ffp-contract=fast\n",
        "FAILED: Hexagon and x86_64 results differ",
    ),
}


@pytest.mark.parametrize("name", list(BREAKAGES))
def test_a_breakage_fails_hexagon_test(name, dsp_project, tmp_path):
    base, base_run = dsp_project
    assert passed(base_run), "the unbroken project must pass first"
    rel, original, broken, message = BREAKAGES[name]
    project = tmp_path / "project"
    shutil.copytree(base, project, symlinks=True)
    path = project / rel
    text = path.read_text()
    assert text.count(original) == 1, f"{rel} no longer holds the text this test breaks"
    path.write_text(text.replace(original, broken))
    run = hexagon_test(project, DSP_SPEC)
    assert run.returncode != 0, f"{name}: make hexagon-test still passes\n{run.stdout[-3000:]}"
    assert message in run.stdout, run.stdout[-4000:] + run.stderr[-2000:]
