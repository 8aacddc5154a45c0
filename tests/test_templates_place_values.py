"""Templates place what the model gives them; they never format a value themselves.

Every per-language spelling of a spec value (a C initialiser, call arguments, a Python
signature or tuple, a README cell) is a property of the model in hooks/spec.py, written
once (docs/architecture.md lists them).  A list joined in Jinja with `loop.last` once
rendered `def neg_half(a, ):`; a mapping written in Jinja (param type -> C kind) lived
in two templates at once.
"""

from __future__ import annotations

import re

import pytest

from conftest import ROOT
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
    assert not problems, "format these in hooks/spec.py instead:\n" + "\n".join(problems)


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
        "{{ op.c_math_call_v }}}; {% for op in pkg.ops %}{{ op.name }}{% endfor %} "
        "{% if op.kind == 'custom' %}#include{% endif %} {{ op.inputs[0].name }}"
    )


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
