/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * Memory walks and loops of the elementwise kernels, SDK-free.
 *
 * Speed (measured with callgrind on the host, gcc -O2, see qnn-op-template/docs/benchmark.md): the
 * per-element approach of the public example (a loop over the rank for every byte
 * offset, an odometer step and a float requantization per element) costs 100 to 230
 * instructions per element. Here:
 *   - every elementwise op has a direct path: the blocked loop below, which
 *     dequantizes, runs the op's math inline and requantizes 128 elements at a time
 *     in loops the compiler vectorises, with no per-call table at all;
 *   - an 8-bit unary op also has a table path: the same loop over the 256 possible
 *     bytes gives its whole transfer function, then each element is one lookup. The
 *     driver (lpai_drivers.h) takes it when it costs less, from the op's cost that the
 *     template estimates from its expression;
 *   - pointers advance incrementally, one row at a time; dimensions that are
 *     contiguous in every operand are merged first, so a dense tensor in the same
 *     layout on both sides becomes one straight loop.
 * The reference path (host builds only) computes every element from its logical
 * coordinates; the host tests hold every path against it and against torch.
 */
#ifndef LPAI_ELEMENTWISE_H
#define LPAI_ELEMENTWISE_H

#include <stddef.h>
#include <stdint.h>

#include "lpai_conventions.h"
#include "lpai_expr_math.h" /* lpai_bits_from_f32; the math the loops inline */
#include "lpai_hvx.h"       /* the HVX forms of the loops (Hexagon builds with HVX) */

/* LPAI_ALWAYS_INLINE and LPAI_NOINLINE: lpai_conventions.h. */

/* The inputs and the one output of an elementwise op. */
#define LPAI_MAX_OPERANDS (LPAI_MAX_INPUTS + 1u)

/* ---- Broadcasting (numpy rules), as a view -----------------------------------------
 * An input of an elementwise op may have fewer dimensions than the output, or a 1
 * where the output has more: torch then repeats it. Here that input gets a view of
 * the output's logical shape whose broadcast dimensions step 0 bytes; every walk and
 * loop below then reads it like any other operand, in any layout, with no copy. The
 * missing leading dimensions go first in its memory order (slowest), the others keep
 * the input's own layoutOrder. The caller has checked that the shapes broadcast. */
static inline void lpai_view_broadcast(const lpai_view *in, const lpai_view *out, lpai_view *bv)
{
    const uint32_t lead = out->rank - in->rank; /* missing leading dimensions */
    bv->rank = out->rank;
    bv->data = in->data;
    for (uint32_t d = 0; d < out->rank; ++d) {
        bv->dims[d] = out->dims[d];
        /* The missing leading dimensions step 0, and go first in the memory order. */
        bv->order[d] = (uint8_t)(d < lead ? d : lead + in->order[d - lead]);
        /* A dimension of 1 stretched to more steps 0: the same element every time. */
        bv->stride[d] = (d < lead || in->dims[d - lead] != out->dims[d]) ? 0u : in->stride[d - lead];
    }
}

typedef struct {
    uint32_t nops;                                /* operands: inputs, then the output */
    uint32_t ndim;                                /* after merging, >= 1 */
    uint64_t n[LPAI_MAX_RANK];                    /* extents, outermost first */
    ptrdiff_t s[LPAI_MAX_OPERANDS][LPAI_MAX_RANK]; /* byte steps per operand */
} lpai_walk;

/* Plans a walk over views of identical logical shape, in the memory order of
 * views[lead_k] (its layoutOrder, slowest first: C5). Dimensions of extent 1 vanish,
 * and an outer dimension folds into its inner neighbour whenever every operand steps
 * over the inner one exactly once per outer step. */
static inline void lpai_walk_plan_from(lpai_walk *w, const lpai_view *const *views, uint32_t nops, uint32_t lead_k)
{
    const lpai_view *lead = views[lead_k];
    w->nops = nops;
    w->ndim = 0;
    for (uint32_t i = 0; i < lead->rank; ++i) {
        const uint32_t d = lead->order[i];
        const uint64_t extent = lead->dims[d];
        if (extent == 1u) {
            continue;
        }
        if (w->ndim > 0) {
            const uint32_t last = w->ndim - 1u;
            int mergeable = 1;
            for (uint32_t k = 0; k < nops; ++k) {
                /* outer step == inner step * inner extent, tested on the outer one */
                if ((uint64_t)w->s[k][last] != views[k]->stride[d] * extent) {
                    mergeable = 0;
                    break;
                }
            }
            if (mergeable) {
                w->n[last] *= extent;
                for (uint32_t k = 0; k < nops; ++k) {
                    w->s[k][last] = (ptrdiff_t)views[k]->stride[d];
                }
                continue;
            }
        }
        w->n[w->ndim] = extent;
        for (uint32_t k = 0; k < nops; ++k) {
            w->s[k][w->ndim] = (ptrdiff_t)views[k]->stride[d];
        }
        w->ndim++;
    }
    if (w->ndim == 0) { /* a single element */
        w->n[0] = 1u;
        for (uint32_t k = 0; k < nops; ++k) {
            w->s[k][0] = 1;
        }
        w->ndim = 1;
    }
}

/* Plans the walk in the memory order of whichever operand gives the longest
 * innermost run. The inner loop is cheap and the row step is not: with a
 * channels-last input and channels-first output of (1,32,28,28), following the input
 * gives 784 rows of 32 elements, following the output 32 rows of 784 (qnn-op-template/bench/:
 * about one instruction per element less for a binary op). On a tie the earlier
 * operand wins, so equal layouts keep the first input's order. */
static inline int lpai_walk_is_dense(const lpai_walk *w);

static inline void lpai_walk_plan(lpai_walk *w, const lpai_view *const *views, uint32_t nops)
{
    lpai_walk_plan_from(w, views, nops, 0u);
    if (lpai_walk_is_dense(w)) {
        return; /* one run in every operand: no order is better (saves small tensors a plan each) */
    }
    for (uint32_t k = 1; k < nops; ++k) {
        /* A layout order already tried gives the same plan (a broadcast input in the
         * layout of the others, or equal layouts): skip it, small tensors pay for
         * every plan. */
        int tried = 0;
        for (uint32_t j = 0; j < k && !tried; ++j) {
            tried = 1;
            for (uint32_t i = 0; i < views[k]->rank; ++i) {
                tried &= views[j]->order[i] == views[k]->order[i];
            }
        }
        if (tried) {
            continue;
        }
        lpai_walk cand;
        lpai_walk_plan_from(&cand, views, nops, k);
        if (cand.n[cand.ndim - 1u] > w->n[w->ndim - 1u]) {
            *w = cand;
        }
    }
}

/* True when the whole tensor is one run of unit steps in every operand. */
static inline int lpai_walk_is_dense(const lpai_walk *w)
{
    if (w->ndim != 1u) {
        return 0;
    }
    for (uint32_t k = 0; k < w->nops; ++k) {
        if (w->s[k][0] != 1) {
            return 0;
        }
    }
    return 1;
}

/* Advances the outer odometer by one row. Returns 0 after the last row. Runs once
 * per row, never per element. */
static LPAI_ALWAYS_INLINE int lpai_walk_next_row_n(const lpai_walk *w, uint64_t *idx, uint8_t **ptr, uint32_t nops)
{
    for (uint32_t d = w->ndim - 1u; d-- > 0;) {
        if (++idx[d] < w->n[d]) {
            for (uint32_t k = 0; k < nops; ++k) {
                ptr[k] += w->s[k][d];
            }
            return 1;
        }
        idx[d] = 0;
        for (uint32_t k = 0; k < nops; ++k) {
            ptr[k] -= (ptrdiff_t)(w->n[d] - 1u) * w->s[k][d];
        }
    }
    return 0;
}

/* The same for the walk's own operand count; nops known at compile time (the blocked
 * loop passes nin + 1) lets the compiler unroll the pointer updates. */
static LPAI_ALWAYS_INLINE int lpai_walk_next_row(const lpai_walk *w, uint64_t *idx, uint8_t **ptr)
{
    return lpai_walk_next_row_n(w, idx, ptr, w->nops);
}

/* ---- The blocked loop: dequantize, math, requantize, a block at a time ------------
 * Direct path of every elementwise op, and the builder of the unary table. Per block
 * of LPAI_BLOCK elements:
 *   1. each input's bytes are read in place (a full unit-stride block of one row;
 *      not with HVX, LPAI_IN_PLACE) or
 *      gathered into a local block, across row ends when rows are short or padded;
 *   2. one loop of constant trip count dequantizes, runs the op's math and
 *      requantizes into a local byte block. Nothing in it is a call, a branch or a
 *      store the compiler cannot see, so gcc -O2 and clang vectorise it (SSE2 on the
 *      host, HVX on the DSP), math included when it is made of + - * / and the
 *      grammar's inline functions (lpai_expf, lpai_sigmoidf, lpai_tanhf, lpai_minf,
 *      ...); a libm call (logf, sqrtf) runs it one element at a time, still correct;
 *   3. the block is copied or scattered to the output.
 * The last, partial block runs the same loop over the next power of two lanes (8 to
 * 64). The math sees exactly what the reference path gives it (the same dequantized
 * float, the same function) and the requantization is lpai_requant_store's: all
 * paths write the same bytes. 128 elements per block: the HVX vector (128 bytes), and
 * four times fewer block set-ups than 32 (qnn-op-template/bench/: 1.5 instructions per element on a
 * binary op). */
typedef float (*lpai_unary_fn)(float a, const float *params);
typedef float (*lpai_binary_fn)(float a, float b, const float *params);
typedef float (*lpai_ternary_fn)(float a, float b, float c, const float *params);
typedef float (*lpai_quaternary_fn)(float a, float b, float c, float d, const float *params);
/* The math of an op with 1 to 4 inputs travels as four function pointers, the one of
 * its input count set and the others NULL, each a separate argument of the
 * always-inlined loops below: a constant there, so the math is inlined and the loop
 * vectorises. (In a struct, gcc -O2 kept an indirect call per element: 5 times the
 * instructions of add_scaled, qnn-op-template/bench/.) */

#define LPAI_BLOCK 128u
/* 1: full unit-step blocks of a row are read in place and written straight out (no
 * copy). 0 in HVX builds: every block goes through the shared block, copied in and
 * out by masked vectors (lpai_copy_run). clang for Hexagon ran the math of a block read
 * in place one element at a time, about 12 packets per element of add_bias
 * (1,32,28,28), but software-pipelines it over the shared block: 6.15 with the copies
 * (transposed, from the tiles: 12.85 -> 6.94; qnn-op-template/bench/). restrict on the
 * math's pointers did not change it. */
#if LPAI_HVX
#define LPAI_IN_PLACE 0
#else
#define LPAI_IN_PLACE 1
#endif
#define LPAI_LANES 8u
/* lpai_block_math_u8 has one loop per power of two from LPAI_LANES to LPAI_BLOCK. */
typedef char lpai_block_is_16_lanes_groups[(LPAI_BLOCK == 16u * LPAI_LANES) ? 1 : -1];

/* The per-element requantization of lpai_requant_store, specialised for 8-bit
 * storage (the only width the kernels accept, C8) and bit-identical to it:
 *   - adding 1.5 * 2^23 rounds the clamped code c (|c| < 2^22) to an integer, half to
 *     even, and the sum's bit pattern is then 0x4B400000 + code: its low byte plus
 *     the offset is the stored byte (no float -> int conversion, which SSE2 and HVX
 *     pay for);
 *   - the narrowing store wraps modulo 2^8, which is the mask of lpai_requant_store. */
typedef struct {
    float inv_scale, lo, hi;
    uint32_t offset_u; /* the output offset, as unsigned (|offset| <= 256, lpai_quant_init) */
} lpai_requant_u8;

static inline lpai_requant_u8 lpai_requant_u8_from(const lpai_requant *r)
{
    lpai_requant_u8 q;
    q.inv_scale = r->inv_scale;
    q.lo = r->lo;
    q.hi = r->hi;
    q.offset_u = r->offset_u;
    return q;
}

static LPAI_ALWAYS_INLINE uint8_t lpai_requant_u8_store(float value, const lpai_requant_u8 *r)
{
    float c = value * r->inv_scale;
    c = (c > r->lo) ? c : r->lo; /* NaN lands on lo, as in lpai_requant_store */
    c = (c < r->hi) ? c : r->hi;
    return (uint8_t)(lpai_bits_from_f32(c + 12582912.0f) + r->offset_u);
}

/* stored byte -> value, the arithmetic of lpai_code_from_stored for 8 bits: the
 * code is (stored + add) mod 256 + lo, then one multiplication, as in the reference. */
typedef struct {
    float scale;
    int32_t lo;
    uint32_t add; /* (0 - offset - lo) mod 256 */
} lpai_dequant_u8;

static inline lpai_dequant_u8 lpai_dequant_u8_from(const lpai_quant *q)
{
    lpai_dequant_u8 d;
    d.scale = q->scale;
    d.lo = q->lo;
    d.add = (0u - (uint32_t)q->offset - (uint32_t)q->lo) & 0xFFu;
    return d;
}

#define LPAI_DEQ(d, byte) ((d).scale * (float)((int32_t)(uint8_t)((uint32_t)(byte) + (d).add) + (d).lo))
#define LPAI_ONE(j)                                                                                                   \
    lpai_requant_u8_store(                                                                                            \
        nin == 1u   ? f1(LPAI_DEQ(d0, r0[j]), params)                                                                 \
        : nin == 2u ? f2(LPAI_DEQ(d0, r0[j]), LPAI_DEQ(d1, r1[j]), params)                                            \
        : nin == 3u ? f3(LPAI_DEQ(d0, r0[j]), LPAI_DEQ(d1, r1[j]), LPAI_DEQ(d2, r2[j]), params)                       \
                    : f4(LPAI_DEQ(d0, r0[j]), LPAI_DEQ(d1, r1[j]), LPAI_DEQ(d2, r2[j]), LPAI_DEQ(d3, r3[j]), params), \
        &r)

/* n contiguous bytes. A call to memcpy costs about 20 instructions, most of a
 * row of 28 (the padded rows of qnn-op-template/bench/): below 64 bytes the run is copied as two or
 * four fixed-size words (one load and one store each), the last ones overlapping
 * those before, so that no byte outside [src, src + n) is read nor outside
 * [dst, dst + n) written. */
static LPAI_ALWAYS_INLINE void lpai_copy_run(uint8_t *dst, const uint8_t *src, uint32_t n)
{
#if LPAI_HVX
    /* Hexagon has no unaligned scalar access: each memcpy above of unknown alignment
     * is a call, 4.7 packets per element of add_bias (1,32,28,28) in the HVX build.
     * One masked vector instead (lpai_hvx.h). */
    if (n - 1u < LPAI_HVX_BYTES) {
        lpai_hvx_store_n(dst, lpai_hvx_load_n(src, n), n);
        return;
    }
#endif
    if (n == LPAI_BLOCK) { /* a whole block: eight words inline, no call */
        for (uint32_t o = 0; o < LPAI_BLOCK; o += 32u) {
            memcpy(dst + o, src + o, 16u);
            memcpy(dst + o + 16u, src + o + 16u, 16u);
        }
    } else if (n >= 64u) {
        memcpy(dst, src, n);
    } else if (n >= 32u) {
        memcpy(dst, src, 16u);
        memcpy(dst + 16, src + 16, 16u);
        memcpy(dst + n - 32u, src + n - 32u, 16u);
        memcpy(dst + n - 16u, src + n - 16u, 16u);
    } else if (n >= 16u) {
        memcpy(dst, src, 16u);
        memcpy(dst + n - 16u, src + n - 16u, 16u);
    } else if (n >= 8u) {
        memcpy(dst, src, 8u);
        memcpy(dst + n - 8u, src + n - 8u, 8u);
    } else if (n >= 4u) {
        memcpy(dst, src, 4u);
        memcpy(dst + n - 4u, src + n - 4u, 4u);
    } else {
        for (uint32_t j = 0; j < n; ++j) {
            dst[j] = src[j];
        }
    }
}

/* Copies n bytes that lie `step` apart into a dense buffer, or back. Strided runs
 * are copied inline, sixteen bytes per iteration in, four out. */
static LPAI_ALWAYS_INLINE void lpai_copy_in(uint8_t *dst, const uint8_t *src, uint32_t n, ptrdiff_t step)
{
    if (step == 1) {
        lpai_copy_run(dst, src, n);
        return;
    }
    if (step == 0) {
        /* A broadcast input: one byte repeated. A loop, not memset: with a memset here
         * gcc -O2 stopped vectorising the block math of the in-place path (4.8 times
         * the instructions of add_scaled, qnn-op-template/bench/). */
        const uint8_t v = *src;
        for (uint32_t j = 0; j < n; ++j) {
            dst[j] = v;
        }
        return;
    }
    /* Byte stores through a volatile pointer: gcc would otherwise merge the eight
     * stores into one 64-bit word built with 7 shifts and 7 ors, 3.8 instructions
     * per element against 2.5 (qnn-op-template/bench/, a channels-last input). The loads are not
     * volatile, and what is stored is the same. */
    volatile uint8_t *vdst = dst;
    const ptrdiff_t s2 = 2 * step, s3 = 3 * step;
    uint32_t j = 0;
    for (; j + 16u <= n; j += 16u) { /* sixteen per iteration: the loop's own cost shared
                                       * (0.2 instructions per element less than eight,
                                       * qnn-op-template/bench/ transposed soft_min) */
        const uint8_t *s4 = src + 4 * step;
        const uint8_t *s8 = src + 8 * step;
        const uint8_t *s12 = s8 + 4 * step;
        vdst[0] = src[0];
        vdst[1] = src[step];
        vdst[2] = src[s2];
        vdst[3] = src[s3];
        vdst[4] = s4[0];
        vdst[5] = s4[step];
        vdst[6] = s4[s2];
        vdst[7] = s4[s3];
        vdst[8] = s8[0];
        vdst[9] = s8[step];
        vdst[10] = s8[s2];
        vdst[11] = s8[s3];
        vdst[12] = s12[0];
        vdst[13] = s12[step];
        vdst[14] = s12[s2];
        vdst[15] = s12[s3];
        vdst += 16;
        src += 16 * step;
    }
    for (; j < n; ++j) {
        dst[j] = *src;
        src += step;
    }
}

static LPAI_ALWAYS_INLINE void lpai_copy_out(uint8_t *dst, const uint8_t *src, uint32_t n, ptrdiff_t step)
{
    if (step == 1) {
        lpai_copy_run(dst, src, n);
        return;
    }
    uint32_t j = 0;
    for (; j + 4u <= n; j += 4u) {
        dst[0] = src[j];
        dst[step] = src[j + 1u];
        dst[2 * step] = src[j + 2u];
        dst[3 * step] = src[j + 3u];
        dst += 4 * step;
    }
    for (; j < n; ++j) {
        *dst = src[j];
        dst += step;
    }
}

/* ---- Tiles: an operand read across its rows -------------------------------------
 * A channels-last input walked in channels-first order (the walk follows the longest
 * run, the other operands' rows) steps C bytes per element of a row, and its rows
 * are adjacent bytes: row r + 1 of the walk is one byte after row r. The byte gather
 * of lpai_copy_in costs one load and one store per element and its loop, about 2.5
 * instructions per element (qnn-op-template/bench/, soft_min transposed
 * (1,32,28,28)). Read LPAI_TILE = 8 rows at once instead: at each position of a row
 * the 8 rows' bytes are one 8-byte word, and an in-register transpose of 8 such words
 * gives 8 words of 8 positions, one per row (Hacker's Delight 7-3, on bytes): 1.7
 * instructions per element with gcc -O2, and soft_min transposed (1,32,28,28) went
 * from 22.94 to 21.67 instructions per element (the gather, and each row's remainder
 * of 16 taken from the tile). Byte positions within a word are the little-endian
 * order: elsewhere no tiles (LPAI_TILES 0), the byte gather does it. Plain C
 * (memcpy into integers, shifts, no intrinsics); HVX would transpose whole vectors
 * with vshuff/vdeal (qnn-op-template/docs/benchmark.md). Not done for the output: a
 * channels-last output of channels-first inputs is still scattered a byte at a time. */
#define LPAI_TILE 8u
#if defined(LPAI_HOST_EMULATOR)
extern int lpai_host_last_tiled; /* set when a call read an input by tiles, for the tests */
#define LPAI_HOST_TILED() (lpai_host_last_tiled = 1)
#else
#define LPAI_HOST_TILED() ((void)0)
#endif
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LPAI_TILES 1
#else
#define LPAI_TILES 0
#endif

/* Transposes 2 x 2 blocks of sh-bit units between two words (Hacker's Delight 7-3). */
#define LPAI_TILE_SWAP(a, b, sh, mask)                      \
    do {                                                    \
        const uint64_t t_ = (((a) >> (sh)) ^ (b)) & (mask); \
        (b) ^= t_;                                          \
        (a) ^= t_ << (sh);                                  \
    } while (0)

/* aligned: p is 4-byte aligned. A constant at each call site: Hexagon has no
 * unaligned scalar loads, so there an unknown alignment costs four byte loads. */
static LPAI_ALWAYS_INLINE uint32_t lpai_tile_load32(const uint8_t *p, int aligned)
{
    uint32_t v;
    memcpy(&v, aligned ? (const uint8_t *)__builtin_assume_aligned(p, 4) : p, 4u);
    return v;
}

/* Rows h..h + 3 (h = 0 or 4) of positions j..j + 7 into tile rows h..h + 3. Word i
 * is loaded as the 4 rows' bytes at position i (low half) and at position i + 4
 * (high half): the last step of the 8 x 8 transpose done by the loads, which leaves
 * two independent 4 x 4 transposes, each within both halves of 4 words at once.
 * d is 8-byte aligned (the tiles are: one 8-byte store per word on Hexagon, not 8). */
static LPAI_ALWAYS_INLINE void lpai_tile_half(uint8_t *d, const uint8_t *p, ptrdiff_t step, int aligned)
{
    const uint64_t m8 = 0x00FF00FF00FF00FFull, m16 = 0x0000FFFF0000FFFFull;
    const uint8_t *q = p + 4 * step;
    uint64_t a0 = lpai_tile_load32(p, aligned) | (uint64_t)lpai_tile_load32(q, aligned) << 32;
    uint64_t a1 = lpai_tile_load32(p + step, aligned) | (uint64_t)lpai_tile_load32(q + step, aligned) << 32;
    uint64_t a2 = lpai_tile_load32(p + 2 * step, aligned) | (uint64_t)lpai_tile_load32(q + 2 * step, aligned) << 32;
    uint64_t a3 = lpai_tile_load32(p + 3 * step, aligned) | (uint64_t)lpai_tile_load32(q + 3 * step, aligned) << 32;
    LPAI_TILE_SWAP(a0, a1, 8, m8);
    LPAI_TILE_SWAP(a2, a3, 8, m8);
    LPAI_TILE_SWAP(a0, a2, 16, m16);
    LPAI_TILE_SWAP(a1, a3, 16, m16);
    uint8_t *da = (uint8_t *)__builtin_assume_aligned(d, 8);
    memcpy(da, &a0, 8u); /* word r: row r, 8 positions */
    memcpy(da + LPAI_BLOCK, &a1, 8u);
    memcpy(da + 2u * LPAI_BLOCK, &a2, 8u);
    memcpy(da + 3u * LPAI_BLOCK, &a3, 8u);
}
#undef LPAI_TILE_SWAP

static LPAI_ALWAYS_INLINE void lpai_gather_tile_words(uint8_t *d, const uint8_t *whole, const uint8_t *src,
                                                      ptrdiff_t step, int aligned)
{
    for (; d != whole; d += 8, src += 8 * step) {
        lpai_tile_half(d, src, step, aligned);
        lpai_tile_half(d + 4u * LPAI_BLOCK, src + 4, step, aligned);
    }
}

/* tile[r][j] = src[j * step + r] for r < LPAI_TILE, j < len (len <= LPAI_BLOCK):
 * LPAI_TILE rows of len elements, each into a dense row of the tile (8-byte
 * aligned: LPAI_TILE_ALIGN). Every byte read is an element of the tensor (rows r to
 * r + 3 at position j). Measured on soft_min transposed (1,32,28,28)
 * (qnn-op-template/bench/): one transpose of eight 64-bit words inlined into the
 * kernel, 21.92 instructions per element for the case; not inlined, 2.06 per element
 * for the gather alone (gcc spilled the step's multiples); as two halves of 4 words,
 * 1.78; with a pointer loop, 1.7 (21.67 for the case). Not inlined: it calls nothing
 * op-specific and keeps its registers to itself. Source words 4-byte aligned (src and
 * step multiples of 4) are loaded as words: on Hexagon the table walk of mul3
 * transposed (1,32,28,28) by tiles cost 1.80 packets per element with byte loads and
 * stores, 0.72 with words. */
#define LPAI_TILE_ALIGN 128
/* C11's _Alignas; alignas in C++ (the HTP package includes this file from C++, and
 * an op there may use neither function below: LPAI_MAYBE_UNUSED). */
#if defined(__cplusplus)
#define LPAI_ALIGNAS(n) alignas(n)
#else
#define LPAI_ALIGNAS(n) _Alignas(n)
#endif
#if defined(__GNUC__)
#define LPAI_MAYBE_UNUSED __attribute__((unused))
#else
#define LPAI_MAYBE_UNUSED
#endif
static LPAI_NOINLINE LPAI_MAYBE_UNUSED void lpai_gather_tile(uint8_t (*tile)[LPAI_BLOCK], const uint8_t *src,
                                                             ptrdiff_t step, uint32_t len)
{
    uint8_t *d = tile[0];
    const uint8_t *const whole = tile[0] + (len & ~7u);
    if ((((uintptr_t)src | (uintptr_t)step) & 3u) == 0u) {
        lpai_gather_tile_words(d, whole, src, step, 1);
    } else {
        lpai_gather_tile_words(d, whole, src, step, 0);
    }
    uint32_t j = len & ~7u;
    src += (ptrdiff_t)j * step;
    for (; j < len; ++j, src += step) { /* the last len % 8 positions */
        for (uint32_t r = 0; r < LPAI_TILE; ++r) {
            tile[r][j] = src[r];
        }
    }
}

/* ---- 8-bit unary: one table lookup per element ----------------------------------
 * The table is built by the kernel from the same dequantize -> math -> requantize
 * chain as the reference path, so both are bit-identical by construction. */
/* Not inlined: it calls no op-specific function, and inlined into the kernel, next
 * to the blocked loops, gcc spilled its pointers and the dense lookup cost 8
 * instructions per element instead of 6 (qnn-op-template/bench/). */
/* With HVX (lpai_hvx.h), unit-step runs go 128 bytes per step through vlut32, the
 * last n % 128 bytes of each run (a whole short row) as one masked vector; with tiles
 * (LPAI_TILES), a walk whose input steps across its rows (channels-last read in
 * channels-first order) is gathered 8 rows at a time and each row looked up by
 * vectors; other strided runs stay scalar. The rows of the second-last dimension run
 * in a loop of their own, the odometer only when it carries: per row of 28 (the
 * padded rows of qnn-op-template/bench/), mul3 strided (1,32,28,28) went from 4.08 to
 * 1.77 packets per element with the masked vector, and to 1.24 with the row loop;
 * transposed, by tiles, from 2.51 to 0.72 (HVX build, table build included). */
static LPAI_NOINLINE LPAI_MAYBE_UNUSED void lpai_map_table_u8(const lpai_walk *w, const uint8_t *in, uint8_t *out,
                                                              const uint8_t *table)
{
    const uint32_t last = w->ndim - 1u;
    const uint64_t n = w->n[last];
#if LPAI_HVX
    lpai_hvx_table vt;
    lpai_hvx_table_from(&vt, table);
#endif
    const ptrdiff_t si = w->s[0][last];
    const ptrdiff_t so = w->s[1][last];
    const uint32_t d1 = last > 0u ? last - 1u : 0u;
    const uint64_t rows = last > 0u ? w->n[d1] : 1u;
    const ptrdiff_t ri = last > 0u ? w->s[0][d1] : 0;
    const ptrdiff_t ro = last > 0u ? w->s[1][d1] : 0;
    uint64_t idx[LPAI_MAX_RANK] = {0};
    uint8_t *ptr[2] = {(uint8_t *)in, out};
#if LPAI_HVX && LPAI_TILES
    /* Tiles: 8 rows of the input gathered into dense rows, each looked up as a
     * unit-step run; the rows past the last whole tile by the loop below. */
    const int tiled = so == 1 && si != 1 && si != 0 && ri == 1 && rows >= LPAI_TILE;
    LPAI_ALIGNAS(LPAI_TILE_ALIGN) uint8_t tile[LPAI_TILE][LPAI_BLOCK];
    if (tiled) {
        LPAI_HOST_TILED();
    }
#endif
    do {
        const uint8_t *p = ptr[0];
        uint8_t *q = ptr[1];
        uint64_t r = 0u;
#if LPAI_HVX && LPAI_TILES
        for (; tiled && r + LPAI_TILE <= rows; r += LPAI_TILE, p += LPAI_TILE, q += (ptrdiff_t)LPAI_TILE * ro) {
            for (uint64_t j = 0u; j < n; j += LPAI_BLOCK) {
                const uint32_t len = n - j < LPAI_BLOCK ? (uint32_t)(n - j) : LPAI_BLOCK;
                lpai_gather_tile(tile, p + (ptrdiff_t)j * si, si, len);
                for (uint32_t t = 0; t < LPAI_TILE; ++t) {
                    lpai_hvx_lookup_short(q + (ptrdiff_t)t * ro + (ptrdiff_t)j, tile[t], len, &vt);
                }
            }
        }
#endif
        for (; r < rows; ++r, p += ri, q += ro) {
            if (si == 1 && so == 1) {
#if LPAI_HVX
                lpai_hvx_lookup_row(q, p, n, &vt);
#else
                for (uint64_t j = 0; j < n; ++j) {
                    q[j] = table[p[j]];
                }
#endif
            } else {
                const uint8_t *pj = p;
                uint8_t *qj = q;
                for (uint64_t j = 0; j < n; ++j) {
                    *qj = table[*pj];
                    pj += si;
                    qj += so;
                }
            }
        }
        idx[d1] = rows - 1u; /* at the last row: lpai_walk_next_row steps it again, and carries */
        ptr[0] += (ptrdiff_t)(rows - 1u) * ri;
        ptr[1] += (ptrdiff_t)(rows - 1u) * ro;
    } while (lpai_walk_next_row(w, idx, ptr));
}

/* The lanes computed for m elements: m rounded up to 8, 16, 32, 64 or LPAI_BLOCK. */
static LPAI_ALWAYS_INLINE uint32_t lpai_lanes(uint32_t m)
{
    uint32_t mv = LPAI_LANES;
    while (mv < m) {
        mv *= 2u;
    }
    return mv;
}

/* The math of one block: rows[k] holds at least mv readable bytes of input k, out
 * receives mv bytes. Constant trip counts (every power of two from 8 to the block),
 * which gcc -O2 and clang vectorise; no lane is wasted on more than half a tail. */
static LPAI_ALWAYS_INLINE void lpai_block_math_u8(uint32_t nin, const uint8_t *const *rows, uint32_t mv, uint8_t *out,
                                                  const lpai_dequant_u8 *dq, lpai_unary_fn f1, lpai_binary_fn f2,
                                                  lpai_ternary_fn f3, lpai_quaternary_fn f4, const float *params,
                                                  const lpai_requant_u8 *rq)
{
    /* Inputs past nin alias the first one and are never read (nin is a constant). */
    const uint8_t *r0 = rows[0];
    const uint8_t *r1 = rows[nin > 1u ? 1u : 0u];
    const uint8_t *r2 = rows[nin > 2u ? 2u : 0u];
    const uint8_t *r3 = rows[nin > 3u ? 3u : 0u];
    const lpai_dequant_u8 d0 = dq[0];
    const lpai_dequant_u8 d1 = dq[nin > 1u ? 1u : 0u];
    const lpai_dequant_u8 d2 = dq[nin > 2u ? 2u : 0u];
    const lpai_dequant_u8 d3 = dq[nin > 3u ? 3u : 0u];
    const lpai_requant_u8 r = *rq; /* local copies: registers, no aliasing with out[] */
#define LPAI_LANES_LOOP(count)               \
    for (uint32_t j = 0; j < (count); ++j) { \
        out[j] = LPAI_ONE(j);                \
    }
    if (mv == LPAI_BLOCK) {
        LPAI_LANES_LOOP(LPAI_BLOCK)
    } else if (mv == LPAI_BLOCK / 2u) {
        LPAI_LANES_LOOP(LPAI_BLOCK / 2u)
    } else if (mv == LPAI_BLOCK / 4u) {
        LPAI_LANES_LOOP(LPAI_BLOCK / 4u)
    } else if (mv == LPAI_BLOCK / 8u) {
        LPAI_LANES_LOOP(LPAI_BLOCK / 8u)
    } else {
        LPAI_LANES_LOOP(LPAI_LANES)
    }
#undef LPAI_LANES_LOOP
}
#undef LPAI_ONE

/* Rows shorter than a block (padded or strided rows of a feature map), packed
 * across row ends into 128-lane blocks. Each row is copied whole, at `fill`, into
 * input buffers of two blocks: a row that crosses the block's end runs on past it
 * instead of being split into two copies. When the first block is full, its math
 * runs, the output rows it holds are written (the last one's head only), and the
 * bytes past the block move to its start (one copy per block, not per row); the
 * row's tail is written with the next block. Per row: one copy per operand and one
 * pointer stored (qnn-op-template/bench/, soft_min on rows of 28: 1.05 instructions
 * per element less than splitting each row that crosses a block's end; 1.55 less
 * again with the word copies, 0.3 with the row count in a register). */
/* n >= 16 contiguous bytes as 16-byte words, the last one overlapping the one
 * before: a row of fixed length with no size test per copy. */
static LPAI_ALWAYS_INLINE void lpai_copy_words(uint8_t *dst, const uint8_t *src, uint32_t n, int words)
{
#if LPAI_HVX
    (void)words;
    lpai_copy_run(dst, src, n); /* n <= LPAI_BLOCK: one masked vector, no memcpy call */
#else
    if (words == 2) { /* 16 <= n <= 32: two words, no loop */
        memcpy(dst, src, 16u);
    } else {
        for (uint32_t o = 0; o + 16u < n; o += 16u) {
            memcpy(dst + o, src + o, 16u);
        }
    }
    memcpy(dst + n - 16u, src + n - 16u, 16u);
#endif
}

/* words: every operand's rows are unit-step and at least 16 bytes long (a constant
 * at each call site, so each loop is compiled for its case). */
static LPAI_ALWAYS_INLINE void lpai_short_rows_loop_u8(const lpai_walk *w, uint32_t nin, const lpai_dequant_u8 *dq,
                                                       lpai_unary_fn f1, lpai_binary_fn f2, lpai_ternary_fn f3,
                                                       lpai_quaternary_fn f4, const float *params,
                                                       const lpai_requant_u8 *r, const ptrdiff_t *step, ptrdiff_t ostep,
                                                       uint8_t **ptr, int words)
{
    const uint32_t last = w->ndim - 1u;
    const uint32_t m = (uint32_t)w->n[last]; /* < LPAI_BLOCK */
    uint64_t idx[LPAI_MAX_RANK] = {0};
    uint8_t buf[LPAI_MAX_INPUTS][2u * LPAI_BLOCK];
    uint8_t out[LPAI_BLOCK];
    const uint8_t *rows[LPAI_MAX_INPUTS];
    for (uint32_t k = 0; k < nin; ++k) {
        rows[k] = buf[k];
    }
    uint8_t *row_dst[LPAI_BLOCK + 1u]; /* the output rows begun in this block */
    uint32_t nrow = 0u;
    uint32_t fill = 0u;
    uint32_t carry = 0u;       /* lanes at the block's start: the tail of the previous block's last row */
    uint8_t *carry_dst = NULL; /* where that tail goes */
    /* The next row, in registers: most rows only step the second-last dimension. */
    const uint32_t d1 = last > 0u ? last - 1u : 0u;
    ptrdiff_t rstep[LPAI_MAX_OPERANDS];
    for (uint32_t k = 0; k <= nin; ++k) {
        rstep[k] = last > 0u ? w->s[k][d1] : 0;
    }
    const uint64_t rows_d1 = last > 0u ? w->n[d1] : 1u;
    uint64_t rows_left = rows_d1;
    for (;;) {
        for (uint32_t k = 0; k < nin; ++k) {
            if (words) {
                lpai_copy_words(buf[k] + fill, ptr[k], m, words);
            } else {
                lpai_copy_in(buf[k] + fill, ptr[k], m, step[k]);
            }
        }
        row_dst[nrow++] = ptr[nin];
        fill += m;
        if (fill >= LPAI_BLOCK) {
            lpai_block_math_u8(nin, rows, LPAI_BLOCK, out, dq, f1, f2, f3, f4, params, r);
            uint32_t at = carry;
            if (carry > 0u) {
                lpai_copy_out(carry_dst, out, carry, ostep);
            }
            for (uint32_t g = 0; g + 1u < nrow; ++g, at += m) {
                if (words) {
                    lpai_copy_words(row_dst[g], out + at, m, words);
                } else {
                    lpai_copy_out(row_dst[g], out + at, m, ostep);
                }
            }
            lpai_copy_out(row_dst[nrow - 1u], out + at, LPAI_BLOCK - at, ostep); /* the head */
            carry = fill - LPAI_BLOCK;
            carry_dst = row_dst[nrow - 1u] + (ptrdiff_t)(m - carry) * ostep;
            for (uint32_t k = 0; k < nin; ++k) {
                lpai_copy_run(buf[k], buf[k] + LPAI_BLOCK, carry);
            }
            nrow = 0u;
            fill = carry;
        }
        if (--rows_left > 0u) { /* a count in a register; idx[] only at a carry */
            for (uint32_t k = 0; k <= nin; ++k) {
                ptr[k] += rstep[k];
            }
            continue;
        }
        idx[d1] = rows_d1 - 1u; /* lpai_walk_next_row_n steps it again, and carries */
        if (!lpai_walk_next_row_n(w, idx, ptr, nin + 1u)) {
            break;
        }
        rows_left = rows_d1;
    }
    if (fill > 0u) { /* every row of this block ends in it */
        const uint32_t mv = lpai_lanes(fill);
        for (uint32_t k = 0; k < nin; ++k) {
            if (mv > fill) {
                memset(buf[k] + fill, 0, mv - fill); /* lanes past the end compute something harmless */
            }
        }
        lpai_block_math_u8(nin, rows, mv, out, dq, f1, f2, f3, f4, params, r);
        uint32_t at = carry;
        if (carry > 0u) {
            lpai_copy_out(carry_dst, out, carry, ostep);
        }
        for (uint32_t g = 0; g < nrow; ++g, at += m) {
            lpai_copy_out(row_dst[g], out + at, m, ostep);
        }
    }
}

static LPAI_ALWAYS_INLINE void lpai_map_short_rows_u8(const lpai_walk *w, uint32_t nin, const lpai_dequant_u8 *dq,
                                                      lpai_unary_fn f1, lpai_binary_fn f2, lpai_ternary_fn f3,
                                                      lpai_quaternary_fn f4, const float *params,
                                                      const lpai_requant_u8 *r, const ptrdiff_t *step, ptrdiff_t ostep,
                                                      uint8_t **ptr)
{
    int words = w->n[w->ndim - 1u] >= 16u && ostep == 1;
    for (uint32_t k = 0; k < nin; ++k) {
        words &= step[k] == 1;
    }
    if (words && w->n[w->ndim - 1u] <= 32u) {
        lpai_short_rows_loop_u8(w, nin, dq, f1, f2, f3, f4, params, r, step, ostep, ptr, 2);
    } else if (words) {
        lpai_short_rows_loop_u8(w, nin, dq, f1, f2, f3, f4, params, r, step, ostep, ptr, 1);
    } else {
        lpai_short_rows_loop_u8(w, nin, dq, f1, f2, f3, f4, params, r, step, ostep, ptr, 0);
    }
}

/* The whole walk. Full blocks are taken straight from a row (a unit-stride input is
 * read in place); the rest of each row, and short rows, are gathered into one shared
 * block across row ends, so a layout of short padded rows costs no more lanes than
 * a dense one. Rows shorter than a block have a loop of their own (below), which is
 * the general loop without its full-block and row-remainder logic. ptr/steps:
 * inputs, then the output. */
static LPAI_ALWAYS_INLINE void lpai_map_blocked_u8(const lpai_walk *w, uint32_t nin, const lpai_dequant_u8 *dq,
                                                   lpai_unary_fn f1, lpai_binary_fn f2, lpai_ternary_fn f3,
                                                   lpai_quaternary_fn f4, const float *params, const lpai_requant *rq,
                                                   uint8_t *const *data)
{
    const uint32_t last = w->ndim - 1u;
    const uint64_t n = w->n[last];
    const lpai_requant_u8 r = lpai_requant_u8_from(rq);
    ptrdiff_t step[LPAI_MAX_INPUTS];
    for (uint32_t k = 0; k < nin; ++k) {
        step[k] = w->s[k][last];
    }
    const ptrdiff_t ostep = w->s[nin][last];
    uint64_t idx[LPAI_MAX_RANK] = {0};
    uint8_t *ptr[LPAI_MAX_OPERANDS];
    for (uint32_t k = 0; k <= nin; ++k) {
        ptr[k] = data[k];
    }
    uint8_t buf[LPAI_MAX_INPUTS][LPAI_BLOCK];
    uint8_t out[LPAI_BLOCK];
    const uint8_t *rows[LPAI_MAX_INPUTS];
    /* The shared block: `fill` elements so far, from `nseg` runs of the output. */
    uint8_t *seg_dst[LPAI_BLOCK];
    uint32_t seg_len[LPAI_BLOCK];
    uint32_t fill = 0u;
    uint32_t nseg = 0u;
#define LPAI_FLUSH_BLOCK()                                                              \
    do {                                                                                \
        lpai_block_math_u8(nin, rows, LPAI_BLOCK, out, dq, f1, f2, f3, f4, params, &r); \
        for (uint32_t g = 0, at = 0; g < nseg; at += seg_len[g], ++g) {                 \
            lpai_copy_out(seg_dst[g], out + at, seg_len[g], ostep);                     \
        }                                                                               \
    } while (0)
    for (uint32_t k = 0; k < nin; ++k) {
        rows[k] = buf[k];
    }
    if (n < LPAI_BLOCK) {
        lpai_map_short_rows_u8(w, nin, dq, f1, f2, f3, f4, params, &r, step, ostep, ptr);
        return;
    } else {
        const uint32_t d1 = last > 0u ? last - 1u : 0u;
        ptrdiff_t rstep[LPAI_MAX_OPERANDS]; /* from one row to the next, in a group of rows */
        for (uint32_t k = 0; k <= nin; ++k) {
            rstep[k] = w->s[k][d1];
        }
#if LPAI_TILES
        /* The tiled input (lpai_gather_tile): the first one whose rows are adjacent bytes
         * while its elements are not, when the walk has LPAI_TILE rows of it or more.
         * Its rows are then taken LPAI_TILE at a time, a block of columns after the
         * other: full blocks run in place when the shared block is empty, the rest goes
         * through the shared block like any row's remainder. nin: none. The rows'
         * remainders (16 of each row of 784 in the benchmark's transposed layout) then
         * come from the tile too: 8 rows of them are read once. */
        uint32_t tk = nin;
        for (uint32_t k = 0; k < nin && last > 0u && w->n[d1] >= LPAI_TILE; ++k) {
            if (tk == nin && step[k] != 1 && step[k] != 0 && w->s[k][d1] == 1) {
                tk = k;
            }
        }
        LPAI_ALIGNAS(LPAI_TILE_ALIGN) uint8_t tile[LPAI_TILE][LPAI_BLOCK];
#endif
        do {
#if LPAI_TILES
            if (tk < nin && idx[d1] + LPAI_TILE <= w->n[d1]) {
                LPAI_HOST_TILED();
                for (uint64_t j = 0u; j < n; j += LPAI_BLOCK) {
                    const uint32_t len = n - j < LPAI_BLOCK ? (uint32_t)(n - j) : LPAI_BLOCK;
                    lpai_gather_tile(tile, ptr[tk] + (ptrdiff_t)j * step[tk], step[tk], len);
                    for (uint32_t t = 0; t < LPAI_TILE; ++t) {
                        if (LPAI_IN_PLACE && fill == 0u && len == LPAI_BLOCK) {
                            for (uint32_t k = 0; k < nin; ++k) {
                                const uint8_t *src = ptr[k] + (ptrdiff_t)t * rstep[k] + (ptrdiff_t)j * step[k];
                                if (k == tk) {
                                    rows[k] = tile[t];
                                } else if (step[k] == 1) {
                                    rows[k] = src; /* read in place */
                                } else {
                                    lpai_copy_in(buf[k], src, LPAI_BLOCK, step[k]);
                                    rows[k] = buf[k];
                                }
                            }
                            lpai_block_math_u8(nin, rows, LPAI_BLOCK, out, dq, f1, f2, f3, f4, params, &r);
                            lpai_copy_out(ptr[nin] + (ptrdiff_t)t * rstep[nin] + (ptrdiff_t)j * ostep, out, LPAI_BLOCK,
                                          ostep);
                            continue;
                        }
                        for (uint32_t at = 0u; at < len;) {
                            const uint32_t take = len - at < LPAI_BLOCK - fill ? len - at : LPAI_BLOCK - fill;
                            const uint64_t col = j + at;
                            for (uint32_t k = 0; k < nin; ++k) {
                                if (k == tk) {
                                    lpai_copy_run(buf[k] + fill, tile[t] + at, take);
                                } else {
                                    lpai_copy_in(buf[k] + fill,
                                                 ptr[k] + (ptrdiff_t)t * rstep[k] + (ptrdiff_t)col * step[k], take,
                                                 step[k]);
                                }
                            }
                            seg_dst[nseg] = ptr[nin] + (ptrdiff_t)t * rstep[nin] + (ptrdiff_t)col * ostep;
                            seg_len[nseg] = take;
                            ++nseg;
                            fill += take;
                            at += take;
                            if (fill == LPAI_BLOCK) {
                                for (uint32_t k = 0; k < nin; ++k) {
                                    rows[k] = buf[k];
                                }
                                LPAI_FLUSH_BLOCK();
                                fill = 0u;
                                nseg = 0u;
                            }
                        }
                    }
                }
                for (uint32_t k = 0; k <= nin; ++k) { /* to the tile's last row: the walk steps past it */
                    ptr[k] += (ptrdiff_t)(LPAI_TILE - 1u) * rstep[k];
                }
                idx[d1] += LPAI_TILE - 1u;
                continue;
            }
#endif
            uint64_t j = 0u;
            for (; LPAI_IN_PLACE && fill == 0u && n - j >= LPAI_BLOCK; j += LPAI_BLOCK) {
                for (uint32_t k = 0; k < nin; ++k) {
                    const uint8_t *src = ptr[k] + (ptrdiff_t)j * step[k];
                    if (step[k] == 1) {
                        rows[k] = src; /* read in place */
                    } else {
                        lpai_copy_in(buf[k], src, LPAI_BLOCK, step[k]);
                        rows[k] = buf[k];
                    }
                }
                lpai_block_math_u8(nin, rows, LPAI_BLOCK, out, dq, f1, f2, f3, f4, params, &r);
                lpai_copy_out(ptr[nin] + (ptrdiff_t)j * ostep, out, LPAI_BLOCK, ostep);
            }
            while (j < n) {
                const uint64_t left = n - j;
                const uint32_t take = left < (uint64_t)(LPAI_BLOCK - fill) ? (uint32_t)left : LPAI_BLOCK - fill;
                for (uint32_t k = 0; k < nin; ++k) {
                    lpai_copy_in(buf[k] + fill, ptr[k] + (ptrdiff_t)j * step[k], take, step[k]);
                }
                seg_dst[nseg] = ptr[nin] + (ptrdiff_t)j * ostep;
                seg_len[nseg] = take;
                ++nseg;
                fill += take;
                j += take;
                if (fill == LPAI_BLOCK) {
                    for (uint32_t k = 0; k < nin; ++k) {
                        rows[k] = buf[k]; /* the full blocks above may have pointed them into rows */
                    }
                    LPAI_FLUSH_BLOCK();
                    fill = 0u;
                    nseg = 0u;
                }
            }
        } while (lpai_walk_next_row_n(w, idx, ptr, nin + 1u));
    }
#undef LPAI_FLUSH_BLOCK
    if (fill > 0u) {
        const uint32_t mv = lpai_lanes(fill);
        for (uint32_t k = 0; k < nin; ++k) {
            if (mv > fill) { /* a call saved when the tail fills its lanes (small tensors) */
                memset(buf[k] + fill, 0, mv - fill); /* lanes past the end compute something harmless */
            }
            rows[k] = buf[k];
        }
        lpai_block_math_u8(nin, rows, mv, out, dq, f1, f2, f3, f4, params, &r);
        for (uint32_t g = 0, at = 0; g < nseg; at += seg_len[g], ++g) {
            lpai_copy_out(seg_dst[g], out + at, seg_len[g], ostep);
        }
    }
}

/* Every stored byte 0..255 once: the unary table is the blocked loop run over it. */
static const uint8_t lpai_all_bytes[256] = {
#define LPAI_B16(h) \
    h, h + 1, h + 2, h + 3, h + 4, h + 5, h + 6, h + 7, h + 8, h + 9, h + 10, h + 11, h + 12, h + 13, h + 14, h + 15
    LPAI_B16(0),   LPAI_B16(16),  LPAI_B16(32),  LPAI_B16(48),  LPAI_B16(64),  LPAI_B16(80),
    LPAI_B16(96),  LPAI_B16(112), LPAI_B16(128), LPAI_B16(144), LPAI_B16(160), LPAI_B16(176),
    LPAI_B16(192), LPAI_B16(208), LPAI_B16(224), LPAI_B16(240)
#undef LPAI_B16
};

/* ---- HVX: per-row tables of n-ary ops ----------------------------------------------
 * When every input of an n-ary op but one is constant along the walk's rows (a
 * broadcast input steps 0 bytes there: a per-channel bias or scale, a scalar), the op
 * is, along a row, a function of that one input's byte: its 256 values are a table,
 * built by the blocked loop over every byte with the other inputs' bytes of the row
 * (step 0), so the table holds exactly the bytes the direct loop writes; then the row
 * is looked up 128 bytes per step (lpai_hvx_lookup_run). Rows with the same constant
 * bytes as the row before reuse its table. Taken (lpai_execute_nary_u8) when HVX is
 * built in, the varying input and the output step 1 and rows hold at least
 * LPAI_ROW_TABLE_MIN elements: the table's 256 evaluations then cost at most half of
 * what the direct loop spends on the row (not measured on a device). */
#define LPAI_ROW_TABLE_MIN 512u

/* The varying input of a walk the per-row tables cover, or nin when they do not. */
static inline uint32_t lpai_row_table_input(const lpai_walk *w, uint32_t nin)
{
    const uint32_t last = w->ndim - 1u;
    if (!LPAI_HVX || nin < 2u || w->n[last] < LPAI_ROW_TABLE_MIN || w->s[nin][last] != 1) {
        return nin;
    }
    uint32_t var = nin;
    for (uint32_t k = 0; k < nin; ++k) {
        if (w->s[k][last] == 1 && var == nin) {
            var = k;
        } else if (w->s[k][last] != 0) {
            return nin; /* a second varying input, or a strided one */
        }
    }
    return var;
}

#if LPAI_HVX
static LPAI_ALWAYS_INLINE void lpai_map_row_tables_u8(const lpai_walk *w, uint32_t nin, uint32_t var,
                                                      const lpai_dequant_u8 *dq, lpai_binary_fn f2, lpai_ternary_fn f3,
                                                      lpai_quaternary_fn f4, const float *params,
                                                      const lpai_requant *rq, uint8_t *const *data)
{
    const uint64_t n = w->n[w->ndim - 1u];
    uint64_t idx[LPAI_MAX_RANK] = {0};
    uint8_t *ptr[LPAI_MAX_OPERANDS];
    for (uint32_t k = 0; k <= nin; ++k) {
        ptr[k] = data[k];
    }
    uint8_t tab[256];
    lpai_hvx_table vt;
    uint8_t key[LPAI_MAX_INPUTS] = {0};
    int have = 0;
    lpai_walk all; /* the 256 bytes of the varying input against the row's constant ones */
    all.nops = nin + 1u;
    all.ndim = 1u;
    all.n[0] = 256u;
    for (uint32_t k = 0; k <= nin; ++k) {
        all.s[k][0] = (k == var || k == nin) ? 1 : 0;
    }
    do {
        int same = have;
        for (uint32_t k = 0; k < nin; ++k) {
            same = same && (k == var || key[k] == *ptr[k]);
        }
        if (!same) {
            uint8_t *ends[LPAI_MAX_OPERANDS];
            for (uint32_t k = 0; k < nin; ++k) {
                ends[k] = k == var ? (uint8_t *)lpai_all_bytes : ptr[k];
                key[k] = *ptr[k];
            }
            ends[nin] = tab;
            lpai_map_blocked_u8(&all, nin, dq, NULL, f2, f3, f4, params, rq, ends);
            lpai_hvx_table_from(&vt, tab);
            have = 1;
        }
        const uint8_t *p = ptr[var];
        uint8_t *q = ptr[nin];
        for (uint64_t j = lpai_hvx_lookup_run(q, p, n, &vt); j < n; ++j) {
            q[j] = tab[p[j]];
        }
    } while (lpai_walk_next_row(w, idx, ptr));
}
#endif

/* ---- Bounds of a view (C10) ---------------------------------------------------------
 * The byte extent (the largest offset of an element) must fit 64 bits and ptrdiff_t,
 * in which the walks step; and the output's elements must not share bytes, or one
 * element's result would overwrite another's and the output depend on loop order. */
static inline int lpai_view_extent(const lpai_view *v, uint64_t *extent)
{
    /* One pass, no division (lpai_mul_u64_u32): an empty view addresses nothing,
     * whatever the other dimensions' arithmetic gives. */
    uint64_t e = 0u;
    int fits = 1;
    uint32_t empty = 0u;
    for (uint32_t d = 0; d < v->rank; ++d) {
        uint64_t span = 0u;
        empty |= v->dims[d] == 0u;
        fits &= lpai_mul_u64_u32(v->stride[d], v->dims[d] - 1u, &span);
        e += span;
        fits &= e >= span;
    }
    if (empty) {
        *extent = 0u;
        return 1;
    }
    if (!fits || e > (uint64_t)PTRDIFF_MAX) {
        return 0;
    }
    *extent = e;
    return 1;
}

/* True when two elements of the (8-bit) view may share a byte: sorted by stride,
 * every dimension of extent > 1 must step past everything the faster ones reach.
 * This refuses interleaved layouts too (no FLAT layout is one). Call once the extent
 * fits (lpai_view_extent, or lpai_view_init_bounded as the glue reads a tensor): no sum
 * below can overflow. */
static inline int lpai_view_overlaps(const lpai_view *v)
{
    uint64_t stride[LPAI_MAX_RANK];
    uint64_t span[LPAI_MAX_RANK];
    uint32_t n = 0;
    for (uint32_t d = 0; d < v->rank; ++d) {
        if (v->dims[d] <= 1u) {
            continue;
        }
        uint32_t i = n++;
        for (; i > 0 && stride[i - 1u] > v->stride[d]; --i) { /* insertion sort */
            stride[i] = stride[i - 1u];
            span[i] = span[i - 1u];
        }
        stride[i] = v->stride[d];
        span[i] = (uint64_t)(v->dims[d] - 1u) * v->stride[d];
    }
    uint64_t reach = 0u; /* largest offset reached by the faster dimensions */
    for (uint32_t i = 0; i < n; ++i) {
        if (stride[i] <= reach || stride[i] == 0u) {
            return 1;
        }
        reach += span[i];
    }
    return 0;
}

/* ---- Custom ops: whole tensors as float, in logical row-major order ---------------
 * The user's math sees dense float arrays whatever the layouts; the walks below are
 * the only places that know about strides. They go one row at a time: a row is the
 * innermost logical dimensions merged while they are contiguous in memory (the whole
 * tensor when it is dense), stepped by a constant byte step, and the odometer over the
 * outer dimensions runs once per row, not once per element. Each element is still read
 * or written exactly once, in logical order, so no value can depend on the change.
 * The per-element arithmetic is the blocked loop's 8-bit one (LPAI_DEQ,
 * lpai_requant_u8_store, bit-identical to lpai_code_from_stored and lpai_requant_store;
 * the kernels accept 8 bits only, C8), in blocks the compiler vectorises, whatever the
 * step. Measured (qnn-op-template/docs/benchmark.md, my_norm (1,32,28,28)): the framework went
 * from 75.2 to 13.0 instructions per element (contig; 19.4 padded, 20.1 channels last);
 * the per-element odometer alone was 33.1. */
/* Odometer over logical dimensions, fastest last: advances coord by one step and
 * returns the byte step of the pointer, the stride of whichever dimension advanced
 * less the rows that wrapped. */
static inline ptrdiff_t lpai_logical_step(const lpai_view *v, uint32_t *coord)
{
    ptrdiff_t step = 0;
    for (uint32_t d = v->rank; d-- > 0;) {
        if (++coord[d] < v->dims[d]) {
            return step + (ptrdiff_t)v->stride[d];
        }
        coord[d] = 0;
        step -= (ptrdiff_t)((uint64_t)(v->dims[d] - 1u) * v->stride[d]);
    }
    return step;
}

/* The rows of v: returns how many, sets the row's length and byte step and `outer`,
 * the view of the dimensions left, whose odometer steps from one row to the next.
 * Dimension d joins the row when it is 1 or when its stride is the row's length
 * times the row's step (element i of it then lies i rows of bytes further on); the
 * length stays below 2^32. An empty tensor has no rows. */
static inline uint64_t lpai_rows_of(const lpai_view *v, lpai_view *outer, uint32_t *len, ptrdiff_t *step)
{
    const uint64_t count = lpai_count_elements(v->dims, v->rank);
    uint64_t n = 1u;
    uint64_t st = 0u;
    uint32_t split = v->rank;
    for (; split > 0u; --split) {
        const uint32_t d = split - 1u;
        if (v->dims[d] == 1u) {
            continue;
        }
        if ((n != 1u && v->stride[d] != n * st) || v->dims[d] > UINT32_MAX / n) {
            break;
        }
        st = (n == 1u) ? v->stride[d] : st;
        n *= v->dims[d];
    }
    *outer = *v;
    outer->rank = split;
    *len = (uint32_t)n;
    *step = (ptrdiff_t)st;
    return count == 0u ? 0u : count / n;
}

/* One row: n stored bytes `step` apart -> n floats, and back. LPAI_LANES elements at a
 * time through local arrays: a loop of constant trip count over memory the compiler
 * sees whole, which gcc -O2 vectorises (a loop of n over the caller's float and byte
 * pointers, which may alias, it does not: 29.1 instead of 13.0 for my_norm); the
 * last n mod LPAI_LANES elements one at a time, with the same arithmetic (through
 * the same block, its other lanes zero, was slower: 15.7 for my_norm, 27.9 for
 * rms_norm; so was a second block of 4 lanes: 14.3 and 24.0). */
static LPAI_ALWAYS_INLINE void lpai_dequant_row(const uint8_t *p, ptrdiff_t step, uint32_t n, const lpai_dequant_u8 *dq,
                                                float *dst)
{
    const lpai_dequant_u8 d = *dq;
    uint32_t e = 0;
    for (; e + LPAI_LANES <= n; e += LPAI_LANES) {
        uint8_t b[LPAI_LANES];
        float f[LPAI_LANES];
        if (step == 1) {
            memcpy(b, p + e, sizeof b);
        } else {
            for (uint32_t i = 0; i < LPAI_LANES; ++i) {
                b[i] = p[(ptrdiff_t)(e + i) * step];
            }
        }
        for (uint32_t i = 0; i < LPAI_LANES; ++i) {
            f[i] = LPAI_DEQ(d, b[i]);
        }
        memcpy(dst + e, f, sizeof f);
    }
    for (; e < n; ++e) {
        dst[e] = LPAI_DEQ(d, p[(ptrdiff_t)e * step]);
    }
}

/* ---- Small tensors -----------------------------------------------------------------
 * Up to LPAI_SMALL elements the blocked loop's plan and 8-lane block cost more than the
 * elements: each element is computed alone, in logical order, by an odometer over the
 * output's dimensions that moves one byte pointer per operand (an input's broadcast
 * dimension, of extent 1, or a leading one it lacks, steps 0 bytes), with the blocked
 * loop's own 8-bit arithmetic (LPAI_DEQ, lpai_requant_u8_store) and the same inlined
 * math: the bytes are those of the blocked loop. No walk plan, no block buffers. */
#define LPAI_SMALL 8u

/* The bytes one step of output dimension d moves an input's pointer: 0 along a
 * dimension the input lacks (aligned on the last) or broadcasts (extent 1). */
static LPAI_ALWAYS_INLINE ptrdiff_t lpai_small_step(const lpai_view *v, uint32_t rank, uint32_t d)
{
    const uint32_t lead = rank - v->rank;
    return (d < lead || v->dims[d - lead] == 1u) ? 0 : (ptrdiff_t)v->stride[d - lead];
}

/* One row of n elements: the operands' pointers move s[k] bytes per element, the
 * output's so. */
static LPAI_ALWAYS_INLINE void lpai_small_row(uint32_t nin, const uint8_t *const *p, const ptrdiff_t *s, uint8_t *o,
                                              ptrdiff_t so, uint32_t n, const lpai_dequant_u8 *d, lpai_unary_fn f1,
                                              lpai_binary_fn f2, lpai_ternary_fn f3, lpai_quaternary_fn f4,
                                              const float *params, const lpai_requant_u8 *r)
{
    const uint8_t *a0 = p[0], *a1 = p[1], *a2 = p[2], *a3 = p[3];
    for (uint32_t i = 0; i < n; ++i) {
        const float v = nin == 1u   ? f1(LPAI_DEQ(d[0], *a0), params)
                        : nin == 2u ? f2(LPAI_DEQ(d[0], *a0), LPAI_DEQ(d[1], *a1), params)
                        : nin == 3u ? f3(LPAI_DEQ(d[0], *a0), LPAI_DEQ(d[1], *a1), LPAI_DEQ(d[2], *a2), params)
                                    : f4(LPAI_DEQ(d[0], *a0), LPAI_DEQ(d[1], *a1), LPAI_DEQ(d[2], *a2),
                                         LPAI_DEQ(d[3], *a3), params);
        *o = lpai_requant_u8_store(v, r);
        a0 += s[0];
        a1 += s[1];
        a2 += s[2];
        a3 += s[3];
        o += so;
    }
}

static LPAI_ALWAYS_INLINE void lpai_map_small_u8(const lpai_view *const *in, uint32_t nin, const lpai_view *out,
                                                 uint32_t count, const lpai_dequant_u8 *dq, lpai_unary_fn f1,
                                                 lpai_binary_fn f2, lpai_ternary_fn f3, lpai_quaternary_fn f4,
                                                 const float *params, const lpai_requant *rq)
{
    const lpai_requant_u8 r = lpai_requant_u8_from(rq);
    if (count == 1u) {
        /* One element: every dimension of every operand is 1 (an input's too: it
         * broadcasts to the output), so each operand's element is its first byte,
         * whatever its layout. No steps, no odometer: at 1 element their set-up was
         * most of the call (mul3: 165 of 950 x86 instructions). */
        const uint32_t k1 = nin > 1u ? 1u : 0u, k2 = nin > 2u ? 2u : 0u, k3 = nin > 3u ? 3u : 0u;
        const float x0 = LPAI_DEQ(dq[0], *in[0]->data);
        const float v = nin == 1u   ? f1(x0, params)
                        : nin == 2u ? f2(x0, LPAI_DEQ(dq[k1], *in[k1]->data), params)
                        : nin == 3u ? f3(x0, LPAI_DEQ(dq[k1], *in[k1]->data), LPAI_DEQ(dq[k2], *in[k2]->data), params)
                                    : f4(x0, LPAI_DEQ(dq[k1], *in[k1]->data), LPAI_DEQ(dq[k2], *in[k2]->data),
                                         LPAI_DEQ(dq[k3], *in[k3]->data), params);
        *out->data = lpai_requant_u8_store(v, &r);
        return;
    }
    /* count > 1 here, so rank >= 1. A row is the innermost dimensions merged while every
     * operand steps through them evenly (an outer step of n inner steps, or an extent of
     * 1): a dense tensor of up to 8 elements is one row, run with no odometer, and
     * the steps of the dimensions left are taken only for more rows (fma3 at (1,8):
     * 2,493 -> 2,343 x86 instructions per call; qnn-op-template/docs/benchmark.md). */
    const uint32_t rank = out->rank;
    const uint32_t last = rank - 1u;
    const uint8_t *p[4] = {out->data, out->data, out->data, out->data}; /* unused ones step 0 */
    ptrdiff_t s[4] = {0, 0, 0, 0};
    for (uint32_t k = 0; k < nin; ++k) {
        p[k] = in[k]->data;
        s[k] = lpai_small_step(in[k], rank, last);
    }
    const ptrdiff_t so = (ptrdiff_t)out->stride[last];
    uint32_t n = out->dims[last];
    uint32_t outer = last; /* the dimensions [0, outer) are not in the row */
    while (outer > 0u) {
        const uint32_t d = outer - 1u;
        if (out->dims[d] != 1u) { /* an extent of 1 is never stepped through */
            int even = (ptrdiff_t)out->stride[d] == so * (ptrdiff_t)n;
            for (uint32_t k = 0; k < nin; ++k) {
                even &= lpai_small_step(in[k], rank, d) == s[k] * (ptrdiff_t)n;
            }
            if (!even) {
                break;
            }
            n *= out->dims[d];
        }
        outer = d;
    }
    const lpai_dequant_u8 dqs[4] = {dq[0], dq[nin > 1u ? 1u : 0u], dq[nin > 2u ? 2u : 0u], dq[nin > 3u ? 3u : 0u]};
    if (count == n) {
        lpai_small_row(nin, p, s, out->data, so, n, dqs, f1, f2, f3, f4, params, &r);
        return;
    }
    uint64_t step[4][LPAI_MAX_RANK]; /* bytes per step of each outer output dimension */
    for (uint32_t k = 0; k < nin; ++k) {
        for (uint32_t d = 0; d < outer; ++d) {
            step[k][d] = (uint64_t)lpai_small_step(in[k], rank, d);
        }
    }
    uint8_t *q = out->data;
    uint32_t idx[LPAI_MAX_RANK] = {0u};
    for (uint32_t e = 0; e < count; e += n) {
        lpai_small_row(nin, p, s, q, so, n, dqs, f1, f2, f3, f4, params, &r);
        for (uint32_t d = outer; d-- > 0u;) { /* the next row */
            for (uint32_t k = 0; k < nin; ++k) {
                p[k] += step[k][d];
            }
            q += out->stride[d];
            if (++idx[d] < out->dims[d]) {
                break;
            }
            for (uint32_t k = 0; k < nin; ++k) {
                p[k] -= step[k][d] * out->dims[d];
            }
            q -= out->stride[d] * out->dims[d];
            idx[d] = 0u;
        }
    }
}

#undef LPAI_DEQ /* defined with the blocked loop, used last here */

static LPAI_ALWAYS_INLINE void lpai_requant_row(uint8_t *p, ptrdiff_t step, uint32_t n, const lpai_requant_u8 *rq,
                                                const float *src)
{
    const lpai_requant_u8 r = *rq;
    uint32_t e = 0;
    for (; e + LPAI_LANES <= n; e += LPAI_LANES) {
        float f[LPAI_LANES];
        uint8_t b[LPAI_LANES];
        memcpy(f, src + e, sizeof f);
        for (uint32_t i = 0; i < LPAI_LANES; ++i) {
            b[i] = lpai_requant_u8_store(f[i], &r);
        }
        if (step == 1) {
            memcpy(p + e, b, sizeof b);
        } else {
            for (uint32_t i = 0; i < LPAI_LANES; ++i) {
                p[(ptrdiff_t)(e + i) * step] = b[i];
            }
        }
    }
    for (; e < n; ++e) {
        p[(ptrdiff_t)e * step] = lpai_requant_u8_store(src[e], &r);
    }
}

static inline void lpai_gather_f32(const lpai_view *v, const lpai_quant *q, float *dst)
{
    lpai_view outer;
    uint32_t len;
    ptrdiff_t step;
    const uint64_t rows = lpai_rows_of(v, &outer, &len, &step);
    const lpai_dequant_u8 d = lpai_dequant_u8_from(q);
    uint32_t coord[LPAI_MAX_RANK] = {0};
    const uint8_t *p = v->data;
    for (uint64_t r = 0; r < rows; ++r, dst += len) {
        lpai_dequant_row(p, step, len, &d, dst);
        p += lpai_logical_step(&outer, coord);
    }
}

static inline void lpai_scatter_u8(const lpai_view *v, const lpai_requant *rq, const float *src)
{
    lpai_view outer;
    uint32_t len;
    ptrdiff_t step;
    const uint64_t rows = lpai_rows_of(v, &outer, &len, &step);
    const lpai_requant_u8 r = lpai_requant_u8_from(rq);
    uint32_t coord[LPAI_MAX_RANK] = {0};
    uint8_t *p = v->data;
    for (uint64_t i = 0; i < rows; ++i, src += len) {
        lpai_requant_row(p, step, len, &r, src);
        p += lpai_logical_step(&outer, coord);
    }
}

/* ---- Reference path: every element from its logical coordinates -----------------
 * Host builds only: it is the oracle the fast paths are tested against, written as
 * plainly as possible and sharing nothing with them but the conventions. */
/* Declared in every build: the executeOp drivers take the reference math as well. */
typedef float (*lpai_reference_fn)(const float *values, const float *params);

#if defined(LPAI_HOST_EMULATOR)

/* A digest of the float results of the ops' math, before requantization: the reference
 * path's (it calls the same inline math as the fast paths) and a custom op's outputs.
 * The 8-bit outputs round most float differences away; `make hexagon-test` compares
 * this digest too (lpai_emu_digest_take), so that a fused multiply-add or another
 * libm on the DSP side shows even when no stored byte changes. Every NaN counts as
 * one value: their bit patterns are the hardware's choice. */
extern uint64_t lpai_host_values;
static inline float lpai_host_value(float v)
{
    const uint32_t bits = v != v ? 0x7FC00000u : lpai_bits_from_f32(v);
    lpai_host_values = (lpai_host_values ^ bits) * 0x100000001B3ull;
    return v;
}
#define LPAI_HOST_VALUES(p, n)                  \
    do {                                        \
        for (uint64_t i_ = 0; i_ < (n); ++i_) { \
            (void)lpai_host_value((p)[i_]);     \
        }                                       \
    } while (0)

static inline void lpai_reference_map(const lpai_view *const *ins, const lpai_quant *const *qin, uint32_t nin,
                                      const lpai_view *out, const lpai_quant *qout, const lpai_requant *rq,
                                      lpai_reference_fn math, const float *params)
{
    const uint64_t count = lpai_count_elements(out->dims, out->rank);
    uint32_t coord[LPAI_MAX_RANK] = {0};
    for (uint64_t e = 0; e < count; ++e) {
        float values[LPAI_MAX_OPERANDS];
        for (uint32_t k = 0; k < nin; ++k) {
            /* Broadcasting from the definition: input dimension d is output dimension
             * d + (output rank - input rank), and a dimension of 1 is always index 0. */
            const uint32_t lead = out->rank - ins[k]->rank;
            uint64_t off = 0;
            for (uint32_t d = 0; d < ins[k]->rank; ++d) {
                const uint64_t at = ins[k]->dims[d] == 1u ? 0u : coord[lead + d];
                off += at * ins[k]->stride[d];
            }
            const uint32_t stored = lpai_load_stored(ins[k]->data + off, qin[k]->bits);
            values[k] = qin[k]->scale * (float)lpai_code_from_stored(stored, qin[k]);
        }
        uint64_t off = 0;
        for (uint32_t d = 0; d < out->rank; ++d) {
            off += coord[d] * out->stride[d];
        }
        lpai_store_stored(out->data + off, qout->bits, lpai_requant_store(lpai_host_value(math(values, params)), rq));
        for (uint32_t d = out->rank; d-- > 0;) {
            if (++coord[d] < out->dims[d]) {
                break;
            }
            coord[d] = 0;
        }
    }
}
#else
#define LPAI_HOST_VALUES(p, n) ((void)0)
#endif

#endif /* LPAI_ELEMENTWISE_H */
