/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * Fma3: the inference side of torch op shape_ops::fma3 (executeOp).
 * a * b + c, the three inputs broadcasting together.
 * Built into the DSP library, the island library and the host library alike.
 * expr: a * b + c
 */
#include "lpai_sdk.h"
#include "lpai_drivers.h"
#include "lpai_expr_math.h" /* the functions the expression calls */
#include "lpai_package.h"

#define OP_TYPE "Fma3"
#define N_INPUTS 3u
#define N_OUTPUTS 1u
#define N_PARAMS 0u

#define PARAM_KINDS NULL

/* The math, generated from the spec's expression. Inputs arrive dequantized, the
 * result is requantized by the caller: the function sees real values only. Every
 * path of the kernel calls it, inlined.
 * Not formatted: its lines are as long as the spec's expression and argument lists
 * make them, one line each. */
/* clang-format off */
static LPAI_ALWAYS_INLINE float Fma3_math(float in_a, float in_b, float in_c)
{
    return ((in_a * in_b) + in_c);
}

/* The same math behind one signature, for the reference path. */
static inline float Fma3_math_v(const float *in, const float *params)
{
    (void)params;
    return Fma3_math(in[0], in[1], in[2]);
}

/* The math for the blocked loop; the caller broadcasts the inputs. */
/* clang-format off */
static LPAI_ALWAYS_INLINE float Fma3_math3(float a, float b, float c, const float *params)
{
    (void)params;
    return Fma3_math(a, b, c);
}
/* clang-format on */

static char k_op_type[] = OP_TYPE;

static int32_t Fma3_executeOp(QnnLpai_CustomOpNode_t node)
{
    /* Constants at the call site: the inlined driver inlines the math too. */
    const lpai_reference_fn math_v = Fma3_math_v;
    const lpai_ternary_fn math = Fma3_math3;
    return lpai_execute_nary_u8(node, OP_TYPE, N_INPUTS, PARAM_KINDS, N_PARAMS, math_v, NULL, math, NULL);
}

static QnnLpaiOpPackage_OperationInfo_t g_info;

QnnOpPackage_OperationInfo_t get_Fma3_opInfo_Inference(void)
{
    int32_t (*const execute)(QnnLpai_CustomOpNode_t) = Fma3_executeOp;
    return lpai_op_info_init(&g_info, k_op_type, execute, N_INPUTS, N_OUTPUTS, N_PARAMS);
}
