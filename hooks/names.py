"""Identifier rules shared by every language a spec value lands in.

A name from the spec is used verbatim as a Python identifier, a torch schema
argument, a C/C++ symbol prefix, an XML attribute, a Makefile variable value and a
shell word.  The rules below are the intersection of what all of them accept, so a
name that passes here cannot change the meaning of any rendered file.
"""

from __future__ import annotations

import builtins
import keyword
import re
import sys

SNAKE_RE = re.compile(r"[a-z][a-z0-9_]*\Z")
CAMEL_RE = re.compile(r"[A-Z][A-Za-z0-9]*\Z")

MAX_SNAKE = 32
MAX_CAMEL = 48

C_KEYWORDS = frozenset(
    """auto break case char const continue default do double else enum extern float
    for goto if inline int long register restrict return short signed sizeof static
    struct switch typedef union unsigned void volatile while _Alignas _Alignof _Atomic
    _Bool _Complex _Generic _Imaginary _Noreturn _Static_assert _Thread_local
    bool true false nullptr alignas alignof static_assert thread_local typeof
    constexpr""".split()
)

CPP_KEYWORDS = frozenset(
    """alignas alignof and and_eq asm bitand bitor bool catch char8_t char16_t char32_t
    class compl concept consteval constexpr constinit const_cast co_await co_return
    co_yield decltype delete dynamic_cast explicit export false friend mutable
    namespace new noexcept not not_eq nullptr operator or or_eq private protected
    public reinterpret_cast requires static_assert static_cast template this
    thread_local throw true try typeid typename using virtual wchar_t xor xor_eq
    final override import module""".split()
)

# Names that the C standard library or the generated C code already defines; a spec
# name equal to one of them would shadow or clash at link time.
C_LIBRARY_NAMES = frozenset(
    """main errno assert abs labs fabs fabsf min max exp expf log logf sqrt sqrtf tanh
    tanhf memcpy memset malloc free printf fprintf stderr stdout stdin size_t int8_t
    uint8_t int16_t uint16_t int32_t uint32_t int64_t uint64_t NULL""".split()
)

PYTHON_RESERVED = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist)
PYTHON_BUILTINS = frozenset(name for name in dir(builtins) if not name.startswith("_"))

# The generated Python package is imported by its namespace name, so it must not
# shadow the standard library or the packages the generated project depends on.
# torch.library namespaces that torch itself owns are reserved too.
PACKAGE_RESERVED = (
    frozenset(sys.stdlib_module_names)
    | frozenset(
        """torch torchao torchvision executorch numpy yaml pytest copier jinja2 setuptools
        pip aten prim prims quantized quantized_decomposed _ops ops test tests user
        src build lib libs op_package hooks""".split()
    )
)

# Names the generated code uses next to spec names (keyword argument of the .out
# overload, module globals of the generated Python files).
GENERATED_RESERVED = frozenset(
    """out self torch lib np ctx node tensor tensors result default""".split()
)


class NameError_(ValueError):
    """A name broke a rule; the message is the rule (the caller adds the field)."""


def _check_identifier(value: object, pattern: re.Pattern, style: str, max_len: int) -> str:
    if not isinstance(value, str):
        raise NameError_(f"must be a string, got {type(value).__name__}")
    if not pattern.match(value):
        raise NameError_(f"{value!r} is not a {style}")
    if len(value) > max_len:
        raise NameError_(f"{value!r} is longer than {max_len} characters")
    _check_reserved(value)
    return value


def check_snake(value: object) -> str:
    """A snake_case identifier valid in Python, C, C++, torch schemas and shell."""
    _check_identifier(value, SNAKE_RE, "snake_case identifier (lowercase letter first, then "
                      "lowercase letters, digits or _)", MAX_SNAKE)
    if "__" in value or value.endswith("_"):
        raise NameError_(f"{value!r} must not contain '__' or end with '_' (reserved in C/C++)")
    return value


def check_camel(value: object) -> str:
    """A CamelCase identifier valid as a C symbol prefix, XML attribute and file name."""
    return _check_identifier(value, CAMEL_RE, "CamelCase identifier (uppercase letter first, "
                             "then letters or digits)", MAX_CAMEL)


def _check_reserved(value: str) -> None:
    if value in PYTHON_RESERVED:
        raise NameError_(f"{value!r} is a reserved word in Python")
    if value in C_KEYWORDS:
        raise NameError_(f"{value!r} is a reserved word in C")
    if value in CPP_KEYWORDS:
        raise NameError_(f"{value!r} is a reserved word in C++")
    if value in C_LIBRARY_NAMES:
        raise NameError_(f"{value!r} is a C standard library name")


def check_not_builtin(value: str) -> str:
    if value in PYTHON_BUILTINS:
        raise NameError_(f"{value!r} is a Python builtin; generated code would shadow it")
    return value


def check_not_generated(value: str) -> str:
    if value in GENERATED_RESERVED:
        raise NameError_(f"{value!r} is used by the generated code itself")
    return value


def check_package_name_free(value: str) -> str:
    if value in PACKAGE_RESERVED:
        raise NameError_(
            f"{value!r} would shadow a standard-library module, a dependency or a "
            "namespace that torch owns"
        )
    return value


def camel_from_snake(name: str) -> str:
    """mul3 -> Mul3, my_norm -> MyNorm."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part)
