"""The names a spec may not take, and why: each table maps a name to the reason it is
taken, read from what the templates generate (hooks/names.py) and from the installed
dependencies; the first reason found wins.
"""

from __future__ import annotations

import functools
import sys

from . import names
from .model import OUT_ARGUMENT
from .view_c import ARGS_STRUCT_FIELDS


def _merge(*tables: dict[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for table in tables:
        for name, reason in table.items():
            out.setdefault(name, reason)
    return out


@functools.cache
def namespace_reserved() -> dict[str, str]:
    ops_attrs, _ = names.torch_ops_attributes()
    return _merge(
        names.generated_modules(),
        {n: "is an attribute of torch.ops, so torch.ops.<namespace> would not reach the ops" for n in ops_attrs},
        {n: "is a torch.library namespace that torch owns" for n in names.TORCH_NAMESPACES},
        names.dependency_modules(),
        names.reserved_imports(),
        {n: "is a standard-library module; the package would shadow it" for n in sys.stdlib_module_names},
    )


@functools.cache
def op_name_reserved() -> dict[str, str]:
    _, namespace_attrs = names.torch_ops_attributes()
    return _merge(
        names.generated_globals(),
        names.package_modules(),
        {
            n: "is an attribute of torch.ops.<namespace>, so torch.ops.<namespace>.<op> would not reach the op"
            for n in namespace_attrs
        },
    )


@functools.cache
def argument_reserved() -> dict[str, str]:
    """Names an input or a param must not take."""
    return _merge(
        {
            f.name: "is a member the template puts in a custom op's args struct (include/ops/<qnn_type>_user.h)"
            for f in ARGS_STRUCT_FIELDS
        },
        {OUT_ARGUMENT: "is the output argument of the op's .out overload"},
        {"self": "is reserved in torch schemas"},
        names.generated_globals(),
        names.builtins_used_by_generated_functions(),
    )
