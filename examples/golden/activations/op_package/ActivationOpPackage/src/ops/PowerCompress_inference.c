/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * PowerCompress: the inference side of torch op act_ops::power_compress (executeOp).
 * Power-law compression of a magnitude, (|x| + eps) ** p, as in PCEN front ends.
 * Built into the DSP library, the island library and the host library alike.
 * expr: (abs(x) + eps) ** p
 */
#include "lpai_sdk.h"
#include "lpai_drivers.h"
#include "lpai_expr_math.h" /* the functions the expression calls */
#include "lpai_package.h"

#define OP_TYPE "PowerCompress"
#define N_INPUTS 1u
#define N_OUTPUTS 1u
#define N_PARAMS 2u

/* In OpDef order; the kernel asks for each by its name: getParamTensor(node, name). */
static const lpai_param_spec k_param_kinds[N_PARAMS] = {
    {"eps", LPAI_PARAM_F32}, /* float, sent as QNN_DATATYPE_FLOAT_32 */
    {"p", LPAI_PARAM_F32}, /* float, sent as QNN_DATATYPE_FLOAT_32 */
};
#define PARAM_KINDS k_param_kinds

/* The math, generated from the spec's expression. Inputs arrive dequantized, the
 * result is requantized by the caller: the function sees real values only. Every
 * path of the kernel calls it, inlined.
 * Not formatted: its lines are as long as the spec's expression and argument lists
 * make them, one line each. */
/* clang-format off */
static LPAI_ALWAYS_INLINE float PowerCompress_math(float in_x, float p_eps, float p_p)
{
    return lpai_powf((fabsf(in_x) + p_eps), p_p);
}

/* The same math behind one signature, for the reference path. */
static inline float PowerCompress_math_v(const float *in, const float *params)
{
    (void)params;
    return PowerCompress_math(in[0], params[0], params[1]);
}

static LPAI_ALWAYS_INLINE float PowerCompress_math1(float a, const float *params)
{
    (void)params;
    return PowerCompress_math(a, params[0], params[1]);
}
/* clang-format on */

/* Estimated by the template from the expression (qnn-op-template/hooks/expr.py cost): instructions
 * per evaluation, and whether the math vectorises (no libm call). lpai_drivers.h
 * chooses between the direct loop and the 256-entry table with them. */
#define MATH_COST 147u
#define MATH_VECTORISES 1
/* clang-format on */

static char k_op_type[] = OP_TYPE;

static int32_t PowerCompress_executeOp(QnnLpai_CustomOpNode_t node)
{
    /* Constants at the call site: the inlined driver inlines the math too. */
    const lpai_reference_fn math_v = PowerCompress_math_v;
    const lpai_unary_fn math1 = PowerCompress_math1;
    return lpai_execute_unary_u8(node, OP_TYPE, PARAM_KINDS, N_PARAMS, math_v, math1, MATH_COST, MATH_VECTORISES);
}

static QnnLpaiOpPackage_OperationInfo_t g_info;

QnnOpPackage_OperationInfo_t get_PowerCompress_opInfo_Inference(void)
{
    int32_t (*const execute)(QnnLpai_CustomOpNode_t) = PowerCompress_executeOp;
    return lpai_op_info_init(&g_info, k_op_type, execute, N_INPUTS, N_OUTPUTS, N_PARAMS);
}
