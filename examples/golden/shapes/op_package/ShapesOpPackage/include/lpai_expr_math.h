/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * The functions generated expressions call besides <math.h> (lpai_expf, lpai_sigmoidf,
 * lpai_tanhf, lpai_powf, lpai_reluf, lpai_minf, lpai_maxf, lpai_roundf, lpai_floorf,
 * lpai_ceilf, lpai_truncf, lpai_signf, lpai_wheref; qnn-op-template/hooks/expr.py renders
 * the names).
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

static LPAI_MATH_INLINE double lpai_f64_from_bits(uint64_t u)
{
    double f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static LPAI_MATH_INLINE uint64_t lpai_bits_from_f64(double f)
{
    uint64_t u;
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

/* torch.pow and C's powf (C11 F.10.4.4) in float32, as 2^(y log2|x|): no libm call, no
 * branch, no table, so the blocked loops vectorise it (SSE2: the double steps two lanes
 * at a time), and every target computes the same bits (IEEE float and double operations
 * only, in one order; the kernels are built with -ffp-contract=off). Correctly rounded
 * but in about 1 case in 5,600 (then 1 unit in the last place off; torch's SLEEF powf is
 * off in about 1 in 55, glibc's in 1 in 350: 6 million random pairs), which
 * keeps exact results exact: pow(0.25, 0.5) is 0.5, pow(x, 1) is x.
 *
 * log|x|: |x| = 2^e m with m in [sqrt(1/2), sqrt(2)) (a denormal first times 2^23, which
 * is exact), log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.1716. s is sf + d: sf the
 * float quotient, d its remainder (m - 1 - sf (m + 1), exact in double: sf (m + 1) holds
 * 49 bits) over m + 1. 2 atanh(s) = 2 s + 2/3 s^3 + s^5 R(s^2); the last term and d's are
 * below 2^-12 of the whole and take float (R fitted on [0, 0.02944] to 2^-41 of the sum;
 * float's roundings there stay below about 2^-34 of it). t = y log2|x| = y e + (y / ln 2)
 * log m in double (y e exact).
 * 2^t: t = k + r, k = round(t) (adding 1.5 * 2^52 leaves no fraction bits), |r| <= 1/2,
 * 2^r = 1 + c1 r + c2 r^2 + c3 r^3 + r^4 T(r): the terms to r^3 in double (Taylor's
 * coefficients), r^4 T(r) (below 6.5e-4) in float (T fitted on [-1/2, 1/2] to 2^-36 of
 * the sum; its float roundings below about 2^-32); 2^k is added to the exponent field of
 * the double, which then rounds to float once, denormal or not.
 * What the formula does not give is chosen from x and y alone: |t| >= 300, x zero or
 * infinite: 0 or inf (inf where |x| > 1 and y > 0, or |x| < 1 and y < 0); the sign of
 * a negative x to an odd integer power; NaN for x or y NaN and for a negative finite x
 * to a non-integer power; 1 for y = 0 and x = 1, NaN or not. y is clamped to +-2^30 first:
 * beyond it |t| > 180 for every x but +-1, whose log is 0 (pow(-1, +-inf) = 1). Every
 * integer step is unsigned or in range: no undefined behaviour for any input. */
static LPAI_MATH_INLINE float lpai_powf(float x, float y)
{
    const uint32_t xbits = lpai_bits_from_f32(x);
    const uint32_t abits = xbits & 0x7FFFFFFFu;
    const int tiny = abits < 0x00800000u;
    const uint32_t nb = tiny ? lpai_bits_from_f32(lpai_f32_from_bits(abits) * 8388608.0f) : abits;
    const uint32_t off = nb - 0x3F3504F3u; /* the bits of sqrt(1/2) */
    const int32_t e = (int32_t)((off ^ 0x80000000u) >> 23) - (tiny ? 279 : 256);
    const float m = lpai_f32_from_bits(nb - (off & 0xFF800000u));
    const float f = m - 1.0f; /* exact */
    const float rcp = 1.0f / (m + 1.0f);
    const float sf = f * rcp;
    const double sd = (double)sf;
    const float d = (float)((double)f - sd * ((double)m + 1.0)) * rcp;
    const float zf = sf * sf;
    const float rz = (0.3999999990497125f + zf * 0.28571531790757826f) +
                     (zf * zf) * (0.22204765666017248f + zf * 0.19120357575034247f);
    const float small = (sf * zf) * (zf * rz) + ((d + d) + (d + d) * zf);
    /* y clamped to +-2^30 in its bits (NaN too: the result is NaN below); float selects
     * of a y that is the same for every element kept gcc 12 from vectorising the loop */
    const uint32_t aybits = lpai_bits_from_f32(y) & 0x7FFFFFFFu;
    const float yc =
        lpai_f32_from_bits((aybits < 0x4E800000u ? aybits : 0x4E800000u) | (lpai_bits_from_f32(y) & 0x80000000u));
    const double yd = (double)yc;
    const double yl = yd * 1.4426950408889634; /* y / ln 2 */
    const double t = (yd * (double)e + yl * ((sd + sd) + (double)small)) + (sd * sd) * (sd * (yl * (2.0 / 3.0)));
    const double shift = 6755399441055744.0; /* 1.5 * 2^52 */
    const double kt = t + shift;
    const double r = t - (kt - shift);
    const float rf = (float)r;
    const float rf2 = rf * rf;
    const float tail =
        (rf2 * rf2) *
        ((0.009618129107628477f + rf * 0.0013333538240199892f) +
         rf2 * ((0.00015403516598574128f + rf * 1.5284575078689477e-05f) + rf2 * 1.3237553462655348e-06f));
    const double p =
        ((1.0 + r * 0.6931471805599453) + (r * r) * (0.24022650695910072 + r * 0.05550410866482158)) + (double)tail;
    /* kt's low bits hold k: the difference of the bit patterns (modulo 2^64) */
    const uint64_t k = lpai_bits_from_f64(kt) - lpai_bits_from_f64(shift);
    const float core = (float)lpai_f64_from_bits(lpai_bits_from_f64(p) + (k << 52));
    const int formula =
        abits - 1u < 0x7F7FFFFFu && lpai_f64_from_bits(lpai_bits_from_f64(t) & 0x7FFFFFFFFFFFFFFFu) < 300.0;
    const float edge = ((lpai_f32_from_bits(abits) > 1.0f) == (y > 0.0f)) ? INFINITY : 0.0f;
    const float mag = lpai_select_cond(formula) ? core : edge;
    /* All ones where y is an integer (every float from 2^23 on, inf too; not NaN); the sign
     * bit where it is odd. Masks, not flags: a flag of y combined with flags of x kept gcc
     * 12 from vectorising the loop. */
    const float ay = lpai_f32_from_bits(aybits);
    const int32_t yi = (int32_t)(ay < 16777216.0f ? y : 0.0f);
    const uint32_t integer = (ay >= 8388608.0f || (float)yi == y) ? 0xFFFFFFFFu : 0u;
    const uint32_t odd = integer & ((uint32_t)yi << 31);
    /* All ones (a NaN) for a negative finite x to a non-integer power, and x or y NaN */
    const uint32_t nan =
        ((x < 0.0f && abits < 0x7F800000u) ? ~integer : 0u) | (x != x ? 0xFFFFFFFFu : 0u) | (y != y ? 0xFFFFFFFFu : 0u);
    const float signed_mag = lpai_f32_from_bits(lpai_bits_from_f32(mag) | (xbits & odd) | nan);
    return lpai_select_cond(y == 0.0f || x == 1.0f) ? 1.0f : signed_mag;
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

/* ---- x86: round, floor, ceil and trunc by SSE4.1's roundps, chosen at run time ------
 * SSE4.1 rounds four floats in one instruction (roundps) where the forms above take
 * about ten SSE2 instructions each. The library's baseline ISA stays SSE2: an op whose
 * expression calls one of these functions gets a second copy of its loops, compiled with
 * __attribute__((target("sse4.1"))) and calling the _sse41 forms below (FUNCTION_TABLE's
 * `c_sse41`, qnn-op-template/hooks/expr.py), and its kernel runs that copy when the CPU
 * reports SSE4.1 (lpai_x86_has_sse41; the drivers' lpai_x86_sse41_chosen and the HTP
 * engine's htp_x86_sse41_chosen, which the tests can make choose SSE2).
 * The choice is this explicit test, not target_clones or an ifunc resolver: those need
 * the loader's ifunc support, which musl (the x86_64-linux-musl build of the Hexagon
 * suite) does not have, and __builtin_cpu_supports needs libgcc's or compiler-rt's CPU
 * model, which not every link here has. cpuid (<cpuid.h>, gcc and clang alike) needs
 * neither.
 * Every form gives the bits of its SSE2 form for every float (inf, NaN, -0, |x| >= 2^23,
 * denormals): roundps computes the same integer, keeps the sign of a zero result and
 * returns an infinity or a quiet NaN as it is (a signalling NaN comes back quiet, which
 * no arithmetic here produces). rintf rounds by the current mode, nearest-even, as the
 * 2^23 addition of lpai_roundf does. qnn-op-template/tests/test_float_edges.py compares
 * both forms bit for bit; the rendered C suite runs each op both ways. */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && !defined(LPAI_NO_X86_DISPATCH)
#include <cpuid.h>
#define LPAI_X86_DISPATCH 1
#define LPAI_TARGET_SSE41 __attribute__((target("sse4.1")))

static LPAI_MATH_INLINE LPAI_TARGET_SSE41 float lpai_roundf_sse41(float x)
{
    return __builtin_rintf(x);
}

static LPAI_MATH_INLINE LPAI_TARGET_SSE41 float lpai_floorf_sse41(float x)
{
    return __builtin_floorf(x);
}

static LPAI_MATH_INLINE LPAI_TARGET_SSE41 float lpai_ceilf_sse41(float x)
{
    return __builtin_ceilf(x);
}

static LPAI_MATH_INLINE LPAI_TARGET_SSE41 float lpai_truncf_sse41(float x)
{
    return __builtin_truncf(x);
}

/* 1 when the CPU runs SSE4.1 (cpuid leaf 1, ECX bit 19). Asked once per translation
 * unit; the answer is kept with relaxed atomics, as every thread that asks first writes
 * the same value. */
static inline int lpai_x86_has_sse41(void)
{
    static int known; /* 0 not asked yet, 1 no, 2 yes */
    int k = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (k == 0) {
        unsigned int a = 0u, b = 0u, c = 0u, d = 0u;
        k = (__get_cpuid(1u, &a, &b, &c, &d) && (c & (1u << 19))) ? 2 : 1;
        __atomic_store_n(&known, k, __ATOMIC_RELAXED);
    }
    return k == 2;
}
#else
#define LPAI_X86_DISPATCH 0
#endif

#endif /* LPAI_EXPR_MATH_H */
