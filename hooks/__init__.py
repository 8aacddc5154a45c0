"""The template's own Python: spec model, validation, names, expression grammar.

spec.py loads and validates a spec (spec_op.py an op's rules, reserved.py the names a
spec may not take, checks.py SpecError) into the dataclasses of model.py; one view per
language formats them (view_py, view_torch, view_c, view_xml, view_md, view_yaml);
names.py holds the identifier rules; expr.py the expression grammar; context.py is the
hook Copier calls.
"""
