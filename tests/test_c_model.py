"""The C view of the model (hooks/view_c.py): what the kernels and the custom C user API
are rendered from. Expected values are written out by hand from the rules in
include/lpai_shapes.h and docs/spec.md, never computed by the code under test.
"""

from __future__ import annotations

from hooks import spec


def _op(raw: dict) -> spec.Op:
    return spec.validate({"package_name": "CModelOpPackage", "namespace": "cmodel_ops", "ops": [raw]}).ops[0]


MEAN_AND_CENTER = {
    "name": "center",
    "kind": "custom",
    "inputs": ["x", "w"],
    "outputs": [
        {"name": "mean", "shape": {"reduce": "x", "dims": [-1, 1], "keepdim": True}},
        {"name": "centered", "shape": {"like": "w"}},
    ],
}


def test_output_rules_as_c_initialisers():
    rules = _op(MEAN_AND_CENTER).c.output_rules
    assert rules[0].startswith("{LPAI_SHAPE_REDUCE, 0u, 1u, 2u, {-1, 1, 0, 0, 0}}, /* mean: ")
    assert rules[1].startswith("{LPAI_SHAPE_LIKE, 1u, 0u, 0u, {0, 0, 0, 0, 0}}, /* centered: ")
    binary = _op({"name": "add2", "inputs": ["a", "b"], "expr": "a + b"})
    assert binary.c.output_rules == [
        ("{LPAI_SHAPE_BROADCAST, 0u, 0u, 0u, {0, 0, 0, 0, 0}}, /* out: the broadcast shape of the inputs */")
    ]


def test_args_struct_keeps_the_members_of_one_output():
    """A custom op without outputs: keeps `out`, `rank`, `dims`, `count` (user math
    written before several outputs existed), and adds a shape per tensor."""
    lines = _op(
        {
            "name": "my_norm",
            "kind": "custom",
            "inputs": ["x"],
            "params": [{"name": "eps", "type": "float", "default": 0.5}],
        }
    ).c.args_members
    # Each member under its own comment line (a trailing comment would make clang-format
    # break or realign the member once names get long).
    comments, members = lines[0::2], lines[1::2]
    assert all(c.startswith("/* ") and c.endswith(" */") for c in comments), comments
    assert comments[-1] == '/* parameter "eps" (float), default 0.5 */'

    assert members == [
        "const float *x;",
        "lpai_shape x_shape;",
        "float *out;",
        "lpai_shape out_shape;",
        "uint32_t rank;",
        "uint32_t dims[LPAI_MAX_RANK];",
        "uint64_t count;",
        "float eps;",
    ]


def test_args_struct_of_two_outputs_aliases_out_to_the_first():
    op = _op(MEAN_AND_CENTER)
    members = [line for line in op.c.args_members if not line.startswith("/*")]
    assert members == [
        "const float *x;",
        "lpai_shape x_shape;",
        "const float *w;",
        "lpai_shape w_shape;",
        "float *mean;",
        "lpai_shape mean_shape;",
        "float *centered;",
        "lpai_shape centered_shape;",
        "float *out;",
        "uint32_t rank;",
        "uint32_t dims[LPAI_MAX_RANK];",
        "uint64_t count;",
    ]
    assert op.c.args_fill[:8] == [
        "args.x = c->in[0];",
        "args.x_shape = c->in_shape[0];",
        "args.w = c->in[1];",
        "args.w_shape = c->in_shape[1];",
        "args.mean = c->out[0];",
        "args.mean_shape = c->out_shape[0];",
        "args.centered = c->out[1];",
        "args.centered_shape = c->out_shape[1];",
    ]
    assert "args.out = c->out[0];" in op.c.args_fill
    assert "args.count = c->out_shape[0].count;" in op.c.args_fill


def test_output_shapes_and_scratch():
    op = _op(MEAN_AND_CENTER)
    shapes = [(2, 3, 4, 5), (2, 3, 4, 5)]
    assert op.output_shape_for(op.outputs[0], shapes) == (2, 1, 4, 1)
    assert op.output_shape_for(op.outputs[1], shapes) == (2, 3, 4, 5)
    # (1, 32, 28, 28): x and w 25,088 each, mean (1, 1, 28, 1) 28, centered 25,088.
    assert op.scratch_bytes == 4 * (25_088 * 3 + 28)
    assert "301,168 bytes" in op.md.scratch
    drop = _op(
        {
            "name": "drop",
            "kind": "custom",
            "inputs": ["x"],
            "outputs": [{"name": "s", "shape": {"reduce": "x", "dims": [0, -1]}}],
        }
    )
    assert drop.output_shape_for(drop.outputs[0], [(2, 3, 4)]) == (3,)
    binary = _op({"name": "add2", "inputs": ["a", "b"], "expr": "a + b"})
    assert binary.output_shape_for(binary.outputs[0], [(2, 1, 4), (3, 1)]) == (2, 3, 4)


def test_rowwise_scratch_is_the_stack_buffer():
    op = _op(
        {
            "name": "softmax",
            "kind": "custom",
            "rowwise": True,
            "inputs": ["x"],
            "outputs": [{"name": "y", "shape": {"like": "x"}}, {"name": "m", "shape": {"reduce": "x", "dims": [-1]}}],
        }
    )
    assert op.scratch_bytes == (1 + 2) * 256 * 4
    assert "no getTempBuffer" in op.md.scratch


def test_input_shape_text_says_later_inputs_broadcast_to_the_first():
    """The OpDef XML's <Shape> of each input: a custom op's first input takes any shape,
    its later inputs broadcast to it; an elementwise op's inputs broadcast together."""
    op = _op(MEAN_AND_CENTER)
    assert op.input_shape_text(op.inputs[0]) == "any shape"
    assert op.input_shape_text(op.inputs[1]) == "broadcasts to x (torch rules, the shape of x the result)"
    binary = _op({"name": "add2", "inputs": ["a", "b"], "expr": "a + b"})
    assert binary.input_shape_text(binary.inputs[1]) == "broadcasts with the other inputs (torch rules)"
    unary = _op({"name": "neg", "inputs": ["a"], "expr": "-a"})
    assert unary.input_shape_text(unary.inputs[0]) == "same shape as the output"
