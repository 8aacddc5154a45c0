"""The edges of issue 22 that the hooks decide: names that would shadow the package's
own modules, QNN types that collide case-insensitively, echoed values cut to a readable
length, and the strict spec reader of `scripts/new` (hooks/spec_file.py)."""

from __future__ import annotations

import pytest

from hooks import names, spec

from conftest import EXAMPLES


def minimal(**op):
    base = {"name": "mul3", "inputs": ["input"], "expr": "input * 3"}
    base.update(op)
    return {"package_name": "ScaleOpPackage", "namespace": "my_ops", "ops": [base]}


# The modules an adversarial run found an op could shadow (issue 22).
FOUND_BY_THE_RUN = (
    "device cli ops quant toolchain doctor shapes user registration delegation device_data op_package_xml".split()
)


@pytest.mark.parametrize("name", FOUND_BY_THE_RUN)
def test_an_op_named_like_a_module_of_the_package_is_refused(name):
    with pytest.raises(spec.SpecError, match=r"^ops\[0\]\.name: "):
        spec.validate(minimal(name=name, kind="custom", inputs=["x"], expr=None))


def test_every_module_of_a_rendered_package_is_refused_as_an_op_name():
    """Read from a real render (the golden one), not from the hook's own listing."""
    package = EXAMPLES / "golden" / "scale" / "my_ops"
    found = {p.stem for p in package.iterdir() if p.suffix == ".py" or (p.is_dir() and p.name != "__pycache__")}
    assert {"device", "toolchain", "user", "eager"} <= found
    for name in sorted(found):
        if not names.SNAKE_RE.match(name) or "__" in name:
            continue
        with pytest.raises(spec.SpecError, match=r"^ops\[0\]\.name: "):
            spec.validate(minimal(name=name))


def test_a_new_module_of_the_package_template_is_reserved_without_a_list(tmp_path, monkeypatch):
    (tmp_path / "telemetry.py").write_text("")
    (tmp_path / "plugins").mkdir()
    (tmp_path / "notes.yaml.jinja").write_text("")
    monkeypatch.setattr(names, "PACKAGE_DIR", tmp_path)
    names.package_modules.cache_clear()
    try:
        assert set(names.package_modules()) == {"telemetry", "plugins"}
    finally:
        names.package_modules.cache_clear()


@pytest.mark.parametrize("second", ["MYNORM", "Mynorm", "MyNORM"])
def test_qnn_types_that_differ_only_in_case_are_refused(second):
    raw = minimal()
    raw["ops"] = [
        {"name": "a1", "qnn_type": "MyNorm", "inputs": ["x"], "expr": "x"},
        {"name": "a2", "qnn_type": second, "inputs": ["x"], "expr": "x"},
    ]
    with pytest.raises(spec.SpecError, match=r"^ops\[1\]\.qnn_type: .*differs only in case"):
        spec.validate(raw)


def test_a_qnn_type_equal_to_the_package_name_in_another_case_is_refused():
    with pytest.raises(spec.SpecError, match=r"^ops\[0\]\.qnn_type: .*also in case"):
        spec.validate(minimal(qnn_type="SCALEOPPACKAGE"))


HUGE = "a" * 10_000


@pytest.mark.parametrize(
    "raw",
    [
        {"package_name": "A" * 10_000, "namespace": "my_ops", "ops": [{}]},
        {"package_name": "P", "namespace": HUGE, "ops": [{}]},
        minimal(name=HUGE),
        minimal(inputs=[HUGE]),
        minimal(qnn_type="Q" * 10_000),
        minimal(params=[{"name": HUGE, "type": "int", "default": 1}]),
        minimal(**{HUGE: 1}),
        {"package_name": "P", "namespace": "my_ops", "ops": [{}], HUGE: 1},
        minimal(expr="input * " + "b" * 490),
        minimal(expr="input * " + "b" * 470 + "(input)"),
        minimal(outputs=[{"name": "o", "shape": {"like": HUGE}}], kind="custom", expr=None),
        minimal(params=[{"name": "n", "type": "int", "default": 0.5 + 2**40}]),
    ],
)
def test_an_echoed_value_is_cut_to_a_readable_length(raw):
    with pytest.raises(spec.SpecError) as info:
        spec.validate(raw)
    assert len(str(info.value)) < 400, str(info.value)[:500]


# --- the entry point: hooks/new.py (scripts/new, make new) ----------------------------


def run_new(*args: str, cwd=None):
    import subprocess
    import sys

    from conftest import ROOT

    return subprocess.run(
        [sys.executable, str(ROOT / "hooks" / "new.py"), *args], capture_output=True, text=True, cwd=cwd, timeout=60
    )


def render_scale_with_new(template_repo, dest, env=None):
    """examples/scale.yaml through the template repository's hooks/new.py into `dest`."""
    import subprocess
    import sys

    from conftest import EXAMPLES

    return subprocess.run(
        [sys.executable, str(template_repo / "hooks" / "new.py"), str(EXAMPLES / "scale.yaml"), str(dest), "--quiet"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


def without_git_identity(home):
    """The environment of a user whose git knows no name or email: an empty HOME, no
    system config, no identity variables."""
    import os

    drop = ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "EMAIL")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    home.mkdir()
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), GIT_CONFIG_NOSYSTEM="1")
    return env


def test_the_entry_point_renders_a_valid_spec_with_copier(template_repo, tmp_path):
    """The project is a git repository with one commit, naming the template version,
    and a clean tree: `copier update` works at once (it refused an untracked project,
    "Updating is only supported in git-tracked subprojects"). A user whose git has no
    identity gets a fallback one for that commit only; their configuration is not
    touched."""
    import subprocess

    from conftest import copier_cli

    dest = tmp_path / "project"
    home = tmp_path / "home"
    result = render_scale_with_new(template_repo, dest, env=without_git_identity(home))
    assert result.returncode == 0, result.stderr
    assert (dest / "my_ops" / "ops.py").is_file()
    assert "_src_path:" in (dest / ".copier-answers.yml").read_text()

    def git(*args):
        return subprocess.run(["git", "-C", str(dest), *args], capture_output=True, text=True, check=True).stdout

    assert git("rev-parse", "--show-toplevel").strip() == str(dest.resolve())
    assert git("log", "--format=%an <%ae>|%s").splitlines() == [
        "qnn-op-template <scripts-new@qnn-op-template.invalid>|New project from qnn-op-template v1.0.0 "
        "(scripts/new scale.yaml)"
    ]
    assert git("status", "--porcelain", "--untracked-files=all") == ""
    assert "my_ops/ops.py" in git("ls-files").splitlines()
    assert list(home.rglob("*")) == [], "the user's git configuration was written"
    update = copier_cli("update", "--trust", "--defaults", cwd=dest)
    assert update.returncode == 0, update.stderr
    assert git("status", "--porcelain", "--untracked-files=all") == ""


def test_the_entry_point_commits_with_the_users_identity_and_not_inside_their_repository(template_repo, tmp_path):
    """With an identity configured, the commit is the user's. Inside a git work tree of
    theirs, no repository is made and nothing committed: one line says so."""
    import os
    import subprocess

    from conftest import GIT_ENV

    env = {**os.environ, **GIT_ENV}
    dest = tmp_path / "mine"
    result = render_scale_with_new(template_repo, dest, env=env)
    assert result.returncode == 0, result.stderr
    author = subprocess.run(["git", "-C", str(dest), "log", "--format=%an <%ae>"], capture_output=True, text=True)
    assert author.stdout == f"{GIT_ENV['GIT_AUTHOR_NAME']} <{GIT_ENV['GIT_AUTHOR_EMAIL']}>\n"

    inner = dest / "sub" / "project"
    result = render_scale_with_new(template_repo, inner, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        f"scripts/new: DEST {str(inner)!r} is inside the git work tree {str(dest)!r}: the render is not "
        "committed; commit it there (copier update needs the project committed and the tree clean)"
    ]
    assert (inner / "my_ops" / "ops.py").is_file() and not (inner / ".git").exists()
    count = subprocess.run(["git", "-C", str(dest), "rev-list", "--count", "HEAD"], capture_output=True, text=True)
    assert count.stdout.strip() == "1"


def test_the_entry_point_without_git_writes_nothing(tmp_path):
    """Without git, copier rendered a project that records no template version (exit 0,
    "Copying from template version None"), which no update can ever reach: refused in
    one line (and no line before it about release tags), nothing written. `--check`
    needs no git."""
    import shutil
    import subprocess
    import sys

    from conftest import EXAMPLES, ROOT

    # scripts/new itself (it makes the release tags first, with git): a PATH of the one
    # tool it needs besides git and Python (PYTHON).
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "dirname").symlink_to(shutil.which("dirname"))
    dest = tmp_path / "project"
    new = ["/bin/sh", str(ROOT / "scripts" / "new")]
    env = {"PATH": str(tools), "HOME": str(tmp_path), "PYTHON": sys.executable}
    result = subprocess.run([*new, str(EXAMPLES / "scale.yaml"), str(dest)], capture_output=True, text=True, env=env)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stderr.startswith("scripts/new: git is not on PATH: ") and result.stderr.count("\n") == 1
    assert result.stderr.rstrip().endswith("nothing was written"), result.stderr
    assert not dest.exists()
    check = subprocess.run([*new, "--check", str(EXAMPLES / "scale.yaml")], capture_output=True, text=True, env=env)
    assert check.returncode == 0 and check.stderr == "", check.stderr


def test_the_entry_point_refuses_a_fifo_and_a_device_without_reading(tmp_path):
    import os

    fifo = tmp_path / "spec.yaml"
    os.mkfifo(fifo)
    for path in (fifo, "/dev/zero", tmp_path):
        result = run_new("--check", str(path))
        assert result.returncode == 1
        assert result.stderr.startswith("Invalid op spec: spec: ") and result.stderr.count("\n") == 1, result.stderr


def test_the_entry_point_refuses_a_destination_in_the_way_and_writes_nothing(tmp_path):
    """copier renders into a folder until it meets a file it would write, then stops
    (no terminal: exit 1) with the user's files mixed into half a project. scripts/new
    looks first: one line naming what is in the way, and DEST exactly as it was."""
    from conftest import EXAMPLES

    spec = str(EXAMPLES / "scale.yaml")
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "README.md").write_text("my notes\n")
    blocked = tmp_path / "blocked"
    blocked.mkdir()
    (blocked / "tests").write_text("a file where the project has a folder\n")
    made = tmp_path / "made"
    made.mkdir()
    (made / ".copier-answers.yml").write_text("_src_path: x\n")
    a_file = tmp_path / "a_file"
    a_file.write_text("not a folder\n")
    cases = {
        theirs: "holds files in the way of the project's (README.md): give a new or empty folder, or pass --overwrite",
        blocked: "holds files in the way of the project's (tests): ",
        made: "is a project made already (it has .copier-answers.yml): to change its spec or take a newer template, "
        "run `copier update` in it",
        a_file: "is a file, not a folder",
    }
    before = {p: sorted(q.read_bytes() for q in p.rglob("*")) if p.is_dir() else p.read_bytes() for p in cases}
    for dest, words in cases.items():
        result = run_new(spec, str(dest))
        assert result.returncode == 1, (dest, result.stdout, result.stderr)
        assert result.stderr.startswith(f"scripts/new: DEST {str(dest)!r} {words}"), result.stderr
        assert result.stderr.count("\n") == 1 and result.stderr.rstrip().endswith("nothing was written"), result.stderr
        after = sorted(q.read_bytes() for q in dest.rglob("*")) if dest.is_dir() else dest.read_bytes()
        assert after == before[dest], dest


def test_the_entry_point_renders_beside_files_the_project_does_not_have(template_repo, tmp_path):
    """A fresh `git init` with a LICENSE is no obstacle: nothing of it is in the way."""
    dest = tmp_path / "repo"
    (dest / ".git").mkdir(parents=True)
    (dest / "LICENSE").write_text("MIT\n")
    result = render_scale_with_new(template_repo, dest)
    assert result.returncode == 0, result.stderr
    assert (dest / "my_ops" / "ops.py").is_file() and (dest / "LICENSE").read_text() == "MIT\n"


def test_the_entry_point_notes_a_param_the_expr_never_reads(tmp_path):
    """Valid (the kernel takes it and ignores it) but most likely not meant: passing it
    changes nothing. One note line per such param, exit 0; none for a spec without."""
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "package_name: NoteOpPackage\nnamespace: note_ops\nops:\n"
        "  - {name: gate, inputs: [g, a], params: [{name: steps, type: int, default: 3}, "
        "{name: invert, type: bool, default: false}], expr: 'where(g > 0, a, 0) * steps'}\n"
        "  - {name: mine, kind: custom, inputs: [x], params: [{name: unused_here, type: float, default: 1.0}]}\n"
    )
    result = run_new("--check", str(spec))
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        "scripts/new: note: ops[0].params[1] (invert): the expr of gate never reads it, so passing it changes nothing"
    ]
    from conftest import EXAMPLES

    for example in sorted(EXAMPLES.glob("*.yaml")):
        quiet = run_new("--check", str(example))
        assert quiet.returncode == 0 and quiet.stderr == "", (example.name, quiet.stderr)


def test_the_entry_point_s_check_says_ok_in_one_line():
    """`--check` of a valid spec: one line on stdout naming the file, what was checked and ok."""
    from conftest import EXAMPLES

    spec = EXAMPLES / "custom.yaml"
    result = run_new("--check", str(spec))
    assert result.returncode == 0 and result.stderr == "", result.stderr
    [line] = result.stdout.splitlines()
    assert line.startswith(f"scripts/new --check: {spec}: ok (") and "NormOpPackage" in line, line
    assert "2 ops: my_norm, double_it" in line, line


def test_the_entry_point_says_how_to_call_it():
    for args in ([], ["only-a-spec.yaml"], ["--check"], ["--check", "a", "b"]):
        result = run_new(*args)
        assert result.returncode == 2 and result.stderr.startswith("usage: scripts/new SPEC DEST"), args
    assert run_new("--help").returncode == 0


@pytest.mark.parametrize(
    ("args", "status", "line"),
    [
        (
            ["--vcs-ref", "no_such_ref"],
            1,
            "scripts/new: --vcs-ref 'no_such_ref': not a tag, branch or commit of the template",
        ),
        (["-rno_such_ref"], 1, "scripts/new: --vcs-ref 'no_such_ref': not a tag, branch or commit of the template"),
        (["--bogus-flag"], 2, "scripts/new: after DEST: Unknown switch --bogus-flag (the options copier copy takes: "),
        (["--vcs-ref"], 2, "scripts/new: after DEST: Switch --vcs-ref requires an argument"),
        (["stray"], 2, "scripts/new: after DEST: 'stray' is not an option"),
    ],
)
def test_the_entry_point_refuses_an_option_copier_would_end_in_its_usage_or_a_traceback(tmp_path, args, status, line):
    """copier printed 50 lines of usage for an unknown option, and 60 lines of traceback
    for a --vcs-ref the template lacks ("Unknown revision"): one line, nothing written."""
    from conftest import EXAMPLES

    dest = tmp_path / "project"
    result = run_new(str(EXAMPLES / "scale.yaml"), str(dest), *args)
    assert result.returncode == status, result.stderr
    assert result.stderr.startswith(line) and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.rstrip().endswith("nothing was written") and "Traceback" not in result.stderr
    assert not dest.exists() and result.stdout == ""


@pytest.mark.parametrize(
    ("dest", "why"), [("/proc/x", "cannot be written ('/proc': "), ("/dev/null/x", "'/dev/null' is not a folder")]
)
def test_the_entry_point_refuses_a_destination_it_cannot_write_in_one_line(dest, why):
    """/proc (as a read-only mount or a folder without permission: nothing can be made
    in it) and a path under a file: copier ended in a FileNotFoundError / OSError
    traceback."""
    from conftest import EXAMPLES

    result = run_new(str(EXAMPLES / "scale.yaml"), dest)
    assert result.returncode == 1, result.stderr
    assert result.stderr.startswith(f"scripts/new: DEST {dest!r}") and why in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.rstrip().endswith("nothing was written")


def test_make_new_without_spec_or_dest_names_them(tmp_path):
    """`make new SPEC= DEST=` read the empty SPEC as the current folder ("'.' is a folder")."""
    import subprocess

    from conftest import ROOT

    made = subprocess.run(["make", "-s", "-C", str(ROOT), "new", "SPEC=", "DEST="], capture_output=True, text=True)
    assert made.returncode != 0
    assert made.stderr.splitlines()[0].startswith("scripts/new: SPEC and DEST are empty: "), made.stderr
    result = run_new(str(tmp_path / "spec.yaml"), " ")
    assert result.returncode == 2 and result.stderr.startswith("scripts/new: DEST is empty: "), result.stderr


# --- every accepted spec is green, or refused -------------------------------------------


def test_evaluate_is_float32_ieee_arithmetic_like_numpy():
    """hooks/expr.py evaluate, against numpy's float32 (an independent implementation)."""
    import numpy as np

    from hooks import expr

    cases = [
        ("(x + 1e6) - 1e6", 0.3),
        ("log(x * 0)", 1.0),
        ("sqrt(x * 0 - 1)", 1.0),
        ("x * 1e30 * 1e30", 1.5),
        ("x / (x - x)", 1.0),
        ("(x - x) / (x - x)", 1.0),
        ("-x / (x - x)", 1.0),
        ("exp(x * 100)", 2.0),
        ("sigmoid(-x * 1e30)", 1.0),
        ("clamp(x, 1, -1)", 0.5),
        ("min(x, log(x * 0))", 1.0),
        ("max(sqrt(-x), x)", 1.0),
        ("relu(sqrt(-x))", 1.0),
        ("tanh(x * 1e30)", 1.0),
        ("abs(-x) * 3 - 0.1", 0.7),
    ]
    fns = {
        "log": np.log,
        "sqrt": np.sqrt,
        "exp": np.exp,
        "tanh": np.tanh,
        "abs": np.abs,
        "min": np.minimum,
        "max": np.maximum,
        "clamp": lambda a, lo, hi: np.minimum(np.maximum(a, lo), hi),
        "sigmoid": lambda a: np.float32(1) / (np.float32(1) + np.exp(-a)),
        "relu": lambda a: np.maximum(a, np.float32(0)),
    }
    for text, x in cases:
        with np.errstate(all="ignore"):
            want = eval(
                text.replace("1e6", "np.float32(1e6)").replace("1e30", "np.float32(1e30)"),
                {**fns, "np": np},
                {"x": np.float32(x)},
            )  # noqa: S307
        got = expr.evaluate(expr.parse(text, ["x"], []), {"x": x})
        assert (np.isnan(want) and got != got) or np.float32(got) == want, (text, got, want)


@pytest.mark.parametrize(
    "text, params, finite",
    [
        ("log(x * 0)", {}, False),
        ("sqrt(x * 0 - 1)", {}, False),
        ("x + 1 / p", {"p": 0.0}, False),
        ("x / 0", {}, False),
        ("min(x, 1 / p)", {"p": 0.0}, True),
        ("sqrt(x - 1)", {}, False),  # NaN on [0.1, 1)
        ("sqrt(x - 1.9) + x", {}, False),  # NaN but on [1.9, 2]: the observer's range would be NaN
        ("log(x - 2)", {}, False),  # inf at the range's top only
        ("x / (x - 0.1)", {}, False),  # inf at the range's bottom only
        ("log(x + p)", {"p": -0.5}, False),  # a param default moves it out
        ("sqrt(x) + log(x)", {}, True),
        ("sqrt(max(x - 1, 0))", {}, True),
        ("log(x)", {}, True),
        ("(x + 1e6) - 1e6", {}, True),
    ],
)
def test_an_op_not_finite_on_the_whole_calibration_range_is_refused(text, params, finite):
    raw = minimal(
        inputs=["x"], expr=text, params=[{"name": k, "type": "float", "default": v} for k, v in params.items()]
    )
    if finite:
        spec.validate(raw)
    else:
        with pytest.raises(
            spec.SpecError,
            match=r"^ops\[0\]\.expr: is not finite \(NaN or inf\) at x=[0-9.]+ with the param defaults: an op must be "
            r"finite on its inputs' domain \(x in \[0\.1, 2\]\)",
        ):
            spec.validate(raw)


def test_a_multi_input_op_not_finite_on_part_of_the_range_is_refused():
    """`sqrt(a - b)` is NaN wherever a < b, which no probe with the same value for every
    input shows; the range's corners do."""
    raw = minimal(inputs=["a", "b"], expr="sqrt(a - b) + a")
    with pytest.raises(spec.SpecError, match=r"^ops\[0\]\.expr: is not finite \(NaN or inf\) at a=0\.1, b=2 "):
        spec.validate(raw)
    spec.validate(minimal(inputs=["a", "b"], expr="sqrt(abs(a - b)) + a"))


def test_the_minimum_rank_of_a_reduce_rule_is_what_torch_takes():
    import itertools

    import torch

    for n in (1, 2, 3):
        for dims in itertools.permutations([-5, -4, -3, -2, -1, 0, 1, 2, 3, 4], n):
            for keepdim in (False, True):
                shape = spec.OutputShape("reduce", None, tuple(dims), keepdim)
                want = None
                for rank in range(1, 6):
                    try:
                        out = torch.zeros((2,) * rank).sum(dim=list(dims), keepdim=keepdim)
                    except (IndexError, RuntimeError):
                        continue
                    if out.dim() > 0:  # the project refuses a reduction to no dim
                        want = rank
                        break
                assert shape.min_rank == want, (dims, keepdim)


def test_a_doc_is_stripped_of_surrounding_spaces():
    assert spec.validate(minimal(doc="  Spaces around.   ")).ops[0].doc == "Spaces around."


def _rendered_module(rel: str, tmp_path):
    """A template file rendered for examples/scale.yaml and imported from `tmp_path`."""
    import importlib.util
    import shutil
    import sys

    import jinja2

    from conftest import ROOT

    pkg = spec.load(EXAMPLES / "scale.yaml")
    env = jinja2.Environment(keep_trailing_newline=True, undefined=jinja2.StrictUndefined)
    text = env.from_string((ROOT / "template" / rel).read_text()).render(pkg=pkg)
    # The tests' module imports the package's emulator bridge: a package of just that
    # (and the facts it reads) beside it.
    ns = tmp_path / pkg.namespace
    ns.mkdir(exist_ok=True)
    (ns / "__init__.py").write_text("")
    source = ROOT / "template" / "{{pkg.namespace}}"
    (ns / "_package.py").write_text(env.from_string((source / "_package.py.jinja").read_text()).render(pkg=pkg))
    (ns / "emulator.py").write_text((source / "emulator.py").read_text())
    # It re-exports the package's ops for tests/user/ (host.OPS); these tests read none.
    (ns / "ops.py").write_text("OPS = ()\n")
    # And the tests' own helper it records the values of a test in.
    shutil.copy(ROOT / "template" / "tests" / "failure.py", tmp_path / "failure.py")
    sys.path.insert(0, str(tmp_path))
    for name in [m for m in sys.modules if m == pkg.namespace or m.startswith(f"{pkg.namespace}.")]:
        del sys.modules[name]
    path = tmp_path / rel.removesuffix(".jinja").replace("/", "_")
    path.write_text(text)
    module_spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[path.stem] = module  # dataclasses look their module up
    module_spec.loader.exec_module(module)
    return module


def test_int_params_are_sampled_from_a_bounded_set(tmp_path):
    """An int default of 4294967295 built a list of 4.3e9 ints (tests/op_package_host.py)."""
    import time
    from types import SimpleNamespace

    import torch

    host = _rendered_module("tests/op_package_host.py.jinja", tmp_path)
    gen = torch.Generator().manual_seed(0)
    start = time.perf_counter()
    for default in (0, 1, 7, 2**31, 2**32 - 2, 2**32 - 1):
        # A range over all of uint32, and the span around the default (half to twice plus 4).
        for span in ((0, 2**32 - 1), (default // 2, min(2 * default + 4, 2**32 - 1))):
            op = SimpleNamespace(params=(("n", "int", default),), param_spans=(span,))
            for _ in range(20):
                [value] = host.random_params(op, gen)
                assert isinstance(value, int) and span[0] <= value <= span[1] and value != default
    # A param without a span keeps its default.
    held = SimpleNamespace(params=(("n", "int", 7), ("a", "float", 0.5)), param_spans=(None, None))
    assert host.random_params(held, gen) == [7, 0.5]
    assert time.perf_counter() - start < 2.0


def test_the_oracle_quantizes_like_the_exported_graph_at_odd_zero_point_ties(tmp_path):
    import torch
    import torch.ao.quantization.fx._decomposed  # noqa: F401  (registers quantized_decomposed)

    host = _rendered_module("tests/op_package_host.py.jinja", tmp_path)
    values = (torch.arange(-300, 300, dtype=torch.float64) + 0.5).to(torch.float32)
    for zp in (1, 125, 131, 255):
        graph = torch.ops.quantized_decomposed.quantize_per_tensor(values, 1.0, zp, 0, 255, torch.uint8)
        assert torch.equal(host.quantize(values, 1.0, zp), graph)


def test_one_strict_yaml_reader_for_scripts_new_and_a_project_s_update(tmp_path):
    """A spec nested deeper than PyYAML's recursion: one line from scripts/new, and from
    a project's `update --spec`, which ended in "unexpected RecursionError" with its own
    reading. Both read with the one file every project ships."""
    from pathlib import Path

    from hooks import spec_file

    from conftest import ROOT

    shipped = ROOT / "template" / "{{pkg.namespace}}" / "toolchain" / "spec_yaml.py"
    assert Path(spec_file.spec_yaml.__file__).resolve() == shipped.resolve()
    deep = tmp_path / "deep.yaml"
    deep.write_text("package_name: P\nops: " + "[" * 5000 + "]" * 5000 + "\n")
    result = run_new("--check", str(deep))
    assert (result.returncode, result.stderr) == (1, "Invalid op spec: spec: is nested too deeply to be a spec\n")
