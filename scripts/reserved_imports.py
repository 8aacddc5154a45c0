#!/usr/bin/env python3
"""Write hooks/reserved_imports.txt: every top-level module name that a rendered
project's dependencies may import, so that no spec names its package after one.

A project's package is a top-level module of the project folder, which `python -m` and
pytest put first on sys.path: a namespace `dill` or `opt_einsum` is what `import torch`
finds when torch tries its optional `import dill`, and the project's conftest then fails
with "partially initialized module 'torch'".  What is installed here says too little: an
optional import of a package that is absent is still an import of the project's package
by that name.  Two readings, both kept:

- static: every `import x` and `from x import` line of every .py file of the
  dependencies (the distributions of hooks/names.py dependency_distributions: the
  rendered pyproject.toml's requirements, its extras and what they require), inside a
  try, a function or an `if` included;
- dynamic: every top-level name asked of the import system while importing what a
  rendered project imports (torch, ExecuTorch's Qualcomm quantizer, builders and
  passes, pytest, copier, matplotlib): `importlib.util.find_spec("org")` in torch's
  trace rules is no import line.

`python3 scripts/reserved_imports.py` rewrites the list; `--check` exits 1 when the
list differs from what the installed versions give (tests/test_reserved_imports.py).
"""

from __future__ import annotations

import argparse
import importlib.metadata as md
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hooks import names  # noqa: E402

LIST = ROOT / "hooks" / "reserved_imports.txt"

IMPORT_LINE = re.compile(
    r"^[ \t]*(?:from[ \t]+([A-Za-z_]\w*)[\w.]*[ \t]+import\b|import[ \t]+([^\n#;\\(]+))",
    re.M,
)

# What a rendered project imports, run in a fresh interpreter that records every
# top-level name the import system is asked for.
PROBE = r"""
import json, sys, warnings, logging
logging.disable(logging.CRITICAL)
warnings.simplefilter("ignore")
asked = set()
class Recorder:
    def find_spec(self, name, path=None, target=None):
        if path is None:
            asked.add(name.partition(".")[0])
        return None
sys.meta_path.insert(0, Recorder())
import contextlib, io
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    for module in MODULES:
        try:
            __import__(module)
        except Exception:
            pass
print(json.dumps(sorted(asked)))
"""
PROBED_MODULES = (
    "torch",
    "torch.export",
    "torch._dynamo",
    "numpy",
    "executorch.exir",
    "executorch.backends.qualcomm.quantizer.quantizer",
    "executorch.backends.qualcomm.builders.node_visitor",
    "executorch.backends.qualcomm.utils.utils",
    "executorch.backends.qualcomm._passes",
    "pytest",
    "copier",
    "yaml",
    "matplotlib.pyplot",
)


def static_imports(dists: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for dist in dists:
        meta = md.distribution(dist)
        # Read once: meta.metadata parses the METADATA file on every access (looked up
        # per import line, it was 60 of the script's 70 s).
        name = meta.metadata["Name"]
        for file in meta.files or ():
            if file.suffix != ".py":
                continue
            try:
                text = Path(file.locate()).read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            for match in IMPORT_LINE.finditer(text):
                if match.group(1):
                    modules = [match.group(1)]
                else:
                    modules = [part.split()[0].split(".")[0] for part in match.group(2).split(",") if part.split()]
                for module in modules:
                    if module.isidentifier():
                        found.setdefault(module, name)
    return found


def dynamic_imports() -> list[str]:
    code = PROBE.replace("MODULES", repr(PROBED_MODULES))
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd="/", timeout=600
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def installed(dists) -> list[str]:
    out = []
    for dist in sorted(dists):
        try:
            md.distribution(dist)
        except md.PackageNotFoundError:
            continue
        out.append(dist)
    return out


def build() -> str:
    dists = installed(names.dependency_distributions())
    found = static_imports(dists)
    for module in dynamic_imports():
        if module.isidentifier():
            found.setdefault(module, "(asked at import)")
    stdlib = set(sys.stdlib_module_names)
    lines = [
        "# Top-level modules that a rendered project's dependencies may import: no namespace",
        "# may take one (hooks/reserved.py).  Written by scripts/reserved_imports.py from the",
        "# versions below; do not edit by hand.  <module> <the first distribution that imports it>",
    ]
    lines += [f"# scanned: {d} {md.version(d)}" for d in dists]
    lines += [f"{module} {who}" for module, who in sorted(found.items()) if module not in stdlib]
    return "\n".join(lines) + "\n"


def recorded_versions(text: str) -> dict[str, str]:
    out = {}
    for line in text.splitlines():
        if line.startswith("# scanned: "):
            dist, version = line.removeprefix("# scanned: ").split()
            out[dist] = version
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with hooks/reserved_imports.txt, write nothing")
    args = parser.parse_args(argv)
    text = build()
    if args.check:
        old = LIST.read_text(encoding="utf-8")
        if old != text:
            gone = sorted(set(old.splitlines()) - set(text.splitlines()))
            new = sorted(set(text.splitlines()) - set(old.splitlines()))
            print(
                f"{LIST.relative_to(ROOT)} differs from what the installed versions give "
                f"(run scripts/{Path(__file__).name}): not found any more {gone[:10]}, new {new[:10]}"
            )
            return 1
        return 0
    LIST.write_text(text, encoding="utf-8")
    print(f"{LIST.relative_to(ROOT)}: {sum(1 for line in text.splitlines() if not line.startswith('#'))} modules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
