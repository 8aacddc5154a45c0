/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * The LPAI conventions, SDK-free.
 *
 * Every rule here was measured on device by the ExecuTorch pull request that added
 * LPAI custom ops; none of them is in the SDK documentation. Each one, missed, gives
 * silently wrong numbers, so each helper says what broke without it. The numbers
 * (C1..C10) match docs/conventions/ (one page each, shipped with this project).
 *
 * Quantization model used throughout (an assumption that reduces to the measured
 * rule): the kernel reads a raw stored word b of `bits` bits, unsigned. The offset o
 * from getPerTensorQuantParams() biases the storage: code = b - o, wrapped modulo
 * 2^bits into the window [-2^(bits-1) - o, 2^(bits-1) - 1 - o], value = scale * code.
 * For the measured 8-bit case o = -128 the window is [0, 255] and the code is exactly
 * (b - o) & 0xFF. On the way out: code = round-half-even(value / scale), clamped to
 * the window in float, stored = (code + o) mod 2^bits.
 *
 * This header must not include any Qualcomm header: the host emulator and the
 * benchmark compile it on machines without the SDK.
 */
#ifndef LPAI_CONVENTIONS_H
#define LPAI_CONVENTIONS_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lpai_package.h"

/* The table path and the per-element path must round identically; a fused
 * multiply-add in one of them (clang contracts by default, Hexagon has FMA) would
 * make the fast path differ from its own oracle by one code near ties. The Makefiles
 * also pass -ffp-contract=off; gcc ignores this pragma (and warns about it). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#if defined(__GNUC__) && !defined(__clang__)
/* gcc keeps every float select of the kernels as a branch while -ftrapping-math (its
 * default) says a speculated float operation might trap; the blocked loops of
 * lpai_elementwise.h then do not vectorise. -fno-trapping-math changes no result (no
 * rounding, no NaN or signed-zero rule, unlike -ffast-math): it only lets the
 * compiler evaluate both sides of a select. clang and hexagon-clang do that already.
 * It holds for the rest of every file that includes this header. */
#pragma GCC optimize("no-trapping-math")
#endif

#if defined(__FAST_MATH__)
/* -ffast-math deletes the (x + 1.5*2^23) - 1.5*2^23 rounding below and lets the
 * compiler assume no NaN, which is exactly what the clamp has to survive. */
#error "lpai_conventions.h needs IEEE float semantics: do not build with -ffast-math"
#endif

#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0
/* Excess precision (x87) would round the magic-number trick at the wrong width. */
#error "lpai_conventions.h needs FLT_EVAL_METHOD == 0 (SSE on x86, any Hexagon)"
#endif

/* Forced inlining puts each op's math inside every loop that calls it, which is what
 * makes the kernels fast (qnn-op-template/docs/benchmark.md); it is also most of their
 * compile time. LPAI_NO_FORCED_INLINE keeps the same code but leaves inlining to the
 * compiler. The host test driver (host/test_kernels.c, which instantiates the drivers
 * with its own math) and the sanitized host builds define it: they compile 3-7x faster
 * (the driver 17 s -> 5 s with gcc -O2 and 41 s -> 15 s for Hexagon; a unary kernel
 * under ASan 10 s -> 1.6 s, measured) and compute the same bytes (-ffp-contract=off
 * everywhere). The DSP build and the benchmark never define it. */
#if defined(__GNUC__) && !defined(LPAI_NO_FORCED_INLINE)
#define LPAI_ALWAYS_INLINE inline __attribute__((always_inline))
#define LPAI_NOINLINE __attribute__((noinline))
#else
#define LPAI_ALWAYS_INLINE inline
#define LPAI_NOINLINE
#endif

/* QNN_LPAI_CUSTOM_OP_MAX_LAYOUT_RANK; lpai_sdk.h checks the SDK agrees. */
#define LPAI_MAX_RANK 5u

/* LPAI_MAX_INPUTS, LPAI_MAX_OUTPUTS, LPAI_MAX_PARAMS and LPAI_ROW_MAX, the spec's limits per
 * op, come from lpai_package.h. */

/* Returned by a custom op's unwritten stub (user/<Op>_math.c): the kernel rejects the
 * node naming the file to edit, and the host test fails saying so. */
#define LPAI_USER_MATH_MISSING (-1000)

/* Why a tensor was rejected; the glue maps these to LPAI_CUSTOM_OP_* codes. */
typedef enum {
    LPAI_OK = 0,
    LPAI_E_SCALE_TYPE,  /* UNDEFINED or unknown scale type */
    LPAI_E_SCALE,       /* zero, negative, NaN or infinite scale */
    LPAI_E_RATIO,       /* a scale ratio or reciprocal that is not finite and positive */
    LPAI_E_OFFSET,      /* offset outside the storage range */
    LPAI_E_WIDTH,       /* element width other than 8 bits */
    LPAI_E_RANK,        /* rank above LPAI_MAX_RANK or layout rank != shape rank */
    LPAI_E_SHAPE,       /* an output's shape is not the one its shape rule gives */
    LPAI_E_LAYOUT,      /* layout order not a permutation, or unknown layout form */
    LPAI_E_TENSOR,      /* a tensor, its data or a parameter is missing */
    LPAI_E_USER,        /* user-written math of a custom op refused or is missing */
    LPAI_E_BOUNDS,      /* element count or byte extent does not fit 64 bits / ptrdiff_t */
    LPAI_E_OVERLAP,     /* two elements of the output share a byte */
    LPAI_E_SCRATCH,     /* a custom op's scratch is missing or short (getTempBuffer) */
    LPAI_E_ROW          /* a rowwise custom op's row is longer than LPAI_ROW_MAX */
} lpai_status;

/* ---- C1: scale ----------------------------------------------------------------
 * The integer form means scale * 2^-shift, and the eNPU reports shift = 37 for 1/255.
 * `1u << shift` is undefined for shift >= 32; on the DSP it evaluated to 0, the scale
 * became +inf and every requantized value NaN. ldexpf is exact for any shift. The
 * caller matches the SDK's scale type exhaustively (lpai_glue.h): UNDEFINED is an
 * error, not "integer". Arguments are widened so either signedness of the SDK's
 * fields converts without wrapping. */
static inline float lpai_scale_from_int(int64_t scale, int64_t shift)
{
    if (shift > 1000) {
        shift = 1000; /* ldexpf takes an int; anything this large underflows to 0 anyway */
    } else if (shift < -1000) {
        shift = -1000;
    }
    return ldexpf((float)scale, (int)-shift);
}

/* ---- C10: every scale checked before the loop ---------------------------------
 * Zero divides by zero, a negative scale mirrors the tensor, NaN/inf poison every
 * element: the public example accepted an output scale of +inf and wrote code 0
 * everywhere. One comparison chain rejects all of them, NaN included. */
static inline int lpai_scale_ok(float scale)
{
    return scale > 0.0f && scale <= FLT_MAX;
}

/* A ratio of two valid scales can still overflow to inf or underflow to 0 (an
 * output scale of 1e-30 against an input scale of 1e30); either maps the whole
 * tensor to one code, so it is rejected like a bad scale. */
static inline int lpai_ratio_ok(float ratio)
{
    return ratio > 0.0f && ratio <= FLT_MAX;
}

/* ---- C10: element counts in 64 bits -------------------------------------------
 * 32 bits wrap silently for large tensors, and the loop then covers a fraction of
 * the buffer while reporting success. */
static inline uint64_t lpai_count_elements(const uint32_t *dims, uint32_t rank)
{
    uint64_t n = 1u;
    for (uint32_t i = 0; i < rank; ++i) {
        n *= (uint64_t)dims[i];
    }
    return n;
}

/* a * b, and 1 when it fits 64 bits (0 when it wraps; *r then holds the wrapped value).
 * Two 32 x 32 -> 64 bit products and a carry test, no division: on the DSP a 64-bit
 * division is a library call (__hexagon_udivdi3), and the checks below, run per
 * dimension of every tensor on every call, cost mul3 about 507 of its 1,250 packets per
 * call at 8 elements (qnn-op-template/docs/benchmark.md, "The call's fixed cost on
 * Hexagon"). */
static inline int lpai_mul_u64_u32(uint64_t a, uint32_t b, uint64_t *r)
{
#if defined(__GNUC__) && UINTPTR_MAX > 0xFFFFFFFFu
    /* 64-bit hosts: one multiplication and its overflow flag. */
    return !__builtin_mul_overflow(a, (uint64_t)b, r);
#else
    const uint64_t lo = (uint64_t)(uint32_t)a * b;
    const uint64_t hi = (a >> 32) * b; /* below 2^64: both factors below 2^32 */
    const uint64_t sum = lo + (hi << 32);
    *r = sum;
    return (hi >> 32) == 0u && sum >= lo;
#endif
}

/* The same count, refusing shapes whose product does not fit 64 bits (five dims of
 * 2^16 make 2^80: the plain product wraps, to 0 for 2^64, and the kernel would report
 * success without writing, or loop over a wrapped fraction). Returns 0 on overflow.
 * A zero extent elsewhere would make the tensor empty, but the arithmetic of the other
 * dimensions is still refused: no layout has such a size. */
static inline int lpai_count_elements_checked(const uint32_t *dims, uint32_t rank, uint64_t *count)
{
    uint64_t n = 1u;
    int fits = 1;
    for (uint32_t i = 0; i < rank; ++i) {
        /* Once n is 0 every product is 0 and fits: the wrap is caught where it happened. */
        fits &= lpai_mul_u64_u32(n, dims[i], &n);
    }
    *count = n;
    return fits;
}

/* ---- C2: biased storage, wrapped modulo the storage width ---------------------- */
typedef struct {
    float scale;     /* already converted and checked */
    int32_t offset;  /* stored = code + offset */
    int32_t lo;      /* code window: [lo, lo + mask] */
    uint32_t mask;   /* 2^bits - 1 */
    uint32_t bits;
} lpai_quant;

/* Offsets are accepted only within one storage range of zero so that every sum
 * below stays far from int32 overflow (offsets come from the runtime). */
static inline lpai_status lpai_quant_init(lpai_quant *q, float scale, int32_t offset, uint32_t bits)
{
    if (bits != 8u && bits != 16u) {
        return LPAI_E_WIDTH;
    }
    if (!lpai_scale_ok(scale)) {
        return LPAI_E_SCALE;
    }
    const int32_t range = (int32_t)1 << bits;
    if (offset < -range || offset > range) {
        return LPAI_E_OFFSET;
    }
    q->scale = scale;
    q->offset = offset;
    q->bits = bits;
    q->mask = (uint32_t)range - 1u;
    q->lo = -(range / 2) - offset;
    return LPAI_OK;
}

/* stored word -> code. With offset -128 the codes 0..127 arrive as the bytes
 * 128..255 (code 255 arrives as byte 127). Without the wrap, b - o gives 256..383
 * for them: small values decode as large ones and saturate. Unsigned arithmetic
 * makes the wrap well defined. */
static inline int32_t lpai_code_from_stored(uint32_t stored, const lpai_quant *q)
{
    const uint32_t biased = stored - (uint32_t)q->offset - (uint32_t)q->lo;
    return (int32_t)(biased & q->mask) + q->lo;
}

/* ---- C5: strides are in bytes, layoutOrder[0] is the slowest dimension ----------
 * layoutStride[i] is the byte distance between neighbours along layout position i,
 * and layoutOrder[i] names the logical dimension stored at that position, slowest
 * first (the last valid index moves fastest). Reading strides as element counts
 * addresses the wrong bytes as soon as a stride is padded; reading the order the
 * other way round still visits every element but in the worst cache order, and no
 * contiguous run is ever found. Input and output may use different layouts, so
 * each tensor gets its own view and offsets are only ever computed per tensor. */
typedef struct {
    uint32_t rank;
    uint32_t dims[LPAI_MAX_RANK];    /* logical dimension sizes */
    uint8_t order[LPAI_MAX_RANK];    /* layoutOrder as reported: slowest first */
    uint64_t stride[LPAI_MAX_RANK];  /* byte stride of each *logical* dimension */
    uint8_t *data;
} lpai_view;

/* Fills the view and, in the same pass, the byte extent's check (C10, lpai_view_extent
 * in lpai_elementwise.h says why): *fits is 0 when the largest offset of an element does
 * not fit 64 bits and ptrdiff_t, 1 otherwise (an empty view addresses nothing). The glue
 * reads every tensor through it: small tensors pay for every loop and every call (one
 * pass instead of two saved mul3 about 40 of its 520 DSP packets at one element). The
 * SDK's strides are 32 bits, so each span is one 32 x 32 -> 64 bit product that cannot
 * wrap; only the sum is checked, by its carry. */
static LPAI_ALWAYS_INLINE lpai_status lpai_view_init_bounded(lpai_view *v, uint32_t rank, const uint32_t *dims,
                                                             const uint8_t *order, const uint32_t *layout_stride,
                                                             void *data, int *fits)
{
    if (rank > LPAI_MAX_RANK) {
        return LPAI_E_RANK;
    }
    uint32_t seen = 0u;
    uint32_t wrapped = 0u;
    uint32_t empty = 0u;
    uint64_t extent = 0u;
    for (uint32_t i = 0; i < rank; ++i) { /* one pass: small tensors pay every loop */
        /* A repeated or out-of-range entry would alias two logical dimensions
         * and index past the arrays below. */
        if (order[i] >= rank || (seen & (1u << order[i])) != 0u) {
            return LPAI_E_LAYOUT; /* the view is left half-filled: nobody reads it */
        }
        seen |= 1u << order[i];
        v->dims[i] = dims[i];
        v->order[i] = order[i];
        v->stride[order[i]] = layout_stride[i];
        const uint32_t n = dims[order[i]]; /* the extent of layout position i */
        const uint64_t span = (uint64_t)layout_stride[i] * (uint32_t)(n - 1u);
        extent += span;
        wrapped |= extent < span;
        empty |= n == 0u;
    }
    v->rank = rank;
    v->data = (uint8_t *)data;
    *fits = empty || (!wrapped && extent <= (uint64_t)PTRDIFF_MAX);
    return LPAI_OK;
}

/* ---- C3: saturate the code, in float, then re-bias ----------------------------
 * Round half to even, then add the zero point, as the exported graph quantizes
 * (torch's quantized_decomposed.quantize_per_tensor and ExecuTorch's quantize kernel:
 * zero_point + nearbyint(inv_scale * value)); torch.quantize_per_tensor on quint8
 * adds the zero point before rounding and differs at exact ties with an odd zero
 * point (qnn-op-template/docs/spec.md, "Rounding"). `(int)(v + 0.5f)` rounds ties up
 * and disagreed with torch on about 1,300 of 20,000 random scale pairs x 256 codes.
 * Adding and subtracting 1.5 * 2^23 rounds in the current (default: nearest-even)
 * mode and is exact for |x| < 2^22; the caller has clamped x to the code window. */
static inline float lpai_round_half_even(float x)
{
    const float magic = 12582912.0f; /* 1.5 * 2^23 */
    return (x + magic) - magic;
}

typedef struct {
    float inv_scale;   /* 1 / output scale, checked finite and positive */
    float lo, hi;      /* code window as floats, for the clamp before conversion */
    uint32_t offset_u; /* output offset, as the unsigned addend of the re-bias */
    uint32_t mask;
} lpai_requant;

static inline lpai_status lpai_requant_init(lpai_requant *r, const lpai_quant *out)
{
    const float inv = 1.0f / out->scale;
    if (!lpai_ratio_ok(inv)) {
        return LPAI_E_RATIO;
    }
    r->inv_scale = inv;
    r->lo = (float)out->lo;
    r->hi = (float)(out->lo + (int32_t)out->mask);
    r->offset_u = (uint32_t)out->offset;
    r->mask = out->mask;
    return LPAI_OK;
}

/* value -> stored word. The value is multiplied by the reciprocal of the scale, as
 * torch's and ExecuTorch's quantize do, so ties fall on the same side; the code is
 * rounded before the offset re-biases it (the zero point comes after rounding).
 *
 * The clamp compares in float *before* the conversion: converting NaN or an
 * out-of-range float to an integer is undefined behaviour and no later clamp can
 * repair it. `!(c > lo)` is true for NaN, which therefore lands on the lowest code.
 *
 * The clamp is on the code, not on the stored word: under offset -128 code 256 would
 * be stored as the innocent byte 128 and read back as code 0, so clamping the stored
 * byte never fires on exactly the overflow it is meant to catch. */
static inline uint32_t lpai_requant_store(float value, const lpai_requant *r)
{
    float c = value * r->inv_scale;
    c = (c > r->lo) ? c : r->lo;
    c = (c < r->hi) ? c : r->hi;
    const int32_t code = (int32_t)lpai_round_half_even(c);
    /* The re-bias wraps modulo 2^bits: the inverse of the mask on the way in. */
    return ((uint32_t)code + r->offset_u) & r->mask;
}

/* ---- C4: signedness is unusable -----------------------------------------------
 * getTensorDataType() reports INT_8 for unsigned tensors, so only the width is
 * trusted; lpai_glue.h reduces every data type to a width in bits before anything
 * else looks at it. ---------------------------------------------------------------*/

/* ---- C8: 8-bit only ------------------------------------------------------------
 * A 16-bit activation arrives as INT_32; declaring it passes validation but only the
 * first half of the output comes back correct (a backend bug, reproduced with an
 * identity requantization). The kernels accept 8 bits and say so when they refuse. */
#define LPAI_SUPPORTED_BITS 8u

/* ---- C9: wider elements may be unaligned ----------------------------------------
 * A byte stride can put a 16-bit element at an odd address; a direct uint16_t load
 * there is undefined and traps on some Hexagon configurations. memcpy compiles to a
 * plain load where alignment allows it. */
static inline uint32_t lpai_load_stored(const uint8_t *p, uint32_t bits)
{
    if (bits == 8u) {
        return *p;
    }
    uint16_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

static inline void lpai_store_stored(uint8_t *p, uint32_t bits, uint32_t stored)
{
    if (bits == 8u) {
        *p = (uint8_t)stored;
        return;
    }
    const uint16_t w = (uint16_t)stored;
    memcpy(p, &w, sizeof w);
}

/* Scalar parameters arrive as tensor data with no alignment promise either. */
static inline float lpai_load_f32(const void *p)
{
    float v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline uint32_t lpai_load_u32(const void *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

#endif /* LPAI_CONVENTIONS_H */
