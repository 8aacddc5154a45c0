"""template/scripts/torch_index.py (every render's scripts/torch_index.py, and the
template's `make setup`): pip gets PyTorch's CPU wheel index only when it answers in
time, so that a machine that reaches only the default index never waits on it.

Against local servers (no network): one that answers, one that accepts and never
answers, none at all.  About 3 s.
"""

from __future__ import annotations

import http.server
import os
import socket
import subprocess
import sys
import threading
import time

import pytest

from conftest import ROOT

SCRIPT = ROOT / "template" / "scripts" / "torch_index.py"


def probe(*args: str) -> tuple[subprocess.CompletedProcess, float]:
    start = time.monotonic()
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}  # local servers, no proxy
    run = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=60, env=env)
    return run, time.monotonic() - start


@pytest.fixture
def answering():
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_HEAD(self):  # noqa: N802 (http.server's name)
            self.send_response(200 if self.path == "/whl/cpu/torch/" else 404)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/whl/cpu"
    server.shutdown()


@pytest.fixture
def silent():
    """A server that accepts connections and never answers (a black-holed proxy)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}/whl/cpu"
    sock.close()


def test_an_index_that_answers_is_given_to_pip(answering):
    run, _ = probe("--url", answering)
    assert run.returncode == 0 and run.stdout == f"--extra-index-url {answering}\n", run.stderr
    assert "answers (HTTP 200" in run.stderr


def test_an_index_that_never_answers_is_left_out_within_the_timeout(silent):
    run, took = probe("--url", silent, "--timeout", "1")
    assert run.returncode == 0 and run.stdout == "", run.stdout
    assert "does not answer" in run.stderr and "torch comes from the default index" in run.stderr
    assert took < 10, f"the probe took {took:.1f} s with --timeout 1"


def test_no_server_at_all_is_left_out():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again: nothing listens there
    run, _ = probe("--url", f"http://127.0.0.1:{port}/whl/cpu", "--timeout", "2")
    assert run.returncode == 0 and run.stdout == "" and "does not answer" in run.stderr


def test_an_installed_torch_needs_no_probe(silent):
    import torch

    version = torch.__version__.split("+")[0]
    run, took = probe("--url", silent, "--timeout", "30", "--unless", f"torch=={version}")
    assert run.returncode == 0 and run.stdout == "" and run.stderr == ""
    assert took < 10, "--unless with the installed version still waited for the index"
    other, _ = probe("--url", silent, "--timeout", "1", "--unless", "torch==0.0.1")
    assert "does not answer" in other.stderr


def test_a_bad_timeout_is_one_line():
    run, _ = probe("--timeout", "0")
    assert run.returncode == 2 and "--timeout 0: must be a positive number of seconds" in run.stderr
    assert "Traceback" not in run.stderr
