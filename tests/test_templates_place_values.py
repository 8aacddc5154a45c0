"""Templates place what the model gives them; they never format a value themselves.

Every per-language spelling of a spec value (a C initialiser, call arguments, a Python
signature or tuple, a README cell) is a property of a view of the model (`op.c.*` in
hooks/view_c.py, `op.py.*` in hooks/view_py.py, ...), written once (docs/architecture.md
lists them).  A list joined in Jinja with `loop.last` once
rendered `def neg_half(a, ):`; a mapping written in Jinja (param type -> C kind) lived
in two templates at once.
"""

from __future__ import annotations

import re

import pytest

from hooks import spec

from conftest import EXAMPLES, ROOT
from golden import GOLDEN

TEMPLATE = ROOT / "template"
# Copier's own answers file is the one template that formats (Copier's answers, not the spec's).
COPIER_OWN = {"{{_copier_conf.answers_file}}.jinja"}

FORBIDDEN = {
    "loop.last / loop.first separators": re.compile(r"\bloop\.(last|first)\b"),
    "a Jinja filter that formats (join, upper, lower, format, length, to_nice_yaml, ...)": re.compile(
        r"\|\s*(join|upper|lower|title|capitalize|format|length|count|to_nice_yaml|to_json|tojson|replace)\b"
    ),
    "a conditional expression inside {{ }} (a mapping written in Jinja)": re.compile(
        r"\{\{[^}]*\bif\b[^}]*\belse\b[^}]*\}\}"
    ),
    "a test on a param's type (a mapping written in Jinja)": re.compile(r"\{%-?\s*if\s+\w+\.type\s*=="),
    "arithmetic on model values": re.compile(r"\{\{[^}]*[\w)\]]\s*[-+*/]\s*[\w(]+[^}]*\}\}"),
}


def template_files():
    return sorted(p for p in TEMPLATE.rglob("*.jinja") if p.name not in COPIER_OWN)


def findings(text: str) -> list[str]:
    return [rule for rule, pattern in FORBIDDEN.items() if pattern.search(text)]


def test_no_template_formats_a_value():
    problems = [
        f"{path.relative_to(ROOT)}: {rule}"
        for path in template_files()
        for rule in findings(path.read_text(encoding="utf-8"))
    ]
    assert not problems, "format these in a view (hooks/view_*.py) instead:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    "text",
    [
        '{%- for p in op.params %}"{{ p.name }}"{% if not loop.last %}, {% endif %}{% endfor %}',
        '{{ op.input_names|join(", ") }}',
        "#ifndef {{ op.qnn_type | upper }}_USER_H",
        "{{ 1 if op.kind == 'custom' else 0 }}",
        "{% if p.type == 'float' %}P_F32{% else %}P_U32{% endif %}",
        "[{{ pkg.max_params + 1 }}]",
    ],
)
def test_the_scan_finds_each_way_of_formatting_in_jinja(text):
    assert findings(text)


def test_the_scan_leaves_placement_alone():
    assert not findings(
        "{{ op.c.math_call_v }}}; {% for op in pkg.ops %}{{ op.name }}{% endfor %} "
        "{% if op.kind == 'custom' %}#include{% endif %} {{ op.inputs[0].name }}"
    )


# What a template reads: a model object by the name every template gives it, then a chain
# of attributes (`op.c.math_args`, `pkg.ops[0].py.example_call`, `op.output_shape_text(o)`).
JINJA_SPAN = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
MODEL_READ = re.compile(r"(?<![\w.])(pkg|op|p|o|i)((?:\.[A-Za-z_]\w*|\[\d+\])+)")


def model_reads() -> set[tuple[str, str]]:
    reads = set()
    for path in sorted(TEMPLATE.rglob("*")):
        texts = [str(path.relative_to(TEMPLATE))]
        if path.is_file() and path.suffix == ".jinja" and path.name not in COPIER_OWN:
            texts.append(path.read_text(encoding="utf-8"))
        for text in texts:
            for span in JINJA_SPAN.findall(text):
                reads.update(MODEL_READ.findall(span))
    return reads


def test_every_model_attribute_a_template_reads_exists():
    """Copier renders an unknown attribute as nothing, silently: a template that still reads
    a renamed one (`op.c_math_args` for `op.c.math_args`) must fail here, not render ''."""
    pkg = spec.load(EXAMPLES / "scale.yaml")
    op = next(op for op in pkg.ops if op.params)
    absent = object()
    objects = {"pkg": pkg, "op": op, "p": op.params[0], "o": op.outputs[0], "i": op.inputs[0]}
    missing = []
    for name, chain in sorted(model_reads()):
        value = objects[name]
        for step in re.findall(r"\.(\w+)|\[(\d+)\]", chain):
            value = value[int(step[1])] if step[1] else getattr(value, step[0], absent)
            if value is absent:
                missing.append(name + chain)
                break
    assert len(model_reads()) > 100
    assert not missing, f"templates read attributes the model does not have: {missing}"


# Separators with nothing after them, on one line: the artefacts of joining in Jinja
# (`f(a, )`, `{x, }`). A one-item tuple `(x,)` is Python, not an artefact.
ARTEFACT = re.compile(r",[ \t]+[)\]}]|[(\[{][ \t]*,")


def test_golden_renders_have_no_separator_artefacts():
    problems = []
    for path in sorted(GOLDEN.rglob("*")):
        if path.suffix not in {".py", ".c", ".h", ".cpp"}:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if ARTEFACT.search(line.split("#")[0] if path.suffix == ".py" else line):
                problems.append(f"{path.relative_to(GOLDEN)}:{number}: {line.strip()}")
    assert not problems, "\n".join(problems)
