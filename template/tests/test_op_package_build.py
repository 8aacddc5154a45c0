# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The op package's C suite (`make host-test`), built with -Wall -Wextra -Werror and
with -fsanitize=address,undefined, by gcc and by clang when it is installed. The
variants build concurrently: each runs the host-library suite and the inference-only
suite (the DSP configuration). Each build says on the terminal when it starts and
ends (a build of every kernel takes tens of seconds)."""

import os
import subprocess
import sys
import time

import pytest

import op_package_host as host

VARIANTS = [(cc, san) for cc in host.compilers() for san in (False, True)]
IDS = [f"{cc}-{'asan-ubsan' if san else 'werror'}" for cc, san in VARIANTS]
# HOST_TEST_BUILDS=gcc-werror,gcc-asan-ubsan runs only those builds (default: every
# compiler found, with and without sanitizers); a name not in IDS is an error.
_ONLY = [name for name in os.environ.get("HOST_TEST_BUILDS", "").split(",") if name]
if _ONLY:
    _unknown = sorted(set(_ONLY) - set(IDS))
    if _unknown:
        raise pytest.UsageError(f"HOST_TEST_BUILDS: unknown build(s) {_unknown}; the builds are {IDS}")
    VARIANTS = [v for v, name in zip(VARIANTS, IDS) if name in _ONLY]
    IDS = [name for name in IDS if name in _ONLY]


@pytest.fixture(scope="module")
def builds():
    # Module-scoped, so once per pytest-xdist worker that runs one of the builds: the
    # lock keeps a second worker's makes out of the same folders until the first's end.
    with host.build_lock(host.OP_DIR):
        return _build_all()


def _folder(cc, san, name):
    """Where a build goes: the gcc -Werror build shares the emulator library's folder
    and flags (emulator.LIB_CC, -O2), so the kernels' objects are compiled once for the
    library the Python tests load and for this suite."""
    if (cc, san) == (host.emulator.LIB_CC, False):
        return host.emulator.BUILD
    return f"build/host/pytest-{name}"


def _build_all():
    procs = {}
    for (cc, san), name in zip(VARIANTS, IDS):
        args = [
            "make",
            "--no-print-directory",
            "host-test",
            f"CC={cc}",
            f"SAN={int(san)}",
            f"BUILD={_folder(cc, san, name)}",
        ]
        procs[name] = subprocess.Popen(
            args,
            cwd=host.OP_DIR,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "ASAN_OPTIONS": "detect_leaks=1"},
        )
    host.progress(f"C suite: building and running {', '.join(procs)} (make host-test, concurrently)...")
    start = time.monotonic()
    results = {}
    for name, proc in procs.items():
        out, _ = host.communicate(proc, budget=600)
        results[name] = (proc.returncode, out)
        checks = [line.strip() for line in out.splitlines() if "failures" in line]
        verdict = "; ".join(checks) if proc.returncode == 0 else f"failed (exit {proc.returncode})"
        host.progress(f"C suite {name}: {verdict} ({time.monotonic() - start:.0f} s)")
    return results


@pytest.mark.parametrize("name", IDS)
def test_c_suite(builds, name):
    rc, out = builds[name]
    assert rc == 0, f"make host-test ({name}) failed:\n{out[-6000:]}"
    assert out.count("0 failures") == 2, out[-3000:]


def test_help_and_missing_environment_named():
    help_text = host.make("help").stdout
    for target in ("lpai_x86", "lpai_dsp", "host-test", "hexagon-test", "clean"):
        assert target in help_text
    env = {
        k: v for k, v in os.environ.items() if k not in ("QNN_SDK_ROOT", "HEXAGON_SDK_ROOT", "HEXAGON_TOOLS_VERSION")
    }
    for target, variable in (("lpai_x86", "QNN_SDK_ROOT"), ("lpai_dsp", "QNN_SDK_ROOT")):
        result = subprocess.run(["make", target], cwd=host.OP_DIR, env=env, capture_output=True, text=True)
        assert result.returncode != 0 and variable in result.stderr, result.stderr


def test_hexagon_test_names_what_to_install_when_a_tool_is_missing():
    """`make hexagon-test` without zig or without qemu-hexagon: one line naming the package
    to install, success (nothing failed), nothing built."""
    for args, install in (
        (["PYTHON=/nonexistent/python3"], "pip install ziglang"),
        (["ZIG=false", "QEMU_HEXAGON=true"], "pip install ziglang"),
        (["ZIG=true", "QEMU_HEXAGON=/nonexistent/qemu-hexagon"], "apt-get install qemu-user"),
    ):
        result = host.make("hexagon-test", *args, "BUILD=build/hexagon-missing")
        assert result.returncode == 0, result.stdout + result.stderr
        lines = result.stdout.splitlines()
        assert len(lines) == 1 and "hexagon-test skipped" in lines[0] and install in lines[0], result.stdout
        assert not (host.OP_DIR / "build/hexagon-missing").exists()


def test_one_build_at_a_time_in_the_op_package(tmp_path):
    """The builds' lock (emulator.build_lock, held around `make host-lib` and the C
    suite's makes) keeps a second process out while a first holds it, and lets it in
    once the first is done: what two pytest-xdist workers need to not build into the
    same folder at once."""
    probe = [
        sys.executable,
        "-c",
        "import fcntl, sys; f = open(sys.argv[1], 'a')\n"
        "try:\n    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)\nexcept BlockingIOError:\n    sys.exit(3)",
        str(tmp_path / "build" / ".lock"),
    ]
    with host.build_lock(tmp_path):
        assert host.run_command(probe).returncode == 3, "a second process got the lock"
    assert host.run_command(probe).returncode == 0, "the lock outlived its holder"


def test_the_kernels_are_the_same_code_in_both_host_builds():
    """makefiles/host_emulator.mk compiles src/ops/*_inference.c once, with
    -DLPAI_INFERENCE_ONLY as on the DSP, for the host library and the inference-only
    build alike: on the host (-DLPAI_HOST_EMULATOR) that define must change nothing in
    them, or the host library would test other code than it runs."""
    sources = sorted(p.relative_to(host.OP_DIR).as_posix() for p in (host.OP_DIR / "src/ops").glob("*_inference.c"))
    assert sources
    flags = ["-E", "-P", "-DLPAI_HOST_EMULATOR", "-DLPAI_EMU_OWN_DECLS", "-Iinclude", "-Ihost"]
    for cc in host.compilers()[:1]:  # the preprocessor's answer; the compiler does not matter
        for source in sources:
            runs = [
                host.run_command([cc, *flags, *extra, source], cwd=host.OP_DIR)
                for extra in ([], ["-DLPAI_INFERENCE_ONLY"])
            ]
            assert all(r.returncode == 0 for r in runs), runs[0].stderr + runs[1].stderr
            assert runs[0].stdout == runs[1].stdout, (
                f"{source}: -DLPAI_INFERENCE_ONLY changes its host build; makefiles/host_emulator.mk "
                "must then compile it per build"
            )
