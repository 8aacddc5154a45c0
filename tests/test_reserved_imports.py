"""hooks/reserved_imports.txt: the modules a rendered project's dependencies may import,
optional imports included, which no namespace may take (issue: `cuda`, `dill`, `org`,
`opt_einsum` were accepted, and `import torch` then imported the project's package)."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from pathlib import Path

import pytest

from hooks import names, spec

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "reserved_imports.py"


def _spec(namespace: str) -> dict:
    return {
        "package_name": "APkg",
        "namespace": namespace,
        "ops": [{"name": "m", "qnn_type": "M", "inputs": ["x"], "expr": "x * 2"}],
    }


@pytest.mark.parametrize(
    "namespace, why",
    [
        ("cuda", "torch imports"),  # torch's optional cuda-python import
        ("dill", "torch imports"),  # torch.utils.data, when dill is installed
        ("opt_einsum", "torch imports"),  # torch.backends.opt_einsum
        ("org", "looks for at import"),  # torch._dynamo's trace rules: find_spec, no import line
        ("matplotlib", "matplotlib"),  # the report extra
    ],
)
def test_a_module_a_dependency_may_import_is_no_namespace(namespace, why):
    with pytest.raises(spec.SpecError) as err:
        spec.validate(_spec(namespace))
    assert err.value.field == "namespace"
    assert why in str(err.value) and "shadow" in str(err.value)


def test_an_ordinary_namespace_is_free():
    assert spec.validate(_spec("kws_ops")).namespace == "kws_ops"


def test_the_projects_own_top_level_modules_shadow_no_dependency():
    """The rendered tests/ folder is on sys.path under pytest: a helper module there named
    like a module a dependency imports would be imported in its place."""
    reserved = names.reserved_imports()
    modules = {
        p.name.removesuffix(".jinja").removesuffix(".py")
        for p in (ROOT / "template" / "tests").iterdir()
        if p.name.endswith((".py", ".py.jinja"))
    }
    assert "lowering" in modules  # the scan reads the folder
    modules.discard("conftest")  # pytest imports it by path, not by name
    assert not sorted(modules & set(reserved))


def test_the_list_is_what_the_script_writes():
    """The checked-in list equals the script's reading of the installed dependencies,
    when those are the versions the list was written from."""
    text = (ROOT / "hooks" / "reserved_imports.txt").read_text(encoding="utf-8")
    differ = []
    for line in text.splitlines():
        if line.startswith("# scanned: "):
            dist, version = line.removeprefix("# scanned: ").split()
            try:
                here = importlib.metadata.version(dist)
            except importlib.metadata.PackageNotFoundError:
                here = None
            if here != version:
                differ.append(f"{dist} {version} (here: {here})")
    if differ:
        pytest.skip("the list was written from other versions: " + ", ".join(differ))
    run = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout + run.stderr
