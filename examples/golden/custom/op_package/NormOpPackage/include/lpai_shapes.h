/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * The shape rule of every output, SDK-free and shared by both sides of the package:
 * the compiler side (lpai_validate.h, validateOp on Qnn_Tensor_t) and the kernel
 * (lpai_glue.h, executeOp on the LPAI tensors) compute an output's expected shape
 * from its inputs with the same function, so the two can never disagree on what a
 * node may look like. The rules are the spec's (qnn-op-template/docs/spec.md "outputs"):
 *   broadcast  the inputs broadcast like torch (numpy rules, aligned on the last
 *              dimension; a dimension of 1 stretches): elementwise ops
 *   like       the shape of one input
 *   reduce     one input's shape with some dimensions removed, or set to 1 (keepdim);
 *              a negative dimension counts from the end, as in torch
 * A custom op's (like, reduce) later inputs broadcast to its first input: numpy's rules
 * with the first input's shape as the result (lpai_broadcasts_to_first).
 * Each op's table of rules is generated from the validated spec (qnn-op-template/hooks/spec.py,
 * op.c_output_rules) into src/ops/<Op>_inference.c and <Op>_compiler.cpp.
 */
#ifndef LPAI_SHAPES_H
#define LPAI_SHAPES_H

#include <stdint.h>

#include "lpai_conventions.h"

/* The shape of one tensor as a custom op's math sees it (include/ops/<Op>_user.h:
 * args-><name>_shape for every input and output). */
typedef struct {
    uint32_t rank;
    uint32_t dims[LPAI_MAX_RANK]; /* logical sizes, dims[rank - 1] moves fastest; 0 past rank */
    uint64_t count;               /* elements: the product of dims (1 for rank 0) */
} lpai_shape;

enum { LPAI_SHAPE_BROADCAST = 0, LPAI_SHAPE_LIKE = 1, LPAI_SHAPE_REDUCE = 2 };

typedef struct {
    uint8_t kind;                /* LPAI_SHAPE_* */
    uint8_t source;              /* the input of a like or reduce rule */
    uint8_t keepdim;             /* reduce: 1 keeps a reduced dimension as 1 */
    uint8_t ndims;               /* reduce: entries of dims */
    int8_t dims[LPAI_MAX_RANK];  /* reduce: dimensions as the spec wrote them */
} lpai_shape_rule;

/* 1 when every input after the first broadcasts to the first (numpy's rules with the
 * first input's shape as the result: at most its rank, each dimension aligned on the
 * last equal to the first input's or 1): what a custom op's inputs must be. */
static inline int lpai_broadcasts_to_first(uint32_t nin, const uint32_t *ranks, const uint32_t (*dims)[LPAI_MAX_RANK])
{
    for (uint32_t k = 1u; k < nin; ++k) {
        if (ranks[k] > ranks[0]) {
            return 0;
        }
        const uint32_t lead = ranks[0] - ranks[k];
        for (uint32_t d = 0; d < ranks[k]; ++d) {
            if (dims[k][d] != 1u && dims[k][d] != dims[0][lead + d]) {
                return 0;
            }
        }
    }
    return 1;
}

/* The shape `rule` gives to an output of inputs with ranks[k] and dims[k]. Returns 0
 * when the inputs admit no output (shapes that do not broadcast, for a custom op later
 * inputs that do not broadcast to the first, a reduced dimension
 * outside the source's rank, a source past the inputs), 1 with *rank and out[]. */
static inline int lpai_rule_dims(const lpai_shape_rule *rule, uint32_t nin, const uint32_t *ranks,
                                 const uint32_t (*dims)[LPAI_MAX_RANK], uint32_t *rank, uint32_t *out)
{
    if (nin == 0u || nin > LPAI_MAX_INPUTS) {
        return 0;
    }
    for (uint32_t k = 0; k < nin; ++k) {
        if (ranks[k] > LPAI_MAX_RANK) {
            return 0;
        }
    }
    if (rule->kind == LPAI_SHAPE_BROADCAST) {
        /* numpy: right-aligned; equal dimensions, or 1 against anything (0 included). */
        uint32_t r = 0u;
        for (uint32_t k = 0; k < nin; ++k) {
            r = ranks[k] > r ? ranks[k] : r;
        }
        for (uint32_t d = 0; d < r; ++d) {
            uint32_t size = 1u;
            for (uint32_t k = 0; k < nin; ++k) {
                if (d + ranks[k] < r) {
                    continue; /* a missing leading dimension counts as 1 */
                }
                const uint32_t n = dims[k][d + ranks[k] - r];
                if (n == 1u) {
                    continue;
                }
                if (size != 1u && size != n) {
                    return 0;
                }
                size = n;
            }
            out[d] = size;
        }
        *rank = r;
        return 1;
    }
    if (rule->source >= nin || !lpai_broadcasts_to_first(nin, ranks, dims)) {
        return 0;
    }
    const uint32_t sr = ranks[rule->source];
    const uint32_t *sd = dims[rule->source];
    if (rule->kind == LPAI_SHAPE_LIKE) {
        for (uint32_t d = 0; d < sr; ++d) {
            out[d] = sd[d];
        }
        *rank = sr;
        return 1;
    }
    if (rule->kind != LPAI_SHAPE_REDUCE || rule->ndims > LPAI_MAX_RANK) {
        return 0;
    }
    uint32_t reduced = 0u; /* bit d: dimension d of the source is reduced */
    for (uint32_t i = 0; i < rule->ndims; ++i) {
        const int32_t d = rule->dims[i] < 0 ? rule->dims[i] + (int32_t)sr : rule->dims[i];
        if (d < 0 || d >= (int32_t)sr || (reduced & (1u << d)) != 0u) {
            return 0; /* as torch: out of range, or the same dimension twice */
        }
        reduced |= 1u << d;
    }
    uint32_t r = 0u;
    for (uint32_t d = 0; d < sr; ++d) {
        if ((reduced & (1u << d)) == 0u) {
            out[r++] = sd[d];
        } else if (rule->keepdim) {
            out[r++] = 1u;
        }
    }
    *rank = r;
    return 1;
}

/* 1 when the tensor of rank `rank` and dims `dims` is exactly what `rule` gives. */
static inline int lpai_rule_matches(const lpai_shape_rule *rule, uint32_t nin, const uint32_t *ranks,
                                    const uint32_t (*dims)[LPAI_MAX_RANK], uint32_t rank, const uint32_t *got)
{
    uint32_t want_rank = 0u;
    uint32_t want[LPAI_MAX_RANK] = {0u};
    if (!lpai_rule_dims(rule, nin, ranks, dims, &want_rank, want) || want_rank != rank) {
        return 0;
    }
    for (uint32_t d = 0; d < rank; ++d) {
        if (want[d] != got[d]) {
            return 0;
        }
    }
    return 1;
}

/* A custom op's call of the user's math: every input and output as dense float in
 * logical row-major order, each with its shape, and the params. Filled by the LPAI
 * kernels (lpai_drivers.h) and the HTP ones (op_package/htp/include/htp_kernels.h)
 * alike, and handed to the same generated <Op>_call. */
typedef struct {
    const float *in[LPAI_MAX_INPUTS];
    lpai_shape in_shape[LPAI_MAX_INPUTS];
    float *out[LPAI_MAX_OUTPUTS];
    lpai_shape out_shape[LPAI_MAX_OUTPUTS];
    const float *params;
    const uint32_t *params_u32; /* int and bool params exactly (0 or 1 for a bool) */
} lpai_custom_call;

/* The per-op adapter: hands the call to the user's <Op>_compute under the spec's names. */
typedef int (*lpai_custom_fn)(const lpai_custom_call *call);

#endif /* LPAI_SHAPES_H */
