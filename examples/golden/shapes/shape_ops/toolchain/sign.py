# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Signing the DSP libraries with the Hexagon SDK signer, and checking the signed copies are current."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path

from .._package import (
    NAMESPACE,
)
from .build import Command, run_command
from .project import Project
from .sdk import SIGNER, SIGNER_PYTHON_ENV, ToolchainError, require_hexagon_sdk, signer_python

SIGNED_MANIFEST = "SIGNED.json"


# --------------------------------------------------------------------------- signing


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sign_commands(project: Project, out_dir: Path, environ: Mapping[str, str] | None = None) -> list[Command]:
    hexagon = require_hexagon_sdk(environ)
    signer = hexagon / SIGNER
    if not signer.is_file():
        raise ToolchainError(f"signer not found: {signer}")
    python = signer_python(environ)
    if python is None:
        raise ToolchainError(
            "the signer needs Python < 3.12 (elfsigner.py imports `imp`): install python3.11 "
            f"or set {SIGNER_PYTHON_ENV}=<python3.11>"
        )
    missing = [str(p) for p in project.dsp_libs if not p.is_file()]
    if missing:
        raise ToolchainError("nothing to sign, missing " + ", ".join(missing) + f": run `python -m {NAMESPACE} build`")
    return [
        Command(
            [python, str(signer), "-i", str(lib), "-o", str(out_dir)],
            out_dir.parent,
            {"HEXAGON_SDK_ROOT": str(hexagon)},
        )
        for lib in project.dsp_libs
    ]


def sign(project: Project, environ: Mapping[str, str] | None = None) -> list[Path]:
    """Sign both DSP libraries into build/signed/hexagon-<arch>, all or nothing.

    The signer writes into a staging folder; only when every library came out signed
    does the staging folder replace the deployed one (a rename).  A failure leaves the
    previous complete set untouched, and `run` refuses a set whose manifest does not
    match the current DSP libraries, so a stale library is never deployed.
    """
    dest = project.signed_dir
    sign_commands(project, dest, environ)  # every precondition, before anything is written
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".signing-", dir=dest.parent))
    out = staging / "out"
    out.mkdir()
    (staging / "work").mkdir()
    try:
        for cmd in sign_commands(project, out, environ):
            # The signer may leave files in its working folder: give it one of its own.
            cmd.cwd = staging / "work"
            # The signer asks for confirmation: answer on stdin instead of piping `yes`,
            # so that the signer's own exit status is the one checked.
            run_command(cmd, stdin_text="y\n" * 32, what=f"signing {Path(cmd.argv[3]).name}")
        manifest = {}
        for lib in project.dsp_libs:
            signed = out / lib.name
            if not signed.is_file() or signed.stat().st_size == 0:
                raise ToolchainError(f"the signer exited 0 but wrote no {signed.name}: nothing was signed")
            if signed.read_bytes() == lib.read_bytes():
                raise ToolchainError(f"the signer exited 0 but {signed.name} is an unsigned copy")
            manifest[lib.name] = {"source_sha256": _sha256(lib), "signed_sha256": _sha256(signed)}
        leftovers = sorted(p.name for p in out.iterdir() if p.name not in manifest)
        for name in leftovers:
            (out / name).unlink()
        (out / SIGNED_MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
        old = staging / "previous"
        if dest.exists():
            os.rename(dest, old)
        try:
            os.rename(out, dest)
        except OSError:
            if old.exists():
                os.rename(old, dest)
            raise
        return list(project.signed_libs)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def check_signed(project: Project) -> list[Path]:
    """The signed libraries, if they are complete and signed from the current DSP libraries."""
    manifest_path = project.signed_dir / SIGNED_MANIFEST
    if not manifest_path.is_file():
        raise ToolchainError(f"no signed libraries in {project.signed_dir}: run `python -m {NAMESPACE} sign`")
    manifest = json.loads(manifest_path.read_text())
    for lib, signed in zip(project.dsp_libs, project.signed_libs):
        entry = manifest.get(lib.name)
        if entry is None or not signed.is_file() or _sha256(signed) != entry["signed_sha256"]:
            raise ToolchainError(f"{signed} is missing or altered: run `python -m {NAMESPACE} sign`")
        if not lib.is_file() or _sha256(lib) != entry["source_sha256"]:
            raise ToolchainError(
                f"{signed.name} was signed from another build of {lib}: stale, run `python -m {NAMESPACE} sign`"
            )
    return list(project.signed_libs)
