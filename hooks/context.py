"""The hook Copier calls: answers -> validated model -> template context.

Loaded by copier-template-extensions from `copier.yml` (`_jinja_extensions`), which is
why `copier copy` needs `--trust`: this is the only place where a spec can be checked
as a whole, with one clean error line, before Copier writes the first file.

Copier renders question defaults with partial answers during the prompt phase (and
`namespace` is then Jinja's `Namespace` class), so the hook does nothing until the
render phase (nor in the migrate phase of `copier update`, see _VALIDATING_PHASES).  There it validates everything; the broken rules become a
`UserMessageError`, which Copier prints as it is (one line per problem) and exits 1.  The first render of
the phase is the first file's *path*, so nothing has been written yet.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path
from typing import Any, ClassVar

from copier.errors import UserMessageError
from copier_template_extensions import ContextHook

_HERE = Path(__file__).resolve().parent
# Not "migrate": copier renders the migration commands of copier.yml (and their `when`)
# for the "before" stage too, before the update has loaded the answers, and those
# commands use no `pkg`.
_VALIDATING_PHASES = {"render", "tasks"}


def _load_hooks_package():
    """Import this folder as a package under a name unique to its path.

    `copier update` loads the old and the new template in one process; a plain
    `import hooks` would let the first one win for both.
    """
    digest = hashlib.sha1(str(_HERE).encode()).hexdigest()[:12]
    name = f"_qnn_op_template_hooks_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, _HERE / "__init__.py", submodule_search_locations=[str(_HERE)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _spec_module():
    return importlib.import_module(f"{_load_hooks_package().__name__}.spec")


def spec_from_answers(context: dict[str, Any]) -> dict[str, Any]:
    """The raw spec: the answers Copier collected plus any unknown data-file keys."""
    raw: dict[str, Any] = {}
    for key in _spec_module().TOP_KEYS:
        if key in context:
            raw[key] = context[key]
    conf = context.get("_copier_conf") or {}
    data = conf.get("data") if hasattr(conf, "get") else None
    for key in data or {}:
        if not str(key).startswith("_") and key not in raw:
            raw[key] = data[key]
    return raw


class ContextUpdater(ContextHook):
    _cache: ClassVar[dict[str, Any]] = {}

    def hook(self, context: dict[str, Any]) -> None:
        phase = str(context.get("_copier_phase", ""))
        if phase not in _VALIDATING_PHASES:
            return
        spec_mod = _spec_module()
        raw = spec_from_answers(context)
        try:
            # Bounded first: the cache key below prints the whole spec, and a YAML
            # alias bomb would print for minutes into gigabytes.
            spec_mod.check_size(raw)
            key = repr(raw)
            pkg = self._cache.get(key)
            if pkg is None:
                pkg = spec_mod.validate(raw)
                self._cache[key] = pkg
        except spec_mod.SpecError as exc:
            # Every problem, one line each: copier prints the message as it is.
            raise UserMessageError("\n".join(f"Invalid op spec: {line}" for line in exc.lines)) from None
        context["pkg"] = pkg
        importlib.import_module(f"{_load_hooks_package().__name__}.update_guard").check(context, pkg)
