/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * The executeOp drivers of the generated ops: one per op form (8-bit unary and binary
 * elementwise, custom). Each reads and checks the node through lpai_glue.h, chooses
 * the loop (lpai_elementwise.h) by its cost, and runs it; the per-op files only pass
 * their math. Functions are static, like the glue: each op package keeps its own copy.
 */
#ifndef LPAI_DRIVERS_H
#define LPAI_DRIVERS_H

#include "lpai_sdk.h"
#include "lpai_conventions.h"
#include "lpai_elementwise.h"
#include "lpai_glue.h"

#if defined(LPAI_HOST_EMULATOR)
/* Set by the emulator: 0 the kernel chooses its path, LPAI_HOST_REFERENCE runs the
 * reference path, LPAI_HOST_FORCE_DIRECT / _TABLE force one of the fast paths. */
extern int lpai_host_use_reference;
#define LPAI_HOST_REFERENCE 1
#define LPAI_HOST_FORCE_DIRECT 2
#define LPAI_HOST_FORCE_TABLE 3
extern const char *lpai_host_last_path; /* which loop ran, for the tests */
#define LPAI_HOST_PATH(name) (lpai_host_last_path = (name))
#else
#define LPAI_HOST_PATH(name) ((void)0)
#endif

/* ---- executeOp drivers ----------------------------------------------------------
 * One body per kind of op; the per-op files (src/ops/<Op>_inference.c) pass their math
 * as a function pointer. The drivers are always inlined so that the pointer is a
 * constant at the call site and the compiler inlines the math into the table build
 * and the binary loop, as it did when each op had its own copy of this code, instead
 * of an indirect call per element (qnn-op-template/docs/benchmark.md holds the figures). */

typedef struct {
    lpai_io in[LPAI_MAX_INPUTS];
    lpai_io out;
    lpai_requant rq;
    float params[LPAI_MAX_PARAMS];
    uint64_t count; /* elements of the output */
} lpai_exec;

/* Returns 1 when there are elements to compute; otherwise 0 with *result set to what
 * executeOp returns (the rejection, or success on an empty tensor). */
static LPAI_ALWAYS_INLINE int lpai_exec_prepare(lpai_exec *x, QnnLpai_CustomOpNode_t node, const char *op_type,
                                                uint32_t nin, const lpai_param_kind *kinds, uint32_t nparams,
                                                int32_t *result)
{
    memset(x->params, 0, sizeof x->params);
    /* Constant once inlined; keeps the arrays above safe if the spec's limits grow
     * without this header. */
    if (nin > LPAI_MAX_INPUTS || nparams > LPAI_MAX_PARAMS) {
        *result = lpai_reject(op_type, LPAI_E_TENSOR, "more inputs or parameters than the spec allows");
        return 0;
    }
    const lpai_status st = lpai_glue_prepare(node, x->in, nin, &x->out, kinds, x->params, nparams, &x->rq);
    if (st != LPAI_OK) {
        *result = lpai_reject(op_type, st, NULL);
        return 0;
    }
    /* C10: sizes that do not fit the arithmetic of the loops, and an output whose
     * elements share bytes, are refused before anything is written. */
    if (!lpai_count_elements_checked(x->out.view.dims, x->out.view.rank, &x->count)) {
        *result = lpai_reject(op_type, LPAI_E_BOUNDS, NULL);
        return 0;
    }
    uint64_t extent = 0u;
    for (uint32_t k = 0; k <= nin; ++k) {
        if (!lpai_view_extent(k < nin ? &x->in[k].view : &x->out.view, &extent)) {
            *result = lpai_reject(op_type, LPAI_E_BOUNDS, NULL);
            return 0;
        }
    }
    if (lpai_view_overlaps(&x->out.view)) {
        *result = lpai_reject(op_type, LPAI_E_OVERLAP, NULL);
        return 0;
    }
    if (x->count == 0u) {
        *result = (int32_t)LPAI_CUSTOM_OP_SUCCESS;
        return 0;
    }
    return 1;
}

#if defined(LPAI_HOST_EMULATOR)
/* The tests' oracle, run instead of the fast path when the emulator asks for it. */
static inline int32_t lpai_exec_reference(const lpai_exec *x, uint32_t nin, lpai_reference_fn math_v)
{
    const lpai_view *views[LPAI_MAX_INPUTS];
    const lpai_quant *quants[LPAI_MAX_INPUTS];
    for (uint32_t k = 0; k < nin; ++k) {
        views[k] = &x->in[k].view;
        quants[k] = &x->in[k].quant;
    }
    lpai_reference_map(views, quants, nin, &x->out.view, &x->out.quant, &x->rq, math_v, x->params);
    LPAI_HOST_PATH("reference");
    return (int32_t)LPAI_CUSTOM_OP_SUCCESS;
}
#endif

/* ---- Choice of path, by cost per call ---------------------------------------------
 * An 8-bit unary op has two fast paths:
 *   direct: the blocked loop over the tensor, cost count * C per call;
 *   table:  the blocked loop over the 256 possible bytes (a table of the whole
 *           transfer function), then one lookup per element: 256 * C + count * L.
 * The table pays when count * (C - L) > 256 * C. C is the blocked loop's own cost,
 * the copies it makes of operands that are not read or written in place (a strided
 * step, or rows shorter than a block), and the op's math, which the template
 * estimates from the expression (qnn-op-template/hooks/expr.py COSTS, instructions per evaluation;
 * divided by LPAI_COST_LANES when the math vectorises); L is a lookup. Costs in tenths
 * of an instruction, measured with qnn-op-template/bench/run.py --path direct|table
 * (qnn-op-template/docs/benchmark.md), gcc -O2 on x86_64:
 *   LPAI_COST_LOOP         the blocked loop per element and input without math (mul3,
 *                          whose math is one multiplication, runs at 4.7 in all)
 *   LPAI_COST_COPY         gathering or scattering one operand, per element
 *   LPAI_COST_ROW          each row of the walk (its copies' set-up, the segment of
 *                          the shared block, the odometer), spread over its elements:
 *                          rows of 8 cost the direct loop about 20 per element
 *   LPAI_COST_LOOKUP       one table lookup over a dense tensor
 *   LPAI_COST_LOOKUP_WALK  the same with a strided or permuted walk
 *   LPAI_COST_LANES        the speed-up of vectorised math over the scalar estimate:
 *                          2 with SSE2's 4 lanes once gcc's register moves are paid
 *                          (HVX has 32 float lanes: the crossover moves towards 256)
 * With these, mul3 never takes the table on a dense tensor (a lookup alone costs more
 * than its whole direct loop) and takes it from 477 elements on padded rows of 28,
 * from 355 on rows of 8; hard_swish_ish takes it from 536 elements, scaled_tanh from
 * 335 (dense). */
#define LPAI_COST_LOOP 45u
#define LPAI_COST_COPY 35u
#define LPAI_COST_ROW 1200u
#define LPAI_COST_LOOKUP 60u
#define LPAI_COST_LOOKUP_WALK 75u
#define LPAI_COST_LANES 2u

/* 1 when the table is cheaper for `count` elements; `copies` operands (0 to 2) are
 * gathered or scattered by the direct loop, `row` is the walk's row length (the
 * whole tensor when dense), `dense` is lpai_walk_is_dense. */
static LPAI_ALWAYS_INLINE int lpai_unary_table_pays(uint64_t count, uint32_t math_cost, int vectorises, uint32_t copies,
                                                    uint64_t row, int dense)
{
    const uint64_t c = (uint64_t)LPAI_COST_LOOP + (uint64_t)LPAI_COST_COPY * copies +
                       (dense ? 0u : LPAI_COST_ROW / (row ? row : 1u)) +
                       (uint64_t)math_cost * 10u / (vectorises ? LPAI_COST_LANES : 1u);
    const uint64_t l = dense ? LPAI_COST_LOOKUP : LPAI_COST_LOOKUP_WALK;
    if (c <= l) {
        return 0; /* the direct loop is cheaper than the lookup alone: never */
    }
    /* count * (c - l) > 256 * c, divided by (c - l): nothing can overflow. */
    return count > (256u * c) / (c - l);
}

/* Operands of a one-input walk that the blocked loop copies (lpai_map_blocked_u8
 * reads or writes in place only unit steps in rows of a full block or more). */
static LPAI_ALWAYS_INLINE uint32_t lpai_walk_copies(const lpai_walk *w)
{
    const uint32_t last = w->ndim - 1u;
    uint32_t copies = 0u;
    for (uint32_t k = 0; k < w->nops; ++k) {
        copies += (w->s[k][last] != 1 || w->n[last] < LPAI_BLOCK) ? 1u : 0u;
    }
    return copies;
}

/* executeOp of an 8-bit unary elementwise op. math1(a, params) is its math on real
 * values, math_v(in, params) the same for the reference path (in[0] is the input);
 * math_cost and vectorises come from the template's estimate of the expression. */
static LPAI_ALWAYS_INLINE int32_t lpai_execute_unary_u8(QnnLpai_CustomOpNode_t node, const char *op_type,
                                                        const lpai_param_kind *kinds, uint32_t nparams,
                                                        lpai_reference_fn math_v, lpai_unary_fn math1,
                                                        uint32_t math_cost, int vectorises)
{
    lpai_exec x;
    int32_t result;
    if (!lpai_exec_prepare(&x, node, op_type, 1u, kinds, nparams, &result)) {
        return result;
    }
    lpai_walk walk;
    const lpai_view *views[2] = {&x.in[0].view, &x.out.view};
    lpai_walk_plan(&walk, views, 2u);
    int table = lpai_unary_table_pays(x.count, math_cost, vectorises, lpai_walk_copies(&walk), walk.n[walk.ndim - 1u],
                                      lpai_walk_is_dense(&walk));
#if defined(LPAI_HOST_EMULATOR)
    if (lpai_host_use_reference == LPAI_HOST_REFERENCE) {
        return lpai_exec_reference(&x, 1u, math_v);
    }
    if (lpai_host_use_reference == LPAI_HOST_FORCE_DIRECT || lpai_host_use_reference == LPAI_HOST_FORCE_TABLE) {
        table = lpai_host_use_reference == LPAI_HOST_FORCE_TABLE;
    }
#else
    (void)math_v;
#endif
    const lpai_dequant_u8 dq = lpai_dequant_u8_from(&x.in[0].quant);
    if (table) {
        /* The whole transfer function has 256 entries: the blocked loop computes each
         * once, with the chain of the direct path. */
        uint8_t tab[256];
        lpai_walk all;
        all.nops = 2u;
        all.ndim = 1u;
        all.n[0] = 256u;
        all.s[0][0] = 1;
        all.s[1][0] = 1;
        uint8_t *ends[2] = {(uint8_t *)lpai_all_bytes, tab};
        lpai_map_blocked_u8(&all, 1u, &dq, math1, NULL, x.params, &x.rq, ends);
        lpai_map_table_u8(&walk, x.in[0].view.data, x.out.view.data, tab);
        LPAI_HOST_PATH(lpai_walk_is_dense(&walk) ? "table-dense" : "table-walk");
    } else {
        uint8_t *ends[2] = {x.in[0].view.data, x.out.view.data};
        lpai_map_blocked_u8(&walk, 1u, &dq, math1, NULL, x.params, &x.rq, ends);
        LPAI_HOST_PATH(lpai_walk_is_dense(&walk) ? "direct-dense" : "direct-walk");
    }
    return (int32_t)LPAI_CUSTOM_OP_SUCCESS;
}

/* executeOp of an 8-bit binary elementwise op: math2(a, b, params) for the blocked
 * loop, math_v(in, params) with the same math for the reference path. One fast path:
 * a two-input table (64 Ki entries) would not fit the DSP island's memory, and the
 * blocked loop dequantizes by arithmetic, with no per-call table to amortise. */
static LPAI_ALWAYS_INLINE int32_t lpai_execute_binary_u8(QnnLpai_CustomOpNode_t node, const char *op_type,
                                                         const lpai_param_kind *kinds, uint32_t nparams,
                                                         lpai_reference_fn math_v, lpai_binary_fn math2)
{
    lpai_exec x;
    int32_t result;
    if (!lpai_exec_prepare(&x, node, op_type, 2u, kinds, nparams, &result)) {
        return result;
    }
#if defined(LPAI_HOST_EMULATOR)
    if (lpai_host_use_reference == LPAI_HOST_REFERENCE) {
        return lpai_exec_reference(&x, 2u, math_v);
    }
#else
    (void)math_v;
#endif
    lpai_walk walk;
    const lpai_view *views[3] = {&x.in[0].view, &x.in[1].view, &x.out.view};
    lpai_walk_plan(&walk, views, 3u);
    const lpai_dequant_u8 dq[2] = {lpai_dequant_u8_from(&x.in[0].quant), lpai_dequant_u8_from(&x.in[1].quant)};
    uint8_t *ends[3] = {x.in[0].view.data, x.in[1].view.data, x.out.view.data};
    lpai_map_blocked_u8(&walk, 2u, dq, NULL, math2, x.params, &x.rq, ends);
    LPAI_HOST_PATH(lpai_walk_is_dense(&walk) ? "direct-dense" : "direct-walk");
    return (int32_t)LPAI_CUSTOM_OP_SUCCESS;
}

/* What the math of a custom op (kind: custom) receives: every tensor as dense float
 * values in logical row-major order, whatever its layout. */
typedef struct {
    const float *in[LPAI_MAX_INPUTS];
    float *out;                   /* `count` real values to write */
    uint32_t rank;
    uint32_t dims[LPAI_MAX_RANK]; /* logical shape, zero past rank */
    uint64_t count;               /* elements per tensor */
    const float *params;
} lpai_custom_call;

/* The per-op adapter: hands the call to the user's <Op>_compute under the spec's names. */
typedef int (*lpai_custom_fn)(const lpai_custom_call *call);

/* executeOp of a custom op: dequantizes the inputs to float, runs the user's math
 * through `compute` and requantizes its result. `missing` names the file to edit. */
static inline int32_t lpai_execute_custom(QnnLpai_CustomOpNode_t node, const char *op_type, uint32_t nin,
                                          const lpai_param_kind *kinds, uint32_t nparams, lpai_custom_fn compute,
                                          const char *missing)
{
    lpai_exec x;
    int32_t result;
    if (!lpai_exec_prepare(&x, node, op_type, nin, kinds, nparams, &result)) {
        return result;
    }
    /* Room for every input and the output as float, sized by getTempBufferSize in
     * <Op>_compiler.cpp with the same formula (lpai_temp_bytes_custom).
     * RELIES ON getTempBuffer(node) returning that buffer: how the device behaves is
     * not public. */
    float *temp = lpai_pkg_infra.getTempBuffer ? (float *)lpai_pkg_infra.getTempBuffer(node) : NULL;
    if (!temp) {
        return lpai_reject(op_type, LPAI_E_TENSOR, "no temp buffer (getTempBuffer returned NULL)");
    }
    lpai_custom_call call;
    memset(&call, 0, sizeof call);
    for (uint32_t k = 0; k < nin; ++k) {
        call.in[k] = temp + k * x.count;
        lpai_gather_f32(&x.in[k].view, &x.in[k].quant, temp + k * x.count);
    }
    call.out = temp + nin * x.count;
    call.rank = x.out.view.rank;
    for (uint32_t d = 0; d < x.out.view.rank; ++d) {
        call.dims[d] = x.out.view.dims[d];
    }
    call.count = x.count;
    call.params = x.params;
    const int rc = compute(&call);
    if (rc == LPAI_USER_MATH_MISSING) {
        return lpai_reject(op_type, LPAI_E_USER, missing);
    }
    if (rc != 0) {
        return lpai_reject(op_type, LPAI_E_USER, NULL);
    }
    /* Written only now: a refusal above leaves the output untouched. */
    lpai_scatter_u8(&x.out.view, &x.rq, call.out);
    LPAI_HOST_PATH("custom");
    return (int32_t)LPAI_CUSTOM_OP_SUCCESS;
}

#endif /* LPAI_DRIVERS_H */
