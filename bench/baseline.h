/*
 * The per-element baseline of the benchmark: the approach of the public example
 * kernel, written again here so that the speed ratio is measured against it in the
 * same run, on the same tensors. It lives in bench/ only and never ships.
 *
 * Per element it does what that kernel does: a loop over the rank for the byte
 * offset of every operand, a float dequantization of every input, the math, a float
 * requantization, and an odometer step over the logical coordinates. It follows the
 * measured conventions (wrapped biased storage, round half to even, saturation of
 * the code in float before conversion) so that its output is byte-identical to the
 * generated kernel's: the benchmark then compares equal work, and tests/test_bench.py
 * proves it. It shares no code with the template's kernels on purpose; only the
 * helper functions of the expression grammar (lpai_sigmoidf, ...) come from the
 * rendered lpai_expr_math.h, because they are part of the op's definition.
 */
#ifndef BENCH_BASELINE_H
#define BENCH_BASELINE_H

#include <stdint.h>

#define BL_MAX_RANK 8u
#define BL_MAX_INPUTS 4u

typedef struct {
    uint8_t *data;
    uint32_t rank;
    uint32_t dims[BL_MAX_RANK];     /* logical sizes */
    uint64_t stride[BL_MAX_RANK];   /* byte stride of each logical dimension */
    float scale;
    int32_t offset;                 /* stored = code + offset (LPAI biased storage) */
} bl_tensor;

typedef float (*bl_math_fn)(const float *in, const float *params);

/* always_inline with a constant `math` at each instantiation, so the op's math is
 * inlined into the loop as it would be in a hand-written kernel: the baseline pays
 * for its approach, not for an indirect call. */
static inline __attribute__((always_inline)) void bl_run(const bl_tensor *in, uint32_t nin, const bl_tensor *out,
                                                         const float *params, bl_math_fn math)
{
    uint64_t count = 1u;
    for (uint32_t d = 0; d < out->rank; ++d) {
        count *= out->dims[d];
    }
    /* Per-call constants of the requantization; the public kernel also reads the
     * quantization once per call. The reciprocal (not a division per element) keeps
     * the rounding identical to the generated kernel. */
    const float inv = 1.0f / out->scale;
    const int32_t out_lo = -128 - out->offset;       /* code window [lo, lo + 255] */
    const float lo = (float)out_lo;
    const float hi = (float)(out_lo + 255);
    uint32_t coord[BL_MAX_RANK] = {0};
    for (uint64_t e = 0; e < count; ++e) {
        float v[BL_MAX_INPUTS];
        for (uint32_t k = 0; k < nin; ++k) {
            uint64_t off = 0;
            for (uint32_t d = 0; d < in[k].rank; ++d) {
                off += (uint64_t)coord[d] * in[k].stride[d];
            }
            const int32_t in_lo = -128 - in[k].offset;
            const uint32_t stored = in[k].data[off];
            /* The stored byte minus the offset, wrapped into the code window. */
            const int32_t code = (int32_t)((stored - (uint32_t)in[k].offset - (uint32_t)in_lo) & 0xFFu) + in_lo;
            v[k] = in[k].scale * (float)code;
        }
        float c = math(v, params) * inv;
        /* Saturate in float first: NaN and out-of-range conversions are undefined. */
        if (!(c > lo)) {
            c = lo;
        }
        if (!(c < hi)) {
            c = hi;
        }
        /* Round half to even in the default rounding mode, exact for |c| < 2^22. */
        const int32_t q = (int32_t)((c + 12582912.0f) - 12582912.0f);
        uint64_t off = 0;
        for (uint32_t d = 0; d < out->rank; ++d) {
            off += (uint64_t)coord[d] * out->stride[d];
        }
        out->data[off] = (uint8_t)(((uint32_t)q + (uint32_t)out->offset) & 0xFFu);
        for (uint32_t d = out->rank; d-- > 0;) {
            if (++coord[d] < out->dims[d]) {
                break;
            }
            coord[d] = 0;
        }
    }
}

#endif /* BENCH_BASELINE_H */
