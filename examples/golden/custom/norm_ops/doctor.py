# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""`doctor`: a checklist, the laptop path first, then the device path, one line each.

The laptop path (no Qualcomm SDK): `python -m pytest`, `make host-test` (the C suite
against the host emulator) and `make hexagon-test` (the kernels built for Hexagon by
`python -m ziglang`, run under `qemu-hexagon`).  The device path: build, build-dsp,
sign, export, simulate, device.  Every check is `ok` or `missing`, with what it found
and, when missing, a reference to its fix; each fix is printed once, after the list.
The last lines say which steps are ready and sum it up.  With QNN_SDK_ROOT set, doctor
also runs `make -C op_package/<package> sdk-check` ("check this SDK": the op package
built and tested against the SDK's own headers); nothing else here changes anything.
In a project with an HTP op package (op_package/htp/), the HTP path too: the SDK's HTP
headers (htp-build) and the x86_64 HTP library (`export --backend htp`), HTP_STEPS.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ._package import NAMESPACE, PACKAGE_NAME, SOC_MODEL
from .toolchain import (
    BUILD_FOLDER_ENV,
    DIRECT_BUILD_FOLDER_ENV,
    DIRECT_BUILD_OUTPUTS,
    DIRECT_MODE_LIBRARIES,
    DIRECT_RUNNER,
    DIRECT_STUB,
    EXECUTORCH_DIRECT_BUILD,
    EXECUTORCH_REVISION,
    EXECUTORCH_SOURCE_HINT,
    HEXAGON_TOOLS,
    HOST_SDK_LIB_DIR,
    HOST_SDK_LIBRARIES,
    HTP_HEADERS,
    HTP_RUNNER,
    LOADER_PATH_ENV,
    LPAI_HEADER,
    LPAI_MAKEFILES,
    MIN_SDK_BUILD,
    MIN_SDK_DEVICE,
    SDK_ENVSETUP,
    SERIAL_ENV,
    SIGNER,
    SIGNER_MAX_PYTHON,
    SIGNER_PYTHON_ENV,
    X86_BUILD_FOLDER_ENV,
    X86_RUNNER,
    Project,
    ToolchainError,
    check_signed,
    env_path,
    env_value,
    format_version,
    loader_path_has,
    lpai_signed_dir,
    qc_schema,
    qnn_sdk_version,
    signer_python,
    soc_htp_arch,
    which,
)

# The steps a check is needed for, in the order the README runs them: the laptop path
# (no Qualcomm SDK) first, then the device path.
LAPTOP_STEPS = ("pytest", "host-test", "hexagon-test")
PYTEST, HOST_TEST, HEXAGON_TEST = LAPTOP_STEPS
STEPS = ("build", "build-dsp", "sign", "export", "simulate", "device")
BUILD, DSP, SIGN, EXPORT, SIMULATE, DEVICE = STEPS
SDK_CHECK_TARGET = "sdk-check"
# The HTP path of a project with op_package/htp/ (only then checked and printed).
HTP_STEPS = ("htp-build", "htp-export", "htp-run")
HTP_BUILD, HTP_EXPORT, HTP_RUN = HTP_STEPS
# The purpose of each SDK minimum, said once wherever a fix names it.
BUILD_SDK_FIX = f"install QNN SDK >= {format_version(MIN_SDK_BUILD)} (the first with LPAI op packages)"
DEVICE_SDK_FIX = f"install QNN SDK >= {format_version(MIN_SDK_DEVICE)} (the first whose device path runs op packages)"
SDK_ROOT_FIX = (
    f"install the Qualcomm AI Engine Direct SDK (QAIRT; >= {format_version(MIN_SDK_BUILD)} to build, "
    f">= {format_version(MIN_SDK_DEVICE)} for the device) and export QNN_SDK_ROOT=<sdk folder>"
)


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    fix: str
    needed_for: tuple[str, ...]

    def line(self) -> str:
        status = "ok" if self.ok else "missing"
        text = f"{status:<8} {self.name:<44} {self.detail}"
        if not self.ok and self.fix:
            text += f"; fix: {self.fix}"
        return text


def _adb_state(adb: str, serial: str, environ: Mapping[str, str]) -> str:
    try:
        proc = subprocess.run(
            [adb, "-s", serial, "get-state"], capture_output=True, text=True, timeout=20, env=dict(environ)
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"adb failed: {exc}"
    return (proc.stdout.strip() or proc.stderr.strip() or f"exit {proc.returncode}").splitlines()[-1]


def _folder_check(
    name: str, environ: Mapping[str, str], required: tuple[str, ...], fix: str, needed: tuple[str, ...]
) -> Check:
    """The folder named by environment variable `name`: set, a directory, holding the `required` files."""
    folder = env_path(name, environ)
    if folder is None:
        return Check(name, False, "not set", fix, needed)
    if not folder.is_dir():
        return Check(name, False, f"{folder} is not a directory", fix, needed)
    absent = [r for r in required if not (folder / r).is_file()]
    if absent:
        return Check(name, False, f"{folder} lacks {', '.join(absent)}", fix, needed)
    return Check(name, True, str(folder), fix, needed)


def check_qnn_sdk(env: Mapping[str, str]) -> list[Check]:
    """The QNN SDK: its folder and version, the LPAI header and makefiles, the signed direct-mode runtime."""
    checks: list[Check] = []
    add = checks.append
    sdk_check = _folder_check("QNN_SDK_ROOT", env, (), SDK_ROOT_FIX, (BUILD, EXPORT, SIMULATE, DEVICE, *HTP_STEPS))
    add(sdk_check)
    sdk, sdk_ok = env_path("QNN_SDK_ROOT", env), sdk_check.ok
    version, source = qnn_sdk_version(sdk) if sdk_ok else (None, "no SDK")
    shown = format_version(version) if version else f"unknown ({source})"
    for minimum, what, needed, fix in (
        (MIN_SDK_BUILD, "to build an LPAI op package", (BUILD, EXPORT, SIMULATE), BUILD_SDK_FIX),
        (MIN_SDK_DEVICE, "for the device path", (DEVICE,), DEVICE_SDK_FIX),
    ):
        ok = version is not None and version[:2] >= minimum
        add(Check(f"QNN SDK >= {format_version(minimum)} ({what})", ok, f"version {shown}", fix, needed))
    for rel, what in ((LPAI_HEADER, "LPAI op package header"), (LPAI_MAKEFILES, "LPAI op package makefiles")):
        path = sdk / rel if sdk_ok else None
        ok = path is not None and (path.is_file() if rel == LPAI_HEADER else path.is_dir())
        add(
            Check(
                what,
                ok,
                str(path) if path else f"$QNN_SDK_ROOT/{rel} (no SDK)",
                BUILD_SDK_FIX,
                (BUILD,),
            )
        )
    # Lowering on this machine: ExecuTorch dlopens libQnnLpai.so by its bare name, and its
    # QnnConfig aborts the process (exit 134) without libQnnHtp.so (read in its post-PR source).
    lib_dir = sdk / HOST_SDK_LIB_DIR if sdk_ok else None
    for lib in HOST_SDK_LIBRARIES:
        path = lib_dir / lib if lib_dir else None
        add(
            Check(
                f"SDK host library {lib}",
                bool(path and path.is_file()),
                str(path) if path else f"$QNN_SDK_ROOT/{HOST_SDK_LIB_DIR}/{lib} (no SDK)",
                "use a complete QAIRT SDK: lowering loads its x86_64 host libraries",
                (EXPORT, SIMULATE, DEVICE) + ((HTP_EXPORT,) if lib == "libQnnHtp.so" else ()),
            )
        )
    on_path = lib_dir is not None and loader_path_has(lib_dir, env)
    add(
        Check(
            f"loader path ({LOADER_PATH_ENV})",
            on_path,
            (f"holds {lib_dir}" if on_path else f"does not hold {lib_dir}")
            if lib_dir
            else f"needs $QNN_SDK_ROOT/{HOST_SDK_LIB_DIR} (no SDK)",
            f"`source $QNN_SDK_ROOT/{SDK_ENVSETUP}` in the shell you export from (it puts "
            f"$QNN_SDK_ROOT/{HOST_SDK_LIB_DIR} on {LOADER_PATH_ENV}; ExecuTorch dlopens libQnnLpai.so by name)",
            (EXPORT, SIMULATE, HTP_EXPORT),
        )
    )
    # The six signed libraries ExecuTorch's SimpleADB pushes in direct mode; the SDK does
    # not ship them signed: ExecuTorch's build.sh builds and signs them into the SDK.
    signed_dir = lpai_signed_dir(sdk) if sdk_ok else None
    shown_dir = str(signed_dir) if signed_dir else f"$QNN_SDK_ROOT/{lpai_signed_dir(Path('.')).as_posix()}"
    for lib in DIRECT_MODE_LIBRARIES:
        path = signed_dir / lib if signed_dir else None
        add(
            Check(
                f"direct-mode runtime {lib} (signed)",
                bool(path and path.is_file()),
                str(path) if path else f"{shown_dir}/{lib} (no SDK)",
                f"in your ExecuTorch checkout run `{EXECUTORCH_DIRECT_BUILD}` (builds build-direct and "
                f"signs all six into {shown_dir}; needs QNN_SDK_ROOT, ANDROID_NDK_ROOT, HEXAGON_SDK_ROOT, "
                "HEXAGON_TOOLS_ROOT and a Python < 3.12 as `python` for the signer)",
                (DEVICE,),
            )
        )
    return checks


def _has_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def zig_cache(env: Mapping[str, str]) -> tuple[Path | str, str | None]:
    """zig's global cache folder, where hexagon-test's first link builds musl and
    compiler-rt (zig's own order: ZIG_GLOBAL_CACHE_DIR, else $XDG_CACHE_HOME/zig, else
    $HOME/.cache/zig; makefiles/hexagon_test.mk checks the same), and why it cannot be
    written (None when it can): with a read-only HOME, hexagon-test failed in zig."""
    if env.get("ZIG_GLOBAL_CACHE_DIR"):
        folder = Path(env["ZIG_GLOBAL_CACHE_DIR"])
    elif env.get("XDG_CACHE_HOME"):
        folder = Path(env["XDG_CACHE_HOME"]) / "zig"
    elif env.get("HOME"):
        folder = Path(env["HOME"]) / ".cache" / "zig"
    else:
        return "$HOME/.cache/zig", "HOME is not set"
    probe = folder
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent  # the folder is made at the first link: its nearest existing parent
    if not probe.is_dir():
        return folder, f"{probe} is not a folder"
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".doctor-", dir=probe))
    except OSError as exc:
        return folder, f"cannot be written ({exc.strerror or exc})"
    return folder, None


def check_laptop(env: Mapping[str, str], has_module: Callable[[str], bool] = _has_module) -> list[Check]:
    """The laptop path: the Python packages of the tests, make and a C compiler for the C
    suite, zig (`python -m ziglang`) and qemu-hexagon for the Hexagon build of the kernels."""
    checks: list[Check] = []
    add = checks.append
    absent = [m for m in ("torch", "pytest") if not has_module(m)]
    add(
        Check(
            "Python packages of the tests (torch, pytest)",
            not absent,
            f"{sys.executable} lacks {', '.join(absent)}" if absent else sys.executable,
            "python -m pip install -e '.[test]' (or the packages README's install line names)",
            (PYTEST,),
        )
    )
    for tool, what, needed, fix in (
        ("make", "make", (HOST_TEST, HEXAGON_TEST, BUILD), "install make (e.g. apt-get install build-essential)"),
        ("cc", "cc (C suite: host-test)", (HOST_TEST,), "install a C compiler (e.g. apt-get install build-essential)"),
    ):
        found = which(tool, env)
        add(Check(what, found is not None, found or "not on PATH", fix, needed))
    zig = has_module("ziglang")
    add(
        Check(
            "zig for Hexagon (python -m ziglang)",
            zig,
            "the ziglang package is installed" if zig else f"{sys.executable} cannot import ziglang",
            "python -m pip install ziglang",
            (HEXAGON_TEST,),
        )
    )
    cache, why_not = zig_cache(env)
    add(
        Check(
            "zig's cache folder (hexagon-test writes it)",
            why_not is None,
            f"{cache}: {why_not}" if why_not else str(cache),
            "export ZIG_GLOBAL_CACHE_DIR=<a folder you can write> (zig builds its musl there once, 1-2 minutes)",
            (HEXAGON_TEST,),
        )
    )
    qemu = which("qemu-hexagon", env)
    add(
        Check(
            "qemu-hexagon",
            qemu is not None,
            qemu or "not on PATH",
            "install qemu-user (Debian, Ubuntu: apt-get install qemu-user), which ships qemu-hexagon",
            (HEXAGON_TEST,),
        )
    )
    return checks


def check_this_sdk(project: Project | None, env: Mapping[str, str], run: bool = True) -> list[Check]:
    """ "Check this SDK": `make -C op_package/<package> sdk-check` with QNN_SDK_ROOT set (the
    host library built without warnings, the inference sources at -Werror with gcc and
    clang, the C suite against the SDK's own headers)."""
    name = f"this SDK builds the op package (make {SDK_CHECK_TARGET})"
    sdk = env_path("QNN_SDK_ROOT", env)
    if project is None:
        return []
    if sdk is None or not sdk.is_dir():
        return [Check(name, False, "not run: needs QNN_SDK_ROOT", SDK_ROOT_FIX, (BUILD,))]
    if not run:
        return []  # doctor --quick
    make = which("make", env)
    if make is None:
        return [Check(name, False, "not run: make is not on PATH", "install make", (BUILD,))]
    argv = [make, "-C", str(project.op_dir), SDK_CHECK_TARGET]
    print(f"checking this SDK: {' '.join(argv[1:])} (QNN_SDK_ROOT={sdk}) ...", flush=True)
    try:
        proc = subprocess.run(
            argv,
            capture_output=True,
            text=True,
            timeout=1800,
            env={**dict(env), "QNN_SDK_ROOT": str(sdk)},
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return [Check(name, False, f"make failed to run: {exc}", "run it by hand to see why", (BUILD,))]
    output = (proc.stdout or "") + (proc.stderr or "")
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    if proc.returncode == 0:
        return [Check(name, True, f"{sdk}: passed", "", (BUILD,))]
    if f"No rule to make target '{SDK_CHECK_TARGET}'" in output:
        return [
            Check(
                name,
                False,
                f"op_package/{PACKAGE_NAME}/Makefile has no {SDK_CHECK_TARGET} target",
                f"`copier update` this project to a template release with `make {SDK_CHECK_TARGET}`",
                (BUILD,),
            )
        ]
    last = lines[-1] if lines else f"exit {proc.returncode}"
    return [
        Check(
            name,
            False,
            f"failed against {sdk}: {last[:200]}",
            f"run `make -C op_package/{PACKAGE_NAME} {SDK_CHECK_TARGET}` to see the whole output",
            (BUILD,),
        )
    ]


def check_host_compilers(env: Mapping[str, str]) -> list[Check]:
    """gcc and g++ for the host library (make: the laptop path's check)."""
    checks: list[Check] = []
    add = checks.append
    for tool, what in (("gcc", "gcc (host library)"), ("g++", "g++ (host library)")):
        found = which(tool, env)
        add(
            Check(
                what,
                found is not None,
                found or "not on PATH",
                f"install {tool} (e.g. apt-get install build-essential)",
                (BUILD,),
            )
        )
    return checks


def check_hexagon_sdk(env: Mapping[str, str], pyver: tuple[int, int]) -> list[Check]:
    """The Hexagon SDK, its compiler, the signer and a Python old enough to run it."""
    checks: list[Check] = []
    add = checks.append
    hexagon_check = _folder_check(
        "HEXAGON_SDK_ROOT",
        env,
        (),
        "install the Hexagon SDK and export HEXAGON_SDK_ROOT=<sdk folder>",
        (DSP, SIGN, DEVICE),
    )
    add(hexagon_check)
    hexagon, hexagon_ok = env_path("HEXAGON_SDK_ROOT", env), hexagon_check.ok
    tools_version = env_value("HEXAGON_TOOLS_VERSION", env)
    tools = hexagon / HEXAGON_TOOLS / tools_version if (hexagon_ok and tools_version) else None
    clang = tools / "Tools" / "bin" / "hexagon-clang" if tools else None
    if tools_version is None:
        detail = "not set"
    elif tools is None:
        detail = f"{tools_version} (no Hexagon SDK)"
    else:
        detail = str(clang) if clang.is_file() else f"{clang} does not exist"
    add(
        Check(
            "HEXAGON_TOOLS_VERSION (hexagon-clang)",
            bool(clang and clang.is_file()),
            detail,
            "export HEXAGON_TOOLS_VERSION=<folder under $HEXAGON_SDK_ROOT/tools/HEXAGON_Tools>",
            (DSP, DEVICE),
        )
    )
    signer = hexagon / SIGNER if hexagon_ok else None
    add(
        Check(
            "signer (elfsigner.py)",
            bool(signer and signer.is_file()),
            str(signer) if signer else f"$HEXAGON_SDK_ROOT/{SIGNER} (no Hexagon SDK)",
            "install the Hexagon SDK with its tools/elfsigner",
            (SIGN,),
        )
    )
    python = signer_python(env, pyver)
    add(
        Check(
            f"Python < {format_version(SIGNER_MAX_PYTHON)} for the signer",
            python is not None,
            python or f"this is Python {format_version(pyver)} and no python3.11..3.8 on PATH",
            f"elfsigner.py imports `imp`: install python3.11 or export {SIGNER_PYTHON_ENV}=<python3.11>",
            (SIGN,),
        )
    )
    return checks


def check_executorch(env: Mapping[str, str], schema_loader: Callable[[], object]) -> list[Check]:
    """ExecuTorch: installed, and able to register an LPAI op package."""
    checks: list[Check] = []
    add = checks.append
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        et_version = dist_version("executorch")
    except PackageNotFoundError:
        et_version = None
    pinned = f"this project is written against source revision {EXECUTORCH_REVISION}"
    add(
        Check(
            "ExecuTorch",
            et_version is not None,
            f"executorch {et_version} ({pinned})" if et_version else f"not installed ({pinned})",
            "pip install executorch (then see the op package targets below)",
            (EXPORT, SIMULATE, DEVICE, HTP_EXPORT),
        )
    )
    schema = None
    et_error = ""
    if et_version is not None:
        try:
            schema = schema_loader()
        except Exception as exc:  # noqa: BLE001 - reported, not raised
            schema = None
            et_error = f"cannot import its Qualcomm backend: {exc}"
    source_build = f"{EXECUTORCH_SOURCE_HINT}; the PyPI wheel 1.5.1 lacks it"
    for enum, member, needed in (
        ("QnnExecuTorchOpPackageTarget", "LPAI", (EXPORT, SIMULATE, DEVICE)),
        ("QnnExecuTorchOpPackagePlatform", "HEXAGON", (DEVICE,)),
    ):
        if schema is None:
            ok, detail = False, ("ExecuTorch not installed" if et_version is None else et_error)
        else:
            ok = hasattr(getattr(schema, enum), member)
            names = ", ".join(m.name for m in getattr(schema, enum))
            detail = f"{enum}.{member}" + (" present" if ok else f" absent (has {names})")
        add(
            Check(
                f"ExecuTorch op package {'target' if member == 'LPAI' else 'platform'} {member}",
                ok,
                detail,
                source_build,
                needed,
            )
        )
    return checks


def check_executorch_builds(env: Mapping[str, str]) -> list[Check]:
    """The ExecuTorch build folders: the Android runner, the direct-mode libraries, the x86_64 runner."""
    checks: list[Check] = []
    add = checks.append
    add(
        _folder_check(
            BUILD_FOLDER_ENV,
            env,
            (DIRECT_RUNNER, DIRECT_STUB),
            f"`{EXECUTORCH_DIRECT_BUILD}` in your ExecuTorch checkout also builds build-android "
            f"with the direct runner; export {BUILD_FOLDER_ENV}=<executorch>/build-android",
            (DEVICE,),
        )
    )
    add(
        _folder_check(
            DIRECT_BUILD_FOLDER_ENV,
            env,
            DIRECT_BUILD_OUTPUTS,
            f"in your ExecuTorch checkout run `{EXECUTORCH_DIRECT_BUILD}` and export "
            f"{DIRECT_BUILD_FOLDER_ENV}=<executorch>/build-direct (setting it selects direct mode)",
            (DEVICE,),
        )
    )
    add(
        _folder_check(
            X86_BUILD_FOLDER_ENV,
            env,
            (X86_RUNNER,),
            f"ExecuTorch's backends/qualcomm/scripts/build.sh builds build-x86 too; "
            f"export {X86_BUILD_FOLDER_ENV}=<executorch>/build-x86",
            (SIMULATE,),
        )
    )
    return checks


def check_device(env: Mapping[str, str], htp: bool = False) -> list[Check]:
    """Adb and the device named by ANDROID_SERIAL (for `run` of an HTP program too, `htp`)."""
    checks: list[Check] = []
    add = checks.append
    needed = (DEVICE, HTP_RUN) if htp else (DEVICE,)
    adb = which("adb", env)
    add(Check("adb", adb is not None, adb or "not on PATH", "install Android platform-tools (adb)", needed))
    serial = env_value(SERIAL_ENV, env)
    if serial is None:
        add(
            Check(
                "device",
                False,
                f"{SERIAL_ENV} not set",
                f"connect a {SOC_MODEL} device and export {SERIAL_ENV}=<serial from `adb devices`>",
                needed,
            )
        )
    elif adb is None:
        add(Check("device", False, f"{serial}: cannot ask without adb", "install adb", needed))
    else:
        state = _adb_state(adb, serial, env)
        add(
            Check(
                "device",
                state == "device",
                f"{serial}: {state}",
                "connect and authorize the device (`adb devices` must list it as device)",
                needed,
            )
        )
    return checks


def check_artifacts(project: Project) -> list[Check]:
    """The libraries this project built and signed."""
    checks: list[Check] = []
    add = checks.append
    add(
        Check(
            "host library built",
            project.host_lib.is_file(),
            str(project.host_lib),
            f"python -m {NAMESPACE} build --host-only",
            (EXPORT, SIMULATE),
        )
    )
    missing = [p.name for p in project.dsp_libs if not p.is_file()]
    add(
        Check(
            "DSP libraries built",
            not missing,
            str(project.dsp_libs[0].parent) + (f" lacks {', '.join(missing)}" if missing else ""),
            f"python -m {NAMESPACE} build",
            (SIGN,),
        )
    )
    try:
        check_signed(project)
        ok, detail = True, str(project.signed_dir)
    except ToolchainError as exc:
        ok, detail = False, str(exc).split(":")[0]
    add(Check("signed libraries (current)", ok, detail, f"python -m {NAMESPACE} sign", (DEVICE,)))
    return checks


def check_htp(project: Project, env: Mapping[str, str]) -> list[Check]:
    """The HTP path (a project with op_package/htp/): QHPI's header (htp-build, with the
    Hexagon SDK and the Android NDK: `build --backend htp`), the x86_64 library and the
    ExecuTorch Android build folder `export --backend htp` configures (htp-export), the
    runner and the device libraries `run` pushes, with adb and the device (htp-run).  What
    it shares with LPAI (QNN_SDK_ROOT, libQnnHtp.so, the loader path, ExecuTorch, the
    Hexagon SDK, adb, the device) is checked once, above, and counted for HTP_STEPS too."""
    if not project.has_htp:
        return []
    sdk = env_path("QNN_SDK_ROOT", env)
    sdk = sdk if sdk is not None and sdk.is_dir() else None
    missing = [rel for rel in HTP_HEADERS if sdk is None or not (sdk / rel).is_file()]
    if sdk is None:
        detail = ", ".join(f"$QNN_SDK_ROOT/{rel}" for rel in HTP_HEADERS) + " (no SDK)"
    else:
        detail = f"{sdk} lacks {', '.join(missing)}" if missing else f"{sdk}/{HTP_HEADERS[0]}"
    checks = [
        Check(
            "QNN SDK HTP op package headers",
            not missing,
            detail,
            "use a QNN (QAIRT) SDK 2.44 or later, whose HTP headers have QHPI (include/QNN/HTP/core/qhpi.h), "
            "and export QNN_SDK_ROOT=<sdk>",
            (HTP_BUILD,),
        ),
        _folder_check(
            "ANDROID_NDK_ROOT",
            env,
            (),
            "install the Android NDK (r25 or later) and export ANDROID_NDK_ROOT=<ndk folder>",
            (HTP_BUILD,),
        ),
        Check(
            "HTP host library built",
            project.htp_host_lib.is_file(),
            str(project.htp_host_lib),
            f"python -m {NAMESPACE} build --backend htp --host-only",
            (HTP_EXPORT,),
        ),
    ]
    build = env_path(BUILD_FOLDER_ENV, env)
    fix = (
        "build ExecuTorch for Android (backends/qualcomm/scripts/build.sh) and export "
        f"{BUILD_FOLDER_ENV}=<executorch>/build-android"
    )
    if build is None or not build.is_dir():
        shown = "not set" if build is None else f"{build} is not a directory"
        checks.append(Check(f"{BUILD_FOLDER_ENV} (HTP)", False, shown, fix, (HTP_EXPORT, HTP_RUN)))
    else:
        checks.append(Check(f"{BUILD_FOLDER_ENV} (HTP)", True, str(build), fix, (HTP_EXPORT,)))
        runner = build / HTP_RUNNER
        checks.append(Check("qnn_executor_runner (HTP)", runner.is_file(), str(runner), fix, (HTP_RUN,)))
    try:
        arch = soc_htp_arch(SOC_MODEL)
        libs = [project.htp_hexagon_lib(arch), project.htp_aarch64_lib]
        absent = [str(p) for p in libs if not p.is_file()]
        detail = ", ".join(absent) + " missing" if absent else ", ".join(str(p) for p in libs)
        ok = not absent
    except ToolchainError as exc:
        ok, detail = False, str(exc)
    except ImportError as exc:  # the SoC's HTP comes from ExecuTorch's table
        ok, detail = False, f"the SoC's HTP arch is ExecuTorch's to say: cannot import it ({exc})"
    checks.append(
        Check("HTP device libraries built", ok, detail, f"python -m {NAMESPACE} build --backend htp", (HTP_RUN,))
    )
    return checks


def run_checks(
    project: Project | None,
    environ: Mapping[str, str] | None = None,
    schema_loader: Callable[[], object] | None = None,
    python_version: tuple[int, int] | None = None,
    has_module: Callable[[str], bool] | None = None,
    sdk_check: bool = False,
) -> list[Check]:
    """Every check, the laptop path's first, then one area after the other (the order
    `doctor` prints them in).  `sdk_check`: also run `make sdk-check` (with QNN_SDK_ROOT)."""
    env = os.environ if environ is None else environ
    return [
        *check_laptop(env, has_module or _has_module),
        *check_qnn_sdk(env),
        *check_host_compilers(env),
        *check_hexagon_sdk(env, python_version or sys.version_info[:2]),
        *check_executorch(env, schema_loader or qc_schema),
        *check_executorch_builds(env),
        *check_device(env, htp=project is not None and project.has_htp),
        *(check_artifacts(project) if project is not None else []),
        *(check_this_sdk(project, env, run=sdk_check) if project is not None else []),
        *(check_htp(project, env) if project is not None else []),
    ]


# Steps that need the results of an earlier step (build before sign, ...) are not
# blocked by that step's artifacts here: `ready` means the tools are there.
_ARTIFACT_CHECKS = {
    "host library built",
    "DSP libraries built",
    "signed libraries (current)",
    "HTP host library built",
    "HTP device libraries built",
}


def readiness(checks: list[Check]) -> dict[str, list[str]]:
    """Per step (laptop steps first): the names of the missing tool checks it needs, in
    check order (empty: ready)."""
    # The DSP build needs the host build's tools; the simulator needs the host build and
    # export; the device needs all of it and the signer.  pytest runs the C suite too.
    implied = {
        PYTEST: (PYTEST, HOST_TEST),
        HOST_TEST: (HOST_TEST,),
        HEXAGON_TEST: (HEXAGON_TEST,),
        BUILD: (BUILD,),
        DSP: (BUILD, DSP),
        SIGN: (SIGN,),
        EXPORT: (EXPORT,),
        SIMULATE: (BUILD, EXPORT, SIMULATE),
        DEVICE: (BUILD, DSP, SIGN, EXPORT, DEVICE),
        # build --backend htp needs what the LPAI DSP build needs too (the Hexagon SDK and
        # its hexagon-clang); run needs export, adb and the device (not direct mode's files).
        HTP_BUILD: (HTP_BUILD, DSP),
        HTP_EXPORT: (HTP_EXPORT,),
        HTP_RUN: (HTP_BUILD, DSP, HTP_EXPORT, HTP_RUN),
    }
    result = {}
    for step in (*LAPTOP_STEPS, *STEPS, *HTP_STEPS):
        result[step] = [
            c.name
            for c in checks
            if not c.ok and c.name not in _ARTIFACT_CHECKS and any(s in c.needed_for for s in implied[step])
        ]
    return result


def is_laptop(check: Check) -> bool:
    return any(s in LAPTOP_STEPS for s in check.needed_for)


def checklist(checks: list[Check]) -> list[str]:
    """The lines doctor prints: the laptop path, its readiness, the device path, each fix
    once (numbered; a missing line names its fix by number), the device steps, a summary."""
    fixes: dict[str, int] = {}
    for check in checks:
        if not check.ok and check.fix:
            fixes.setdefault(check.fix, len(fixes) + 1)

    def line(check: Check) -> str:
        status = "ok" if check.ok else "missing"
        text = f"{status:<8} {check.name:<48} {check.detail}"
        if not check.ok and check.fix:
            text += f"  [fix {fixes[check.fix]}]"
        return text

    ready = readiness(checks)
    laptop = [c for c in checks if is_laptop(c)]
    device = [c for c in checks if not is_laptop(c)]
    ready_laptop = [s for s in LAPTOP_STEPS if not ready[s]]
    blocked_laptop = [s for s in LAPTOP_STEPS if ready[s]]
    lines = ["the laptop path (no Qualcomm SDK):", *(line(c) for c in laptop)]
    verdict = f"ready: {', '.join(ready_laptop)}" if ready_laptop else "ready: nothing yet"
    if blocked_laptop:
        verdict += "; not ready: " + "; ".join(f"{s} (needs {', '.join(ready[s])})" for s in blocked_laptop)
    lines += [verdict, "", "the device path (Qualcomm SDKs, ExecuTorch from source, a device):"]
    lines += [line(c) for c in device]
    if fixes:
        lines += ["", "fixes:"]
        lines += [f"  [{n}] {fix}" for fix, n in fixes.items()]
    lines.append("")
    by_name = {c.name: c for c in checks}
    htp = any(s in HTP_STEPS for c in checks for s in c.needed_for)
    for step in (*STEPS, *HTP_STEPS) if htp else STEPS:
        blockers = ready[step]
        numbers = sorted({fixes[by_name[name].fix] for name in blockers if by_name[name].fix})
        refs = f" (fix {', '.join(map(str, numbers))})" if numbers else ""
        lines.append(f"{step:<10} {'ready' if not blockers else f'not ready: {len(blockers)} missing{refs}'}")
    missing_device = [c for c in device if not c.ok]
    lines.append("")
    if not missing_device:
        device_text = "the device path is ready"
    else:
        device_text = f"the device path lacks {len(missing_device)} of its {len(device)} checks (fixes above)"
    laptop_text = (
        f"the laptop path is ready ({', '.join(LAPTOP_STEPS)})"
        if not blocked_laptop
        else f"the laptop path is ready for {', '.join(ready_laptop) or 'nothing'}, not for {', '.join(blocked_laptop)}"
    )
    lines.append(f"summary: {laptop_text}; {device_text}")
    return lines


def doctor(
    project: Project | None, environ: Mapping[str, str] | None = None, **kwargs
) -> tuple[list[Check], dict[str, list[str]]]:
    checks = run_checks(project, environ, **kwargs)
    for text in checklist(checks):
        print(text)
    return checks, readiness(checks)


__all__ = ["Check", "doctor", "run_checks", "readiness", "checklist", "STEPS", "LAPTOP_STEPS"]
