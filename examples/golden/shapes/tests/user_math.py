# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The user math still to write: the custom ops' user/ files that are still stubs.

A custom op's math lives in two files of yours, created as stubs: the eager math
`<namespace>/user/<op>.py`, whose function only raises NotImplementedError, and the
kernel math `op_package/<Package>/user/<QnnType>_math.c`, which returns
LPAI_USER_MATH_MISSING.  While one is still a stub, conftest.py runs only the tests
that need no user math (WITHOUT_USER_MATH) and tests/test_user_math.py fails once,
listing every file to write and what it must hold; `python -m pytest --all-tests` runs
every test anyway, each failing on the math it misses.
"""

from __future__ import annotations

import ast
import inspect
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Test modules that need no user math: they run while some is still to write.
WITHOUT_USER_MATH = frozenset({"test_user_math.py", "test_no_merge_leftovers.py", "test_op_package_xml.py"})


@dataclass(frozen=True)
class ToWrite:
    path: str  # relative to the project root
    holds: str  # what the file must hold


# What conftest.py found at the start of the session, and how many tests it set aside.
MISSING: list[ToWrite] = []
DESELECTED = 0


def _is_python_stub(path: Path, function: str) -> bool:
    """True when `function` in `path` does nothing but raise NotImplementedError
    (the template's stub), or is not there at all."""
    try:
        tree = ast.parse(path.read_text())
    except (OSError, SyntaxError, ValueError):
        return False  # a file being written: its own tests say what is wrong
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
            if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].exc is None:
                return False
            exc = body[0].exc.func if isinstance(body[0].exc, ast.Call) else body[0].exc
            return isinstance(exc, ast.Name) and exc.id == "NotImplementedError"
    return True


def _is_c_stub(path: Path) -> bool:
    try:
        text = path.read_text()
    except OSError:
        return True
    code = "".join(part.split("*/", 1)[-1] for part in text.split("/*"))  # comments out
    return "returnLPAI_USER_MATH_MISSING;" in "".join(code.split())  # whitespace out


def _shape_text(op, rule) -> str:
    if rule[0] == "like":
        return f"shaped like {op.inputs[rule[1]]}"
    if rule[0] == "reduce":
        _, index, dims, keepdim = rule
        kept = ", dims kept as 1" if keepdim else ""
        return f"{op.inputs[index]} reduced over dims {list(dims)}{kept}"
    return "the broadcast shape of the inputs"


def _outputs_text(op) -> str:
    return " and ".join(f"{name} ({_shape_text(op, rule)})" for name, rule in zip(op.outputs, op.output_rules))


def missing(ops, namespace: str, package: str, user_module=None) -> list[ToWrite]:
    """Every user-math file of the custom ops in `ops` that is still the stub.
    `user_module(op)` returns the imported eager module of an op (for its signature)."""
    out = []
    for op in ops:
        if op.kind != "custom":
            continue
        eager = ROOT / namespace / "user" / f"{op.name}.py"
        if _is_python_stub(eager, op.name):
            signature = ""
            if user_module is not None:
                try:
                    signature = str(inspect.signature(getattr(user_module(op), op.name)))
                except (AttributeError, ImportError, TypeError, ValueError):
                    signature = ""
            returns = "a tuple of " if len(op.outputs) > 1 else ""
            out.append(
                ToWrite(
                    eager.relative_to(ROOT).as_posix(),
                    f"def {op.name}{signature or '(...)'}: the eager math in torch (the CPU fallback and "
                    f"the kernel's reference), returning {returns}float32 {_outputs_text(op)}; "
                    "it still raises NotImplementedError",
                )
            )
        kernel = ROOT / "op_package" / package / "user" / f"{op.qnn_type}_math.c"
        # With an HTP package beside the LPAI one, both kernels call this one file.
        both = "; the LPAI and the HTP kernels both call it" if (ROOT / "op_package" / "htp").is_dir() else ""
        if _is_c_stub(kernel):
            members = ", ".join(f"args->{name}" for name in op.inputs)
            if op.params:
                members += "; params " + ", ".join(f"args->{name}" for name, _, _ in op.params)
            written = ", ".join(f"args->{name}" for name in op.outputs)
            out.append(
                ToWrite(
                    kernel.relative_to(ROOT).as_posix(),
                    f"int {op.qnn_type}_compute(const {op.qnn_type}_args *args): the same math in C on "
                    f"float arrays ({members}; shapes in args-><name>_shape; "
                    f"include/ops/{op.qnn_type}_user.h), writing {written} and returning 0{both}; "
                    "it still returns LPAI_USER_MATH_MISSING",
                )
            )
    return out


def report(missing_files: list[ToWrite], deselected: int) -> str:
    """The one failure a run shows while user math is missing."""
    lines = [
        f"user math still to write: {len(missing_files)} {'file' if len(missing_files) == 1 else 'files'} of your custom ops "
        f"({deselected} tests that need it are set aside until then; "
        "`python -m pytest --all-tests` runs them anyway):",
    ]
    lines += [f"  {m.path}: {m.holds}" for m in missing_files]
    return "\n".join(lines)
