"""Fixtures of the template's own test suite.

Every render goes through a snapshot of the template: a throw-away git repository
holding the working tree as it is now (committed or not).  Copier then behaves as it
does for a user (a versioned template, `_commit` recorded, `copier update` possible)
and the tests see uncommitted changes too.
"""

from __future__ import annotations

import fcntl
import math
import os
import pickle
import shutil
import subprocess
import sys
import time
import traceback
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"

GIT_ENV = {
    "GIT_AUTHOR_NAME": "qnn-op-template tests",
    "GIT_AUTHOR_EMAIL": "tests@example.invalid",
    "GIT_COMMITTER_NAME": "qnn-op-template tests",
    "GIT_COMMITTER_EMAIL": "tests@example.invalid",
}


def git(cwd: Path, *args: str) -> str:
    env = {**os.environ, **GIT_ENV}
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout


def template_files() -> list[str]:
    """The template's files as a fresh clone would have them, plus untracked work."""
    out = git(ROOT, "ls-files", "-co", "--exclude-standard", "--", "copier.yml", "hooks", "template")
    return [line for line in out.splitlines() if line and (ROOT / line).is_file()]


def snapshot_template(dest: Path, tag: str | None = "v1.0.0") -> Path:
    """Copy the template into `dest` as a new git repository (optionally tagged)."""
    dest.mkdir(parents=True, exist_ok=True)
    for rel in template_files():
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, target)
    git(dest, "init", "-q", "-b", "main")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "template snapshot")
    if tag:
        git(dest, "tag", tag)
    return dest


@pytest.fixture(scope="session")
def template_repo(tmp_path_factory) -> Path:
    return snapshot_template(tmp_path_factory.mktemp("template"))


def once_per_run(tmp_path_factory, key: str, build):
    """`build(folder)`'s result, built once per test run whichever pytest-xdist worker
    asks first: the others wait for it and get the same (pickled) result, or the same
    failure. A module-scoped fixture runs once per worker that runs one of the module's
    tests, and `make test`'s worksteal spreads a module over both: the Hexagon suite's
    project was built twice, 190 s of the budget. `folder` is shared by the run's
    workers; what `build` puts there must not be changed by the tests (copy it)."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder = root / f"once-{key}"
    result = root / f"once-{key}.pickle"
    with open(root / f"once-{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not result.exists():
            folder.mkdir()
            try:
                outcome = ("ok", build(folder))
            except BaseException:
                outcome = ("failed", traceback.format_exc())
            result.write_bytes(pickle.dumps(outcome))
    state, value = pickle.loads(result.read_bytes())
    if state != "ok":
        pytest.fail(f"{key}, built once for every worker, failed:\n{value}", pytrace=False)
    return value


def tree(root: Path) -> dict[str, bytes]:
    """Every file below `root` (outside .git), by its relative POSIX path."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and ".git" not in path.relative_to(root).parts
    }


def load_example(name: str) -> dict:
    return yaml.safe_load((EXAMPLES / name).read_text())


# The C builds of a rendered suite's test_op_package_build.py when the matrix runs it.
# Each build compiles every kernel, and four builds of each of three projects cost
# minutes of the budget. gcc -Werror shares the emulator library's objects (the
# project's emulator.LIB_CC), so it costs only its test driver: every project runs it.
# Beside it, gcc's sanitized build in the biggest variant and the custom op's project,
# clang's in the scale variant's suite (gcc's where clang is missing). clang's warnings
# (its front end's) are -Werror on every stress spec's package (tests/test_stress_specs.py)
# and on the Hexagon builds (zig's clang, tests/test_hexagon.py).
GCC_BUILDS = {"HOST_TEST_BUILDS": "gcc-werror,gcc-asan-ubsan"}
CLANG_BUILDS = {"HOST_TEST_BUILDS": "gcc-werror,clang-asan-ubsan"} if shutil.which("clang") else GCC_BUILDS


# The device flow's behaviours that no op changes (tests/test_device_fakes.py in a
# rendered project): retries, the device's failure text, md5 and stale-copy checks,
# debug logging, a later ExecuTorch's device class, unsigned pushes. Each drives `run`
# through about 30 fake adb calls (3-5 s each); the render matrix's biggest variant runs
# them, its other variant leaves them out (SKIP_OP_INDEPENDENT). What depends on the
# ops (push, run and compare; a differing output; your own model; delegation) runs in
# both.
OP_INDEPENDENT_DEVICE_TESTS = (
    "test_run_fails_when_the_runner_fails_and_ignores_old_outputs",
    "test_run_debug_writes_the_farf_mask_and_captures_logcat",
    "test_run_without_debug_keeps_executorchs_mask_and_writes_no_log",
    "test_run_uses_executorchs_later_name_device",
    "test_run_fails_in_one_line_with_devices_failure_text",
    "test_run_retries_once_on_eai_err_and_says_so",
    "test_run_fails_in_one_line_when_eai_err_comes_twice",
    "test_run_refuses_a_push_whose_md5_differs",
    "test_run_clears_stale_copies_in_the_adsp_folder",
    "test_run_skip_sign_pushes_the_unsigned_libraries",
)
# The command line's behaviours that no op changes either (tests/test_cli.py): build,
# sign and doctor against fake SDKs and devices, bad command lines, the terminal, the
# folders; and quantizing without an SDK in a fresh interpreter (tests/test_quant.py).
# What reads the ops (the XML reader, an edited XML) runs in both.
OP_INDEPENDENT_CLI_TESTS = (
    "test_build_runs_make_for_host_dsp_and_island",
    "test_build_host_only_skips_the_dsp",
    "test_build_failure_is_one_line_with_makes_reason",
    "test_build_fails_when_make_produces_nothing",
    "test_build_preconditions",
    "test_sign_signs_both_libraries_into_the_project",
    "test_signer_failure_fails_sign_with_its_message",
    "test_failed_resign_deploys_nothing_half_written",
    "test_sign_fails_when_nothing_was_signed",
    "test_sign_fails_when_a_library_is_missing",
    "test_signer_needs_python_before_3_12",
    "test_doctor_on_a_bare_machine_reports_every_missing_piece",
    "test_doctor_on_a_complete_machine_is_all_ok",
    "test_doctor_sees_an_sdk_good_for_building_only",
    "test_doctor_names_each_missing_direct_mode_library",
    "test_doctor_wants_the_direct_build_outputs",
    "test_doctor_reports_an_unplugged_device",
    "test_doctor_command_prints_each_check_and_fails",
    "test_doctor_on_a_laptop_is_ready_for_the_laptop_path",
    "test_doctor_without_zig_or_qemu_names_hexagon_test_only",
    "test_doctor_says_each_fix_once",
    "test_doctor_gives_one_sdk_minimum_per_purpose",
    "test_doctor_checks_this_sdk_with_make_sdk_check",
    "test_doctor_command_runs_the_sdk_check_unless_quick",
    "test_the_root_makefile_runs_each_command_where_it_belongs",
    "test_the_command_line_finds_the_project_from_any_folder_in_it",
    "test_bad_command_lines_fail_in_one_line",
    "test_info_into_a_closed_pipe_ends_quietly",
    "test_stderr_is_one_line_in_a_real_process",
    "test_update_names_what_git_lacks_in_one_line",
    "test_update_refuses_a_vcs_ref_the_template_lacks_in_one_line",
    "test_the_commands_that_say_what_is_missing_run_without_torch",
    "test_output_an_ascii_terminal_cannot_show_is_escaped",
    "test_doctor_checks_that_zig_can_write_its_cache",
)
SKIP_OP_INDEPENDENT = (
    *(arg for name in OP_INDEPENDENT_DEVICE_TESTS for arg in ("--deselect", f"tests/test_device_fakes.py::{name}")),
    *(arg for name in OP_INDEPENDENT_CLI_TESTS for arg in ("--deselect", f"tests/test_cli.py::{name}")),
    "--deselect",
    "tests/test_quant.py::test_making_the_quantizer_without_an_sdk_downloads_nothing",
)


def time_scale() -> float:
    """TEST_TIME_SCALE (default 1): a slow machine's factor on every time limit."""
    text = os.environ.get("TEST_TIME_SCALE", "1")
    try:
        scale = float(text)
    except ValueError:
        scale = math.nan
    if not (math.isfinite(scale) and scale > 0):
        raise pytest.UsageError(f"TEST_TIME_SCALE={text!r}: must be a positive number (a factor on the time limits)")
    return scale


def load_factor() -> float:
    """How much slower than idle the machine runs now: the 1-minute load average per
    core, at least 1."""
    try:
        load = os.getloadavg()[0]
    except OSError:
        return 1.0
    return max(1.0, load / (os.cpu_count() or 1))


def run_budgeted(args: list[str], budget: float, *, input: str | None = None, **kwargs) -> subprocess.CompletedProcess:
    """subprocess.run(args, capture_output=True, text=True) within a budget of
    idle-machine seconds instead of a fixed timeout: a second of wall time counts
    1 / load_factor() while the machine is loaded (`make test` shares its cores between
    two workers, each running compilers), and TEST_TIME_SCALE stretches the budget, so
    that a slow or busy machine fails no test merely for being slow; a hang still ends
    (subprocess.TimeoutExpired).  The rendered suites' own limits do the same
    (template/tests/op_package_host.py)."""
    budget *= time_scale()
    stdin = subprocess.PIPE if input is not None else kwargs.pop("stdin", None)
    with subprocess.Popen(
        args, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs
    ) as proc:
        spent, pending, step = 0.0, input, min(5.0, max(0.2, budget / 4))
        while True:
            start = time.monotonic()
            try:
                out, err = proc.communicate(pending, timeout=step)
                break
            except subprocess.TimeoutExpired:
                pending = None  # sent with the first call
                spent += (time.monotonic() - start) / load_factor()
                if spent > budget:
                    proc.kill()
                    out, err = proc.communicate()
                    raise subprocess.TimeoutExpired(args, budget, output=out, stderr=err) from None
    return subprocess.CompletedProcess(args, proc.returncode, out, err)


def run_project_tests(
    project: Path, *args: str, budget: float = 900, env_extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """Run a rendered project's own test suite, exactly as its README says (within a
    load-scaled budget: run_budgeted)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("QNN_", "HEXAGON_", "PYTEST_", "HOST_TEST_"))}
    env.update(env_extra or {})
    return run_budgeted(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], budget, cwd=project, env=env
    )


def copier_cli(*args: str, cwd: Path | None = None, budget: float = 300) -> subprocess.CompletedProcess:
    """The copier command line, as a user runs it (no terminal, no prompts)."""
    return run_budgeted(
        [sys.executable, "-m", "copier", *args],
        budget,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        env={**os.environ, **GIT_ENV},
    )


# Longest modules first, so that `make test -n 2 --dist worksteal` never ends with one
# worker alone on a rendered suite while the other sits idle (measured per module).
_FIRST = (
    "test_render.py",
    "test_update.py",
    "test_convention_mutations.py",
    "test_hexagon.py",
    "test_stress_specs.py",
    "test_kernel_specs.py",
    "test_bad_specs.py",
    "test_release.py",
)


def pytest_collection_modifyitems(items):
    def rank(item):
        name = item.path.name
        return _FIRST.index(name) if name in _FIRST else len(_FIRST)

    items.sort(key=rank)


def hexagon_tools_missing() -> str | None:
    """Why the Hexagon builds cannot run here (zig's clang, qemu-hexagon), or None."""
    zig = subprocess.run([sys.executable, "-m", "ziglang", "version"], capture_output=True, text=True)
    if zig.returncode != 0:
        return "no ziglang for this Python (pip install ziglang)"
    if shutil.which("qemu-hexagon") is None:
        return "no qemu-hexagon (apt-get install qemu-user)"
    return None
