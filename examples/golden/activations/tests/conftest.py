# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Shared set-up of the project's tests.

While the user math of a custom op is still a stub (tests/user_math.py), a run checks
only what needs no math and fails once, in tests/test_user_math.py, listing every file
to write: within a minute, instead of every op test failing on the same missing file.
`python -m pytest --all-tests` runs everything anyway.

ExecuTorch's Qualcomm backend tries to download the QNN SDK when a backend starts and
QNN_SDK_ROOT is unset; an empty QNN_SDK_ROOT tells it the caller handles the SDK.  The
tests that need the real SDK check for a non-empty value and skip otherwise.
"""

import importlib
import os
from pathlib import Path

os.environ.setdefault("QNN_SDK_ROOT", "")

import pytest  # noqa: E402
import torch  # noqa: E402

import act_ops  # noqa: E402,F401  (registers the ops)
from act_ops._package import NAMESPACE, PACKAGE_NAME  # noqa: E402
from act_ops.ops import OPS  # noqa: E402

import failure  # noqa: E402
import op_package_host  # noqa: E402
import user_math  # noqa: E402

user_math.MISSING[:] = user_math.missing(
    OPS, NAMESPACE, PACKAGE_NAME, lambda op: importlib.import_module(f"{NAMESPACE}.user.{op.name}")
)


def pytest_addoption(parser):
    parser.addoption(
        "--all-tests",
        action="store_true",
        help="run every test even while user math is still to write (each then fails on it)",
    )
    parser.addoption(
        "--op",
        metavar="NAME",
        default=None,
        help="run only the tests of one op (and tests/user/): `make test OP=NAME`",
    )


def only_op(config, items) -> None:
    """`--op NAME`: keep the tests of op NAME (those parametrized by it) and the user's own
    tests (tests/user/); set aside every other test, package-wide ones included."""
    name = config.getoption("op")
    if name is None:
        return
    if name not in [op.name for op in OPS]:
        raise pytest.UsageError(f"--op {name}: no such op (the ops: {', '.join(op.name for op in OPS)})")
    kept, dropped = [], []
    for item in items:
        op = getattr(item, "callspec", None) and item.callspec.params.get("op")
        mine = op is not None and getattr(op, "name", None) == name
        (kept if mine or item.path.parent.name == "user" else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = kept


def pytest_configure(config):
    # Long builds print a line when they start and end (op_package_host.progress).
    op_package_host.CONFIG = config


def pytest_report_header(config):
    if user_math.MISSING:
        return [f"user math still to write: {', '.join(m.path for m in user_math.MISSING)}"]
    return []


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """A failing test of one op says first what it fed the op and what the user can do
    (failure.py): `ns::op(alpha=1.6, ...) on x in [0, 2]: <the failure> -- <advice>`; the
    failure's own lines and traceback follow."""
    failure.CURRENT.clear()
    try:
        return (yield)
    except (Exception, pytest.fail.Exception) as exc:
        op = getattr(item, "callspec", None) and item.callspec.params.get("op")
        if (op is None and "op" not in failure.CURRENT) or item.get_closest_marker("xfail"):
            raise  # an xfail(raises=...) judges the exception's own type
        said = str(exc.msg if isinstance(exc, pytest.fail.Exception) else exc) or type(exc).__name__
        head, _, rest = said.partition("\n")
        if not isinstance(exc, (AssertionError, pytest.fail.Exception)):
            head = f"{type(exc).__name__}: {head}"
        line = f"{failure.first_line(op)}: {head} -- {failure.ADVICE}"
        raise AssertionError(f"{line}\n{rest}" if rest else line).with_traceback(exc.__traceback__) from None


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    """`--op NAME` (only_op); then, while user math is missing: set aside (deselect)
    every test that needs it, and run tests/test_user_math.py first, collecting it if
    the command line did not."""
    only_op(config, items)
    if not user_math.MISSING or config.getoption("all_tests"):
        return
    gated = [item for item in items if item.path.name not in user_math.WITHOUT_USER_MATH]
    if not gated:
        return
    kept = [item for item in items if item.path.name in user_math.WITHOUT_USER_MATH]
    check = [item for item in kept if item.path.name == "test_user_math.py"]
    if not check:
        module = pytest.Module.from_parent(session, path=Path(user_math.__file__).with_name("test_user_math.py"))
        check = list(module.collect())
    user_math.DESELECTED = len(gated)
    config.hook.pytest_deselected(items=gated)
    items[:] = check + [item for item in kept if item not in check]


def make_inputs(op, seed: int, shape=(2, 3, 4, 5), domains=None):
    """Deterministic float32 inputs of one op, each uniform in its (low, high) of
    `domains`: by default the op's input domain (OpInfo.domains, the spec's `range` or
    its default, where the spec check required the op finite); of the shapes of one valid
    call: `shape`, except that the later inputs of an elementwise op broadcast to it
    (OpInfo.input_shapes)."""
    gen = torch.Generator().manual_seed(seed)
    domains = op.domains if domains is None else domains
    failure.note(op, inputs=failure.domains_text(op, domains))
    return tuple(
        torch.rand(s, generator=gen, dtype=torch.float32) * (high - low) + low
        for s, (low, high) in zip(op.input_shapes(shape), domains, strict=True)
    )


@pytest.fixture(params=OPS, ids=[op.name for op in OPS])
def op(request):
    return request.param
