/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * Pcen: the inference side of torch op shape_ops::pcen (executeOp).
 * Streaming PCEN-like smoothing over the last dim (time), from a state in and to a state out.
 * Built into the DSP library, the island library and the host library alike.
 * kind: custom, rowwise. The template dequantizes one row (last dimension) of every
 * input at a time into a buffer on this function's stack, calls the math you write in
 * user/Pcen_math.c on it and requantizes that row of every output: no
 * getTempBuffer scratch.
 */
#include "lpai_sdk.h"
#include "lpai_drivers.h"
#include "lpai_expr_math.h" /* the functions the expression calls */
#include "lpai_package.h"
#include "ops/Pcen_user.h"

#define OP_TYPE "Pcen"
#define N_INPUTS 2u
#define N_OUTPUTS 2u
#define N_PARAMS 2u

/* The shape of each output, from the inputs (lpai_shapes.h); checked before anything
 * is written, as validateOp checks it on the host. One rule a line, unformatted. */
/* clang-format off */
static const lpai_shape_rule k_output_rules[N_OUTPUTS] = {
    {LPAI_SHAPE_LIKE, 0u, 0u, 0u, {0, 0, 0, 0, 0}}, /* y: the shape of x */
    {LPAI_SHAPE_LIKE, 1u, 0u, 0u, {0, 0, 0, 0, 0}}, /* new_state: the shape of state */
};
/* clang-format on */

/* In OpDef order; the kernel asks for each by its name: getParamTensor(node, name). */
static const lpai_param_spec k_param_kinds[N_PARAMS] = {
    {"smooth", LPAI_PARAM_F32}, /* float, sent as QNN_DATATYPE_FLOAT_32 */
    {"eps", LPAI_PARAM_F32}, /* float, sent as QNN_DATATYPE_FLOAT_32 */
};
#define PARAM_KINDS k_param_kinds

static char k_op_type[] = OP_TYPE;

/* Hands the dequantized tensors to the user's math under the spec's names. */
static int Pcen_call(const lpai_custom_call *c)
{
    Pcen_args args;
    memset(&args, 0, sizeof args);
    args.x = c->in[0];
    args.x_shape = c->in_shape[0];
    args.state = c->in[1];
    args.state_shape = c->in_shape[1];
    args.y = c->out[0];
    args.y_shape = c->out_shape[0];
    args.new_state = c->out[1];
    args.new_state_shape = c->out_shape[1];
    args.out = c->out[0];
    args.rank = c->out_shape[0].rank;
    memcpy(args.dims, c->out_shape[0].dims, sizeof args.dims);
    args.count = c->out_shape[0].count;
    args.smooth = c->params[0];
    args.eps = c->params[1];
    return Pcen_compute(&args);
}

#define USER_MATH_MISSING "user math not written yet: op_package/" LPAI_PACKAGE_NAME "/user/" OP_TYPE "_math.c"

static int32_t Pcen_executeOp(QnnLpai_CustomOpNode_t node)
{
    /* One row of every input and output as float, (N_INPUTS + N_OUTPUTS) x LPAI_ROW_MAX
     * x 4 bytes on this stack: the op's whole scratch. */
    float rows[(N_INPUTS + N_OUTPUTS) * LPAI_ROW_MAX];
    const lpai_custom_fn call = Pcen_call;
    const lpai_shape_rule *rules = k_output_rules;
    return lpai_execute_custom_rowwise(node, OP_TYPE, N_INPUTS, N_OUTPUTS, rules, PARAM_KINDS, N_PARAMS, call,
                                       USER_MATH_MISSING, rows);
}

static QnnLpaiOpPackage_OperationInfo_t g_info;

QnnOpPackage_OperationInfo_t get_Pcen_opInfo_Inference(void)
{
    int32_t (*const execute)(QnnLpai_CustomOpNode_t) = Pcen_executeOp;
    return lpai_op_info_init(&g_info, k_op_type, execute, N_INPUTS, N_OUTPUTS, N_PARAMS);
}
