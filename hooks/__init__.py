"""The template's own Python: spec model, validation, names, expression grammar.

spec.py loads and validates a spec into the model; names.py holds the identifier
rules; expr.py the expression grammar; context.py is the hook Copier calls.
"""
