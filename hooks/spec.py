"""Load and validate an op spec into the model every template renders from.

One error type, `SpecError` (hooks/checks.py), whose message is one line per problem:
the field path, then the rule that was broken (``ops[1].inputs[0]: 'int' is a reserved
word in C``).  `validate()` checks the whole spec before anything is rendered, so an
invalid spec writes no file, and names every independent problem in one run.  This file holds the package's rules; hooks/spec_op.py an
op's; hooks/reserved.py the names a spec may not take; hooks/model.py the dataclasses
they produce (and the limits), whose views (hooks/view_*.py) format them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import names
from .checks import Problems, SpecError, _choice, _given, _name, _require_mapping, _type, _unknown_keys, check_size
from .model import (
    ACTIVATION_DTYPES,
    BACKENDS,
    DEFAULT_BACKENDS,
    HEXAGON_ARCHS,
    LAYOUT_SUPPORTS,
    LPAI_SOCS,
    MAX_DOC,
    MAX_INPUTS,
    MAX_OPS,
    MAX_OUTPUTS,
    MAX_PARAMS,
    MAX_RANK,
    OUT_ARGUMENT,
    PARAM_TYPES,
    Input,
    Op,
    Output,
    OutputShape,
    Package,
    Param,
)
from .reserved import argument_reserved, namespace_reserved, op_name_reserved
from .spec_op import _validate_op

# What the other hooks and the tests read from here: the entry points, and the model's
# limits and classes (hooks/model.py) and reserved-name tables (hooks/reserved.py).
__all__ = [
    "MAX_DOC",
    "MAX_INPUTS",
    "MAX_OPS",
    "MAX_OUTPUTS",
    "MAX_PARAMS",
    "MAX_RANK",
    "OUT_ARGUMENT",
    "PARAM_TYPES",
    "TOP_KEYS",
    "Input",
    "Op",
    "Output",
    "OutputShape",
    "Package",
    "Param",
    "SpecError",
    "argument_reserved",
    "check_size",
    "load",
    "namespace_reserved",
    "op_name_reserved",
    "validate",
]

SIXTEEN_BIT = ("uint16", "int16", "16", "16a", "16a8w", "16a16w", "float16", "fp16", "int32", "uint32")
TOP_KEYS = (
    "package_name",
    "namespace",
    "soc_model",
    "op_package_arch",
    "activation_dtype",
    "layout_support",
    "backends",
    "ops",
)


def validate(raw: Any) -> Package:
    """The whole spec, checked; raises SpecError naming every independent broken rule
    (hooks/checks.py `Problems`: one line each; a rule that reads a field that failed
    is not checked)."""
    check_size(raw)
    spec = _require_mapping("spec", raw)
    problems = Problems()
    with problems.check():
        _unknown_keys("", spec, TOP_KEYS)
    package_name = namespace = soc_model = arch = dtype = layout = None
    with problems.check():
        if spec.get("package_name") in (None, ""):
            raise SpecError("package_name", "is required")
        package_name = _name("package_name", names.check_camel, spec["package_name"])
    with problems.check():
        if spec.get("namespace") in (None, ""):
            raise SpecError("namespace", "is required")
        checked = _name("namespace", names.check_snake, spec["namespace"])
        namespace = _name("namespace", lambda n: names.check_free(n, namespace_reserved()), checked)
    with problems.check():
        soc_model = _choice("soc_model", _given(spec, "soc_model", "SM8850"), LPAI_SOCS)
    with problems.check():
        arch = _choice("op_package_arch", _given(spec, "op_package_arch", "v79"), HEXAGON_ARCHS)

    with problems.check():
        given = _given(spec, "activation_dtype", "uint8")
        if str(given).lower() in SIXTEEN_BIT:
            raise SpecError(
                "activation_dtype",
                "LPAI custom ops are 8-bit only: a 16-bit activation arrives as INT_32 and only "
                "the first half of the output comes back correct (backend bug); use uint8",
            )
        dtype = _choice("activation_dtype", given, ACTIVATION_DTYPES)

    ops_raw: list = []
    with problems.check():
        if spec.get("ops") in (None, "", []):
            raise SpecError("ops", "is required: a list of at least one op")
        if not isinstance(spec["ops"], list):
            raise SpecError("ops", f"must be a list of ops, got {_type(spec['ops'])}")
        if len(spec["ops"]) > MAX_OPS:
            raise SpecError("ops", f"at most {MAX_OPS} ops per package")
        ops_raw = spec["ops"]

    ops: list[Op] = []
    seen_names: dict[str, str] = {}
    seen_types: dict[str, tuple[str, str]] = {}
    for i, op_raw in enumerate(ops_raw):
        op = None
        with problems.check():
            op = _validate_op(f"ops[{i}]", op_raw, namespace)
        if op is None:  # its own problems are recorded; a duplicate of it is not looked for
            continue
        with problems.check():
            if op.name in seen_names:
                raise SpecError(f"ops[{i}].name", f"duplicate op name {op.name!r} (also {seen_names[op.name]})")
        # A qnn_type made from a duplicate name is that name's problem, not one more.
        derived_twice = op.name in seen_names and op_raw.get("qnn_type") is None
        # Case-insensitively: the header guard is upper case (<QNNTYPE>_USER_H) and a
        # case-insensitive disk (macOS, Windows) holds one file for Foo.c and FOO.c.
        with problems.check():
            if op.qnn_type.lower() in seen_types and not derived_twice:
                also, other = seen_types[op.qnn_type.lower()]
                same = (
                    ""
                    if other == op.qnn_type
                    else f", {other!r} differs only in case: one header guard, one file on a case-insensitive disk"
                )
                raise SpecError(f"ops[{i}].qnn_type", f"duplicate qnn_type {op.qnn_type!r} (also {also}{same})")
            if package_name is not None and op.qnn_type.lower() == package_name.lower():
                raise SpecError(
                    f"ops[{i}].qnn_type",
                    "must differ from package_name, also in case (the C symbols and files would clash)",
                )
        seen_names.setdefault(op.name, f"ops[{i}]")
        seen_types.setdefault(op.qnn_type.lower(), (f"ops[{i}]", op.qnn_type))
        ops.append(op)
    with problems.check():
        layout = _choice("layout_support", _given(spec, "layout_support", "shape_ne_layout"), LAYOUT_SUPPORTS)
    backends = DEFAULT_BACKENDS
    with problems.check():
        backends = _backends(_given(spec, "backends", list(DEFAULT_BACKENDS)))
    problems.raise_any()
    return Package(package_name, namespace, soc_model, arch, dtype, tuple(ops), layout, backends)


def _backends(given: Any) -> tuple[str, ...]:
    """The spec's `backends`: a list of distinct names of BACKENDS (what each takes of a
    spec: model.BACKEND_RULES)."""
    if isinstance(given, str) and given in BACKENDS:
        given = [given]
    if not isinstance(given, list) or not given:
        raise SpecError("backends", f"must be a list of one or more of {', '.join(BACKENDS)}, got {given!r:.40}")
    for i, name in enumerate(given):
        if not isinstance(name, str) or name not in BACKENDS:
            raise SpecError(f"backends[{i}]", f"must be one of {', '.join(BACKENDS)}; got {name!r:.40}")
        if name in given[:i]:
            raise SpecError(f"backends[{i}]", f"{name!r} is given twice")
    # The HTP package reads the LPAI package's math files (its user/ and include/): a
    # render without lpai has nowhere to keep them yet.
    if "lpai" not in given:
        raise SpecError(
            "backends",
            "htp needs lpai beside it in this release ([lpai, htp]): the HTP package shares "
            "the LPAI package's math files (op_package/<package_name>/user/, include/)",
        )
    return tuple(given)


def load(path: str | Path) -> Package:
    """Read a YAML spec file and validate it."""
    import yaml

    try:
        raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise SpecError("spec", f"is not valid YAML{where}") from None
    except ValueError as exc:  # e.g. an integer beyond Python's digit limit
        raise SpecError("spec", f"cannot be read: {str(exc).splitlines()[0]}") from None
    return validate(raw)
