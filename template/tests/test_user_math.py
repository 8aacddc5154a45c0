# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The user math of every custom op is written: the first thing a run checks.

While a custom op's eager math (`<namespace>/user/<op>.py`) or kernel math
(`op_package/<Package>/user/<QnnType>_math.c`) is still the template's stub, this is
the one failure of `python -m pytest` (the first, with `-x`), listing every file to
write and what it must hold; conftest.py sets aside the tests that need the math until
then (tests/user_math.py).  It passes once every file is written, and for a spec
without custom ops.
"""

import pytest

import user_math


def test_the_user_math_is_written():
    if user_math.MISSING:
        pytest.fail(user_math.report(user_math.MISSING, user_math.DESELECTED), pytrace=False)
