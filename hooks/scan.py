"""Which ops of your model stay on the CPU, and a spec for them: scripts/scan, make scan.

    scripts/scan --model pkg.module:attr --example-inputs FILE [--backend lpai|htp] [--spec-out FILE]

No project needed.  Your model is loaded, checked on its example inputs and exported as
`check-model` does (the rendered project's <namespace>/loading.py, loaded here as a file:
one loader, one set of one-line errors), quantized with ExecuTorch's own QnnQuantizer for
the backend (8a8w, calibrated on the example inputs), lowered with the backend's
Qualcomm passes (lower_to_edge), and every compute node of the edge program goes through
ExecuTorch's own QnnOperatorSupport.is_node_supported, the partitioner's decision, with
one part left out: the QNN backend's validation (IsNodeSupportedByBackend), which needs
the SDK.  One line per op kind: delegated by a QNN builder (the backend's validation has
the last word), FALLS BACK with ExecuTorch's reason, or needs the SDK's validation to
know.  Then: N of M compute nodes reach the backend.

`--spec-out FILE`: a spec draft with one op per op kind that falls back (tensors of
float32 in and out): inputs, params (the scalar arguments, defaults as the model calls
the op), an `expr` where the template's grammar says the op's math (EXPRS), `kind:
custom` otherwise, a doc naming the aten op, and each input's `range` as the example
inputs drive it.  Made through hooks/spec.py, read back as `scripts/new --check` reads it.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import logging
import math
import os
import re
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):  # run as a file: python hooks/scan.py
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from hooks import model as spec_model
    from hooks import new, spec
else:
    from . import model as spec_model
    from . import new, spec

TEMPLATE = Path(__file__).resolve().parent.parent
# The rendered project's loader of models and data (check-model's), loaded as a plain file.
LOADING = TEMPLATE / "template" / "{{pkg.namespace}}" / "loading.py"
USAGE = "scripts/scan --model pkg.module:attr --example-inputs FILE [--backend lpai|htp] [--spec-out FILE]"
# What the partitioner logs about a node (QnnOperatorSupport, qnn_partitioner.py).
PARTITIONER_LOGGER = "executorch.backends.qualcomm.partition.qnn_partitioner"
# How many node names an op kind's line shows.
SHOWN_NODES = 4

# An aten op the expression grammar (hooks/expr.py) can say exactly: its expr, over the
# op's tensor inputs as x, y, z, w and its scalar arguments by their schema names.  An op
# kind not here is drafted as `kind: custom`.
EXPRS = {
    "expm1": "exp(x) - 1",
    "exp2": "pow(2, x)",
    "log1p": "log(1 + x)",
    "log2": "log(x) / log(2)",
    "log10": "log(x) / log(10)",
    "hypot": "sqrt(x * x + y * y)",
    "frac": "x - trunc(x)",
    "square": "x * x",
    "reciprocal": "1 / x",
    "rsqrt": "1 / sqrt(x)",
    "relu6": "clamp(x, 0, 6)",
    "hardtanh": "clamp(x, min_val, max_val)",
    "leaky_relu": "where(x > 0, x, x * negative_slope)",
    "softplus": "where(x * beta > threshold, x, log(1 + exp(x * beta)) / beta)",
}
INPUT_NAMES = ("x", "y", "z", "w")
# An op every spec may hold: to validate a package's other keys alone.
MINIMAL_OP = {"name": "op_a", "inputs": ["x"], "expr": "x"}


class ScanError(Exception):
    """A problem of scan's input, one line."""


# --------------------------------------------------------------------------- the command line


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, not argparse's usage block
        print(f"scripts/scan: {message} (usage: {USAGE})", file=sys.stderr)
        raise SystemExit(2)


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="scripts/scan", description=__doc__.split("\n\n")[0])
    p.add_argument("--model", required=True, help="your model: package.module:attr (an nn.Module, class or factory)")
    p.add_argument(
        "--example-inputs",
        required=True,
        help="a torch.save'd tuple of float32 tensors (one batch) or a list of them (every one calibrates)",
    )
    p.add_argument("--backend", choices=spec_model.BACKENDS, default="lpai", help="the backend to scan for")
    p.add_argument("--spec-out", help="write a spec draft for the ops that fall back (a new file)")
    return p


def load_loading():
    """The rendered project's loading.py as a module of its own (it imports no package)."""
    found = importlib.util.spec_from_file_location("qnn_op_template_loading", LOADING)
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    return module


def spec_out_path(text: str | None, inputs: list[str]) -> Path | None:
    """--spec-out FILE, checked before anything runs: a new file in an existing folder."""
    if not text:
        return None
    path = Path(text)
    if path.is_dir():
        raise ScanError(f"--spec-out {text}: is a directory, expected a file to write")
    if not path.parent.is_dir():
        raise ScanError(f"--spec-out {text}: no folder {path.parent} to write it in")
    if path.exists() or path.is_symlink():
        raise ScanError(f"--spec-out {text}: exists; scan writes a new file and never overwrites one (name another)")
    return path


# --------------------------------------------------------------------------- the partitioner's decision


@dataclass
class Verdict:
    kind: str  # "delegated", "falls back", "sdk"
    reason: str


@dataclass
class Kind:
    """Every node of one op (an edge OpOverload) and its verdict."""

    target: str  # aten.erf.default
    verdict: Verdict
    nodes: list = field(default_factory=list)

    def line(self, width: int) -> str:
        names = [n.name for n in self.nodes]
        shown = ", ".join(names[:SHOWN_NODES]) + (
            f", +{len(names) - SHOWN_NODES} more" if len(names) > SHOWN_NODES else ""
        )
        label = {"delegated": "delegated", "falls back": "FALLS BACK", "sdk": "needs the SDK's validation to know"}
        return f"  {self.target:<{width}} x{len(names):<3} {label[self.verdict.kind]}: {self.verdict.reason} ({shown})"


def is_compute(node) -> bool:
    """A node that computes: any call but getitem and the quantize/dequantize nodes."""
    if node.op != "call_function":
        return False
    name = getattr(node.target, "__name__", str(node.target))
    return name != "getitem" and not name.startswith("quantized_decomposed.")


class _StandInBackend:
    """Stands in for the QNN backend (IsNodeSupportedByBackend needs the SDK): records
    that the partitioner asked it, and answers yes so the decision ends there."""

    asked = False

    def IsNodeSupportedByBackend(self, wrappers):  # noqa: N802 - ExecuTorch's name
        self.asked = True
        return True


def decide(edge) -> list[Kind]:
    """Every compute node through ExecuTorch's QnnOperatorSupport.is_node_supported (its
    own code, its node visitors; the QNN backend's validation stood in for), by op kind."""
    from executorch.backends.qualcomm.builders.node_visitor_manager import get_node_visitors
    from executorch.backends.qualcomm.partition import common_defs
    from executorch.backends.qualcomm.partition.qnn_partitioner import QnnOperatorSupport

    support = object.__new__(QnnOperatorSupport)  # its __init__ asks for the SDK's QNN manager
    support.node_visitors = get_node_visitors(edge)
    support.skip_node_id_set, support.skip_node_op_set = set(), set()
    support.is_qnn_partitioner, support.phase = True, "scan"
    support.nodes_to_wrappers = collections.defaultdict(dict)
    support.qnn_manager = backend = _StandInBackend()
    said: list[str] = []

    class Listen(logging.Handler):
        def emit(self, record):
            said.append(record.getMessage())

    logger = logging.getLogger(PARTITIONER_LOGGER)
    listener = Listen()
    logger.addHandler(listener)
    propagate, logger.propagate = logger.propagate, False
    disabled = logging.root.manager.disable  # loading.quiet() disables logging: the partitioner's lines are its reasons
    logging.disable(logging.NOTSET)
    kinds: dict[str, Kind] = {}
    try:
        for node in edge.graph_module.graph.nodes:
            if not is_compute(node):
                continue
            name = getattr(node.target, "__name__", str(node.target))
            said.clear()
            backend.asked = False
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    supported = support.is_node_supported(None, node)
                except Exception as exc:  # noqa: BLE001 - the builder's failure, as its reason
                    supported = exc
            verdict = _verdict(node, name, supported, backend.asked, said, caught, support, common_defs)
            kind = kinds.setdefault(f"{name}|{verdict.kind}|{verdict.reason}", Kind(name, verdict))
            kind.nodes.append(node)
    finally:
        logger.removeHandler(listener)
        logger.propagate = propagate
        logging.disable(disabled)
    return list(kinds.values())


def _said(said: list[str]) -> str:
    """The partitioner's log line about the node, without its '[scan] <op> | ' prefix."""
    return said[-1].split(" | ", 1)[-1] if said else ""


def _verdict(node, name, supported, asked, said, caught, support, common_defs) -> Verdict:
    visitor = support.node_visitors.get(name)
    builder = f"QNN builder {type(visitor).__name__}" if visitor is not None else ""
    if isinstance(supported, Exception):
        text = " ".join(str(supported).split())[:200]
        return Verdict(
            "sdk",
            f"ExecuTorch's {builder} fails on it here ({type(supported).__name__}: {text}); the partitioner would stop",
        )
    if supported and asked:
        return Verdict("delegated", builder)
    if supported:
        if node.target in common_defs.constant_operator:
            return Verdict("delegated", f"{builder} (a constant: no validation)")
        namespace = getattr(node.target, "namespace", "")
        if namespace not in ("aten", ""):
            return Verdict(
                "sdk", f"a custom op of {namespace}: check-model in its project checks it against its op package"
            )
        return Verdict("delegated", f"ExecuTorch passes it ({_said(said)})")
    if node.target in common_defs.not_supported_operator:
        return Verdict("falls back", "in ExecuTorch's not_supported_operator list")
    if said:
        if "No node visitor" in said[-1]:
            namespace = getattr(node.target, "namespace", "aten")
            if namespace != "aten":
                return Verdict(
                    "sdk", f"a custom op of {namespace}: check-model in its project checks it against its op package"
                )
            return Verdict("falls back", f"ExecuTorch: {_said(said)}")
        if "Skipped" in said[-1] or "Fallback" in said[-1]:
            return Verdict("falls back", f"ExecuTorch: {_said(said)}")
    warned = " ".join(" ".join(str(w.message).split()) for w in caught)[:200]
    return Verdict("falls back", f"ExecuTorch's {builder} refuses it: {warned or 'define_node returned nothing'}")


# --------------------------------------------------------------------------- the input ranges


def source_name(node) -> str | None:
    """The node of the float export an edge node was made from: the root of its
    `from_node` provenance (each step of the lowering records the node it made this one
    from; torch.fx.traceback.NodeSource), which holds through a change of aten name
    (torch.special.erf exports as aten.special_erf, the edge program has aten.erf)."""
    sources, name = node.meta.get("from_node"), None
    while sources:
        name, sources = sources[0].name, sources[0].from_node
    return name


def input_ranges(exported, edge, kinds: list[Kind], batches) -> dict[str, list[tuple[float, float] | None]]:
    """Per op kind of `kinds` (aten.erf.default, nodes of the edge program `edge`): each
    argument's (min, max) over every node of that kind, on every batch of the example
    inputs, run through the float model's export. An edge node takes the values of the
    export's node it was made from (source_name), where that node made no other compute
    node: one decomposed into several (a softplus) has no range, its parts' arguments are
    not its own."""
    import torch

    made = collections.Counter(source_name(n) for n in edge.graph_module.graph.nodes if is_compute(n))
    sources = {
        name: kind.target
        for kind in kinds
        for node in kind.nodes
        if (name := source_name(node)) is not None and made[name] == 1
    }
    seen: dict[str, list] = {}

    class Recorder(torch.fx.Interpreter):
        def run_node(self, n):
            target = sources.get(n.name) if n.op == "call_function" else None
            if target is not None:
                args = [self.env[a] if isinstance(a, torch.fx.Node) else a for a in n.args]
                ranges = seen.setdefault(target, [])
                ranges.extend([None] * (len(args) - len(ranges)))
                for i, value in enumerate(args):
                    if isinstance(value, torch.Tensor) and value.is_floating_point() and value.numel():
                        low, high = float(value.min()), float(value.max())
                        old = ranges[i]
                        ranges[i] = (low, high) if old is None else (min(old[0], low), max(old[1], high))
            return super().run_node(n)

    module = exported.module()
    with torch.no_grad():
        for batch in batches:
            Recorder(module).run(*batch)
    return seen


# --------------------------------------------------------------------------- the spec draft


def _outward(value: float, up: bool) -> float:
    """`value` to 3 significant digits, rounded away from the inside of the range."""
    if value == 0 or not math.isfinite(value):
        return value
    digits = 2 - math.floor(math.log10(abs(value)))
    scale = 10.0**digits
    rounded = (math.ceil if up else math.floor)(value * scale) / scale
    return float(f"{rounded:.6g}")


def _scalar(value):
    """A param's type and default for a scalar argument (None: not a spec param)."""
    if isinstance(value, bool):
        return "bool", value
    if isinstance(value, int) and 0 <= value <= spec_model.UINT32_MAX:
        return "int", value
    if isinstance(value, (int, float)) and math.isfinite(value) and (value == 0 or 1e-30 <= abs(value) <= 1e30):
        return "float", float(value)
    return None


def _base(target: str) -> str:
    """aten.erf.default -> erf."""
    parts = target.split(".")
    return parts[1] if len(parts) >= 3 else parts[-1]


@dataclass
class Draft:
    op: dict  # the op's spec
    comment: list[str]
    swap: str


def _draft(kind: Kind, ranges, backend: str) -> Draft | str:
    """One op of the spec for an op kind that falls back, or why it is not drafted."""
    import torch

    node = kind.nodes[0]
    base = _base(kind.target)
    schema = getattr(node.target, "_schema", None)
    names = [a.name for a in schema.arguments] if schema is not None else []
    values = list(node.args) + [None] * (len(names) - len(node.args))
    for key, value in node.kwargs.items():
        if key in names:
            values[names.index(key)] = value
    tensors, params, fixed = [], [], []
    for i, name in enumerate(names):
        value = values[i] if i < len(node.args) or name in node.kwargs else schema.arguments[i].default_value
        if isinstance(value, torch.fx.Node):
            val = value.meta.get("val")
            if not isinstance(val, torch.Tensor) or val.dtype != torch.float32:
                return f"input {name} is not a float32 tensor"
            tensors.append(i)
        elif value is None:
            continue
        elif _scalar(value) is not None:
            kind_, default = _scalar(value)
            params.append({"name": name, "type": kind_, "default": default})
        else:
            fixed.append(f"{name}={value!r}")
    outs = node.meta.get("val")
    outs = outs if isinstance(outs, (tuple, list)) else (outs,)
    if not all(isinstance(t, torch.Tensor) and t.dtype == torch.float32 for t in outs):
        return "an output is not a float32 tensor"
    if not 1 <= len(tensors) <= spec_model.MAX_INPUTS:
        return f"{len(tensors)} tensor inputs, a spec op takes 1 to {spec_model.MAX_INPUTS}"
    if len(outs) > spec_model.MAX_OUTPUTS or len(params) > spec_model.MAX_PARAMS:
        return "more outputs or params than a spec op takes"
    inputs = []
    seen_ranges = ranges.get(kind.target, [])
    comment = [f"{kind.target}: {len(kind.nodes)} node(s) ({', '.join(n.name for n in kind.nodes[:SHOWN_NODES])})"]
    in_shapes = []
    for k, i in enumerate(tensors):
        entry = {"name": INPUT_NAMES[k]}
        seen = seen_ranges[i] if i < len(seen_ranges) else None
        shape = list(values[i].meta["val"].shape)
        in_shapes.append(shape)
        if seen is not None:
            comment.append(f"  {INPUT_NAMES[k]} ({names[i]}) {shape}: seen in [{seen[0]:.6g}, {seen[1]:.6g}]")
            low, high = _outward(seen[0], False), _outward(seen[1], True)
            if low < high:
                entry["range"] = [low, high]
        inputs.append(entry)
    comment.append(f"  output(s): {', '.join(str(list(t.shape)) for t in outs)}")
    if fixed:
        comment.append(f"  fixed arguments (not scalars, not params): {', '.join(fixed)}")
    expr = EXPRS.get(base)
    single = len(outs) == 1 and list(outs[0].shape) == _broadcast(in_shapes)
    op: dict = {
        "name": base,
        "doc": f"Replaces {kind.target}, which falls back on {backend.upper()}.",
        "inputs": inputs,
    }
    if params:
        op["params"] = params
    if expr is not None and single:
        op["expr"] = expr
    else:
        op["kind"] = "custom"
        if len(outs) > 1 or list(outs[0].shape) != in_shapes[0]:
            op["outputs"] = _outputs(outs, in_shapes)
            if op["outputs"] is None:
                return "its outputs are not shaped like an input (a spec op's outputs are like or reduce an input)"
    call = f"torch.{base}" if hasattr(torch, base) else f"torch.ops.aten.{base}"
    args = ", ".join([*INPUT_NAMES[: len(tensors)], *(p["name"] for p in params)])
    return Draft(op, comment, f"{call}({args}) -> <namespace>.{{name}}({args})")


def _broadcast(shapes):
    import torch

    return list(torch.broadcast_shapes(*shapes))


def _outputs(outs, in_shapes):
    """Each output `like` the input of its shape (None: one is shaped like none)."""
    result = []
    for k, t in enumerate(outs):
        like = next((INPUT_NAMES[i] for i, s in enumerate(in_shapes) if s == list(t.shape)), None)
        if like is None:
            return None
        result.append({"name": "out" if k == 0 else f"out{k}", "shape": {"like": like}})
    return result


def _valid(op: dict, namespace: str) -> bool:
    try:
        spec.validate({"package_name": "ScanDraft", "namespace": namespace, "ops": [op]})
    except spec.SpecError:
        return False
    return True


def _fit(op: dict, namespace: str, taken: set[str]) -> dict | None:
    """The op made valid: another name if its own is refused or taken, then without the
    ranges (an expr not finite on them), then without the expr (None: nothing valid)."""
    tries = [op["name"], f"{op['name']}_op", f"my_{op['name']}"]
    for name in tries:
        if name in taken:
            continue
        candidate = {**op, "name": name}
        if _valid(candidate, namespace):
            return candidate
        bare = {**candidate, "inputs": [{"name": i["name"]} for i in candidate["inputs"]]}
        if _valid(bare, namespace):
            return bare
    return None


def _names_for(model: str) -> tuple[str, str]:
    """namespace and package_name from the model's module: my_models.net:build -> net_ops, NetOpPackage."""
    stem = re.sub(r"[^a-z0-9]+", "_", model.partition(":")[0].split(".")[-1].lower()).strip("_") or "model"
    if not stem[0].isalpha():
        stem = f"m_{stem}"
    namespace = f"{stem[:24]}_ops".replace("__", "_")
    package = "".join(part.capitalize() for part in stem.split("_") if part)[:30] + "OpPackage"
    try:
        spec.validate({"package_name": package, "namespace": namespace, "ops": [MINIMAL_OP]})
    except spec.SpecError:
        return "model_ops", "ModelOpPackage"
    return namespace, package


def draft_spec(kinds: list[Kind], ranges, model: str, example: str, backend: str) -> tuple[str, list[str], list[str]]:
    """(the spec draft's text, the swap line of each op, the op kinds not drafted and why)."""
    import yaml

    namespace, package = _names_for(model)
    ops, comments, swaps, skipped, taken = [], [], [], [], set()
    for kind in kinds:
        if kind.verdict.kind != "falls back":
            continue
        made = _draft(kind, ranges, backend)
        fitted = _fit(made.op, namespace, taken) if isinstance(made, Draft) else None
        if fitted is None:
            why = made if isinstance(made, str) else "the template's spec rules refuse every form tried"
            skipped.append(f"{kind.target}: not drafted: {why}")
            continue
        if "range" not in str(fitted["inputs"]) and any("range" in i for i in made.op["inputs"]):
            made.comment.append("  (no `range`: the expr is not finite on the ranges seen; the default applies)")
        taken.add(fitted["name"])
        ops.append(fitted)
        comments.append(made.comment)
        swaps.append(made.swap.replace("<namespace>", namespace).format(name=fitted["name"]))
    if not ops:
        return "", swaps, skipped
    backends = ["lpai", "htp"] if backend == "htp" else ["lpai"]
    lines = [
        f"# A spec draft by qnn-op-template's scripts/scan: {model} on {example}, backend {backend}.",
        "# One op per op kind that falls back; review names, docs and ranges, write the math of",
        "# each `kind: custom` op after rendering (its user/ files), then:",
        "#   scripts/new THIS_FILE ../my-project",
        "# and in your model, one line per op:",
        *[f"#   {s}" for s in swaps],
        f"package_name: {package}",
        f"namespace: {namespace}",
    ]
    if backend == "htp":
        lines.append(f"backends: [{', '.join(backends)}]")
    lines.append("ops:")
    for op, comment in zip(ops, comments):
        lines += [f"  # {c}" for c in comment]
        body = yaml.safe_dump([op], sort_keys=False, default_flow_style=None, width=1000, allow_unicode=False)
        lines += ["  " + line for line in body.rstrip("\n").splitlines()]
    for why in skipped:
        lines.append(f"# {why}")
    return "\n".join(lines) + "\n", swaps, skipped


# --------------------------------------------------------------------------- the scan


def scan(args, loading) -> int:
    import torch

    backend = args.backend
    name = spec_model.BACKEND_XML_NAME[backend]
    out_path = spec_out_path(args.spec_out, [args.example_inputs])
    if Path(args.example_inputs).is_dir():
        raise ScanError(
            f"--example-inputs {args.example_inputs}: is a directory, expected a file saved with torch.save"
        )
    # Any rank: the op packages' rank limits (BACKEND_MAX_RANK) are not the backend's.
    batches = loading.load_batches(Path(args.example_inputs), "--example-inputs", None, name)
    for b, batch in enumerate(batches):
        for i, t in enumerate(batch):
            if t.is_floating_point() and not bool(torch.isfinite(t).all()):
                raise ScanError(
                    f"--example-inputs {args.example_inputs}: batch {b} input {i} holds a non-finite value "
                    "(NaN or inf): the quantizer cannot calibrate on it"
                )
    model = loading.load_model(args.model, Path.cwd())
    for b, batch in enumerate(batches):
        loading.run_model(model, batch, f"--example-inputs {args.example_inputs} batch {b}")
    example = tuple(batches[0])
    print(
        f"scanning {args.model} ({type(model).__name__}) for {name} on {len(batches)} batch(es) of "
        f"{args.example_inputs}: torch.export, ExecuTorch's QnnQuantizer (8a8w), the {name} passes, "
        "the partitioner's checks (no QNN SDK)",
        flush=True,
    )
    exported = loading.stage("exporting it (torch.export)", args.model, torch.export.export, model, example)
    problem = loading.control_flow_problem(args.model, exported)
    if problem is not None:
        raise problem
    quantized = loading.stage(
        "quantizing it (ExecuTorch's QnnQuantizer)", args.model, _quantize, exported, batches, backend
    )
    edge = loading.stage(
        f"lowering it to edge (torch.export, the {name} passes, to_edge)",
        args.model,
        loading.lower_to_edge,
        quantized,
        example,
        backend,
    )
    kinds = loading.stage("the partitioner's checks", args.model, decide, edge)
    order = {"falls back": 0, "sdk": 1, "delegated": 2}
    kinds.sort(key=lambda k: (order[k.verdict.kind], k.target))
    width = max((len(k.target) for k in kinds), default=10)
    print(f"op kinds of the edge program ({name}): {len(kinds)}")
    for kind in kinds:
        print(kind.line(width))
    total = sum(len(k.nodes) for k in kinds)
    reach = sum(len(k.nodes) for k in kinds if k.verdict.kind == "delegated")
    back = sum(len(k.nodes) for k in kinds if k.verdict.kind == "falls back")
    unknown = total - reach - back
    summary = f"{reach} of {total} compute nodes reach the {name} backend; {back} fall back to the CPU"
    if unknown:
        summary += f"; {unknown} need the SDK's validation to know"
    print(summary + " (delegated: the backend's own validation, which needs the QNN SDK, has the last word)")
    if out_path is None:
        if back:
            print(f"a spec for the {back} node(s) that fall back: scripts/scan ... --spec-out my_spec.yaml")
        return 0
    fallbacks = [k for k in kinds if k.verdict.kind == "falls back"]
    ranges = loading.stage(
        "recording the inputs of the ops that fall back", args.model, input_ranges, exported, edge, fallbacks, batches
    )
    text, swaps, skipped = draft_spec(kinds, ranges, args.model, args.example_inputs, backend)
    for why in skipped:
        print(f"  {why}")
    if not text:
        print(f"--spec-out {args.spec_out}: nothing to draft (no op falls back as float32 tensors); nothing written")
        return 0
    _check_draft(text, out_path)
    print(
        f"wrote {out_path}: {text.count(chr(10) + '  - name: ')} op(s); render it with scripts/new {out_path} ../my-project"
    )
    print("then in your model, one line per op:")
    for line in swaps:
        print(f"  {line}")
    return 0


def _quantize(exported, batches, backend: str):
    """ExecuTorch's QnnQuantizer for the backend (8a8w), calibrated on every batch."""
    from executorch.backends.qualcomm.export_utils import get_backend_type, make_quantizer
    from executorch.backends.qualcomm.quantizer.quantizer import QuantDtype
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    # The spec's default SoC (hooks/spec.py), as a project rendered from the draft has it.
    soc = spec.validate({"package_name": "ScanDraft", "namespace": "scan_draft", "ops": [MINIMAL_OP]}).soc_model
    quantizer = make_quantizer(quant_dtype=QuantDtype.use_8a8w, backend=get_backend_type(backend), soc_model=soc)
    prepared = prepare_pt2e(exported.module(), quantizer)
    for batch in batches:
        prepared(*batch)
    return convert_pt2e(prepared)


def _check_draft(text: str, path: Path) -> None:
    """Write the draft, then read it back as `scripts/new --check` does; a draft it refuses
    is a bug of scan's: removed, and said."""
    try:
        with open(path, "x", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        raise ScanError(f"--spec-out {path}: cannot write it: {exc.strerror or exc}") from None
    try:
        new.check(str(path))
    except spec.SpecError as exc:
        path.unlink()
        raise ScanError(
            f"--spec-out {path}: scan's draft breaks a spec rule (a bug of scan's): {exc.lines[0]}"
        ) from None


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(sys.argv[1:] if argv is None else argv)
    os.environ.setdefault("QNN_SDK_ROOT", "")  # set but empty: ExecuTorch downloads no SDK (quant.no_sdk_download)
    try:
        loading = load_loading()
    except ModuleNotFoundError as exc:
        print(f"scripts/scan: {exc.name} is not installed: make setup installs torch and ExecuTorch", file=sys.stderr)
        return 1
    try:
        return scan(args, loading)
    except (ScanError, loading.ToolchainError) as exc:
        print(f"scripts/scan: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("scripts/scan: error: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - the last resort: one line, the traceback on request
        if os.environ.get("SCAN_TRACEBACK"):
            raise
        print(
            f"scripts/scan: error: unexpected {type(exc).__name__}: {' '.join(str(exc).split())[:300]} "
            "(SCAN_TRACEBACK=1 shows where)",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
