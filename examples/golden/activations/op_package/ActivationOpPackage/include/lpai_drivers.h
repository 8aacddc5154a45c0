/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * The executeOp drivers of the generated ops: one per op form (8-bit elementwise of one
 * to four inputs, custom ops on whole tensors or row by row). Each reads and checks the node through lpai_glue.h, chooses
 * the loop (lpai_elementwise.h) by its cost, and runs it; the per-op files only pass
 * their math. Functions are static, like the glue: each op package keeps its own copy.
 */
#ifndef LPAI_DRIVERS_H
#define LPAI_DRIVERS_H

#include "lpai_sdk.h"
#include "lpai_conventions.h"
#include "lpai_elementwise.h"
#include "lpai_glue.h"
#include "lpai_shapes.h"

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

#if LPAI_X86_DISPATCH
#if defined(LPAI_HOST_EMULATOR)
/* Set by the emulator: 1 runs every op's SSE2 form on x86 (the tests compare the two);
 * lpai_host_last_sse41 says whether the last call ran an op's SSE4.1 copy. */
extern int lpai_host_force_sse2;
extern int lpai_host_last_sse41;
#endif
/* 1 when an op with an SSE4.1 copy (an expression with round, floor, ceil or trunc) runs
 * it: the CPU has SSE4.1 (include/lpai_expr_math.h) and, on the host emulator, the tests
 * do not ask for the SSE2 form. */
static inline int lpai_x86_sse41_chosen(void)
{
#if defined(LPAI_HOST_EMULATOR)
    lpai_host_last_sse41 = !lpai_host_force_sse2 && lpai_x86_has_sse41();
    return lpai_host_last_sse41;
#else
    return lpai_x86_has_sse41();
#endif
}
#endif

/* ---- executeOp drivers ----------------------------------------------------------
 * One body per kind of op; the per-op files (src/ops/<Op>_inference.c) pass their math
 * as a function pointer. The drivers are always inlined so that the pointer is a
 * constant at the call site and the compiler inlines the math into the table build
 * and the binary loop, as it did when each op had its own copy of this code, instead
 * of an indirect call per element (qnn-op-template/docs/benchmark.md holds the figures). */

typedef struct {
    lpai_io in[LPAI_MAX_INPUTS];
    lpai_io out[LPAI_MAX_OUTPUTS];
    lpai_requant rq[LPAI_MAX_OUTPUTS];
    /* The first nparams are read from the node (lpai_glue_param) before anything reads
     * them, and nothing reads past them: they are not zeroed first (zeroing all 8 of each
     * cost every call 5 to 8 DSP packets: mul3 at one element 456 -> 451, fma3 728 -> 720). */
    float params[LPAI_MAX_PARAMS];
    uint32_t params_u32[LPAI_MAX_PARAMS]; /* int and bool params as sent (lpai_glue_param) */
    uint64_t count[LPAI_MAX_OUTPUTS]; /* elements of each output */
} lpai_exec;

/* The rule of an elementwise op's one output. */
static const lpai_shape_rule lpai_rule_broadcast = {LPAI_SHAPE_BROADCAST, 0u, 0u, 0u, {0, 0, 0, 0, 0}};

/* Returns 1 when there are elements to compute; otherwise 0 with *result set to what
 * executeOp returns (the rejection, or success when every output is empty). */
static LPAI_ALWAYS_INLINE int lpai_exec_prepare(lpai_exec *x, QnnLpai_CustomOpNode_t node, const char *op_type,
                                                uint32_t nin, uint32_t nout, const lpai_shape_rule *rules,
                                                const lpai_param_spec *kinds, uint32_t nparams, int32_t *result)
{
    /* Constant once inlined; keeps the arrays above safe if the spec's limits grow
     * without this header. */
    if (nin == 0u || nin > LPAI_MAX_INPUTS || nout == 0u || nout > LPAI_MAX_OUTPUTS || nparams > LPAI_MAX_PARAMS) {
        *result = lpai_reject(op_type, LPAI_E_TENSOR, "more inputs, outputs or parameters than the spec allows");
        return 0;
    }
    const lpai_status st =
        lpai_glue_prepare(node, x->in, nin, x->out, nout, rules, kinds, x->params, x->params_u32, nparams, x->rq);
    if (st != LPAI_OK) {
        *result = lpai_reject(op_type, st, NULL);
        return 0;
    }
    /* C10: every tensor's byte extent fits the arithmetic of the loops (checked as it
     * was read, lpai_glue_io); an output whose elements share bytes is refused before
     * anything is written. */
    int empty = 1;
    for (uint32_t j = 0; j < nout; ++j) {
#if !defined(LPAI_MEASURE_UNCHECKED) /* lpai_glue.h */
        if (lpai_view_overlaps(&x->out[j].view)) {
            /* A count that does not fit 64 bits (which the plain product below would
             * wrap) comes only with shared bytes: said as what it is. */
            const int counted = lpai_count_elements_checked(x->out[j].view.dims, x->out[j].view.rank, &x->count[j]);
            *result = lpai_reject(op_type, counted ? LPAI_E_OVERLAP : LPAI_E_BOUNDS, NULL);
            return 0;
        }
#endif
        /* The plain product cannot wrap here: the dimensions of an output whose elements
         * do not share bytes each step past everything the faster ones reach, so its
         * count is at most its extent + 1, below 2^63; with a dimension of 0 the product
         * is 0 even where it wrapped before. */
        x->count[j] = lpai_count_elements(x->out[j].view.dims, x->out[j].view.rank);
        empty = empty && x->count[j] == 0u;
    }
    if (empty) {
        *result = (int32_t)LPAI_CUSTOM_OP_SUCCESS;
        return 0;
    }
    return 1;
}

#if defined(LPAI_HOST_EMULATOR)
/* The tests' oracle, run instead of the fast path when the emulator asks for it. It
 * gets the inputs' own views and broadcasts by itself (lpai_reference_map). */
static inline int32_t lpai_exec_reference(const lpai_exec *x, uint32_t nin, lpai_reference_fn math_v)
{
    const lpai_view *views[LPAI_MAX_INPUTS];
    const lpai_quant *quants[LPAI_MAX_INPUTS];
    for (uint32_t k = 0; k < nin; ++k) {
        views[k] = &x->in[k].view;
        quants[k] = &x->in[k].quant;
    }
    lpai_reference_map(views, quants, nin, &x->out[0].view, &x->out[0].quant, &x->rq[0], math_v, x->params);
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
#if defined(__hexagon__)
/* Hexagon (DSP packets, tenths, qnn-op-template/bench/run.py under qemu-hexagon): the
 * blocked loop's float math stays scalar (no HVX float here), 14 packets per element
 * of mul3 in the scalar build and 17 in the HVX one, while a lookup costs 2.3 dense
 * and 2.5 to 3.3 on a walk, or 0.3 with vlut32 (lpai_hvx.h) on unit-step runs: the
 * table pays for every op from about 300 elements (mul3 (1,32,28,28) HVX: 16.9 -> 0.3
 * packets per element). */
#define LPAI_COST_LOOP 140u
#define LPAI_COST_COPY 20u
#define LPAI_COST_ROW 1200u
#if LPAI_HVX
#define LPAI_COST_LOOKUP 3u
#else
#define LPAI_COST_LOOKUP 23u
#endif
#define LPAI_COST_LOOKUP_WALK 33u
#define LPAI_COST_LANES 1u
#else
#define LPAI_COST_LOOP 45u
#define LPAI_COST_COPY 35u
#define LPAI_COST_ROW 1200u
#define LPAI_COST_LOOKUP 60u
#define LPAI_COST_LOOKUP_WALK 75u
#define LPAI_COST_LANES 2u
#endif

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
 * reads or writes in place only unit steps in rows of a full block or more). An input
 * read by tiles (lpai_gather_tile) counts as one copy too, though it costs about 1.7
 * instructions per element against the byte gather's 2.5: the choice leans a little
 * more towards the table there (both paths write the same bytes; not re-measured). */
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
                                                        const lpai_param_spec *kinds, uint32_t nparams,
                                                        lpai_reference_fn math_v, lpai_unary_fn math1,
                                                        uint32_t math_cost, int vectorises)
{
    lpai_exec x;
    int32_t result;
    if (!lpai_exec_prepare(&x, node, op_type, 1u, 1u, &lpai_rule_broadcast, kinds, nparams, &result)) {
        return result;
    }
    const lpai_view *views[2] = {&x.in[0].view, &x.out[0].view};
#if defined(LPAI_HOST_EMULATOR)
    if (lpai_host_use_reference == LPAI_HOST_REFERENCE) {
        return lpai_exec_reference(&x, 1u, math_v);
    }
    const int forced =
        lpai_host_use_reference == LPAI_HOST_FORCE_DIRECT || lpai_host_use_reference == LPAI_HOST_FORCE_TABLE;
#else
    const int forced = 0;
#endif
    const lpai_dequant_u8 dq = lpai_dequant_u8_from(&x.in[0].quant);
    if (x.count[0] <= LPAI_SMALL && !forced) {
        lpai_map_small_u8(views, 1u, views[1], (uint32_t)x.count[0], &dq, math1, NULL, NULL, NULL, x.params, &x.rq[0]);
        LPAI_HOST_PATH("small");
        return (int32_t)LPAI_CUSTOM_OP_SUCCESS;
    }
    lpai_walk walk;
    lpai_walk_plan(&walk, views, 2u);
    int table = lpai_unary_table_pays(x.count[0], math_cost, vectorises, lpai_walk_copies(&walk),
                                      walk.n[walk.ndim - 1u], lpai_walk_is_dense(&walk));
#if defined(LPAI_HOST_EMULATOR)
    if (forced) {
        table = lpai_host_use_reference == LPAI_HOST_FORCE_TABLE;
    }
#else
    (void)math_v;
#endif
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
        lpai_map_blocked_u8(&all, 1u, &dq, math1, NULL, NULL, NULL, x.params, &x.rq[0], ends);
        lpai_map_table_u8(&walk, x.in[0].view.data, x.out[0].view.data, tab);
        LPAI_HOST_PATH(lpai_walk_is_dense(&walk) ? "table-dense" : "table-walk");
    } else {
        uint8_t *ends[2] = {x.in[0].view.data, x.out[0].view.data};
        lpai_map_blocked_u8(&walk, 1u, &dq, math1, NULL, NULL, NULL, x.params, &x.rq[0], ends);
        LPAI_HOST_PATH(lpai_walk_is_dense(&walk) ? "direct-dense" : "direct-walk");
    }
    return (int32_t)LPAI_CUSTOM_OP_SUCCESS;
}

/* executeOp of an 8-bit elementwise op of 2 to 4 inputs that broadcast like torch:
 * its math for the blocked loop is f2, f3 or f4 (by nin; the others NULL), math_v(in, params)
 * the same math for the reference path. One fast path: a two-input table (64 Ki
 * entries) would not fit the DSP island's memory, and the blocked loop dequantizes by
 * arithmetic, with no per-call table to amortise. A broadcast input is a view whose
 * stretched dimensions step 0 bytes (lpai_view_broadcast): the walk merges and orders
 * it like any other operand, and the loop reads it in place or repeats its byte. */
static LPAI_ALWAYS_INLINE int32_t lpai_execute_nary_u8(QnnLpai_CustomOpNode_t node, const char *op_type, uint32_t nin,
                                                       const lpai_param_spec *kinds, uint32_t nparams,
                                                       lpai_reference_fn math_v, lpai_binary_fn f2, lpai_ternary_fn f3,
                                                       lpai_quaternary_fn f4)
{
    lpai_exec x;
    int32_t result;
    if (!lpai_exec_prepare(&x, node, op_type, nin, 1u, &lpai_rule_broadcast, kinds, nparams, &result)) {
        return result;
    }
#if defined(LPAI_HOST_EMULATOR)
    if (lpai_host_use_reference == LPAI_HOST_REFERENCE) {
        return lpai_exec_reference(&x, nin, math_v);
    }
    const int forced = lpai_host_use_reference == LPAI_HOST_FORCE_DIRECT;
#else
    (void)math_v;
    const int forced = 0;
#endif
    if (x.count[0] <= LPAI_SMALL && !forced) {
        const lpai_view *in[LPAI_MAX_INPUTS];
        lpai_dequant_u8 dq[LPAI_MAX_INPUTS];
        for (uint32_t k = 0; k < nin; ++k) {
            in[k] = &x.in[k].view;
            dq[k] = lpai_dequant_u8_from(&x.in[k].quant);
        }
        lpai_map_small_u8(in, nin, &x.out[0].view, (uint32_t)x.count[0], dq, NULL, f2, f3, f4, x.params, &x.rq[0]);
        LPAI_HOST_PATH("small");
        return (int32_t)LPAI_CUSTOM_OP_SUCCESS;
    }
    lpai_view bviews[LPAI_MAX_INPUTS];
    const lpai_view *views[LPAI_MAX_OPERANDS];
    lpai_dequant_u8 dq[LPAI_MAX_INPUTS];
    uint8_t *ends[LPAI_MAX_OPERANDS];
    for (uint32_t k = 0; k < nin; ++k) {
        if (!x.in[k].stretched) { /* set by lpai_glue_shapes */
            views[k] = &x.in[k].view;
        } else {
            lpai_view_broadcast(&x.in[k].view, &x.out[0].view, &bviews[k]);
            views[k] = &bviews[k];
        }
        dq[k] = lpai_dequant_u8_from(&x.in[k].quant);
        ends[k] = x.in[k].view.data;
    }
    views[nin] = &x.out[0].view;
    ends[nin] = x.out[0].view.data;
    lpai_walk walk;
    lpai_walk_plan(&walk, views, nin + 1u);
#if LPAI_HVX
    /* HVX builds: per-row tables when all inputs but one are constant along long rows. */
    const uint32_t var = lpai_row_table_input(&walk, nin);
#if defined(LPAI_HOST_EMULATOR)
    if (var < nin && lpai_host_use_reference != LPAI_HOST_FORCE_DIRECT) {
#else
    if (var < nin) {
#endif
        lpai_map_row_tables_u8(&walk, nin, var, dq, f2, f3, f4, x.params, &x.rq[0], ends);
        LPAI_HOST_PATH("rowtable-walk");
        return (int32_t)LPAI_CUSTOM_OP_SUCCESS;
    }
#endif
    lpai_map_blocked_u8(&walk, nin, dq, NULL, f2, f3, f4, x.params, &x.rq[0], ends);
    LPAI_HOST_PATH(lpai_walk_is_dense(&walk) ? "direct-dense" : "direct-walk");
    return (int32_t)LPAI_CUSTOM_OP_SUCCESS;
}

/* executeOp of an 8-bit binary elementwise op: math2(a, b, params). */
static LPAI_ALWAYS_INLINE int32_t lpai_execute_binary_u8(QnnLpai_CustomOpNode_t node, const char *op_type,
                                                         const lpai_param_spec *kinds, uint32_t nparams,
                                                         lpai_reference_fn math_v, lpai_binary_fn math2)
{
    return lpai_execute_nary_u8(node, op_type, 2u, kinds, nparams, math_v, math2, NULL, NULL);
}

/* ---- Custom ops (kind: custom) -----------------------------------------------------
 * The math the user writes receives every tensor as dense float values in logical
 * row-major order, whatever its layout, each with its own shape (lpai_shape,
 * lpai_shapes.h). Two ways to get there:
 *   whole tensor  every input and output dequantized at once into the scratch the
 *                 runtime hands out (getTempBuffer, which reports its size: checked);
 *                 sum of all element counts x 4 bytes, sized by getTempBufferSize
 *                 with the same sum (lpai_temp_bytes_custom, lpai_validate.h);
 *   rowwise       one row (the last dimension) at a time from a buffer on the
 *                 kernel's own stack: no getTempBuffer at all, at most
 *                 (inputs + outputs) x LPAI_ROW_MAX floats. */
/* lpai_custom_call and lpai_custom_fn: lpai_shapes.h (the HTP package hands its calls
 * over in the same form). */

static inline void lpai_shape_of(const lpai_view *v, uint64_t count, lpai_shape *s)
{
    memset(s, 0, sizeof *s);
    s->rank = v->rank;
    for (uint32_t d = 0; d < v->rank; ++d) {
        s->dims[d] = v->dims[d];
    }
    s->count = count;
}

#if defined(LPAI_HOST_DIAGNOSTICS)
/* Bytes of scratch the last custom op used (whole tensor: of the temp buffer; rowwise:
 * of its stack buffer), for the tests and the runbook's figures. */
extern uint64_t lpai_host_last_scratch;
#define LPAI_HOST_SCRATCH(bytes) (lpai_host_last_scratch = (bytes))
#else
#define LPAI_HOST_SCRATCH(bytes) ((void)0)
#endif

/* The user's return code as executeOp's result; `missing` names the file to edit. */
static inline int32_t lpai_custom_result(const char *op_type, int rc, const char *missing)
{
    if (rc == LPAI_USER_MATH_MISSING) {
        return lpai_reject(op_type, LPAI_E_USER, missing);
    }
    if (rc != 0) {
        return lpai_reject(op_type, LPAI_E_USER, NULL);
    }
    return (int32_t)LPAI_CUSTOM_OP_SUCCESS;
}

/* executeOp of a custom op on whole tensors: dequantizes the inputs to float, runs the
 * user's math through `compute` and requantizes every output. */
static inline int32_t lpai_execute_custom(QnnLpai_CustomOpNode_t node, const char *op_type, uint32_t nin, uint32_t nout,
                                          const lpai_shape_rule *rules, const lpai_param_spec *kinds, uint32_t nparams,
                                          lpai_custom_fn compute, const char *missing)
{
    lpai_exec x;
    int32_t result;
    if (!lpai_exec_prepare(&x, node, op_type, nin, nout, rules, kinds, nparams, &result)) {
        return result;
    }
    lpai_custom_call call;
    memset(&call, 0, sizeof call);
    /* Every input and output as float: the sum of their element counts, which must
     * fit the address space (each count is below 2^64 / 32, so the sum cannot wrap). */
    uint64_t floats = 0u;
    for (uint32_t k = 0; k < nin; ++k) {
        uint64_t n = 0u;
        if (!lpai_count_elements_checked(x.in[k].view.dims, x.in[k].view.rank, &n) || n > UINT64_MAX / 32u) {
            return lpai_reject(op_type, LPAI_E_BOUNDS, NULL);
        }
        lpai_shape_of(&x.in[k].view, n, &call.in_shape[k]);
        floats += n;
    }
    for (uint32_t j = 0; j < nout; ++j) {
        if (x.count[j] > UINT64_MAX / 32u) {
            return lpai_reject(op_type, LPAI_E_BOUNDS, NULL);
        }
        lpai_shape_of(&x.out[j].view, x.count[j], &call.out_shape[j]);
        floats += x.count[j];
    }
    if (floats > (uint64_t)SIZE_MAX / sizeof(float)) {
        return lpai_reject(op_type, LPAI_E_BOUNDS, "the tensors as float do not fit the address space");
    }
    /* Sized by getTempBufferSize in <Op>_compiler.cpp with the same sum
     * (lpai_temp_bytes_custom). getTempBuffer reports a status and the buffer with its
     * size (QnnLpaiCustomOp_BufferInfo_t): a failure, a missing buffer or fewer bytes
     * than the tensors need is refused here, before anything is written.
     * `rowwise: true` needs none. */
    QnnLpaiCustomOp_BufferInfo_t scratch;
    memset(&scratch, 0, sizeof scratch);
    if (!lpai_pkg_infra.getTempBuffer || lpai_pkg_infra.getTempBuffer(node, &scratch) != LPAI_CUSTOM_OP_SUCCESS ||
        !scratch.buffer || (uint64_t)scratch.bufferSize < floats * sizeof(float)) {
        return lpai_reject(op_type, LPAI_E_SCRATCH, NULL);
    }
    float *temp = (float *)scratch.buffer;
    LPAI_HOST_SCRATCH(floats * sizeof(float));
    float *at = temp;
    for (uint32_t k = 0; k < nin; ++k) {
        lpai_gather_f32(&x.in[k].view, &x.in[k].quant, at);
        call.in[k] = at;
        at += call.in_shape[k].count;
    }
    for (uint32_t j = 0; j < nout; ++j) {
        call.out[j] = at;
        at += x.count[j];
    }
    call.params = x.params;
    call.params_u32 = x.params_u32;
    result = lpai_custom_result(op_type, compute(&call), missing);
    if (result != (int32_t)LPAI_CUSTOM_OP_SUCCESS) {
        return result;
    }
    /* Written only now: a refusal above leaves every output untouched. */
    for (uint32_t j = 0; j < nout; ++j) {
        LPAI_HOST_VALUES(call.out[j], x.count[j]);
        lpai_scatter_u8(&x.out[j].view, &x.rq[j], call.out[j]);
    }
    LPAI_HOST_PATH("custom");
    return (int32_t)LPAI_CUSTOM_OP_SUCCESS;
}

/* executeOp of a `rowwise: true` custom op: the user's math runs once per row of the
 * last dimension of the first input, on float copies in `buf` (the per-op file's stack
 * array of (nin + nout) x LPAI_ROW_MAX floats). Every later input broadcasts to the
 * first (lpai_glue_shapes checked it); every output is `like` an input or a reduction
 * of one over the last dimension (the spec checks the rules, lpai_glue_shapes the
 * shapes). The user sees each tensor's own row as a tensor of rank 1: for the first
 * input and a later input of its last dimension, dims[0] = the row length; for a later
 * input whose last dimension is 1 (a per-row value: a state, a per-channel parameter),
 * dims[0] = 1, its one value at the row's coordinates (a dimension of 1 or a missing
 * leading one holds still); an output's row is its source input's row (1 for a
 * reduction). Each row's results are written before the next row runs, so a refusal
 * after the first row leaves the earlier rows written (a refusal on the first row, an
 * unwritten stub included, leaves every output untouched). */
static inline int32_t lpai_execute_custom_rowwise(QnnLpai_CustomOpNode_t node, const char *op_type, uint32_t nin,
                                                  uint32_t nout, const lpai_shape_rule *rules,
                                                  const lpai_param_spec *kinds, uint32_t nparams,
                                                  lpai_custom_fn compute, const char *missing, float *buf)
{
    lpai_exec x;
    int32_t result;
    if (!lpai_exec_prepare(&x, node, op_type, nin, nout, rules, kinds, nparams, &result)) {
        return result;
    }
    const lpai_view *first = &x.in[0].view;
    const uint32_t outer = first->rank ? first->rank - 1u : 0u;
    const uint32_t len = first->rank ? first->dims[outer] : 1u;
    /* Each tensor's dimension aligned with dimension d of the first input moves with
     * the rows: ostride[t][d] bytes, 0 where it holds still (a broadcast dimension of a
     * later input, a missing leading one). An input's row is its own last dimension
     * (len or 1, as lpai_glue_shapes checked); `whole` marks the inputs whose outer
     * dimensions are the first input's (an output's source must be one: an output row
     * written once per row of the first input). */
    const lpai_view *tv[LPAI_MAX_INPUTS + LPAI_MAX_OUTPUTS];
    uint64_t ostride[LPAI_MAX_INPUTS + LPAI_MAX_OUTPUTS][LPAI_MAX_RANK];
    uint32_t in_len[LPAI_MAX_INPUTS];
    uint32_t whole[LPAI_MAX_INPUTS];
    memset(ostride, 0, sizeof ostride);
    for (uint32_t k = 0; k < nin; ++k) {
        const lpai_view *v = &x.in[k].view;
        const uint32_t lead = first->rank - v->rank; /* v->rank <= first->rank: checked */
        tv[k] = v;
        in_len[k] = v->rank ? v->dims[v->rank - 1u] : 1u; /* aligned with the first's last: len or 1 */
        whole[k] = lead == 0u;
        for (uint32_t d = lead; d < outer; ++d) {
            ostride[k][d] = v->dims[d - lead] != 1u ? v->stride[d - lead] : 0u;
            whole[k] &= (uint32_t)(v->dims[d - lead] == first->dims[d]);
        }
    }
    for (uint32_t j = 0; j < nout; ++j) {
        /* The spec allows nothing else for a rowwise op; checked again because the
         * loop below addresses rows by these rules alone. */
        const uint32_t src_rank = rules[j].source < nin ? x.in[rules[j].source].view.rank : 0u;
        const int last = rules[j].kind == LPAI_SHAPE_REDUCE && rules[j].ndims == 1u &&
                         (rules[j].dims[0] == -1 || (src_rank && rules[j].dims[0] == (int8_t)(src_rank - 1u)));
        if ((rules[j].kind != LPAI_SHAPE_LIKE && !last) || rules[j].source >= nin) {
            return lpai_reject(op_type, LPAI_E_SHAPE, "a rowwise op's outputs are like an input or reduce dims [-1]");
        }
        if (!whole[rules[j].source]) {
            return lpai_reject(op_type, LPAI_E_SHAPE,
                               "a rowwise op's output must follow an input of the first input's rows (outer dims)");
        }
        tv[nin + j] = &x.out[j].view;
        for (uint32_t d = 0; d < outer && d < x.out[j].view.rank; ++d) {
            ostride[nin + j][d] = x.out[j].view.stride[d];
        }
    }
    if (len > LPAI_ROW_MAX) {
        return lpai_reject(op_type, LPAI_E_ROW, NULL);
    }
    uint64_t rows = lpai_count_elements(first->dims, outer);
    lpai_custom_call call;
    memset(&call, 0, sizeof call);
    ptrdiff_t step[LPAI_MAX_INPUTS + LPAI_MAX_OUTPUTS];
    uint32_t out_len[LPAI_MAX_OUTPUTS];
    /* The 8-bit (C8) arithmetic of the blocked loop, bit-identical to the general one,
     * in row loops the compiler vectorises (lpai_elementwise.h): rms_norm (1,32,28,28)
     * went from 43.1 to 20.6 instructions per element of framework (25.9 when the rows
     * step by the channels), the row pointers below included. */
    lpai_dequant_u8 dq[LPAI_MAX_INPUTS];
    lpai_requant_u8 rq[LPAI_MAX_OUTPUTS];
    for (uint32_t k = 0; k < nin; ++k) {
        const lpai_view *v = &x.in[k].view;
        call.in[k] = buf + (size_t)k * LPAI_ROW_MAX;
        call.in_shape[k].rank = 1u;
        call.in_shape[k].dims[0] = in_len[k];
        call.in_shape[k].count = in_len[k];
        step[k] = v->rank ? (ptrdiff_t)v->stride[v->rank - 1u] : 0;
        dq[k] = lpai_dequant_u8_from(&x.in[k].quant);
    }
    for (uint32_t j = 0; j < nout; ++j) {
        const lpai_view *v = &x.out[j].view;
        const int like = rules[j].kind == LPAI_SHAPE_LIKE;
        out_len[j] = like ? in_len[rules[j].source] : 1u;
        call.out[j] = buf + (size_t)(nin + j) * LPAI_ROW_MAX;
        call.out_shape[j].rank = 1u;
        call.out_shape[j].dims[0] = out_len[j];
        call.out_shape[j].count = out_len[j];
        step[nin + j] = (like && v->rank) ? (ptrdiff_t)v->stride[v->rank - 1u] : 0;
        rq[j] = lpai_requant_u8_from(&x.rq[j]);
    }
    call.params = x.params;
    call.params_u32 = x.params_u32;
    LPAI_HOST_SCRATCH((uint64_t)(nin + nout) * LPAI_ROW_MAX * sizeof(float));
    /* Each tensor's row pointer moves with the odometer over the first input's outer
     * dimensions: by its stride of the dimension that advanced (ostride, 0 where it
     * holds still), less the rows that wrapped (a loop over the rank per row and tensor
     * cost 2.5 instructions per element of rms_norm, rows of 28). An output has its
     * source's outer dimensions, the first input's: a reduction over the last dimension
     * keeps the others (rank r - 1, or r with a last dimension of 1). */
    uint8_t *row[LPAI_MAX_INPUTS + LPAI_MAX_OUTPUTS];
    for (uint32_t t = 0; t < nin + nout; ++t) {
        row[t] = tv[t]->data;
    }
    uint32_t coord[LPAI_MAX_RANK] = {0u};
    for (uint64_t r = 0; r < rows; ++r) {
        for (uint32_t k = 0; k < nin; ++k) {
            lpai_dequant_row(row[k], step[k], in_len[k], &dq[k], buf + (size_t)k * LPAI_ROW_MAX);
        }
        result = lpai_custom_result(op_type, compute(&call), missing);
        if (result != (int32_t)LPAI_CUSTOM_OP_SUCCESS) {
            return result;
        }
        for (uint32_t j = 0; j < nout; ++j) {
            LPAI_HOST_VALUES(call.out[j], out_len[j]);
            lpai_requant_row(row[nin + j], step[nin + j], out_len[j], &rq[j], call.out[j]);
        }
        for (uint32_t d = outer; d-- > 0;) { /* next row */
            const int wrap = ++coord[d] == first->dims[d];
            for (uint32_t t = 0; t < nin + nout; ++t) {
                const uint64_t s = ostride[t][d];
                row[t] += wrap ? -(ptrdiff_t)((uint64_t)(first->dims[d] - 1u) * s) : (ptrdiff_t)s;
            }
            if (!wrap) {
                break;
            }
            coord[d] = 0u;
        }
    }
    LPAI_HOST_PATH("custom-rowwise");
    return (int32_t)LPAI_CUSTOM_OP_SUCCESS;
}

#endif /* LPAI_DRIVERS_H */
