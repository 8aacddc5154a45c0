"""The rendered project's pytest configuration keeps a failure readable.

ExecuTorch's Qualcomm partitioner and preprocess set their loggers to DEBUG; pytest
captured every record and printed thousands of DEBUG lines above a failing test's
message.  The rendered pyproject.toml sets `log_level = "INFO"`.
"""

from __future__ import annotations

from conftest import load_example, run_project_tests

FAILING = """import logging


def test_fails_after_debug_noise():
    log = logging.getLogger("executorch.backends.qualcomm.partition.qnn_partitioner")
    log.setLevel(logging.DEBUG)  # as the partitioner does at import
    for i in range(2000):
        log.debug("chatter-%d", i)
    log.warning("a warning stays visible")
    assert False, "the failure"
"""


def test_a_failing_test_does_not_print_captured_debug_lines(copie_session, template_repo):
    result = copie_session.copy(extra_answers=load_example("scale.yaml"), template_dir=template_repo)
    assert result.exit_code == 0, result.exception
    project = result.project_dir
    (project / "tests/user/test_noise.py").write_text(FAILING)

    run = run_project_tests(project, "tests/user/test_noise.py")

    assert run.returncode == 1, run.stdout[-2000:]
    assert "the failure" in run.stdout
    assert "a warning stays visible" in run.stdout
    assert "chatter-1" not in run.stdout, f"{run.stdout.count('chatter-')} captured DEBUG lines printed"
    assert len(run.stdout.splitlines()) < 60
