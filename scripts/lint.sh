#!/usr/bin/env bash
# `make lint` (and the pre-commit clang-format hook, with --c-only): the template
# repository's own sources.  The rendered projects are linted by the render matrix
# (tests/test_render.py), under the configuration they ship.
#   Python: ruff check and ruff format --check, configured in pyproject.toml.
#   C: bench/*.c, *.h and *.cpp under the .clang-format the rendered project ships, when the
#   template has one (template/.clang-format).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}

if [ "${1:-}" != "--c-only" ]; then
  "$PYTHON" -m ruff check --no-cache .
  "$PYTHON" -m ruff format --no-cache --check .
fi

style=template/.clang-format
if [ -f "$style" ]; then
  clang-format --style="file:$style" --dry-run --Werror bench/*.c bench/*.h bench/*.cpp
else
  echo "lint: no $style: the C of bench/ is not checked"
fi
