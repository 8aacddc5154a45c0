/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * AddBias: the inference side of torch op shape_ops::add_bias (executeOp).
 * x plus a bias that broadcasts like torch, e.g. a per-channel (1, C, 1, 1) bias.
 * Built into the DSP library, the island library and the host library alike.
 * expr: x + bias
 */
#include "lpai_sdk.h"
#include "lpai_drivers.h"
#include "lpai_expr_math.h" /* the functions the expression calls */
#include "lpai_package.h"

#define OP_TYPE "AddBias"
#define N_INPUTS 2u
#define N_OUTPUTS 1u
#define N_PARAMS 0u

#define PARAM_KINDS NULL

/* The math, generated from the spec's expression. Inputs arrive dequantized, the
 * result is requantized by the caller: the function sees real values only. Every
 * path of the kernel calls it, inlined.
 * Not formatted: its lines are as long as the spec's expression and argument lists
 * make them, one line each. */
/* clang-format off */
static LPAI_ALWAYS_INLINE float AddBias_math(float in_x, float in_bias)
{
    return (in_x + in_bias);
}

/* The same math behind one signature, for the reference path. */
static inline float AddBias_math_v(const float *in, const float *params)
{
    (void)params;
    return AddBias_math(in[0], in[1]);
}

/* The math for the blocked loop; the caller broadcasts the inputs. */
/* clang-format off */
static LPAI_ALWAYS_INLINE float AddBias_math2(float a, float b, const float *params)
{
    (void)params;
    return AddBias_math(a, b);
}
/* clang-format on */

static char k_op_type[] = OP_TYPE;

static int32_t AddBias_executeOp(QnnLpai_CustomOpNode_t node)
{
    /* Constants at the call site: the inlined driver inlines the math too. */
    const lpai_reference_fn math_v = AddBias_math_v;
    const lpai_binary_fn math2 = AddBias_math2;
    return lpai_execute_binary_u8(node, OP_TYPE, PARAM_KINDS, N_PARAMS, math_v, math2);
}

static QnnLpaiOpPackage_OperationInfo_t g_info;

QnnOpPackage_OperationInfo_t get_AddBias_opInfo_Inference(void)
{
    int32_t (*const execute)(QnnLpai_CustomOpNode_t) = AddBias_executeOp;
    return lpai_op_info_init(&g_info, k_op_type, execute, N_INPUTS, N_OUTPUTS, N_PARAMS);
}
