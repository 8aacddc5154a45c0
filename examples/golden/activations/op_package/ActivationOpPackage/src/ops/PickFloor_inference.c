/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * PickFloor: the inference side of torch op act_ops::pick_floor (executeOp).
 * floor(a) where a >= b, else ceil(b); plus the sign of a - b.
 * Built into the DSP library, the island library and the host library alike.
 * expr: where(a >= b, floor(a), ceil(b)) + sign(a - b)
 */
#include "lpai_sdk.h"
#include "lpai_drivers.h"
#include "lpai_expr_math.h" /* the functions the expression calls */
#include "lpai_package.h"

#define OP_TYPE "PickFloor"
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
static LPAI_ALWAYS_INLINE float PickFloor_math(float in_a, float in_b)
{
    return (lpai_wheref((in_a >= in_b), lpai_floorf(in_a), lpai_ceilf(in_b)) + lpai_signf((in_a - in_b)));
}

/* The same math behind one signature, for the reference path. */
static inline float PickFloor_math_v(const float *in, const float *params)
{
    (void)params;
    return PickFloor_math(in[0], in[1]);
}

/* The math for the blocked loop; the caller broadcasts the inputs. */
/* clang-format off */
static LPAI_ALWAYS_INLINE float PickFloor_math2(float a, float b, const float *params)
{
    (void)params;
    return PickFloor_math(a, b);
}
/* clang-format on */

#if LPAI_X86_DISPATCH
/* The same math with SSE4.1's roundps, for the SSE4.1 copy of the kernel below (x86 CPUs
 * that have it, chosen at run time: include/lpai_expr_math.h), bit for bit the above. */
/* clang-format off */
static LPAI_ALWAYS_INLINE LPAI_TARGET_SSE41 float PickFloor_math_sse41(float in_a, float in_b)
{
    return (lpai_wheref((in_a >= in_b), lpai_floorf_sse41(in_a), lpai_ceilf_sse41(in_b)) + lpai_signf((in_a - in_b)));
}

static LPAI_ALWAYS_INLINE LPAI_TARGET_SSE41 float PickFloor_math2_sse41(float a, float b, const float *params)
{
    (void)params;
    return PickFloor_math_sse41(a, b);
}
/* clang-format on */
#endif

static char k_op_type[] = OP_TYPE;

#if LPAI_X86_DISPATCH
/* The kernel compiled for SSE4.1, its math the _sse41 one: the driver and its loops are
 * inlined here, so the whole blocked loop uses roundps (the reference path keeps the
 * plain math: the tests' oracle is the same in both copies). */
static LPAI_TARGET_SSE41 int32_t PickFloor_executeOp_sse41(QnnLpai_CustomOpNode_t node)
{
    /* Constants at the call site: the inlined driver inlines the math too. */
    const lpai_reference_fn math_v = PickFloor_math_v;
    const lpai_binary_fn math2 = PickFloor_math2_sse41;
    return lpai_execute_binary_u8(node, OP_TYPE, PARAM_KINDS, N_PARAMS, math_v, math2);
}
#endif

static int32_t PickFloor_executeOp(QnnLpai_CustomOpNode_t node)
{
#if LPAI_X86_DISPATCH
    if (lpai_x86_sse41_chosen()) {
        return PickFloor_executeOp_sse41(node);
    }
#endif
    /* Constants at the call site: the inlined driver inlines the math too. */
    const lpai_reference_fn math_v = PickFloor_math_v;
    const lpai_binary_fn math2 = PickFloor_math2;
    return lpai_execute_binary_u8(node, OP_TYPE, PARAM_KINDS, N_PARAMS, math_v, math2);
}

static QnnLpaiOpPackage_OperationInfo_t g_info;

QnnOpPackage_OperationInfo_t get_PickFloor_opInfo_Inference(void)
{
    int32_t (*const execute)(QnnLpai_CustomOpNode_t) = PickFloor_executeOp;
    return lpai_op_info_init(&g_info, k_op_type, execute, N_INPUTS, N_OUTPUTS, N_PARAMS);
}
