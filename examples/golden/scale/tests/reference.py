# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The float64 numpy reference of the elementwise ops, for the tests.

It lives in the package (my_ops/reference.py), where `python -m my_ops report`
reads it too; written from the spec's expression independently of eager.py's torch form.
"""

from my_ops.reference import REFERENCES, in_float32  # noqa: F401 - the tests' API
