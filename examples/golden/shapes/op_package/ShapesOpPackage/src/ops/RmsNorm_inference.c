/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * RmsNorm: the inference side of torch op shape_ops::rms_norm (executeOp).
 * x divided by the root mean square of its last dim; one row at a time, no scratch.
 * Built into the DSP library, the island library and the host library alike.
 * kind: custom, rowwise. The template dequantizes one row (last dimension) of every
 * input at a time into a buffer on this function's stack, calls the math you write in
 * user/RmsNorm_math.c on it and requantizes that row of every output: no
 * getTempBuffer scratch.
 */
#include "lpai_sdk.h"
#include "lpai_drivers.h"
#include "lpai_expr_math.h" /* the functions the expression calls */
#include "lpai_package.h"
#include "ops/RmsNorm_user.h"

#define OP_TYPE "RmsNorm"
#define N_INPUTS 1u
#define N_OUTPUTS 1u
#define N_PARAMS 1u

/* The shape of each output, from the inputs (lpai_shapes.h); checked before anything
 * is written, as validateOp checks it on the host. One rule a line, unformatted. */
/* clang-format off */
static const lpai_shape_rule k_output_rules[N_OUTPUTS] = {
    {LPAI_SHAPE_LIKE, 0u, 0u, 0u, {0, 0, 0, 0, 0}}, /* y: the shape of x */
};
/* clang-format on */

/* In OpDef order; the kernel asks for each by its name: getParamTensor(node, name). */
static const lpai_param_spec k_param_kinds[N_PARAMS] = {
    {"eps", LPAI_PARAM_F32}, /* float, sent as QNN_DATATYPE_FLOAT_32 */
};
#define PARAM_KINDS k_param_kinds

static char k_op_type[] = OP_TYPE;

/* Hands the dequantized tensors to the user's math under the spec's names. */
static int RmsNorm_call(const lpai_custom_call *c)
{
    RmsNorm_args args;
    memset(&args, 0, sizeof args);
    args.x = c->in[0];
    args.x_shape = c->in_shape[0];
    args.y = c->out[0];
    args.y_shape = c->out_shape[0];
    args.out = c->out[0];
    args.rank = c->out_shape[0].rank;
    memcpy(args.dims, c->out_shape[0].dims, sizeof args.dims);
    args.count = c->out_shape[0].count;
    args.eps = c->params[0];
    return RmsNorm_compute(&args);
}

#define USER_MATH_MISSING "user math not written yet: op_package/" LPAI_PACKAGE_NAME "/user/" OP_TYPE "_math.c"

static int32_t RmsNorm_executeOp(QnnLpai_CustomOpNode_t node)
{
    /* One row of every input and output as float, (N_INPUTS + N_OUTPUTS) x LPAI_ROW_MAX
     * x 4 bytes on this stack: the op's whole scratch. */
    float rows[(N_INPUTS + N_OUTPUTS) * LPAI_ROW_MAX];
    const lpai_custom_fn call = RmsNorm_call;
    const lpai_shape_rule *rules = k_output_rules;
    return lpai_execute_custom_rowwise(node, OP_TYPE, N_INPUTS, N_OUTPUTS, rules, PARAM_KINDS, N_PARAMS, call,
                                       USER_MATH_MISSING, rows);
}

static QnnLpaiOpPackage_OperationInfo_t g_info;

QnnOpPackage_OperationInfo_t get_RmsNorm_opInfo_Inference(void)
{
    int32_t (*const execute)(QnnLpai_CustomOpNode_t) = RmsNorm_executeOp;
    return lpai_op_info_init(&g_info, k_op_type, execute, N_INPUTS, N_OUTPUTS, N_PARAMS);
}
