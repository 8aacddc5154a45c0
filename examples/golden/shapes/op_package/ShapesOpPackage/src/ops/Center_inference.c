/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * Center: the inference side of torch op shape_ops::center (executeOp).
 * The mean over the last dim, and x minus it (unless not subtract), scaled.
 * Built into the DSP library, the island library and the host library alike.
 * kind: custom. The template dequantizes the inputs to float into the scratch of
 * getTempBuffer, calls the math you write in user/Center_math.c and
 * requantizes every output.
 */
#include "lpai_sdk.h"
#include "lpai_drivers.h"
#include "lpai_expr_math.h" /* the functions the expression calls */
#include "lpai_package.h"
#include "ops/Center_user.h"

#define OP_TYPE "Center"
#define N_INPUTS 1u
#define N_OUTPUTS 2u
#define N_PARAMS 2u

/* The shape of each output, from the inputs (lpai_shapes.h); checked before anything
 * is written, as validateOp checks it on the host. One rule a line, unformatted. */
/* clang-format off */
static const lpai_shape_rule k_output_rules[N_OUTPUTS] = {
    {LPAI_SHAPE_REDUCE, 0u, 1u, 1u, {-1, 0, 0, 0, 0}}, /* mean: the shape of x reduced over dims [-1], kept as 1 */
    {LPAI_SHAPE_LIKE, 0u, 0u, 0u, {0, 0, 0, 0, 0}}, /* centered: the shape of x */
};
/* clang-format on */

/* In OpDef order; the kernel asks for each by its name: getParamTensor(node, name). */
static const lpai_param_spec k_param_kinds[N_PARAMS] = {
    {"scale", LPAI_PARAM_F32}, /* float, sent as QNN_DATATYPE_FLOAT_32 */
    {"subtract", LPAI_PARAM_U32_BOOL}, /* bool, sent as QNN_DATATYPE_UINT_32 */
};
#define PARAM_KINDS k_param_kinds

static char k_op_type[] = OP_TYPE;

/* Hands the dequantized tensors to the user's math under the spec's names. */
static int Center_call(const lpai_custom_call *c)
{
    Center_args args;
    memset(&args, 0, sizeof args);
    args.x = c->in[0];
    args.x_shape = c->in_shape[0];
    args.mean = c->out[0];
    args.mean_shape = c->out_shape[0];
    args.centered = c->out[1];
    args.centered_shape = c->out_shape[1];
    args.out = c->out[0];
    args.rank = c->out_shape[0].rank;
    memcpy(args.dims, c->out_shape[0].dims, sizeof args.dims);
    args.count = c->out_shape[0].count;
    args.scale = c->params[0];
    args.subtract = c->params_u32[1] != 0u;
    return Center_compute(&args);
}

#define USER_MATH_MISSING "user math not written yet: op_package/" LPAI_PACKAGE_NAME "/user/" OP_TYPE "_math.c"

static int32_t Center_executeOp(QnnLpai_CustomOpNode_t node)
{
    const lpai_custom_fn call = Center_call;
    const lpai_shape_rule *rules = k_output_rules;
    return lpai_execute_custom(node, OP_TYPE, N_INPUTS, N_OUTPUTS, rules, PARAM_KINDS, N_PARAMS, call,
                               USER_MATH_MISSING);
}

static QnnLpaiOpPackage_OperationInfo_t g_info;

QnnOpPackage_OperationInfo_t get_Center_opInfo_Inference(void)
{
    int32_t (*const execute)(QnnLpai_CustomOpNode_t) = Center_executeOp;
    return lpai_op_info_init(&g_info, k_op_type, execute, N_INPUTS, N_OUTPUTS, N_PARAMS);
}
