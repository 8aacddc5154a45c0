"""Identifier rules shared by every language a spec value lands in.

A name from the spec is used verbatim as a Python identifier, a torch schema
argument, a C/C++ symbol prefix, an XML attribute, a Makefile variable value and a
shell word.  The rules below are the intersection of what all of them accept, so a
name that passes here cannot change the meaning of any rendered file.
"""

from __future__ import annotations

import ast
import builtins
import functools
import importlib.metadata
import importlib.util
import keyword
import re
from collections.abc import Mapping
from pathlib import Path

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

# The functions of C99's <math.h>, each in its double, float and long double form
# (floor, floorf, floorl, ...), and its classification macros and constants.
_C_MATH_FUNCTIONS = """acos asin atan atan2 cos sin tan acosh asinh atanh cosh sinh tanh exp exp2
    expm1 frexp ilogb ldexp log log10 log1p log2 logb modf scalbn scalbln cbrt fabs hypot pow
    sqrt erf erfc lgamma tgamma ceil floor nearbyint rint lrint llrint round lround llround
    trunc fmod remainder remquo copysign nan nextafter nexttoward fdim fmax fmin fma""".split()

# Names that the C standard library or the generated C code already defines; a spec
# name equal to one of them would shadow or clash at link time: every function of
# <math.h> (the generated C math and the user's call them), the functions and objects of
# <string.h>, <stdlib.h> and <stdio.h> the generated code uses, and <stdint.h>'s types.
C_LIBRARY_NAMES = frozenset(
    [name + suffix for name in _C_MATH_FUNCTIONS for suffix in ("", "f", "l")]
    + """isnan isinf isfinite isnormal signbit fpclassify INFINITY NAN HUGE_VAL HUGE_VALF
    main errno assert abs labs min max memcpy memset memmove memcmp strlen strcmp malloc
    calloc realloc free exit abort printf fprintf snprintf stderr stdout stdin size_t int8_t
    uint8_t int16_t uint16_t int32_t uint32_t int64_t uint64_t bool true false NULL""".split()
)

PYTHON_RESERVED = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist)
PYTHON_BUILTINS = frozenset(name for name in dir(builtins) if not name.startswith("_"))

# torch.library namespaces that torch itself defines kernels in.
TORCH_NAMESPACES = frozenset("aten prim prims quantized quantized_decomposed _ops".split())

# The template's files; the reserved names below are read from them, so a name the
# templates start to generate is reserved without anyone updating a list.
TEMPLATE_DIR = Path(__file__).resolve().parent.parent / "template"
# The rendered project's import roots (its pyproject.toml: pythonpath = [".", "tests"]).
IMPORT_ROOTS = (".", "tests")


# The most of a value an error message echoes: enough to recognise it, never a screenful.
MAX_SHOWN = 60


def shown(value: object, limit: int = MAX_SHOWN) -> str:
    """`repr(value)`, cut to `limit` characters with its length said (`'xxxx...' (10000
    characters)`): what an error message echoes of a value from the spec."""
    text = repr(value)
    if len(text) <= limit:
        return text
    size = f" ({len(value)} characters)" if isinstance(value, str) else ""
    return f"{text[: limit - 3]}...{size}"


class NameError_(ValueError):
    """A name broke a rule; the message is the rule (the caller adds the field)."""


def _check_identifier(value: object, pattern: re.Pattern, style: str, max_len: int) -> str:
    if isinstance(value, bool):
        # YAML 1.1 (PyYAML, copier) reads on/off/yes/no/y/n/true/false as booleans.
        raise NameError_(
            f"must be a string, got {shown(value)}: YAML reads on/off/yes/no/y/n unquoted "
            "as a boolean, quote the name ('on')"
        )
    if not isinstance(value, str):
        raise NameError_(f"must be a string, got {type(value).__name__}")
    if not pattern.match(value):
        raise NameError_(f"{shown(value)} is not a {style}")
    if len(value) > max_len:
        raise NameError_(f"{shown(value)} is longer than {max_len} characters")
    _check_reserved(value)
    return value


def check_snake(value: object) -> str:
    """A snake_case identifier valid in Python, C, C++, torch schemas and shell."""
    _check_identifier(
        value,
        SNAKE_RE,
        "snake_case identifier (lowercase letter first, then lowercase letters, digits or _)",
        MAX_SNAKE,
    )
    if "__" in value or value.endswith("_"):
        raise NameError_(f"{value!r} must not contain '__' or end with '_' (reserved in C/C++)")
    return value


def check_camel(value: object) -> str:
    """A CamelCase identifier valid as a C symbol prefix, XML attribute and file name."""
    return _check_identifier(
        value, CAMEL_RE, "CamelCase identifier (uppercase letter first, then letters or digits)", MAX_CAMEL
    )


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


def camel_from_snake(name: str) -> str:
    """mul3 -> Mul3, my_norm -> MyNorm."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part)


def check_free(value: str, reserved: Mapping[str, str]) -> str:
    """`reserved` maps a name to why it is taken; the reason completes the message."""
    reason = reserved.get(value)
    if reason is not None:
        raise NameError_(f"{value!r} {reason}")
    return value


# ----------------------------------------------------------------------------------
# Names the rendered project defines, read from the template's own files.

_JINJA_COMMENT = re.compile(r"\{#.*?#\}", re.DOTALL)
_JINJA_LINE_STATEMENT = re.compile(r"^[ \t]*\{%-?.*?-?%\}[ \t]*\n", re.MULTILINE)
_JINJA_STATEMENT = re.compile(r"\{%-?.*?-?%\}", re.DOTALL)
_JINJA_EXPRESSION = re.compile(r"\{\{.*?\}\}", re.DOTALL)
# Stands for every `{{ ... }}`: an identifier no spec name can equal (it ends in '_').
_PLACEHOLDER = "spec_value_"


def _python_of_template(text: str) -> ast.Module | None:
    """The Python a `.py.jinja` file renders to, with every spec value replaced by a
    placeholder and the Jinja statements dropped (loop bodies kept once)."""
    text = _JINJA_COMMENT.sub("", text)
    text = _JINJA_LINE_STATEMENT.sub("", text)
    text = _JINJA_STATEMENT.sub("", text)
    text = _JINJA_EXPRESSION.sub(_PLACEHOLDER, text)
    try:
        return ast.parse(text)
    except SyntaxError:
        return None


def _rendered_name(rel: Path) -> str:
    """`tests/reference.py.jinja` -> `reference`; '' for a name the spec decides."""
    name = rel.name.removesuffix(".jinja")
    if "{" in name:
        return ""
    return name.removesuffix(".py") if name.endswith(".py") else name


@functools.cache
def _python_templates() -> tuple[tuple[str, ast.Module], ...]:
    out = []
    # Plain `.py` files are copied verbatim (`_templates_suffix: .jinja`): read them too.
    paths = [*TEMPLATE_DIR.rglob("*.py.jinja"), *TEMPLATE_DIR.rglob("*.py")]
    for path in sorted(p for p in paths if "__pycache__" not in p.parts):
        tree = _python_of_template(path.read_text(encoding="utf-8"))
        if tree is None:
            raise RuntimeError(f"{path}: the template's Python does not parse once its Jinja is removed")
        out.append((_display(path.relative_to(TEMPLATE_DIR).as_posix()), tree))
    return tuple(out)


_DISPLAY = {
    "pkg.namespace": "<namespace>",
    "pkg.package_name": "<package_name>",
    "op.name": "<op>",
    "op.qnn_type": "<qnn_type>",
}


def _display(rel: str) -> str:
    """`{{pkg.namespace}}/user/{% yield ... %}{{ op.name }}{% endyield %}.py.jinja` ->
    `<namespace>/user/<op>.py`."""
    rel = re.sub(r"\{%.*?%\}", "", rel.removesuffix(".jinja"))
    return re.sub(r"\{\{\s*([\w.]+)\s*\}\}", lambda m: _DISPLAY.get(m.group(1), "<spec>"), rel)


def _top_level_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()

    def targets(node: ast.AST) -> None:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name):
                names.add(sub.id)

    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                targets(target)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For)):
            targets(node.target)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names.add(alias.asname or alias.name.split(".")[0])
    return {name for name in names if _PLACEHOLDER not in name}


def _defines_spec_functions(tree: ast.Module) -> bool:
    """A module whose top level holds functions named after the spec (`def {{ op.name }}`)."""
    return any(isinstance(n, ast.FunctionDef) and n.name == _PLACEHOLDER for n in tree.body)


@functools.cache
def generated_modules() -> dict[str, str]:
    """Top-level module names of the rendered project: what `import NAME` finds first
    on its import roots (the project root and tests/), and the folders it creates at
    its root."""
    out: dict[str, str] = {}
    # Folders the project creates at its root (build outputs), as its .gitignore lists them.
    for line in (TEMPLATE_DIR / ".gitignore").read_text(encoding="utf-8").splitlines():
        folder = line.strip().strip("/")
        if folder.isidentifier():
            out[folder] = (
                f"is a folder the rendered project creates at its root ({folder}/); the package would clash with it"
            )
    for root in IMPORT_ROOTS:
        for entry in sorted((TEMPLATE_DIR / root).iterdir()):
            name = _rendered_name(Path(entry.name))
            if name.isidentifier():
                where = entry.name.removesuffix(".jinja")
                out[name] = (
                    f"is a module of the rendered project ({'' if root == '.' else root + '/'}{where}); "
                    "the package would shadow it"
                )
    return out


# The folder of the rendered Python package (`<namespace>/`).
PACKAGE_DIR = TEMPLATE_DIR / "{{pkg.namespace}}"


@functools.cache
def package_modules() -> dict[str, str]:
    """The modules and subpackages of the rendered package (`device`, `toolchain`,
    `user`, ...), read from the template's `{{pkg.namespace}}/` folder: an op of that
    name is assigned in the package's `__init__.py` and replaces the submodule there
    (`<namespace>.device` would become the op function)."""
    out: dict[str, str] = {}
    for entry in sorted(PACKAGE_DIR.iterdir()):
        if entry.name == "__pycache__":
            continue
        name = _rendered_name(Path(entry.name))
        if entry.is_file() and not entry.name.removesuffix(".jinja").endswith(".py"):
            continue  # data files (spec.yaml) are no attribute of the package
        if name.isidentifier():
            where = entry.name.removesuffix(".jinja") + ("/" if entry.is_dir() else "")
            out[name] = (
                f"is a module of the generated package (<namespace>/{where}); "
                "the op would replace it in <namespace>/__init__.py"
            )
    return out


@functools.cache
def generated_globals() -> dict[str, str]:
    """Top-level names of the rendered Python modules that define one function per op:
    an op of that name replaces them, an argument of that name hides them inside the
    op's function."""
    out: dict[str, str] = {}
    for rel, tree in _python_templates():
        if not _defines_spec_functions(tree):
            continue
        for name in sorted(_top_level_names(tree)):
            out.setdefault(name, f"is a top-level name of the generated {rel}; the spec's name would shadow it")
    return out


@functools.cache
def builtins_used_by_generated_functions() -> dict[str, str]:
    """Builtins that the per-op functions of the generated code call (`float`, ...):
    an argument of that name would shadow them inside the function."""
    out: dict[str, str] = {}
    for rel, tree in _python_templates():
        if not _defines_spec_functions(tree):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in PYTHON_BUILTINS:
                out.setdefault(
                    node.id, f"is a Python builtin that the generated {rel} uses; the spec's name would shadow it"
                )
    return out


def _class_attributes(tree: ast.Module, cls: str) -> set[str]:
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            found = set()
            for sub in ast.walk(node):
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    found.add(sub.name)
                elif (
                    isinstance(sub, ast.Attribute)
                    and isinstance(sub.ctx, ast.Store)
                    and isinstance(sub.value, ast.Name)
                    and sub.value.id == "self"
                ):
                    found.add(sub.attr)
            return found
    return set()


@functools.cache
def torch_ops_attributes() -> tuple[frozenset[str], frozenset[str]]:
    """(attributes of `torch.ops`, attributes of `torch.ops.<namespace>`), read from the
    installed torch's source (torch/_ops.py) without importing torch.

    `torch.ops.load_library` is a method, so a namespace `load_library` is unreachable
    as `torch.ops.load_library`; an op `name` hides behind `torch.ops.<ns>.name`.
    Empty when torch is not installed where copier runs.
    """
    try:
        found = importlib.util.find_spec("torch")
    except (ImportError, ValueError):
        found = None
    if found is None or not found.origin:
        return frozenset(), frozenset()
    source = Path(found.origin).parent / "_ops.py"
    try:
        tree = ast.parse(source.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return frozenset(), frozenset()
    return frozenset(_class_attributes(tree, "_Ops")), frozenset(_class_attributes(tree, "_OpNamespace"))


_REQUIREMENT_NAME = re.compile(r'^\s*"([A-Za-z0-9][A-Za-z0-9._-]*)')


def _normalize(dist: str) -> str:
    return re.sub(r"[-_.]+", "-", dist).lower()


@functools.cache
def dependency_distributions() -> frozenset[str]:
    """The distributions a rendered project runs with: the requirements of its
    pyproject.toml and its extras (and copier, which renders and updates it), with
    everything they require in turn, as far as they are installed here."""
    text = (TEMPLATE_DIR / "pyproject.toml.jinja").read_text(encoding="utf-8")
    wanted = {"copier", "setuptools", "pip"}
    in_list = False
    for line in text.splitlines():
        stripped = line.strip()
        if re.match(r"^(dependencies|requires|test|lint|report)\s*=\s*\[", stripped):
            in_list = True
            stripped = stripped.split("[", 1)[1]
        if in_list:
            for item in re.findall(r'"([A-Za-z0-9][A-Za-z0-9._-]*)', stripped):
                wanted.add(item)
            if "]" in stripped:
                in_list = False
    seen: set[str] = set()
    todo = [_normalize(w) for w in wanted]
    while todo:
        dist = todo.pop()
        if dist in seen:
            continue
        seen.add(dist)
        try:
            requires = importlib.metadata.requires(dist) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        for req in requires:
            if "extra ==" in req:
                continue
            match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req)
            if match:
                todo.append(_normalize(match.group(1)))
    return frozenset(seen)


RESERVED_IMPORTS = Path(__file__).with_name("reserved_imports.txt")


@functools.cache
def reserved_imports() -> dict[str, str]:
    """Every top-level module that a rendered project's dependencies may import,
    optional imports included (hooks/reserved_imports.txt, written by
    scripts/reserved_imports.py): a package of that name would be what they import."""
    out: dict[str, str] = {}
    for line in RESERVED_IMPORTS.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            module, who = line.split(" ", 1)
            by = "torch, ExecuTorch or a dependency looks for at import" if who.startswith("(") else f"{who} imports"
            out[module] = f"is a module that {by} when it is installed; the package would shadow it"
    return out


@functools.cache
def dependency_modules() -> dict[str, str]:
    """Top-level import names of the dependencies (`yaml` for PyYAML, `sympy` that
    torch requires, ...), from the installed distributions' metadata; for a
    dependency not installed here, its distribution name."""
    dists = dependency_distributions()
    out: dict[str, str] = {}
    # Only these distributions' metadata, as importlib.metadata.packages_distributions
    # reads every installed one's (top_level.txt, or the top of its .py files): the
    # same names, in a fifth of the time of every render.
    for dist in sorted(dists):
        try:
            meta = importlib.metadata.distribution(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
        modules = (meta.read_text("top_level.txt") or "").split() or {
            f.parts[0] if len(f.parts) > 1 else f.with_suffix("").name for f in meta.files or () if f.suffix == ".py"
        }
        for module in sorted(modules):
            if module.isidentifier():
                out.setdefault(
                    module, f"is the import name of the dependency {meta.metadata['Name']}; the package would shadow it"
                )
    for dist in dists:
        name = dist.replace("-", "_")
        if name.isidentifier():
            out.setdefault(name, f"is the name of the dependency {dist}; the package would shadow it")
    return out
