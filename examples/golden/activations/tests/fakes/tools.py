# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Fake `make`, `adb`, signer, QNN SDK, Hexagon SDK and ExecuTorch build folders.

Everything is written at test time under tmp_path.  Each fake appends one JSON line
per invocation to the log (`FAKE_TOOLS_LOG`): its argv, working directory, the
environment variables the real tool depends on, and what it read on stdin.  Its
behaviour is steered by FAKE_* variables, so a test can make it fail.

At the end: what the gated tests (real SDK, simulator, device) share.
"""

from __future__ import annotations

import json
import os
import shlex
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from act_ops import cli
from act_ops._package import PACKAGE_NAME
from act_ops.toolchain import DIRECT_RUNNER, DIRECT_STUB, HTP_RUNNER, X86_RUNNER

WATCHED_ENV = (
    "QNN_SDK_ROOT",
    "HEXAGON_SDK_ROOT",
    "HEXAGON_TOOLS_VERSION",
    "ANDROID_NDK_ROOT",
    "CC",
    "CXX",
    "LD_LIBRARY_PATH",
)

_PRELUDE = """
import json, os, shutil, sys
from pathlib import Path

def log(tool, stdin=None, extra=None):
    entry = {"tool": tool, "argv": sys.argv[1:], "cwd": os.getcwd(),
             "env": {k: os.environ.get(k) for k in %(watched)r}}
    if stdin is not None:
        entry["stdin"] = stdin
    entry.update(extra or {})
    with open(os.environ["FAKE_TOOLS_LOG"], "a") as f:
        f.write(json.dumps(entry) + "\\n")
"""

# make: writes the files FAKE_MAKE_OUTPUTS lists for the target it is asked to build
# (`-C DIR` as make reads it); FAKE_MAKE_NO_TARGET names a target the Makefile lacks.
_MAKE = """
log("make")
args = sys.argv[1:]
if "-C" in args:
    where = args.index("-C")
    os.chdir(args[where + 1])
    args = args[:where] + args[where + 2 :]
target = next((a for a in args if "=" not in a and not a.startswith("-")), "all")
if os.environ.get("FAKE_MAKE_NO_TARGET") == target:
    print(f"make: *** No rule to make target '{target}'.  Stop.", file=sys.stderr)
    sys.exit(2)
if os.environ.get("FAKE_MAKE_FAIL") == target:
    print(f"gcc: error: fake failure while building {target}", file=sys.stderr)
    print(f"make: *** [{target}] Error 1", file=sys.stderr)
    sys.exit(2)
for rel in json.loads(os.environ.get("FAKE_MAKE_OUTPUTS", "{}")).get(target, []):
    path = Path(rel)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\\x7fELF fake " + target.encode() + b" " + os.environ.get("FAKE_BUILD_ID", "1").encode())
"""

# elfsigner.py: -i LIB -o DIR; asks for confirmation first, like the real one.
_SIGNER = """
answer = sys.stdin.readline()
log("signer", answer)
if not answer.lower().startswith("y"):
    print("Signing aborted: not confirmed")
    sys.exit(1)
args = sys.argv[1:]
lib = Path(args[args.index("-i") + 1])
out = Path(args[args.index("-o") + 1])
mode = os.environ.get("FAKE_SIGNER_MODE", "ok")
if mode == "fail" or (mode == "fail-island" and lib.name == "libLpaiOpPackageIsland.so"):
    print(f"Signing {lib.name}")
    print(f"ERROR: sectools could not sign {lib.name}: certificate expired")
    sys.exit(3)
if mode == "silent":
    print("nothing to do")
    sys.exit(0)
out.mkdir(parents=True, exist_ok=True)
data = lib.read_bytes()
(out / lib.name).write_bytes(data if mode == "copy" else data + b"--fake-signature--")
print(f"Signed {lib.name}")
"""

# adb: a device is a folder (FAKE_DEVICE_ROOT).  `adb shell` runs its one command line
# like the device's shell does for the commands ExecuTorch and `run` send: `a && b && ...`,
# each of cd, chmod, export, mkdir -p, rm -rf, `echo V > FILE`, logcat -c / -d, `ls -1 DIR`,
# `md5sum FILE...` (toybox's format: `<md5>  <path>`), the runner; `2>/dev/null` is
# dropped and `X || true` never fails.  A failed command ends the line with its status.
# The runner logs the FARF mask it finds next to itself, appends a line to the device
# log (what logcat -d prints) and writes FAKE_DEVICE_OUTPUTS/* as its outputs; its first
# FAKE_RUNNER_EAI_ERR runs print the LPAI clock error instead and write all-zero outputs
# (the PR's transient trap).  `push` of the file named FAKE_ADB_CORRUPT lands altered.
_ADB = """
import hashlib
args = sys.argv[1:]
if args[:1] == ["-H"]:
    args = args[2:]
if args[:1] == ["devices"]:
    log("adb")
    print("List of devices attached")
    for serial in os.environ.get("FAKE_ADB_DEVICES", "").split():
        print(f"{serial}\\tdevice")
    sys.exit(0)
log("adb")
serial = args[1] if args[:1] == ["-s"] else None
args = args[2:] if serial else args
known = os.environ.get("FAKE_ADB_DEVICES", "").split()
if serial not in known:
    print(f"adb: device '{serial}' not found", file=sys.stderr)
    sys.exit(1)
root = Path(os.environ["FAKE_DEVICE_ROOT"])
logcat = root / ".logcat"
def on_device(path, cwd="/"):
    return root / os.path.join(cwd, path).lstrip("/")
def shell(line):
    cwd = "/"
    for command in [c.strip() for c in line.split("&&")]:
        tolerant = command.endswith("|| true")
        words = command.removesuffix("|| true").split()
        quiet = "2>/dev/null" in words
        words = [w for w in words if w != "2>/dev/null"]
        stderr = sys.stderr
        if quiet:
            sys.stderr = open(os.devnull, "w")
        try:
            status = run_one(words, cwd)
        finally:
            sys.stderr = stderr
        if isinstance(status, str):
            cwd = status
        elif status and not tolerant:
            sys.exit(status)
def run_one(words, cwd):
    if words[0] == "cd":
        return words[1]
    elif words[0] == "ls" and words[1:2] == ["-1"]:
        folder = on_device(words[2], cwd)
        if not folder.is_dir():
            print(f"ls: {words[2]}: No such file or directory", file=sys.stderr)
            return 1
        for entry in sorted(folder.iterdir()):
            print(entry.name)
    elif words[0] == "md5sum":
        status = 0
        for name in words[1:]:
            path = on_device(name, cwd)
            if not path.is_file():
                print(f"md5sum: {name}: No such file or directory", file=sys.stderr)
                status = 1
                continue
            print(f"{hashlib.md5(path.read_bytes()).hexdigest()}  {name}")
        return status
    elif words[0] in ("chmod", "export"):
        pass
    elif words[:2] == ["rm", "-rf"]:
        shutil.rmtree(on_device(words[2], cwd), ignore_errors=True)
    elif words[:2] == ["mkdir", "-p"]:
        on_device(words[2], cwd).mkdir(parents=True, exist_ok=True)
    elif words[0] == "echo" and len(words) == 4 and words[2] == ">":
        on_device(words[3], cwd).write_text(words[1] + "\\n")
    elif words[:2] == ["logcat", "-c"]:
        logcat.write_text("")
    elif words[:2] == ["logcat", "-d"]:
        print(logcat.read_text() if logcat.is_file() else "", end="")
    elif words[0].startswith("./"):
        runner = on_device(words[0][2:], cwd)
        farf = runner.with_name(runner.name + ".farf")
        mask = farf.read_text().strip() if farf.is_file() else None
        log("runner", extra={"cwd_on_device": cwd, "farf": mask, "argv": words[1:]})
        with open(logcat, "a") as f:
            f.write(f"11-30 12:00:00.000 I/adsprpc: {runner.name}: FARF mask {mask}\\n")
        if os.environ.get("FAKE_RUNNER_FAIL"):
            print("[ERROR] Failed to register custom op package through platform", file=sys.stderr)
            sys.exit(255)
        out = words[words.index("--output_folder_path") + 1]
        outputs = on_device(out, cwd)
        outputs.mkdir(parents=True, exist_ok=True)
        runs = root / ".runs"
        count = int(runs.read_text()) + 1 if runs.is_file() else 1
        runs.write_text(str(count))
        eai_err = count <= int(os.environ.get("FAKE_RUNNER_EAI_ERR", "0"))
        if eai_err:
            print("[ERROR] [Qnn ExecuTorch]: EAI_ERR: Failed to reset global enpu clock level")
        for raw in sorted(Path(os.environ["FAKE_DEVICE_OUTPUTS"]).iterdir()):
            if eai_err:
                (outputs / raw.name).write_bytes(bytes(raw.stat().st_size))
            else:
                shutil.copy2(raw, outputs / raw.name)
    else:
        print(f"/system/bin/sh: {words[0]}: inaccessible or not found", file=sys.stderr)
        return 127
    return 0
if args[0] == "get-state":
    print("device")
elif args[0] == "push":
    src, dst = Path(args[1]), on_device(args[2])
    dst.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, dst / src.name)
    if src.name == os.environ.get("FAKE_ADB_CORRUPT"):
        (dst / src.name).write_bytes(src.read_bytes()[:-1] + b"?")
elif args[0] == "pull":
    src, dst = on_device(args[-2]), Path(args[-1])
    if not src.exists():
        print(f"adb: error: remote object '{args[-2]}' does not exist", file=sys.stderr)
        sys.exit(1)
    shutil.copytree(src, dst / src.name, dirs_exist_ok=True)
elif args[0] == "shell":
    shell(args[1])
else:
    print(f"fake adb: unsupported {args}", file=sys.stderr)
    sys.exit(1)
"""


# qnn_executor_runner for x86_64 (the LPAI simulator): reads its input list, writes
# FAKE_DEVICE_OUTPUTS/* into --output_folder_path; fails without the SDK's libraries on
# LD_LIBRARY_PATH, like the real one, and as a refused registration with FAKE_RUNNER_FAIL.
_X86_RUNNER = """
args = sys.argv[1:]
log("x86-runner")
libs = os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep)
if not any(Path(p, "libQnnLpai.so").is_file() for p in libs if p):
    print("qnn_executor_runner: error while loading shared libraries: libQnnLpai.so", file=sys.stderr)
    sys.exit(127)
if os.environ.get("FAKE_RUNNER_FAIL"):
    print("[ERROR] Failed to register custom op package through platform", file=sys.stderr)
    sys.exit(1)
inputs = Path(args[args.index("--input_list_path") + 1]).read_text().split()
missing = [p for p in inputs if not Path(p).is_file()]
if not inputs or missing:
    print(f"[ERROR] input list names missing files: {missing}", file=sys.stderr)
    sys.exit(1)
out = Path(args[args.index("--output_folder_path") + 1])
for raw in sorted(Path(os.environ["FAKE_DEVICE_OUTPUTS"]).iterdir()):
    shutil.copy2(raw, out / raw.name)
"""


def script_header(python: str) -> str:
    """The first two lines of a fake: to the shell, a script that starts `python -S` on
    itself; to Python, a comment and a string. A `#!python` line broke on an interpreter
    path with a space (the kernel splits it there) or longer than the kernel's limit;
    the shell gets the path quoted. `-S`: the fakes need the standard library only, and
    site's start-up was half of each call's cost (0.15 s -> 0.08 s, measured; one `run`
    calls adb about 30 times). The signer's fake is started by Python itself, which
    reads the same two lines as a comment and a string."""
    return "#!/bin/sh\n''''exec " + shlex.quote(python) + ' -S "$0" "$@" # ' + "'''\n"


def _script(path: Path, body: str) -> Path:
    """A fake as an executable script (script_header) whose body is Python."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(script_header(sys.executable) + _PRELUDE % {"watched": WATCHED_ENV} + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def _touch(path: Path, data: bytes = b"fake") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


@dataclass
class Fakes:
    root: Path
    bin: Path
    log: Path
    qnn_sdk: Path
    hexagon_sdk: Path
    hexagon_tools_version: str
    build_android: Path
    build_direct: Path
    build_x86: Path
    device_root: Path
    device_outputs: Path
    ndk: Path
    serial: str = "FAKE0001"

    def entries(self, tool: str | None = None) -> list[dict]:
        if not self.log.is_file():
            return []
        rows = [json.loads(line) for line in self.log.read_text().splitlines() if line]
        return [r for r in rows if tool is None or r["tool"] == tool]

    def clear(self) -> None:
        self.log.unlink(missing_ok=True)

    def environ(self, **extra: str) -> dict[str, str]:
        """The variables a fully set-up machine has, with the fakes first on PATH."""
        env = {
            "PATH": os.pathsep.join([str(self.bin), os.environ.get("PATH", "")]),
            "FAKE_TOOLS_LOG": str(self.log),
            "FAKE_DEVICE_ROOT": str(self.device_root),
            "FAKE_DEVICE_OUTPUTS": str(self.device_outputs),
            "FAKE_ADB_DEVICES": self.serial,
            "QNN_SDK_ROOT": str(self.qnn_sdk),
            "HEXAGON_SDK_ROOT": str(self.hexagon_sdk),
            "HEXAGON_TOOLS_VERSION": self.hexagon_tools_version,
            "ANDROID_NDK_ROOT": str(self.ndk),
            "ANDROID_SERIAL": self.serial,
            "EXECUTORCH_BUILD_FOLDER": str(self.build_android),
            "EXECUTORCH_DIRECT_BUILD_FOLDER": str(self.build_direct),
            "EXECUTORCH_X86_BUILD_FOLDER": str(self.build_x86),
            # What the SDK's bin/envsetup.sh puts on the loader path.
            "LD_LIBRARY_PATH": str(self.qnn_sdk / "lib/x86_64-linux-clang"),
            # zig's cache for hexagon-test: a folder that can be written (HOME is not set here).
            "ZIG_GLOBAL_CACHE_DIR": str(self.bin.parent / "zig-cache"),
        }
        env.update(extra)
        return env


def make_fakes(base: Path, sdk_version: str = "2.49.0.260101", with_lpai: bool = True) -> Fakes:
    """Fake tools and SDK trees under `base` (use a path with spaces to test quoting)."""
    bin_dir = base / "bin"
    _script(bin_dir / "make", _MAKE)
    _script(bin_dir / "adb", _ADB)
    _script(bin_dir / "qemu-hexagon", 'log("qemu-hexagon")\n')  # for doctor's laptop path only
    # The QNN SDK: the version file, the LPAI op package header and makefiles, and the six
    # direct-mode runtime libraries ExecuTorch's sign_library.sh --direct_mode signs into it.
    qnn = base / "qairt" / sdk_version
    (qnn / "sdk.yaml").parent.mkdir(parents=True, exist_ok=True)
    (qnn / "sdk.yaml").write_text(f"name: qairt\nversion: {sdk_version}\n")
    if with_lpai:
        _touch(qnn / "include/QNN/LPAI/QnnLpaiOpPackage.h", b"/* fake */\n")
        _touch(qnn / "share/QNN/OpPackageGenerator/makefiles/LPAI/Makefile.hexagon-v79", b"# fake\n")
    # The HTP op package's headers: QHPI (2.44 and later) and the op package interface.
    _touch(qnn / "include/QNN/HTP/core/qhpi.h", b"/* fake */\n")
    _touch(qnn / "include/QNN/QnnOpPackage.h", b"/* fake */\n")
    # The Android NDK (the HTP package's aarch64 library).
    ndk = base / "android ndk" / "r27"
    _touch(ndk / "toolchains/llvm/prebuilt/linux-x86_64/bin/clang++")
    for name in (
        "libqnn_executorch_backend.so",
        "libqnn_executorch_skel.so",
        "libQnnLpai.so",
        "libQnnSystem.so",
        "libc++abi.so.1",
        "libc++.so.1",
    ):
        _touch(qnn / "lib/lpai-v6/signed" / name)
    # The Hexagon SDK: tools version folder with hexagon-clang, and the signer.
    hexagon = base / "hexagon sdk" / "6.4.0"
    tools_version = "19.0.04"
    _touch(hexagon / "tools/HEXAGON_Tools" / tools_version / "Tools/bin/hexagon-clang")
    _script(hexagon / "tools/elfsigner/elfsigner.py", _SIGNER)
    # ExecuTorch build folders.
    android = base / "executorch" / "build-android"
    _touch(android / DIRECT_RUNNER)
    _touch(android / DIRECT_STUB)
    # What ExecuTorch's SimpleADB pushes for an HTP program: the runner, the delegate and
    # the SDK's HTP runtime for the SoC's HTP (each version's, whatever the SoC).
    _touch(android / HTP_RUNNER)
    _touch(android / "backends/qualcomm/libqnn_executorch_backend.so")
    for name in ("libQnnHtp.so", "libQnnHtpPrepare.so", "libQnnSystem.so"):
        _touch(qnn / "lib/aarch64-android" / name)
    for arch in ("68", "69", "73", "75", "79", "81"):
        _touch(qnn / f"lib/aarch64-android/libQnnHtpV{arch}Stub.so")
        _touch(qnn / f"lib/hexagon-v{arch}/unsigned/libQnnHtpV{arch}Skel.so")
    # What ExecuTorch's build.sh --build_direct_mode 0 leaves in build-direct (unsigned).
    direct = base / "executorch" / "build-direct"
    _touch(direct / "backends/qualcomm/libqnn_executorch_backend.so")
    _touch(direct / "backends/qualcomm/qnn_executorch/direct_mode/libqnn_executorch_skel.so")
    x86 = base / "executorch" / "build-x86"
    _script(x86 / X86_RUNNER, _X86_RUNNER)
    # The SDK's x86_64 host libraries: lowering dlopens libQnnLpai.so, QnnConfig loads libQnnHtp.so.
    _touch(qnn / "lib/x86_64-linux-clang/libQnnLpai.so")
    _touch(qnn / "lib/x86_64-linux-clang/libQnnHtp.so")
    device_root = base / "device"
    device_root.mkdir(parents=True, exist_ok=True)
    outputs = base / "device-outputs"
    outputs.mkdir(parents=True, exist_ok=True)
    return Fakes(
        base, bin_dir, base / "tools.log", qnn, hexagon, tools_version, android, direct, x86, device_root, outputs, ndk
    )


OPDEF_XML = """<?xml version="1.0" encoding="UTF-8"?>
<OpDefCollection PackageName="%(package)s" Domain="aisw" Version="1.0">
  <OpDefList>
%(ops)s
  </OpDefList>
</OpDefCollection>
"""

OPDEF = """    <OpDef>
      <Name>%(name)s</Name>
      <Description><Content>fake</Content></Description>
%(inputs)s%(outputs)s      <SupportedBackend>LPAI</SupportedBackend>
    </OpDef>"""


def opdef_xml(ops, package: str = PACKAGE_NAME) -> str:
    """An OpDef XML declaring `ops` (OpInfo-like: qnn_type, inputs, outputs)."""
    parts = []
    for op in ops:
        inputs = "".join(f"      <Input><Name>{name}</Name><Mandatory>true</Mandatory></Input>\n" for name in op.inputs)
        outputs = "".join(
            f"      <Output><Name>{name}</Name><Mandatory>true</Mandatory>"
            "<Datatype>QNN_DATATYPE_UFIXED_POINT_8</Datatype></Output>\n"
            for name in getattr(op, "outputs", ("out",))
        )
        parts.append(OPDEF % {"name": op.qnn_type, "inputs": inputs, "outputs": outputs})
    return OPDEF_XML % {"package": package, "ops": "\n".join(parts)}


def make_project(base: Path, ops) -> Path:
    """A project tree (op_package/<package>/config/*.xml) for commands that write into it."""
    config = base / "op_package" / PACKAGE_NAME / "config"
    config.mkdir(parents=True, exist_ok=True)
    (config / f"{PACKAGE_NAME}.xml").write_text(opdef_xml(ops))
    return base


# --------------------------------------------------------------------------- the gated tests

# This project: the commands of the gated tests build and write into it.
PROJECT = Path(__file__).resolve().parents[2]


def skip_unless_set(what: str, names: tuple[str, ...]) -> pytest.MarkDecorator:
    """Skip `what` unless every variable of `names` is set; the reason names the missing ones."""
    missing = [name for name in names if not os.environ.get(name)]
    return pytest.mark.skipif(bool(missing), reason=f"{what} needs {', '.join(missing)} (docs/device.md)")


def step(capsys, *argv: str) -> str:
    """Run one command on this project and return what it printed; fail with its reason."""
    code = cli.main([*argv, "--project", str(PROJECT)])
    out, err = capsys.readouterr()
    print(out)
    assert code == 0, f"`{' '.join(argv)}` failed: {err.strip()}"
    return out
