# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Prints pip's option for PyTorch's CPU wheel index when that index answers, else nothing.

PyPI's torch wheel for Linux x86_64 is the CUDA build (several GB of nvidia packages);
the CPU build comes from https://download.pytorch.org/whl/cpu.  pip waits for an index
it cannot reach (retries, then its timeout, for every package), so the index is added
only when it answers within --timeout seconds:

    python -m pip install $(python scripts/torch_index.py) torch==2.13.0 ...

`--unless torch==2.13.0` prints nothing, without asking the network, when that torch is
installed already (pip then needs no index for it).  Standard library only: it runs
before anything is installed.  The reason for the choice goes to stderr, one line.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
import urllib.request
from importlib import metadata

CPU_INDEX = "https://download.pytorch.org/whl/cpu"


def installed(requirement: str) -> bool:
    """`name==version` is installed (a local version such as 2.13.0+cpu counts)."""
    name, _, version = requirement.partition("==")
    try:
        have = metadata.version(name.strip())
    except metadata.PackageNotFoundError:
        return False
    return have.split("+")[0] == version.strip()


def reachable(url: str, timeout: float) -> tuple[bool, str]:
    """Whether `url` answers within `timeout` seconds, name resolution included."""
    result: list[tuple[bool, str]] = []

    def probe() -> None:
        try:
            request = urllib.request.Request(f"{url}/torch/", method="HEAD")
            with urllib.request.urlopen(request, timeout=timeout) as response:
                result.append((response.status < 400, f"HTTP {response.status}"))
        except Exception as exc:  # any failure means: do not send pip there
            result.append((False, f"{type(exc).__name__}: {exc}"))

    thread = threading.Thread(target=probe, daemon=True)
    thread.start()
    thread.join(timeout)
    return result[0] if result else (False, f"no answer in {timeout:g} s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", default=CPU_INDEX, help=f"the index (default {CPU_INDEX})")
    ap.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for it (default 5)")
    ap.add_argument("--unless", metavar="NAME==VERSION", help="print nothing when this is installed already")
    args = ap.parse_args(argv)
    if not args.timeout > 0:
        ap.error(f"--timeout {args.timeout:g}: must be a positive number of seconds")
    if args.unless and installed(args.unless):
        return 0
    start = time.monotonic()
    ok, why = reachable(args.url.rstrip("/"), args.timeout)
    took = time.monotonic() - start
    if ok:
        print(f"--extra-index-url {args.url}")
        print(
            f"torch_index: {args.url} answers ({why}, {took:.1f} s): torch's CPU build comes from it", file=sys.stderr
        )
    else:
        print(
            f"torch_index: {args.url} does not answer ({why}, {took:.1f} s): "
            "torch comes from the default index (on Linux x86_64, its CUDA build unless that index has another)",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
