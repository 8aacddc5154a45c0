/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * HardSwishIsh: the inference side of torch op act_ops::hard_swish_ish (executeOp).
 * x times relu6(x + 3) / 6.
 * Built into the DSP library, the island library and the host library alike.
 * expr: x * clamp(x + 3.0, 0.0, 6.0) / 6.0
 */
#include "lpai_sdk.h"
#include "lpai_glue.h"

#define OP_TYPE "HardSwishIsh"
#define N_INPUTS 1u
#define N_PARAMS 0u

#define PARAM_KINDS NULL

/* The math, generated from the spec's expression. Inputs arrive dequantized, the
 * result is requantized by the caller: the function sees real values only. Every
 * path of the kernel calls it, inlined. */
static LPAI_ALWAYS_INLINE float HardSwishIsh_math(float in_x)
{
    return ((in_x * lpai_minf(lpai_maxf((in_x + 3.0f), 0.0f), 6.0f)) / 6.0f);
}

/* The same math behind one signature, for the reference path. */
static inline float HardSwishIsh_math_v(const float *in, const float *params)
{
    (void)params;
    return HardSwishIsh_math(in[0]);
}

static LPAI_ALWAYS_INLINE float HardSwishIsh_math1(float a, const float *params)
{
    (void)params;
    return HardSwishIsh_math(a);
}

/* Estimated by the template from the expression (qnn-op-template/hooks/expr.py cost): instructions
 * per evaluation, and whether the math vectorises (no libm call). lpai_glue.h
 * chooses between the direct loop and the 256-entry table with them. */
#define MATH_COST 14u
#define MATH_VECTORISES 1

static char k_op_type[] = OP_TYPE;

static int32_t HardSwishIsh_executeOp(QnnLpai_CustomOpNode_t node)
{
    return lpai_execute_unary_u8(node, OP_TYPE, PARAM_KINDS, N_PARAMS, HardSwishIsh_math_v,
                                 HardSwishIsh_math1, MATH_COST, MATH_VECTORISES);
}

static QnnLpaiOpPackage_OperationInfo_t g_HardSwishIsh_info;

QnnOpPackage_OperationInfo_t get_HardSwishIsh_opInfo_Inference(void)
{
    return lpai_op_info_init(&g_HardSwishIsh_info, k_op_type, HardSwishIsh_executeOp, N_INPUTS,
                             N_PARAMS);
}
