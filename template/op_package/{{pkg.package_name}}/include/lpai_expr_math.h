/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * The functions generated expressions call besides <math.h> (lpai_expf, lpai_sigmoidf,
 * lpai_tanhf, lpai_reluf, lpai_minf, lpai_maxf, lpai_roundf, lpai_floorf, lpai_ceilf,
 * lpai_truncf, lpai_signf, lpai_wheref; qnn-op-template/hooks/expr.py renders the names).
 * Their own header, apart from the conventions: they are the op's math, not a rule of
 * the runtime; the kernel's every path and the benchmark's baseline call them.
 *
 * This header must not include any Qualcomm header: the host emulator, the benchmark
 * and qnn-op-template/tests/test_expr.py compile it on machines without the SDK.
 */
#ifndef LPAI_EXPR_MATH_H
#define LPAI_EXPR_MATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) && !defined(__clang__)
/* As in lpai_conventions.h: without it gcc keeps the float selects below as branches
 * and the blocked loops do not vectorise. It changes no result. */
#pragma GCC optimize("no-trapping-math")
#endif

/* ---- Functions the expression grammar may use besides <math.h> -----------------
 * Inline and branch-free where the libm call would stop the blocked loops of
 * lpai_elementwise.h from vectorising (a call per element, and errno). Every path of
 * the kernel (direct, table, reference) calls these same functions, so the paths stay
 * bit-identical; against torch they are within the tests' tolerance (exp: relative
 * error below 1e-7 on [-86, 88]).
 *
 * NaN follows torch: min, max and clamp return NaN when an operand is NaN (fminf and
 * fmaxf would drop it), and exp and sigmoid propagate it. What NaN becomes in the
 * output is the requantization's rule (C3): the lowest code.
 *
 * LPAI_NO_FORCED_INLINE, the test builds' switch, drops the forcing (lpai_conventions.h
 * says why). */
#if defined(__GNUC__) && !defined(LPAI_NO_FORCED_INLINE)
#define LPAI_MATH_INLINE inline __attribute__((always_inline))
#else
#define LPAI_MATH_INLINE inline
#endif

static LPAI_MATH_INLINE float lpai_f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static LPAI_MATH_INLINE uint32_t lpai_bits_from_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* The condition of a float select, kept a select of C's meaning on Hexagon.
 * zig's clang for Hexagon compiles `(b < a) ? b : a` to sfmin (and the like to sfmax),
 * which give the number when one operand is NaN, where C's select gives a: relu(NaN)
 * was 0 and min(NaN, 1) was 1 in the DSP build alone; and it compiled where's
 * `a >= 0 ? a : b` as `a < 0 ? b : a`, a for a NaN a, under qemu-hexagon (a NaN mask
 * or-ed in after the select did not prevent that;
 * qnn-op-template/tests/test_float_edges.py). On Hexagon the condition therefore
 * passes through an empty asm statement, which hides from the compiler that it is a
 * comparison of the operands: a plain predicated select, as C says, for a few
 * packets. Elsewhere the condition as it is: x86's minss/maxss return the second
 * operand on NaN, what C's select gives, so compilers keep its meaning there at no
 * cost. Every select of this header whose answer for NaN matters goes through it. */
static LPAI_MATH_INLINE int lpai_select_cond(int cond)
{
#if defined(__hexagon__)
    __asm__("" : "+r"(cond));
#endif
    return cond;
}

/* e^x = 2^k * e^r, k = round(x / ln 2), |r| <= ln 2 / 2, e^r = 1 + r + r^2 P(r) with
 * P of degree 4 fitted for the least largest relative error on that interval
 * (Cephes' expf has degree 5 there; one degree less is one multiply and one add less
 * per vector): relative error below 7e-8 evaluated in float.
 *
 * The whole float32 range, as torch gives it (issue 40): 2^k is applied as two powers
 * of two built in the exponent field, 2^(k - k/2) and 2^(k/2) (k/2 rounded down), each
 * a normal float for every k from -150 to 128, so that the second product rounds once:
 * below x = -87.3 the result is the denormal torch keeps (exp(-100) = 3.8e-44, not 0;
 * a kernel that gave 0 there divided 0 by 0 in exp(a) / (exp(a) + exp(b))), it is
 * 0 below -103.97 where torch's is, and k = 128 (x up to 88.75) overflows to +inf as
 * torch does above 88.72. Outside [-104, 88.75] two selects on the result give 0 and
 * +inf (the integer steps there are modulo 2^32, never undefined); a select on the
 * result, not a clamp of x, because zig's clang for Hexagon turns such a clamp into
 * sfmin/sfmax, which drop NaN. NaN fails both comparisons and propagates through the
 * arithmetic. Within 1 unit in the last place of torch's exp over the whole range,
 * denormals included (qnn-op-template/tests/test_float_edges.py). The denormal
 * products need gradual underflow, which IEEE 754 and the DSP's scalar float unit
 * give (qnn-op-template/docs/spec.md, "Float edges"). */
static LPAI_MATH_INLINE float lpai_expf(float x)
{
    const float magic = 12582912.0f; /* 1.5 * 2^23: adding it rounds to an integer */
    const float t = x * 1.44269504089f + magic;
    const float k = t - magic;
    float r = x - k * 0.693359375f;
    r = r - k * -2.12194440e-4f;
    float p = 1.3814540579915047e-3f;
    p = p * r + 8.36874544620514e-3f;
    p = p * r + 4.166838899254799e-2f;
    p = p * r + 1.666652113199234e-1f;
    p = p * r + 4.999999403953552e-1f;
    p = p * (r * r) + r + 1.0f;
    /* t's low mantissa bits hold k: the integer difference of the bit patterns is k
     * (no float -> int conversion, so NaN is no undefined behaviour here). v = k + 254
     * is 104 to 382 on [-104, 88.75]: v / 2 rounded down is the exponent field of
     * 2^(k/2 rounded down), v - v / 2 that of 2^(k/2 rounded up). */
    const uint32_t v = lpai_bits_from_f32(t) - lpai_bits_from_f32(magic) + 254u;
    const uint32_t half = (v >> 1) << 23;
    const uint32_t rest = (v << 23) - half;
    const float y = (p * lpai_f32_from_bits(rest)) * lpai_f32_from_bits(half);
    const float lower = lpai_select_cond(x < -104.0f) ? 0.0f : y;
    return lpai_select_cond(x > 88.75f) ? INFINITY : lower;
}

static LPAI_MATH_INLINE float lpai_sigmoidf(float x)
{
    return 1.0f / (1.0f + lpai_expf(-x));
}

/* tanh(x) = sign(x) * (1 - 2 / (e^(2|x|) + 1)); below |x| = 0.125, where that
 * difference cancels, the odd series to x^7 (next term below 2e-10 relative). The
 * absolute error stays below 2e-7; e^(2|x|) = inf above 44 gives exactly +-1, NaN
 * stays NaN. */
static LPAI_MATH_INLINE float lpai_tanhf(float x)
{
    const uint32_t sign = lpai_bits_from_f32(x) & 0x80000000u;
    const float ax = lpai_f32_from_bits(lpai_bits_from_f32(x) & 0x7FFFFFFFu);
    const float big = 1.0f - 2.0f / (lpai_expf(2.0f * ax) + 1.0f);
    const float x2 = ax * ax;
    const float small = ax + ax * x2 * (-0.333333333f + x2 * (0.133333333f + x2 * -0.053968254f));
    const float t = (ax < 0.125f) ? small : big;
    return lpai_f32_from_bits(lpai_bits_from_f32(t) | sign);
}

static LPAI_MATH_INLINE float lpai_reluf(float x)
{
    /* NaN stays NaN (as torch.relu keeps it) and is then clamped by the requant. */
    return lpai_select_cond(x < 0.0f) ? 0.0f : x;
}

/* torch.minimum / torch.maximum: NaN if either operand is NaN. The plain comparison
 * gives a when either is NaN; the mask of `b != b` (all ones, a NaN pattern) is then
 * or-ed in: one compare and one or per vector. */
static LPAI_MATH_INLINE float lpai_minf(float a, float b)
{
    const float m = lpai_select_cond(b < a) ? b : a; /* a when a or b is NaN */
    return lpai_f32_from_bits(lpai_bits_from_f32(m) | ((b != b) ? 0xFFFFFFFFu : 0u));
}

static LPAI_MATH_INLINE float lpai_maxf(float a, float b)
{
    const float m = lpai_select_cond(b > a) ? b : a;
    return lpai_f32_from_bits(lpai_bits_from_f32(m) | ((b != b) ? 0xFFFFFFFFu : 0u));
}

/* torch.where(cond, a, b), as C's select: b when cond is false, NaN or not (cond may
 * compare a and b: lpai_select_cond). */
static LPAI_MATH_INLINE float lpai_wheref(int cond, float a, float b)
{
    return lpai_select_cond(cond) ? a : b;
}

/* x with the sign bit of `like` or-ed in: the sign of a zero result, as torch gives it. */
static LPAI_MATH_INLINE float lpai_with_sign_of(float x, float like)
{
    return lpai_f32_from_bits(lpai_bits_from_f32(x) | (lpai_bits_from_f32(like) & 0x80000000u));
}

/* torch.round: to the nearest integer, ties to even. Adding 2^23 to |x| < 2^23 leaves
 * no fraction bits, so the addition itself rounds, by the default rounding mode (to
 * nearest, ties to even; nothing here changes it, and -ffp-contract=off with no
 * -ffast-math keeps the compiler from folding the add and subtract away). No libm
 * call: rintf/nearbyintf would round the same way but stop the blocked loops from
 * vectorising, and their speed differs per target. |x| >= 2^23 is already an integer;
 * inf and NaN come back as they are. The sign is x's (round(-0.4) is -0, as torch). */
static LPAI_MATH_INLINE float lpai_roundf(float x)
{
    const float two23 = 8388608.0f;
    const float ax = lpai_f32_from_bits(lpai_bits_from_f32(x) & 0x7FFFFFFFu);
    const float r = lpai_with_sign_of((ax + two23) - two23, x);
    return (ax < two23) ? r : x;
}

/* The bits of `a` where `mask` is all ones, of `b` where it is zero: a select written in
 * integers, which gcc vectorises as three logical operations (written as a float
 * select, gcc -O2 merged it with the selects around it into nested ones, a third more
 * instructions for floor), and which no compiler can turn into a float min or max. */
static LPAI_MATH_INLINE float lpai_bits_select(uint32_t mask, float a, float b)
{
    return lpai_f32_from_bits((lpai_bits_from_f32(a) & mask) | (lpai_bits_from_f32(b) & ~mask));
}

/* torch.trunc: toward zero. |x| < 2^23 goes through int32 and back (cvttps2dq and
 * cvtdq2ps on x86, one conversion each way on Hexagon: no libm call, vectorised);
 * |x| >= 2^23 is an integer already, and inf and NaN come back as they are (the
 * conversion sees 0 there: a float outside int32 must not reach it, C leaves that
 * undefined). The sign is x's (trunc(-0.5) is -0, as torch). */
static LPAI_MATH_INLINE float lpai_truncf(float x)
{
    const float ax = lpai_f32_from_bits(lpai_bits_from_f32(x) & 0x7FFFFFFFu);
    const int small = ax < 8388608.0f; /* false for NaN */
    const float t = lpai_with_sign_of((float)(int32_t)(small ? x : 0.0f), x);
    return lpai_bits_select(small ? 0xFFFFFFFFu : 0u, t, x);
}

/* torch.floor and torch.ceil from the truncated value: one step down (up) where
 * truncation went up (down), as a subtraction of 1 (of -1) or 0, no branch. A zero
 * result keeps x's sign (floor(0.3) = +0, ceil(-0.7) = -0 - 0 = -0, as torch), and NaN
 * stays NaN (the comparison fails; NaN - 0 is NaN). */
static LPAI_MATH_INLINE float lpai_floorf(float x)
{
    const float t = lpai_truncf(x);
    return t - ((t > x) ? 1.0f : 0.0f);
}

static LPAI_MATH_INLINE float lpai_ceilf(float x)
{
    const float t = lpai_truncf(x);
    return t - ((t < x) ? -1.0f : 0.0f);
}

/* torch.sign: -1, 0 or 1; 0 for both zeros and for NaN (as torch gives on the CPU). */
static LPAI_MATH_INLINE float lpai_signf(float x)
{
    /* The difference of the two comparisons, converted: in SIMD two compare masks, an
     * integer subtraction and a conversion (written as two float selects, gcc -O2 made
     * nested selects of them). No select of x: NaN gives 0 - 0 = +0. */
    return (float)((x > 0.0f) - (x < 0.0f));
}

#endif /* LPAI_EXPR_MATH_H */
