"""The render matrix: every example spec plus variants, each rendered with pytest-copie,
checked for its file set and headers, and then put through its own test suite.

The rendered suites are the real proof (torch registration, quantization, delegation
check, host-built kernels); they take most of this module's time.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import yaml

from conftest import (
    CLANG_BUILDS,
    EXAMPLES,
    GCC_BUILDS,
    OP_INDEPENDENT_CLI_TESTS,
    OP_INDEPENDENT_DEVICE_TESTS,
    ROOT,
    SKIP_OP_INDEPENDENT,
    load_example,
    run_budgeted,
    run_project_tests,
    tree,
)

# A doc that breaks every language it lands in unless escaped (|x|, quotes, an em dash,
# tags, a comment delimiter, a trigraph, a final backslash) and a float default written
# `1e-6`, which YAML 1.1 reads as a string: read from YAML text as copier reads a
# --data-file, so the suite sees what a user's spec file gives.
SOFTSIGN = yaml.safe_load(
    """\
name: softsign
doc: x / (1 + |x|), the "soft" sign — it's <b>é</b> & `ok` */ ??/ \\
inputs: [x]
params:
  - {name: eps, type: float, default: 1e-6}
expr: x / (1 + abs(x)) + eps
"""
)


# Input domains (docs/spec.md, "Input domain"): every consumer of an op's input values
# reads the one domain the spec check verified, so that these suites pass. `log(x + eps)`
# as a newcomer writes it (finite only on positive inputs: the default domain follows);
# an op finite only on its declared range (NaN on either default domain); a declared
# range away from symmetric, [0, 20], next to an input with the default domain.
DOMAIN_OPS = yaml.safe_load(
    """- name: log_eps
  inputs: [x]
  params: [{name: eps, type: float, default: 1e-6}]
  expr: log(x + eps)
- name: log_shifted
  inputs: [{name: x, range: [5, 9]}]
  expr: log(x - 4.5)
- name: root_gain
  inputs: [{name: e, range: [0, 20]}, g]
  expr: sqrt(e) * g
"""
)


def _scale_and_more() -> dict:
    """examples/scale.yaml plus a unary op without params, a binary op with int and
    bool params, the softsign op and the DOMAIN_OPS above, built for another arch: one
    project, so one suite run, covers them all (a rendered suite costs most of this
    module's time)."""
    spec = load_example("scale.yaml")
    spec["op_package_arch"] = "v75"
    spec["ops"] = [
        *spec["ops"],
        {"name": "leaky", "inputs": ["x"], "expr": "max(x, 0.125 * x)"},
        {
            "name": "blend",
            "qnn_type": "Blend",
            "doc": "k * a - b / 2, plus one when bias_on.",
            "inputs": ["a", "b"],
            "params": [
                {"name": "k", "type": "int", "default": 2},
                {"name": "bias_on", "type": "bool", "default": True},
            ],
            "expr": "k * a - b / 2 + bias_on",
        },
        SOFTSIGN,
        *DOMAIN_OPS,
    ]
    return spec


# Custom-op forms the examples lack, with their math as a user writes it (below): the
# first op of the variant has two outputs, one reduced over every dim (the generated
# tests' chained model feeds its first output through `getitem` into the next ops, and
# tests/user/test_my_kernel.py runs the first op), and a rowwise op of two inputs (the
# generated tests' 65,536-code grids must still make rows the kernel takes).
FORMS = yaml.safe_load(
    """\
- name: spread
  kind: custom
  doc: x times k, and the max of x over every dim.
  inputs: [x]
  params:
    - {name: k, type: float, default: 2.0}
  outputs:
    - {name: y, shape: {like: x}}
    - {name: peak, shape: {reduce: x, dims: [0, 1, 2, -1], keepdim: true}}
- name: row_diff
  kind: custom
  rowwise: true
  doc: a minus b, and the max of each row of a.
  inputs: [a, b]
  outputs:
    - {name: diff, shape: {like: a}}
    - {name: row_peak, shape: {reduce: a, dims: [-1]}}
"""
)
FORMS_MATH = {
    "spread": (
        "import torch\n\n\n"
        "def spread(x: torch.Tensor, k: float = 2.0) -> tuple[torch.Tensor, torch.Tensor]:\n"
        "    return x * k, x.amax(dim=(0, 1, 2, -1), keepdim=True)\n",
        "#define Spread_MATH_WRITTEN_FOR Spread_ARGS_IN_x_OUT_y_OUT_peak_FLOAT_k\n"
        '#include "ops/Spread_user.h"\n\n'
        "int Spread_compute(const Spread_args *args)\n{\n"
        "    float m = args->x[0];\n"
        "    for (uint64_t i = 0; i < args->x_shape.count; ++i) {\n"
        "        args->y[i] = args->x[i] * args->k;\n"
        "        m = args->x[i] > m ? args->x[i] : m;\n"
        "    }\n"
        "    args->peak[0] = m;\n"
        "    return 0;\n}\n",
    ),
    "row_diff": (
        "import torch\n\n\n"
        "def row_diff(a: torch.Tensor, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:\n"
        "    return a - b, a.amax(dim=-1)\n",
        "#define RowDiff_MATH_WRITTEN_FOR RowDiff_ARGS_IN_a_IN_b_OUT_diff_OUT_row_peak\n"
        '#include "ops/RowDiff_user.h"\n\n'
        "int RowDiff_compute(const RowDiff_args *args)\n{\n"
        "    const uint64_t n = args->a_shape.dims[args->a_shape.rank - 1];\n"
        "    /* b's row: n values, or 1 when b is one value per row (it broadcasts). */\n"
        "    const uint64_t nb = args->b_shape.dims[args->b_shape.rank - 1];\n"
        "    for (uint64_t r = 0; r < args->row_peak_shape.count; ++r) {\n"
        "        const float *a = args->a + r * n, *b = args->b + r * nb;\n"
        "        float m = a[0];\n"
        "        for (uint64_t i = 0; i < n; ++i) {\n"
        "            args->diff[r * n + i] = a[i] - b[nb == 1 ? 0 : i];\n"
        "            m = a[i] > m ? a[i] : m;\n"
        "        }\n"
        "        args->row_peak[r] = m;\n"
        "    }\n"
        "    return 0;\n}\n",
    ),
}


def _activations_and_shapes() -> dict:
    """FORMS, examples/activations.yaml and the ops of examples/shapes.yaml (a
    broadcasting binary op, a three-input op, a reduce-shaped output, two outputs, a
    rowwise op): one project, so one suite run. The custom ops' math comes from
    FORMS_MATH and examples/shapes.user/."""
    spec = load_example("activations.yaml")
    spec["ops"] = [*FORMS, *spec["ops"], *load_example("shapes.yaml")["ops"]]
    # Both backends: the HTP package's kernel suite runs on every form of op too.
    spec["backends"] = ["lpai", "htp"]
    return spec


VARIANTS = {
    "activations-and-shapes": _activations_and_shapes(),
    "scale-unary-no-params-binary-int-bool-params": _scale_and_more(),
}
# The variant whose suite runs the device flow's op-independent tests (conftest.py):
# the other variant's suite leaves them out.
RUNS_EVERY_TEST = "activations-and-shapes"
# The user math a variant's custom ops need, as a user writes it: <op>.py (eager) and
# <QnnType>_math.c (kernel), copied into the rendered project's user/ folders.
USER_MATH = {"activations-and-shapes": EXAMPLES / "shapes.user"}


def write_user_math(project: Path, spec: dict, folder: Path) -> None:
    """Every custom op's math: FORMS_MATH's for those ops, else `folder`'s files."""
    ns, pkg = spec["namespace"], spec["package_name"]
    for op in spec["ops"]:
        if op.get("kind") != "custom":
            continue
        eager, kernel = FORMS_MATH.get(op["name"]) or (
            (folder / f"{op['name']}.py").read_text(),
            (folder / f"{qnn_type_of(op)}_math.c").read_text(),
        )
        for text, target in (
            (eager, project / ns / "user" / f"{op['name']}.py"),
            (kernel, project / "op_package" / pkg / "user" / f"{qnn_type_of(op)}_math.c"),
        ):
            assert "NotImplementedError" in target.read_text() or "LPAI_USER_MATH_MISSING" in target.read_text()
            target.write_text(text)


def copy_the_kernel_test_for_every_op(project: Path, spec: dict) -> None:
    """What tests/user/test_my_kernel.py says to do: a copy for each other op, NAME set.
    It then runs on every form of op of the variant (several inputs, broadcasting,
    several outputs, reductions, rowwise)."""
    stub = project / "tests" / "user" / "test_my_kernel.py"
    first = f'NAME = "{spec["ops"][0]["name"]}"  # the op under test\n'
    assert stub.read_text().count(first) == 1
    for op in spec["ops"][1:]:
        copy = stub.with_name(f"test_my_kernel_{op['name']}.py")
        copy.write_text(stub.read_text().replace(first, f'NAME = "{op["name"]}"  # the op under test\n'))


TEMPLATE_HEADER = "This file is owned by the qnn-op-template: do not edit; changes arrive with copier update."
USER_HEADER = "This file is yours: the template created it once and never touches it again."


def qnn_type_of(op: dict) -> str:
    # The spec's default, derived here independently of hooks/names.py: mul3 -> Mul3.
    return op.get("qnn_type") or "".join(part.capitalize() for part in op["name"].split("_"))


def expected_files(spec: dict) -> set[str]:
    """Files the spec must produce (a subset: the op package adds more)."""
    ns, pkg = spec["namespace"], spec["package_name"]
    files = {
        ".copier-answers.yml",
        ".gitignore",
        ".clang-format",
        "README.md",
        "pyproject.toml",
        "tests/conftest.py",
        "tests/lowering.py",
        "tests/reference.py",
        "tests/test_ops.py",
        "tests/test_quant.py",
        "tests/test_autograd.py",
        "tests/test_delegation.py",
        "tests/user/README.md",
        "tests/spec_values.py",
        "tests/failure.py",
        "tests/test_executorch_builder.py",
        "tests/test_check_model.py",
        "docs/conventions/README.md",
        ".github/workflows/ci.yml",
        "AGENTS.md",
        "Makefile",
    }
    files |= {
        f"{ns}/{m}.py"
        for m in (
            "__init__",
            "__main__",
            "cli",
            "delegation",
            "eager",
            "ops",
            "quant",
            "builder",
            "check_model",
            "loading",
        )
    }
    files.add(f"{ns}/user/__init__.py")
    op_pkg = f"op_package/{pkg}"
    files |= {
        f"{op_pkg}/{f}"
        for f in (
            "Makefile",
            "makefiles/package.mk",
            f"config/{pkg}.xml",
            f"src/{pkg}Interface.c",
            "include/lpai_package.h",
            "include/lpai_conventions.h",
            "include/lpai_glue.h",
            "include/lpai_drivers.h",
            "host/lpai_emu.c",
            "host/test_kernels.c",
        )
    }
    htp = "htp" in spec.get("backends", ())
    if htp:
        files |= {
            f"op_package/htp/{f}"
            for f in (
                "Makefile",
                "makefiles/package.mk",
                f"config/{pkg}.xml",
                f"src/{pkg}Interface.cpp",
                "src/qhpi_init.cpp",
            )
        }
        files |= {
            "tests/test_htp_kernels.py",
            "tests/test_htp_executorch_builder.py",
            "docs/htp.md",
            "op_package/htp/include/htp_kernels.h",
            "op_package/htp/include/htp_engine.h",
            "op_package/htp/host/test_htp.cpp",
        }
    for op in spec["ops"]:
        qnn_type = qnn_type_of(op)
        files |= {f"{op_pkg}/src/ops/{qnn_type}_inference.c", f"{op_pkg}/src/ops/{qnn_type}_compiler.cpp"}
        if htp:
            files.add(f"op_package/htp/src/ops/{qnn_type}.cpp")
        if op.get("kind") == "custom":
            files |= {
                f"{ns}/user/{op['name']}.py",
                f"{op_pkg}/user/{qnn_type}_math.c",
                f"{op_pkg}/include/ops/{qnn_type}_user.h",
            }
    return files


def user_files(spec: dict) -> set[str]:
    """Exactly the user-owned files: one eager and one kernel file per custom op."""
    ns, pkg = spec["namespace"], spec["package_name"]
    files = {f"{ns}/user/__init__.py", "tests/user/README.md", "tests/user/test_my_kernel.py"}
    for op in spec["ops"]:
        if op.get("kind") == "custom":
            qnn_type = qnn_type_of(op)
            files |= {f"{ns}/user/{op['name']}.py", f"op_package/{pkg}/user/{qnn_type}_math.c"}
    return files


def rendered(project: Path) -> list[str]:
    return sorted(tree(project))


def check_tree(project: Path, spec: dict) -> None:
    files = rendered(project)
    missing = expected_files(spec) - set(files)
    assert not missing, f"missing files: {sorted(missing)}"
    assert {f for f in files if "/user/" in f"/{f}"} == user_files(spec)
    ns, pkg = spec["namespace"], spec["package_name"]
    allowed_roots = (f"{ns}/", f"op_package/{pkg}/", "tests/", "docs/", ".github/", "scripts/")
    allowed_roots += ("op_package/htp/",) if "htp" in spec.get("backends", ()) else ()
    for rel in files:
        assert "/" not in rel or rel.startswith(allowed_roots), f"unexpected file {rel}"
        assert not rel.endswith(".jinja") and "{{" not in rel and "{%" not in rel, rel
        text = (project / rel).read_text(errors="replace")
        assert not re.search(r"\{\{ |\{%-? ", text), f"{rel}: unrendered Jinja"
        if rel == ".copier-answers.yml":
            continue
        head = "\n".join(text.splitlines()[:3])
        owned_by_template = TEMPLATE_HEADER in head
        owned_by_user = USER_HEADER in head
        assert owned_by_template != owned_by_user, f"{rel}: needs exactly one ownership header"
        in_user_area = "/user/" in f"/{rel}"
        assert owned_by_user == in_user_area, f"{rel}: ownership header does not match its folder"


def check_lint(project: Path) -> None:
    """ruff (check and format) is clean on the rendered project, under the project's own
    configuration (its pyproject.toml): what its pre-commit and CI run."""
    for args in (["check", "--no-cache", "--output-format=concise", "."], ["format", "--no-cache", "--check", "."]):
        run = run_budgeted([sys.executable, "-m", "ruff", *args], 120, cwd=project)
        assert run.returncode == 0, f"ruff {args[0]} on the rendered project:\n{run.stdout[-6000:]}{run.stderr[-2000:]}"


C_SUFFIXES = (".c", ".h", ".cpp")


def check_c_format(project: Path) -> None:
    """Every rendered C and C++ file is clean under the .clang-format the project ships
    (found by clang-format itself, walking up from each file)."""
    assert (project / ".clang-format").is_file(), "the project ships no .clang-format"
    files = [rel for rel in rendered(project) if rel.endswith(C_SUFFIXES)]
    assert any(f.endswith("_inference.c") for f in files), files
    run = run_budgeted(["clang-format", "--dry-run", "-Werror", *files], 300, cwd=project)
    assert run.returncode == 0, "rendered C/C++ not clang-format clean:\n" + run.stderr[-4000:]


@pytest.mark.parametrize("name", list(VARIANTS))
def test_variant_renders_and_its_suite_passes(name, copie_session, template_repo):
    spec = VARIANTS[name]
    result = copie_session.copy(extra_answers=spec, template_dir=template_repo)
    assert result.exit_code == 0, result.exception
    check_tree(result.project_dir, spec)
    if name in USER_MATH:
        write_user_math(result.project_dir, spec, USER_MATH[name])
    check_lint(result.project_dir)
    copy_the_kernel_test_for_every_op(result.project_dir, spec)
    check_c_format(result.project_dir)
    skip = () if name == RUNS_EVERY_TEST else SKIP_OP_INDEPENDENT
    run = run_project_tests(
        result.project_dir, "-rs", *skip, env_extra=CLANG_BUILDS if name.startswith("scale") else GCC_BUILDS
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    assert re.search(r"\d+ passed", run.stdout)
    assert " failed" not in run.stdout
    # Every skip says why in the spec's words: a test over the ops of a kind the spec
    # lacks is one skipped case naming the kind, never pytest's "empty parameter set".
    assert "empty parameter set" not in run.stdout, re.findall(r"^SKIPPED.*empty parameter set.*$", run.stdout, re.M)


def test_the_op_independent_tests_exist():
    """The names left out of the other variant's suite are tests the template renders
    (pytest ignores a --deselect that matches nothing, so a rename would run them all)."""
    for names, module in (
        (OP_INDEPENDENT_DEVICE_TESTS, "test_device_fakes.py.jinja"),
        (OP_INDEPENDENT_CLI_TESTS, "test_cli.py.jinja"),
        (("test_making_the_quantizer_without_an_sdk_downloads_nothing",), "test_quant.py.jinja"),
    ):
        source = (ROOT / "template" / "tests" / module).read_text()
        defined = set(re.findall(r"^def (test_\w+)\(", source, re.M))
        assert set(names) <= defined, (module, set(names) - defined)
    assert RUNS_EVERY_TEST in VARIANTS


# The math of examples/custom.yaml's my_norm as a user writes it (examples/custom.user/,
# which bench/run.py builds too): the eager function, and below the kernel's.
CUSTOM_EAGER = (EXAMPLES / "custom.user" / "my_norm.py").read_text()


def test_custom_op_fails_until_the_user_writes_it(copie_session, template_repo):
    spec = load_example("custom.yaml")
    result = copie_session.copy(extra_answers=spec, template_dir=template_repo)
    assert result.exit_code == 0, result.exception
    project = result.project_dir
    check_tree(project, spec)
    check_lint(project)
    check_c_format(project)
    user_eager = project / "norm_ops/user/my_norm.py"
    assert "NotImplementedError" in user_eager.read_text()

    # Before any math: the whole suite is one failure listing every file to write, and
    # what each holds; the tests that need the math are set aside (tests/user_math.py).
    eager_line = "norm_ops/user/my_norm.py: def my_norm(x: torch.Tensor) -> torch.Tensor: the eager math"
    kernel_line = "op_package/NormOpPackage/user/MyNorm_math.c: int MyNorm_compute(const MyNorm_args *args)"
    run = run_project_tests(project, *SKIP_OP_INDEPENDENT)
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", run.stdout, re.M)
    tail = run.stdout[-3000:]
    assert run.returncode == 1 and failed == ["tests/test_user_math.py::test_the_user_math_is_written"], tail
    assert "user math still to write: 2 files of your custom ops" in run.stdout, run.stdout[-3000:]
    assert f"\n  {eager_line}" in run.stdout and f"\n  {kernel_line}" in run.stdout, run.stdout[-3000:]
    # examples/custom.yaml has an HTP package too: the one C file serves both kernels.
    assert "returning 0; the LPAI and the HTP kernels both call it; it still returns" in run.stdout, tail
    assert re.search(r"1 failed, \d+ passed, \d{3,} deselected", run.stdout), run.stdout[-500:]

    # Every test anyway (--all-tests): each one the missing math reaches names the file.
    # (my_norm's own: the other op's tests need no user math and pass, as above.)
    run = run_project_tests(
        project, "--all-tests", "tests/test_ops.py", "tests/test_op_package_kernels.py", "-k", "my_norm"
    )
    assert run.returncode != 0, "a custom op without math must fail its tests"
    assert re.findall(r"^(?:FAILED|ERROR) .*my_norm", run.stdout, re.M), run.stdout[-3000:]
    assert "write the eager math in norm_ops/user/my_norm.py" in run.stdout

    # The user writes the eager math: with -x, the first failure is the list, now the kernel alone.
    user_eager.write_text(CUSTOM_EAGER)
    run = run_project_tests(project, "-x")
    tail = run.stdout[-3000:]
    assert run.returncode == 1 and "user math still to write: 1 file of your custom ops" in run.stdout, tail
    assert kernel_line in run.stdout and "norm_ops/user/my_norm.py:" not in run.stdout, run.stdout[-3000:]
    # ...and the kernel tests of my_norm, and only those, still fail.
    run = run_project_tests(project, "--all-tests", "tests/test_op_package_kernels.py")
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", run.stdout, re.M)
    assert run.returncode != 0 and failed, run.stdout[-3000:]
    assert all("my_norm" in test_id for test_id in failed), failed

    # ...and the kernel math: everything passes.
    # (The rest of the suite passed above: this run needs only my_norm and the C suite.)
    write_custom_kernel(project)
    run = run_project_tests(project, "-k", "my_norm or test_c_suite", env_extra=GCC_BUILDS)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]


CUSTOM_KERNEL = (EXAMPLES / "custom.user" / "MyNorm_math.c").read_text()


def write_custom_kernel(project: Path) -> None:
    """What a user writes: the kernel math of my_norm, matching the eager math above."""
    path = project / "op_package/NormOpPackage/user/MyNorm_math.c"
    assert "LPAI_USER_MATH_MISSING" in path.read_text()
    path.write_text(CUSTOM_KERNEL)


def test_the_longest_names_are_clang_format_clean_on_both_backends(copie_session, template_repo):
    """A package and an op at the longest names the spec allows (48 characters, CamelCase),
    with an SSE4.1 copy (floor, ceil), rendered for LPAI and HTP: every C and C++ line a
    name lengthens is laid out as clang-format lays it (the render matrix's names are
    short; the stress specs render LPAI only)."""
    longest = "A" + "b" * 47
    spec = {
        "package_name": "P" + "q" * 47,
        "namespace": "longest_names",
        "backends": ["lpai", "htp"],
        "ops": [
            {
                "name": "f",
                "qnn_type": longest,
                "doc": "floor and ceil.",
                "inputs": ["x", "y"],
                "expr": "floor(x) + ceil(y)",
            },
        ],
    }
    assert len(spec["package_name"]) == len(longest) == 48
    result = copie_session.copy(extra_answers=spec, template_dir=template_repo)
    assert result.exit_code == 0, result.exception
    check_c_format(result.project_dir)
