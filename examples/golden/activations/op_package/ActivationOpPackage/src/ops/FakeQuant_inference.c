/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * FakeQuant: the inference side of torch op act_ops::fake_quant (executeOp).
 * x on a grid of 1 / steps (round half to even, as torch.round), clamped to [-limit, limit].
 * Built into the DSP library, the island library and the host library alike.
 * expr: clamp(round(x * steps) / steps, -limit, limit)
 */
#include "lpai_sdk.h"
#include "lpai_drivers.h"
#include "lpai_expr_math.h" /* the functions the expression calls */
#include "lpai_package.h"

#define OP_TYPE "FakeQuant"
#define N_INPUTS 1u
#define N_OUTPUTS 1u
#define N_PARAMS 2u

/* In OpDef order; the kernel asks for each by its name: getParamTensor(node, name). */
static const lpai_param_spec k_param_kinds[N_PARAMS] = {
    {"steps", LPAI_PARAM_U32}, /* int, sent as QNN_DATATYPE_UINT_32 */
    {"limit", LPAI_PARAM_F32}, /* float, sent as QNN_DATATYPE_FLOAT_32 */
};
#define PARAM_KINDS k_param_kinds

/* The math, generated from the spec's expression. Inputs arrive dequantized, the
 * result is requantized by the caller: the function sees real values only. Every
 * path of the kernel calls it, inlined.
 * Not formatted: its lines are as long as the spec's expression and argument lists
 * make them, one line each. */
/* clang-format off */
static LPAI_ALWAYS_INLINE float FakeQuant_math(float in_x, float p_steps, float p_limit)
{
    return lpai_minf(lpai_maxf((lpai_roundf((in_x * p_steps)) / p_steps), (-p_limit)), p_limit);
}

/* The same math behind one signature, for the reference path. */
static inline float FakeQuant_math_v(const float *in, const float *params)
{
    (void)params;
    return FakeQuant_math(in[0], params[0], params[1]);
}

static LPAI_ALWAYS_INLINE float FakeQuant_math1(float a, const float *params)
{
    (void)params;
    return FakeQuant_math(a, params[0], params[1]);
}
/* clang-format on */

/* Estimated by the template from the expression (qnn-op-template/hooks/expr.py cost): instructions
 * per evaluation, and whether the math vectorises (no libm call). lpai_drivers.h
 * chooses between the direct loop and the 256-entry table with them. */
#define MATH_COST 20u
#define MATH_VECTORISES 1
/* clang-format on */

#if LPAI_X86_DISPATCH
/* The same math with SSE4.1's roundps, for the SSE4.1 copy of the kernel below (x86 CPUs
 * that have it, chosen at run time: include/lpai_expr_math.h), bit for bit the above. */
/* clang-format off */
static LPAI_ALWAYS_INLINE LPAI_TARGET_SSE41 float FakeQuant_math_sse41(float in_x, float p_steps, float p_limit)
{
    return lpai_minf(lpai_maxf((lpai_roundf_sse41((in_x * p_steps)) / p_steps), (-p_limit)), p_limit);
}

static LPAI_ALWAYS_INLINE LPAI_TARGET_SSE41 float FakeQuant_math1_sse41(float a, const float *params)
{
    (void)params;
    return FakeQuant_math_sse41(a, params[0], params[1]);
}
/* clang-format on */
#endif

static char k_op_type[] = OP_TYPE;

#if LPAI_X86_DISPATCH
/* The kernel compiled for SSE4.1, its math the _sse41 one: the driver and its loops are
 * inlined here, so the whole blocked loop uses roundps (the reference path keeps the
 * plain math: the tests' oracle is the same in both copies). */
static LPAI_TARGET_SSE41 int32_t FakeQuant_executeOp_sse41(QnnLpai_CustomOpNode_t node)
{
    /* Constants at the call site: the inlined driver inlines the math too. */
    const lpai_reference_fn math_v = FakeQuant_math_v;
    const lpai_unary_fn math1 = FakeQuant_math1_sse41;
    return lpai_execute_unary_u8(node, OP_TYPE, PARAM_KINDS, N_PARAMS, math_v, math1, MATH_COST, MATH_VECTORISES);
}
#endif

static int32_t FakeQuant_executeOp(QnnLpai_CustomOpNode_t node)
{
#if LPAI_X86_DISPATCH
    if (lpai_x86_sse41_chosen()) {
        return FakeQuant_executeOp_sse41(node);
    }
#endif
    /* Constants at the call site: the inlined driver inlines the math too. */
    const lpai_reference_fn math_v = FakeQuant_math_v;
    const lpai_unary_fn math1 = FakeQuant_math1;
    return lpai_execute_unary_u8(node, OP_TYPE, PARAM_KINDS, N_PARAMS, math_v, math1, MATH_COST, MATH_VECTORISES);
}

static QnnLpaiOpPackage_OperationInfo_t g_info;

QnnOpPackage_OperationInfo_t get_FakeQuant_opInfo_Inference(void)
{
    int32_t (*const execute)(QnnLpai_CustomOpNode_t) = FakeQuant_executeOp;
    return lpai_op_info_init(&g_info, k_op_type, execute, N_INPUTS, N_OUTPUTS, N_PARAMS);
}
