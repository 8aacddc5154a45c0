/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * DoubleIt: the inference side of torch op norm_ops::double_it (executeOp).
 * Doubles the input.
 * Built into the DSP library, the island library and the host library alike.
 * expr: 2 * x
 */
#include "lpai_sdk.h"
#include "lpai_glue.h"

#define OP_TYPE "DoubleIt"
#define N_INPUTS 1u
#define N_PARAMS 0u

#define PARAM_KINDS NULL

/* The math, generated from the spec's expression. Inputs arrive dequantized, the
 * result is requantized by the caller: the function sees real values only. Every
 * path of the kernel calls it, inlined. */
static LPAI_ALWAYS_INLINE float DoubleIt_math(float in_x)
{
    return (2.0f * in_x);
}

/* The same math behind one signature, for the reference path. */
static inline float DoubleIt_math_v(const float *in, const float *params)
{
    (void)params;
    return DoubleIt_math(in[0]);
}

static LPAI_ALWAYS_INLINE float DoubleIt_math1(float a, const float *params)
{
    (void)params;
    return DoubleIt_math(a);
}

/* Estimated by the template from the expression (qnn-op-template/hooks/expr.py cost): instructions
 * per evaluation, and whether the math vectorises (no libm call). lpai_glue.h
 * chooses between the direct loop and the 256-entry table with them. */
#define MATH_COST 1u
#define MATH_VECTORISES 1

static char k_op_type[] = OP_TYPE;

static int32_t DoubleIt_executeOp(QnnLpai_CustomOpNode_t node)
{
    return lpai_execute_unary_u8(node, OP_TYPE, PARAM_KINDS, N_PARAMS, DoubleIt_math_v,
                                 DoubleIt_math1, MATH_COST, MATH_VECTORISES);
}

static QnnLpaiOpPackage_OperationInfo_t g_DoubleIt_info;

QnnOpPackage_OperationInfo_t get_DoubleIt_opInfo_Inference(void)
{
    return lpai_op_info_init(&g_DoubleIt_info, k_op_type, DoubleIt_executeOp, N_INPUTS,
                             N_PARAMS);
}
