/*
 * The benchmark's recomputation of a custom op (kind: custom), the oracle of its check.
 *
 * A custom op has one path only (lpai_execute_custom / _rowwise in the rendered
 * include/lpai_drivers.h: no reference switch), so its output is checked against this
 * recomputation instead: every input dequantized from its logical coordinates (the
 * baseline's own walk, bl_tensor of baseline.h, read through the node's
 * infrastructure), the op's own user function called on those dense floats (one call
 * on whole tensors, or once per row of the last dimension for `rowwise: true`, as the
 * framework calls it), and every output requantized as bl_run does and written at its
 * logical coordinates. The floats the user function sees are then those of the
 * framework's gather, and its outputs are requantized bit-identically, so any
 * difference is the framework's gather, scatter or requantization. It shares no code
 * with the template's framework (only the shape type the user function takes). It
 * lives in bench/ only and never ships.
 */
#ifndef BENCH_CUSTOM_REF_H
#define BENCH_CUSTOM_REF_H

#include <stdint.h>
#include <stdlib.h>

#include "baseline.h"
#include "lpai_shapes.h" /* lpai_shape: what the user function takes */

#define CR_MAX_IO 4u

/* What the op's adapter reads: the member names of the framework's lpai_custom_call,
 * so that the adapter run.py generates fills the user's <Op>_args with the spec's own
 * statements (op.c_args_fill). */
typedef struct {
    const float *in[CR_MAX_IO];
    lpai_shape in_shape[CR_MAX_IO];
    float *out[CR_MAX_IO];
    lpai_shape out_shape[CR_MAX_IO];
    const float *params;
    const uint32_t *params_u32; /* an int or bool param as the uint32 sent (op.c.args_fill) */
} bench_call;

typedef int (*bench_user_fn)(const bench_call *c);

static uint64_t cr_count(const bl_tensor *t)
{
    uint64_t n = 1u;
    for (uint32_t d = 0; d < t->rank; ++d) {
        n *= t->dims[d];
    }
    return n;
}

/* Byte offset of element `e` (logical row-major index) of `t`. */
static uint64_t cr_offset(const bl_tensor *t, uint64_t e)
{
    uint64_t off = 0u;
    for (uint32_t d = t->rank; d-- > 0;) {
        off += (e % t->dims[d]) * t->stride[d];
        e /= t->dims[d];
    }
    return off;
}

static void cr_gather(const bl_tensor *t, float *dst)
{
    const int32_t lo = -128 - t->offset; /* code window [lo, lo + 255], as bl_run */
    const uint64_t n = cr_count(t);
    for (uint64_t e = 0; e < n; ++e) {
        const uint32_t stored = t->data[cr_offset(t, e)];
        const int32_t code = (int32_t)((stored - (uint32_t)t->offset - (uint32_t)lo) & 0xFFu) + lo;
        dst[e] = t->scale * (float)code;
    }
}

/* The requantization of bl_run (baseline.h), the same operations in the same order. */
static void cr_scatter(const bl_tensor *t, const float *src)
{
    const float inv = 1.0f / t->scale;
    const int32_t out_lo = -128 - t->offset;
    const float lo = (float)out_lo;
    const float hi = (float)(out_lo + 255);
    const uint64_t n = cr_count(t);
    for (uint64_t e = 0; e < n; ++e) {
        float c = src[e] * inv;
        if (!(c > lo)) {
            c = lo;
        }
        if (!(c < hi)) {
            c = hi;
        }
        const int32_t q = (int32_t)((c + 12582912.0f) - 12582912.0f);
        t->data[cr_offset(t, e)] = (uint8_t)(((uint32_t)q + (uint32_t)t->offset) & 0xFFu);
    }
}

static void cr_shape(const bl_tensor *t, uint32_t rank, uint32_t len, lpai_shape *s)
{
    memset(s, 0, sizeof *s);
    if (rank) { /* a row of the rowwise call: rank 1, `len` elements */
        s->rank = 1u;
        s->dims[0] = len;
        s->count = len;
        return;
    }
    s->rank = t->rank;
    for (uint32_t d = 0; d < t->rank; ++d) {
        s->dims[d] = t->dims[d];
    }
    s->count = cr_count(t);
}

/* Recomputes every output of the op into the tensors `out` (their data: the driver's
 * own buffers). Returns the user function's first non-zero code, or -1 when out of
 * memory. `rowwise`: every input has the first input's shape and every output is like
 * it or reduced over the last dimension (the spec's rule for rowwise ops), so row r of
 * every tensor is its dense elements [r * len, (r + 1) * len), or element r. */
static int cr_run(const bl_tensor *in, uint32_t nin, const bl_tensor *out, uint32_t nout, const float *params,
                  const uint32_t *params_u32, int rowwise, bench_user_fn user)
{
    float *dense[2u * CR_MAX_IO] = {NULL};
    int rc = 0;
    for (uint32_t k = 0; k < nin + nout; ++k) {
        const uint64_t n = cr_count(k < nin ? &in[k] : &out[k - nin]);
        dense[k] = (float *)malloc((size_t)(n ? n : 1u) * sizeof(float));
        rc = dense[k] ? rc : -1;
    }
    for (uint32_t k = 0; k < nin && rc == 0; ++k) {
        cr_gather(&in[k], dense[k]);
    }
    const uint32_t len = (rowwise && in[0].rank) ? in[0].dims[in[0].rank - 1u] : 1u;
    const uint64_t rows = rowwise ? cr_count(&in[0]) / len : 1u;
    bench_call call;
    memset(&call, 0, sizeof call);
    call.params = params;
    call.params_u32 = params_u32;
    for (uint64_t r = 0; r < rows && rc == 0; ++r) {
        for (uint32_t k = 0; k < nin; ++k) {
            call.in[k] = dense[k] + (rowwise ? r * len : 0u);
            cr_shape(&in[k], (uint32_t)rowwise, len, &call.in_shape[k]);
        }
        for (uint32_t j = 0; j < nout; ++j) {
            /* Rowwise: an output of the input's element count is `like`, any other a
             * reduction over the last dimension (one value per row). */
            const uint32_t olen = cr_count(&out[j]) == cr_count(&in[0]) ? len : 1u;
            call.out[j] = dense[nin + j] + (rowwise ? r * olen : 0u);
            cr_shape(&out[j], (uint32_t)rowwise, olen, &call.out_shape[j]);
        }
        rc = user(&call);
    }
    for (uint32_t j = 0; j < nout && rc == 0; ++j) {
        cr_scatter(&out[j], dense[nin + j]);
    }
    for (uint32_t k = 0; k < nin + nout; ++k) {
        free(dense[k]);
    }
    return rc;
}

#endif /* BENCH_CUSTOM_REF_H */
