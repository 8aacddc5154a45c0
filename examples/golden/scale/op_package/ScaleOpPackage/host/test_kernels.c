/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * C suite of ScaleOpPackage against the host emulator (`make host-test`).
 * It needs no torch: the fast paths are held against the kernels' own reference path
 * and the conventions against hand-computed values. tests/test_op_package_*.py adds
 * the comparison with the eager torch ops.
 * Built twice: host library (compiler side + kernels) and inference-only (as the DSP).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lpai_sdk.h"
#include "lpai_conventions.h"
#include "lpai_elementwise.h"
#include "lpai_glue.h"
#include "lpai_shapes.h"
#include "lpai_drivers.h"
#include "lpai_emu.h"
#include "lpai_package.h"

/* Inputs and outputs an op may have (the spec's limits, lpai_conventions.h). */
#define NIN LPAI_MAX_INPUTS
#define NOUT LPAI_MAX_OUTPUTS

/* Random scale sets per op in test_paths, the first half with zero points 0, the
 * others random. hexagon_test.mk runs 2: under qemu-hexagon a binary op's 65,536-pair
 * grid costs about 4.5 s per set (float math in software): 27 s of a 33 s run at 6. */
#ifndef LPAI_TEST_TRIALS
#define LPAI_TEST_TRIALS 6
#endif

static int g_failures = 0;
static int g_checks = 0;

#define CHECK(cond, ...)                                           \
    do {                                                           \
        ++g_checks;                                                \
        if (!(cond)) {                                             \
            ++g_failures;                                          \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            printf(__VA_ARGS__);                                   \
            putchar('\n');                                         \
        }                                                          \
    } while (0)

static uint64_t g_rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (uint32_t)(g_rng >> 16);
}
/* A scale between 2^-12 and 2^2, log-uniform. */
static float rnd_scale(void)
{
    return ldexpf(1.0f + (float)(rnd() % 1000u) / 1000.0f, -12 + (int)(rnd() % 14u));
}

typedef enum { P_F32, P_U32 } ptype;
typedef struct {
    const char *qnn_type;
    const char *torch_name;
    int custom;
    uint32_t n_inputs;
    uint32_t n_outputs;
    int rowwise;
    int sse41; /* the op has an SSE4.1 copy of its kernel (x86: include/lpai_expr_math.h) */
    lpai_shape_rule rules[NOUT]; /* the shape of each output (lpai_shapes.h) */
    uint32_t n_params;
    /* Up to LPAI_MAX_PARAMS params, then a sentinel (the "extra parameter" case reads it). */
    ptype ptypes[LPAI_MAX_PARAMS + 1u];
    double pdefaults[LPAI_MAX_PARAMS + 1u]; /* a double holds every float and uint32 default exactly */
    const char *pnames[LPAI_MAX_PARAMS + 1u];
} op_case;

/* Unformatted: a row's length depends on the spec (names of up to 32 characters, up to
 * eight params), and clang-format would lay the table out differently for each. */
/* clang-format off */
static const op_case k_ops[] = {
    {
        .qnn_type = "ExampleCustomOp",
        .torch_name = "my_ops::mul3",
        .custom = 0,
        .n_inputs = 1u,
        .n_outputs = 1u,
        .rowwise = 0,
        .sse41 = 0,
        .rules =
            {
                {LPAI_SHAPE_BROADCAST, 0u, 0u, 0u, {0, 0, 0, 0, 0}}, /* out: the broadcast shape of the inputs */
            },
        .n_params = 1u,
        .ptypes = {P_F32, P_F32},
        .pdefaults = {3.0f, 0.0},
        .pnames = {"factor", NULL},
    },
};
/* clang-format on */
#define N_OPS (sizeof k_ops / sizeof k_ops[0])

static lpai_emu_desc desc4(uint32_t n, uint32_t c, uint32_t h, uint32_t w)
{
    lpai_emu_desc d;
    memset(&d, 0, sizeof d);
    d.rank = 4u;
    d.dims[0] = n;
    d.dims[1] = c;
    d.dims[2] = h;
    d.dims[3] = w;
    for (uint8_t i = 0; i < 4u; ++i) {
        d.order[i] = i;
    }
    d.bits = 8u;
    d.report_type = -1;
    d.scale = 1.0f / 255.0f;
    d.zero_point = 0;
    return d;
}

/* Permuted layout (NCHW data stored as N, H, W, C) with padding in every stride. */
static void permute_padded(lpai_emu_desc *d, uint32_t pad)
{
    static const uint8_t order[4] = {0, 2, 3, 1};
    uint32_t stride = 1u + pad; /* even the fastest dimension is padded */
    for (uint32_t i = 4u; i-- > 0;) {
        d->order[i] = order[i];
        d->stride[i] = stride;
        stride = stride * d->dims[order[i]] + pad;
    }
}

/* Each param under a name: the spec's (the kernel asks for it by that name), or
 * `suffix` appended (a name the kernel does not ask for). `reversed` adds them in the
 * opposite order: a lookup by name does not care. */
static void push_params_as(const op_case *op, const char *suffix, int reversed)
{
    for (uint32_t i = 0; i < op->n_params; ++i) {
        const uint32_t p = reversed ? op->n_params - 1u - i : i;
        char name[LPAI_EMU_NAME_MAX];
        snprintf(name, sizeof name, "%s%s", op->pnames[p], suffix);
        switch (op->ptypes[p]) {
        case P_F32:
            lpai_emu_add_param_f32(name, (float)op->pdefaults[p]);
            break;
        case P_U32:
            lpai_emu_add_param_u32(name, (uint32_t)op->pdefaults[p]);
            break;
        }
    }
}

static void push_params(const op_case *op)
{
    push_params_as(op, "", 0);
}

/* A permuted or padded layout reaches the kernel as given only when it declares
 * QNN_LPAI_OP_LAYOUT_SHAPE_NE_LAYOUT; under DEFAULT the emulator repacks it to dense
 * first, as the backend does, and the kernel's choice of loop is its own. */
static int walked(const char *want)
{
    if (lpai_emu_last_repacked()) {
        return 1;
    }
    return want ? strcmp(lpai_emu_last_path(), want) == 0 : strstr(lpai_emu_last_path(), "walk") != NULL;
}

/* Every input code (unary) or every pair of codes (binary) as one tensor; for three
 * or four inputs a dense random sample (256^3 combinations would be 16 Mi elements). */
static void fill_codes(const op_case *op, uint32_t k, uint8_t *codes, uint32_t count)
{
    for (uint32_t e = 0; e < count; ++e) {
        if (op->n_inputs >= 3u) {
            codes[e] = (uint8_t)rnd();
        } else {
            codes[e] = (uint8_t)(op->n_inputs == 1u ? e : (k == 0u ? e / 256u : e % 256u));
        }
    }
}

/* Elements per input of the exhaustive (or dense sample) tests. */
static uint32_t grid_count(const op_case *op)
{
    return op->n_inputs == 1u ? 256u : (op->n_inputs == 2u ? 65536u : 4096u);
}

/* The descriptors of every output when all inputs have o's shape: o itself for an
 * output shaped like an input (or their broadcast), a dense tensor of the reduced
 * shape for a reduction. Everything but the shape is o's. */
static void derive_outputs(const op_case *op, const lpai_emu_desc *o, lpai_emu_desc *outs)
{
    uint32_t ranks[NIN];
    uint32_t dims[NIN][LPAI_MAX_RANK];
    for (uint32_t k = 0; k < NIN; ++k) {
        ranks[k] = o->rank;
        for (uint32_t d = 0; d < LPAI_MAX_RANK; ++d) {
            dims[k][d] = o->dims[d];
        }
    }
    for (uint32_t j = 0; j < op->n_outputs; ++j) {
        outs[j] = *o;
        uint32_t rank = 0u;
        uint32_t want[LPAI_MAX_RANK] = {0u};
        if (op->rules[j].kind != LPAI_SHAPE_REDUCE ||
            !lpai_rule_dims(&op->rules[j], op->n_inputs, ranks, (const uint32_t (*)[LPAI_MAX_RANK])dims, &rank, want)) {
            continue;
        }
        outs[j].rank = rank;
        for (uint32_t d = 0; d < LPAI_EMU_MAX_DIMS; ++d) {
            outs[j].dims[d] = d < rank ? want[d] : 0u;
            outs[j].order[d] = (uint8_t)d;
            outs[j].stride[d] = 0u;
        }
    }
}

/* Runs op on the node described by the descriptors (op->n_outputs of them in outs);
 * returns the kernel's status, output 0's codes in result. */
static int32_t run(const op_case *op, const lpai_emu_desc *in, const lpai_emu_desc *outs, const uint8_t *const *codes,
                   int reference, uint8_t *result)
{
    lpai_emu_reset();
    for (uint32_t k = 0; k < op->n_inputs; ++k) {
        CHECK(lpai_emu_add_input(&in[k], codes[k]) >= 0, "%s: input descriptor refused", op->qnn_type);
    }
    for (uint32_t j = 0; j < op->n_outputs; ++j) {
        CHECK(lpai_emu_add_output(&outs[j]) == (int32_t)j, "%s: output descriptor refused", op->qnn_type);
    }
    push_params(op);
    const int32_t rc = lpai_emu_execute(op->qnn_type, reference);
    if (rc == 0 && result) {
        lpai_emu_read_output(result);
    }
    return rc;
}

/* ---- conventions, unit by unit --------------------------------------------------- */
static void test_conventions(void)
{
    /* C1: shift 37 (the eNPU's 1/255); a 32-bit shift would make this +inf or junk. */
    const float s = lpai_scale_from_int(538976288, 37);
    CHECK(fabsf(s - 1.0f / 255.0f) < 1e-9f, "scale(538976288, 37) = %g", (double)s);
    int32_t is = 0;
    CHECK(lpai_emu_int_scale(1.0f / 255.0f, 37, &is) == 0 && lpai_scale_from_int(is, 37) == 1.0f / 255.0f,
          "integer form of 1/255 at shift 37 is not exact");
    /* C10 */
    CHECK(!lpai_scale_ok(0.0f) && !lpai_scale_ok(-1.0f) && !lpai_scale_ok(NAN) && !lpai_scale_ok(INFINITY),
          "bad scales accepted");
    CHECK(lpai_scale_ok(1e-30f) && lpai_scale_ok(3.0f), "good scales refused");
    const uint32_t big[3] = {65536u, 65536u, 2u};
    CHECK(lpai_count_elements(big, 3u) == 8589934592ull, "element count wrapped");
    uint64_t n64 = 0u;
    const uint32_t huge[5] = {65536u, 65536u, 65536u, 65536u, 2u};
    CHECK(!lpai_count_elements_checked(huge, 4u, &n64), "2^64 elements not refused (wraps to 0)");
    CHECK(!lpai_count_elements_checked(huge, 5u, &n64), "2^65 elements not refused");
    CHECK(lpai_count_elements_checked(big, 3u, &n64) && n64 == 8589934592ull, "2^33 elements refused");
    CHECK(lpai_count_elements_checked(huge, 3u, &n64) && n64 == 281474976710656ull, "2^48 elements refused");
    /* The division-free product: the largest that fits, and the first that does not. */
    CHECK(lpai_mul_u64_u32(4294967297ull, 4294967295u, &n64) && n64 == UINT64_MAX, "(2^32+1)(2^32-1) refused");
    CHECK(!lpai_mul_u64_u32(4294967298ull, 4294967295u, &n64), "(2^32+2)(2^32-1) wraps but was accepted");
    CHECK(!lpai_mul_u64_u32(1ull << 33, 1u << 31, &n64), "2^33 x 2^31 (2^64) accepted");
    CHECK(lpai_mul_u64_u32(1ull << 32, 1u << 31, &n64) && n64 == 1ull << 63, "2^32 x 2^31 (2^63) refused");
    /* Byte extents: (2^32 - 2) * (2^32 - 1) fits 64 bits but not ptrdiff_t, two such
     * dimensions overflow 64 bits; 65535 * (2^32 - 1) is fine. */
    {
        const uint32_t sdims[4] = {4294967295u, 4294967295u, 65536u, 1u};
        const uint8_t sorder[4] = {0u, 1u, 2u, 3u};
        const uint32_t sstride[4] = {4294967295u, 4294967295u, 4294967295u, 1u};
        lpai_view v;
        uint64_t ext = 0u;
        uint8_t raw[1] = {0};
        /* The glue checks the extent as it reads a tensor (lpai_view_init_bounded's
         * `fits`): it must agree with lpai_view_extent on each case. */
        int fits = -1;
        CHECK(lpai_view_init_bounded(&v, 2u, sdims, sorder, sstride, raw, &fits) == LPAI_OK, "view init");
        CHECK(!lpai_view_extent(&v, &ext), "byte extent beyond 64 bits accepted");
        CHECK(fits == 0, "byte extent beyond 64 bits accepted as the glue reads it");
        CHECK(lpai_view_init_bounded(&v, 1u, sdims, sorder, sstride, raw, &fits) == LPAI_OK, "view init");
        CHECK(!lpai_view_extent(&v, &ext), "byte extent beyond PTRDIFF_MAX accepted");
        CHECK(fits == 0, "byte extent beyond PTRDIFF_MAX accepted as the glue reads it");
        CHECK(lpai_view_init_bounded(&v, 1u, sdims + 2, sorder, sstride + 2, raw, &fits) == LPAI_OK, "view init");
        /* Beyond PTRDIFF_MAX on a 32-bit target (the DSP, `make hexagon-test`): refused there. */
        const uint64_t padded = 65535ull * 4294967295ull;
        CHECK(lpai_view_extent(&v, &ext) == (padded <= (uint64_t)PTRDIFF_MAX) &&
                  (padded > (uint64_t)PTRDIFF_MAX || ext == padded),
              "one padded dimension of %llu bytes: wrong answer for PTRDIFF_MAX %lld", (unsigned long long)padded,
              (long long)PTRDIFF_MAX);
        CHECK(fits == (padded <= (uint64_t)PTRDIFF_MAX), "one padded dimension: the glue's answer differs");
        /* Three spans of 2^63 - 2^32 bytes: their sum wraps to below 2^63, so only the
         * carry tells it does not fit. */
        const uint32_t wdims[3] = {4294967295u, 4294967295u, 4294967295u};
        const uint32_t wstride[3] = {2147483648u, 2147483648u, 2147483648u};
        CHECK(lpai_view_init_bounded(&v, 3u, wdims, sorder, wstride, raw, &fits) == LPAI_OK && fits == 0 &&
                  !lpai_view_extent(&v, &ext),
              "a byte extent whose sum wraps 64 bits accepted");
        /* An empty tensor addresses nothing, whatever its other dimensions give. */
        const uint32_t edims[3] = {4294967295u, 0u, 4294967295u};
        CHECK(lpai_view_init_bounded(&v, 3u, edims, sorder, sstride, raw, &fits) == LPAI_OK && fits == 1 &&
                  lpai_view_extent(&v, &ext) && ext == 0u,
              "an empty tensor with huge dimensions refused");
        /* Overlap: a row stride inside the row, a zero stride, equal strides. */
        const uint32_t d2[2] = {4u, 16u};
        const uint32_t ok_stride[2] = {20u, 1u};
        const uint32_t inside[2] = {8u, 1u};
        const uint32_t zero[2] = {16u, 0u};
        const uint32_t same[2] = {1u, 1u};
        const uint32_t swapped[2] = {1u, 4u}; /* column-major: fine */
        CHECK(lpai_view_init_bounded(&v, 2u, d2, sorder, ok_stride, raw, &fits) == LPAI_OK && !lpai_view_overlaps(&v),
              "padded rows reported as overlapping");
        CHECK(lpai_view_init_bounded(&v, 2u, d2, sorder, swapped, raw, &fits) == LPAI_OK && !lpai_view_overlaps(&v),
              "column-major layout reported as overlapping");
        CHECK(lpai_view_init_bounded(&v, 2u, d2, sorder, inside, raw, &fits) == LPAI_OK && lpai_view_overlaps(&v),
              "row stride 8 over rows of 16 not reported");
        CHECK(lpai_view_init_bounded(&v, 2u, d2, sorder, zero, raw, &fits) == LPAI_OK && lpai_view_overlaps(&v),
              "stride 0 not reported");
        CHECK(lpai_view_init_bounded(&v, 2u, d2, sorder, same, raw, &fits) == LPAI_OK && lpai_view_overlaps(&v),
              "two dimensions with stride 1 not reported");
    }
    /* C2: byte <-> code under offset -128 (see docs/conventions/02-biased-storage.md). */
    lpai_quant q;
    CHECK(lpai_quant_init(&q, 1.0f, -128, 8u) == LPAI_OK, "quant init");
    CHECK(lpai_code_from_stored(127u, &q) == 255, "byte 127 -> code %d, want 255", lpai_code_from_stored(127u, &q));
    CHECK(lpai_code_from_stored(128u, &q) == 0, "byte 128 -> code %d, want 0", lpai_code_from_stored(128u, &q));
    CHECK(lpai_code_from_stored(255u, &q) == 127, "byte 255 -> code %d, want 127", lpai_code_from_stored(255u, &q));
    CHECK(lpai_code_from_stored(0u, &q) == 128, "byte 0 -> code %d, want 128", lpai_code_from_stored(0u, &q));
    /* C3: requantization: half to even, NaN and overflow saturate on the code. */
    lpai_requant r;
    CHECK(lpai_requant_init(&r, &q) == LPAI_OK, "requant init");
    CHECK(lpai_requant_store(2.5f, &r) == ((2u + 128u) & 0xFFu), "2.5 must round to even 2");
    CHECK(lpai_requant_store(3.5f, &r) == ((4u + 128u) & 0xFFu), "3.5 must round to even 4");
    CHECK(lpai_requant_store(256.0f, &r) == 127u, "code 256 must saturate to 255 (byte 127), got %u",
          lpai_requant_store(256.0f, &r));
    CHECK(lpai_requant_store(1e30f, &r) == 127u, "huge value must saturate to code 255");
    CHECK(lpai_requant_store(-5.0f, &r) == 128u, "negative value must saturate to code 0");
    CHECK(lpai_requant_store(NAN, &r) == 128u, "NaN must land on the lowest code");
    /* C9: a 16-bit element at an odd address (UBSan checks alignment). */
    uint8_t raw[5] = {0, 0x34, 0x12, 0, 0};
    CHECK(lpai_load_stored(raw + 1, 16u) == 0x1234u, "unaligned 16-bit load");
    lpai_store_stored(raw + 3, 16u, 0xBEEFu);
    CHECK(raw[3] == 0xEF && raw[4] == 0xBE, "unaligned 16-bit store");
}

/* ---- x86: an op's SSE4.1 copy writes the bytes of its SSE2 form -------------------
 * An op whose expression calls round, floor, ceil or trunc runs an SSE4.1 copy of its
 * kernel on x86 CPUs that have SSE4.1 (include/lpai_expr_math.h). Each case here runs
 * twice, as the kernel chooses and with SSE2 forced, dense, permuted and padded, and
 * small: the bytes must be the same, and the first run must have taken the SSE4.1 copy
 * wherever the CPU has SSE4.1. test_paths and the tests after it hold every path of the
 * SSE4.1 copy to the reference path (whose math is the SSE2 form in both copies). On
 * Hexagon both runs are the one form (the same calls, so that make hexagon-test's
 * digests compare). */
static void test_x86_isa(const op_case *op)
{
    if (!op->sse41) {
        return;
    }
    /* Every code of a unary op; 1,024 random ones otherwise (each case costs the Hexagon
     * run of make hexagon-test, where the float math is software, its time). */
    const uint32_t count = op->n_inputs == 1u ? 256u : 1024u;
    uint8_t *codes[NIN];
    uint8_t *chosen = (uint8_t *)malloc(count);
    uint8_t *sse2 = (uint8_t *)malloc(count);
    for (uint32_t k = 0; k < NIN; ++k) {
        codes[k] = (uint8_t *)malloc(count);
        for (uint32_t e = 0; e < count; ++e) {
            codes[k][e] = (uint8_t)(op->n_inputs == 1u ? e : rnd());
        }
    }
    const uint8_t *cc[NIN] = {codes[0], codes[1], codes[2], codes[3]};
    for (int layout = 0; layout < 3; ++layout) {
        lpai_emu_desc in[NIN], out;
        const uint32_t w = layout == 2 ? 5u : count / 32u; /* 5 elements: the small loop */
        const uint32_t c = layout == 2 ? 1u : 4u, h = layout == 2 ? 1u : 8u;
        for (uint32_t k = 0; k < NIN; ++k) {
            in[k] = desc4(1u, c, h, w);
            in[k].scale = rnd_scale();
            in[k].zero_point = (int32_t)(rnd() % 256u);
        }
        out = desc4(1u, c, h, w);
        out.scale = rnd_scale();
        out.zero_point = (int32_t)(rnd() % 256u);
        if (layout == 1) {
            permute_padded(&in[0], 3u);
            permute_padded(&out, 2u);
        }
        const uint32_t n = c * h * w;
        /* The kernel's choice (the direct loop here, or the small one), and a unary op's
         * table, whose 256 entries the blocked loop computes. */
        for (int mode = LPAI_EMU_PATH_AUTO; mode <= LPAI_EMU_PATH_TABLE; ++mode) {
            if (mode == LPAI_EMU_PATH_REFERENCE || mode == LPAI_EMU_PATH_DIRECT ||
                (mode == LPAI_EMU_PATH_TABLE && op->n_inputs != 1u)) {
                continue;
            }
            const int32_t rc = run(op, in, &out, cc, mode, chosen);
            const int ran_sse41 = lpai_emu_last_sse41();
            lpai_emu_x86_force_sse2(1);
            const int32_t rc2 = run(op, in, &out, cc, mode, sse2);
            const int forced_ran_sse41 = lpai_emu_last_sse41();
            lpai_emu_x86_force_sse2(0);
            CHECK(rc == 0 && rc2 == 0, "%s: layout %d path %d refused (%d, %d)", op->qnn_type, layout, mode, rc, rc2);
            CHECK(ran_sse41 == lpai_emu_x86_sse41() && !forced_ran_sse41,
                  "%s: layout %d path %d: the SSE4.1 copy ran %d, forced SSE2 %d (CPU has SSE4.1: %d)", op->qnn_type,
                  layout, mode, ran_sse41, forced_ran_sse41, lpai_emu_x86_sse41());
            uint32_t diff = 0;
            for (uint32_t e = 0; e < n; ++e) {
                diff += chosen[e] != sse2[e];
            }
            CHECK(diff == 0u, "%s: layout %d path %d: SSE4.1 and SSE2 differ on %u of %u codes", op->qnn_type, layout,
                  mode, diff, n);
        }
    }
    for (uint32_t k = 0; k < NIN; ++k) {
        free(codes[k]);
    }
    free(chosen);
    free(sse2);
}

/* ---- fast paths == reference path, scale forms agree ----------------------------- */
static void test_paths(const op_case *op)
{
    const uint32_t count = grid_count(op);
    uint8_t *codes[NIN];
    uint8_t *fast = (uint8_t *)malloc(count);
    uint8_t *ref = (uint8_t *)malloc(count);
    uint8_t *other = (uint8_t *)malloc(count);
    for (uint32_t k = 0; k < NIN; ++k) {
        codes[k] = (uint8_t *)malloc(count);
        fill_codes(op, k, codes[k], count);
    }
    for (int trial = 0; trial < LPAI_TEST_TRIALS; ++trial) {
        const int random_zp = trial >= LPAI_TEST_TRIALS / 2;
        lpai_emu_desc in[NIN], out;
        const uint32_t h = op->n_inputs == 1u ? 16u : (op->n_inputs == 2u ? 256u : 64u);
        for (uint32_t k = 0; k < NIN; ++k) {
            in[k] = desc4(1u, 1u, h, count / h);
            in[k].scale = rnd_scale();
            in[k].zero_point = random_zp ? (int32_t)(rnd() % 256u) : 0;
        }
        out = desc4(1u, 1u, h, count / h);
        out.scale = rnd_scale();
        out.zero_point = random_zp ? (int32_t)(rnd() % 256u) : 0;
        const uint8_t *cc[NIN] = {codes[0], codes[1], codes[2], codes[3]};
        const int32_t rc_fast = run(op, in, &out, cc, 0, fast);
        const char *path = lpai_emu_last_path();
        const int32_t rc_ref = run(op, in, &out, cc, 1, ref);
        CHECK(rc_fast == rc_ref, "%s: fast %d vs reference %d", op->qnn_type, rc_fast, rc_ref);
        if (rc_fast != 0) {
            break;
        }
        CHECK(strstr(path, "dense") != NULL, "%s: a dense tensor took path \"%s\"", op->qnn_type, path);
        uint32_t diff = 0;
        for (uint32_t e = 0; e < count; ++e) {
            diff += fast[e] != ref[e];
        }
        CHECK(diff == 0u, "%s: fast path differs from reference on %u of %u codes", op->qnn_type, diff, count);

        /* Every fast path, forced, writes the reference's bytes, dense and permuted. */
        for (int mode = LPAI_EMU_PATH_DIRECT; mode <= LPAI_EMU_PATH_TABLE; ++mode) {
            if (mode == LPAI_EMU_PATH_TABLE && op->n_inputs != 1u) {
                continue; /* binary ops have the direct path only */
            }
            const char *want = mode == LPAI_EMU_PATH_TABLE ? "table-dense" : "direct-dense";
            CHECK(run(op, in, &out, cc, mode, other) == 0, "%s: forced path %d refused", op->qnn_type, mode);
            CHECK(walked(want), "%s: forced %s, ran \"%s\"", op->qnn_type, want, lpai_emu_last_path());
            /* HVX builds: the table's lookups of a dense tensor run as vectors (vlut32);
             * a repacked call (layout_support: default) is dense whatever it was. */
            CHECK(lpai_emu_last_repacked() || lpai_emu_last_hvx() == (LPAI_HVX && mode == LPAI_EMU_PATH_TABLE),
                  "%s: %s, HVX %s", op->qnn_type, want, lpai_emu_last_hvx() ? "used" : "not used");
            diff = 0;
            for (uint32_t e = 0; e < count; ++e) {
                diff += other[e] != ref[e];
            }
            CHECK(diff == 0u, "%s: path %s differs from reference on %u codes", op->qnn_type, want, diff);
        }

        /* C1: the integer form at shift 37 (or the largest exact one) gives the same bytes. */
        for (uint32_t k = 0; k < NIN; ++k) {
            in[k].scale_form = LPAI_EMU_SCALE_INT;
            in[k].shift = 37;
            int32_t tmp;
            while (lpai_emu_int_scale(in[k].scale, in[k].shift, &tmp) != 0 && in[k].shift > 0) {
                --in[k].shift;
            }
        }
        /* The output stays in float form: were both sides converted wrongly by the
         * same factor, the ratio would hide it for linear ops. */
        CHECK(run(op, in, &out, cc, 0, other) == 0, "%s: integer scale form refused: %s", op->qnn_type,
              lpai_emu_last_reject());
        diff = 0;
        for (uint32_t e = 0; e < count; ++e) {
            diff += other[e] != fast[e];
        }
        CHECK(diff == 0u, "%s: integer scale form differs on %u codes (shift %d)", op->qnn_type, diff, in[0].shift);
        for (uint32_t k = 0; k < NIN; ++k) {
            in[k].scale_form = LPAI_EMU_SCALE_FLOAT;
        }

        /* C5: permuted, padded layouts, input and output different. */
        lpai_emu_desc pin[NIN], pout = desc4(1u, 4u, 8u, count / 32u);
        for (uint32_t k = 0; k < NIN; ++k) {
            pin[k] = desc4(1u, 4u, 8u, count / 32u);
            pin[k].scale = in[k].scale;
            pin[k].zero_point = in[k].zero_point;
        }
        pout.scale = out.scale;
        pout.zero_point = out.zero_point;
        permute_padded(&pin[0], 1u);
        permute_padded(&pout, 3u);
        CHECK(run(op, pin, &pout, cc, 0, other) == 0, "%s: permuted layout refused", op->qnn_type);
        CHECK(lpai_emu_padding_untouched(), "%s: the kernel wrote into the output's padding", op->qnn_type);
        CHECK(walked(NULL), "%s: permuted layout took path \"%s\"", op->qnn_type, lpai_emu_last_path());
        diff = 0;
        for (uint32_t e = 0; e < count; ++e) {
            diff += other[e] != fast[e];
        }
        CHECK(diff == 0u, "%s: permuted layouts differ from dense on %u codes", op->qnn_type, diff);
        CHECK(run(op, pin, &pout, cc, 1, ref) == 0, "%s: reference on permuted layout", op->qnn_type);
        diff = 0;
        for (uint32_t e = 0; e < count; ++e) {
            diff += other[e] != ref[e];
        }
        CHECK(diff == 0u, "%s: reference on permuted layouts differs on %u codes", op->qnn_type, diff);
        for (int mode = LPAI_EMU_PATH_DIRECT; mode <= LPAI_EMU_PATH_TABLE; ++mode) {
            if (mode == LPAI_EMU_PATH_TABLE && op->n_inputs != 1u) {
                continue;
            }
            const char *want = mode == LPAI_EMU_PATH_TABLE ? "table-walk" : "direct-walk";
            CHECK(run(op, pin, &pout, cc, mode, other) == 0, "%s: forced path %d refused", op->qnn_type, mode);
            CHECK(walked(want), "%s: forced %s, ran \"%s\"", op->qnn_type, want, lpai_emu_last_path());
            CHECK(lpai_emu_padding_untouched(), "%s: path %s wrote into the output's padding", op->qnn_type, want);
            CHECK(!lpai_emu_last_hvx(), "%s: %s on a strided walk ran HVX", op->qnn_type, want);
            diff = 0;
            for (uint32_t e = 0; e < count; ++e) {
                diff += other[e] != ref[e];
            }
            CHECK(diff == 0u, "%s: path %s on permuted layouts differs on %u codes", op->qnn_type, want, diff);
        }
    }
    for (uint32_t k = 0; k < NIN; ++k) {
        free(codes[k]);
    }
    free(fast);
    free(ref);
    free(other);
}

/* ---- padded rows: unit-step rows shorter than a block ----------------------------
 * The blocked loop packs rows shorter than LPAI_BLOCK across row ends into one block
 * (lpai_map_blocked_u8's short-row loop) and copies unit-step runs with fixed-size
 * words (lpai_copy_run: 1-3, 4-7, 8-15, 16-31, 32-63 and 64+ bytes); the row lengths
 * below reach every copy size, rows split across blocks, and rows of a block and
 * more. Identity order, padded rows and planes, each operand padded differently. */
static void pad_rows(lpai_emu_desc *d, uint32_t pad_row, uint32_t pad_plane)
{
    d->stride[3] = 1u;
    d->stride[2] = d->dims[3] + pad_row;
    d->stride[1] = d->stride[2] * d->dims[2] + pad_plane;
    d->stride[0] = d->stride[1] * d->dims[1] + pad_plane;
}

static void test_padded_rows(const op_case *op)
{
    /* Every row copy of lpai_map_short_rows_u8 (bytes below 16, two words from 16 to
     * 32, a loop of words above) and the general loop (130). */
    static const uint32_t widths[] = {3u, 6u, 12u, 15u, 16u, 28u, 32u, 33u, 40u, 100u, 127u, 130u};
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; ++i) {
        const uint32_t wd = widths[i], n = 3u * 5u * wd;
        uint8_t *codes[NIN];
        lpai_emu_desc in[NIN];
        for (uint32_t k = 0; k < NIN; ++k) {
            codes[k] = (uint8_t *)malloc(n);
            for (uint32_t e = 0; e < n; ++e) {
                codes[k][e] = (uint8_t)rnd();
            }
            in[k] = desc4(1u, 3u, 5u, wd);
            pad_rows(&in[k], k == 0u ? 4u : k, k == 0u ? 16u : 0u);
            in[k].scale = rnd_scale();
        }
        uint8_t *ref = (uint8_t *)malloc(n), *got = (uint8_t *)malloc(n);
        lpai_emu_desc out = desc4(1u, 3u, 5u, wd);
        pad_rows(&out, 3u, 5u);
        in[0].zero_point = (int32_t)(rnd() % 256u);
        out.scale = rnd_scale();
        out.zero_point = (int32_t)(rnd() % 256u);
        const uint8_t *cc[NIN] = {codes[0], codes[1], codes[2], codes[3]};
        CHECK(run(op, in, &out, cc, LPAI_EMU_PATH_REFERENCE, ref) == 0, "%s: reference on rows of %u", op->qnn_type,
              wd);
        for (int mode = LPAI_EMU_PATH_AUTO; mode <= LPAI_EMU_PATH_TABLE; ++mode) {
            if (mode == LPAI_EMU_PATH_REFERENCE || (mode == LPAI_EMU_PATH_TABLE && op->n_inputs != 1u)) {
                continue;
            }
            CHECK(run(op, in, &out, cc, mode, got) == 0, "%s: path %d on rows of %u", op->qnn_type, mode, wd);
            CHECK(walked(NULL), "%s: padded rows of %u took path \"%s\"", op->qnn_type, wd, lpai_emu_last_path());
            CHECK(lpai_emu_padding_untouched(), "%s: path %s wrote into the output's padding (rows of %u)",
                  op->qnn_type, lpai_emu_last_path(), wd);
            CHECK(memcmp(got, ref, n) == 0, "%s: path %s differs from reference on padded rows of %u", op->qnn_type,
                  lpai_emu_last_path(), wd);
            /* HVX builds: unit-step rows are looked up as vectors, a row shorter than
             * a vector (or its tail) as one masked vector (lpai_hvx_store_n). */
            CHECK(lpai_emu_last_hvx() == (LPAI_HVX && strcmp(lpai_emu_last_path(), "table-walk") == 0),
                  "%s: %s on rows of %u, HVX %s", op->qnn_type, lpai_emu_last_path(), wd,
                  lpai_emu_last_hvx() ? "used" : "not used");
        }
        for (uint32_t k = 0; k < NIN; ++k) {
            free(codes[k]);
        }
        free(ref);
        free(got);
    }
}

/* ---- tiles: an input whose rows are adjacent bytes --------------------------------
 * A channels-last input walked in the channels-first order of the others is read 8
 * rows (channels) at a time, by an in-register transpose (lpai_gather_tile in
 * lpai_elementwise.h). Each case puts the inputs of last_mask channels-last (the
 * channels unit-step, each position pad_last bytes apart beyond them), those of
 * bcast_mask of shape (1,C,1,1) (the channel only), the others and the output
 * channels-first (each channel plane pad_first bytes apart beyond the last); the
 * output is checked byte for byte against the reference path, on every path, and the
 * direct path must have used the tiles when the walk allows it: 8 channels or more,
 * rows (the positions, H x W) of a block or more. Channel counts and row lengths are
 * not multiples of the tile or the block, the batch dimension carries between groups
 * of rows, ranks 2 to 4, and a broadcast input or a second channels-last input rides
 * along. */
typedef struct {
    uint32_t rank;
    uint32_t dims[4]; /* logical; the channel is dimension 1 at rank 4, else 0 */
    uint32_t last_mask, bcast_mask, pad_last, pad_first;
} tile_case;

/* clang-format off */
static const tile_case k_tiles[] = {
    {4u, {2u, 13u, 5u, 26u}, 0x1u, 0x0u, 3u, 5u},  /* 8 + 5 channels, rows of 130 = 128 + 2 */
    {4u, {1u, 20u, 9u, 31u}, 0x1u, 0x0u, 0u, 0u},  /* dense: rows of 279, a remainder of 23 */
    {4u, {1u, 24u, 16u, 16u}, 0x1u, 0x0u, 0u, 0u}, /* whole tiles and blocks only */
    {3u, {9u, 4u, 40u, 0u}, 0x5u, 0x0u, 1u, 2u},   /* rank 3; inputs 0 and 2 channels-last */
    {2u, {8u, 200u, 0u, 0u}, 0x1u, 0x2u, 0u, 3u},  /* rank 2, one tile; input 1 broadcast */
    {4u, {1u, 16u, 8u, 16u}, 0x2u, 0x0u, 2u, 0u},  /* the tiled input is the second one */
    {4u, {1u, 7u, 10u, 20u}, 0x1u, 0x0u, 1u, 1u},  /* 7 channels: fewer than a tile, no tiles */
    {4u, {1u, 12u, 6u, 25u}, 0x1u, 0x2u, 2u, 4u},  /* input 1 broadcast (1,C,1,1) */
    {4u, {3u, 10u, 3u, 50u}, 0x6u, 0x1u, 1u, 2u},  /* input 0 broadcast, inputs 1 and 2 channels-last */
};
/* clang-format on */

static lpai_emu_desc tile_desc(const tile_case *t, int last, int bcast, uint32_t pad)
{
    const uint32_t c = t->rank == 4u ? 1u : 0u;
    lpai_emu_desc d = desc4(1u, 1u, 1u, 1u);
    d.rank = t->rank;
    uint32_t at = 0u;
    for (uint32_t i = 0; i < 4u; ++i) {
        d.dims[i] = i >= t->rank ? 0u : (bcast && i != c) ? 1u : t->dims[i];
        d.order[i] = (uint8_t)i;
    }
    for (uint32_t i = 0; i < t->rank && last; ++i) {
        if (i != c) {
            d.order[at++] = (uint8_t)i;
        }
    }
    if (last) {
        d.order[at] = (uint8_t)c;
    }
    if (bcast) {
        return d; /* dense */
    }
    uint32_t st = 1u;
    for (uint32_t i = t->rank; i-- > 0;) {
        d.stride[i] = st;
        st = st * d.dims[d.order[i]] + ((last ? i + 1u == t->rank : d.order[i] == c + 1u) ? pad : 0u);
    }
    return d;
}

static void test_tiles(const op_case *op)
{
    const uint32_t nin = op->n_inputs;
    for (size_t i = 0; i < sizeof k_tiles / sizeof k_tiles[0]; ++i) {
        const tile_case *t = &k_tiles[i];
        if ((t->bcast_mask & 1u) && nin == 1u) {
            continue; /* a broadcast input 0 needs a second input of the output's shape */
        }
        const uint32_t c = t->rank == 4u ? 1u : 0u;
        uint32_t count = 1u, row = 1u;
        for (uint32_t d = 0; d < t->rank; ++d) {
            count *= t->dims[d];
            row *= d > c ? t->dims[d] : 1u;
        }
        const uint32_t inputs = (1u << nin) - 1u;
        const int want = t->dims[c] >= 8u && row >= 128u && (t->last_mask & ~t->bcast_mask & inputs) != 0u;
        uint8_t *codes[NIN];
        lpai_emu_desc in[NIN];
        for (uint32_t k = 0; k < NIN; ++k) {
            codes[k] = (uint8_t *)malloc(count);
            for (uint32_t e = 0; e < count; ++e) {
                codes[k][e] = (uint8_t)rnd();
            }
            const int bcast = (t->bcast_mask >> k) & 1u;
            const int last = !bcast && ((t->last_mask >> k) & 1u);
            in[k] = tile_desc(t, last, bcast, last ? t->pad_last + k : t->pad_first + k);
            in[k].scale = rnd_scale();
            in[k].zero_point = (int32_t)(rnd() % 256u);
        }
        lpai_emu_desc out = tile_desc(t, 0, 0, t->pad_first + 1u);
        out.scale = rnd_scale();
        out.zero_point = (int32_t)(rnd() % 256u);
        uint8_t *ref = (uint8_t *)malloc(count), *got = (uint8_t *)malloc(count);
        const uint8_t *cc[NIN] = {codes[0], codes[1], codes[2], codes[3]};
        CHECK(run(op, in, &out, cc, LPAI_EMU_PATH_REFERENCE, ref) == 0, "%s: reference on tile case %zu refused (%s)",
              op->qnn_type, i, lpai_emu_last_reject());
        for (int mode = LPAI_EMU_PATH_AUTO; mode <= LPAI_EMU_PATH_TABLE; ++mode) {
            if (mode == LPAI_EMU_PATH_REFERENCE || (mode == LPAI_EMU_PATH_TABLE && nin != 1u)) {
                continue;
            }
            CHECK(run(op, in, &out, cc, mode, got) == 0, "%s: path %d on tile case %zu refused (%s)", op->qnn_type,
                  mode, i, lpai_emu_last_reject());
            CHECK(memcmp(got, ref, count) == 0, "%s: path %s differs from reference on tile case %zu", op->qnn_type,
                  lpai_emu_last_path(), i);
            CHECK(lpai_emu_padding_untouched(), "%s: path %s wrote into the output's padding (tile case %zu)",
                  op->qnn_type, lpai_emu_last_path(), i);
            if (mode == LPAI_EMU_PATH_DIRECT && !lpai_emu_last_repacked()) {
                CHECK(lpai_emu_last_tiled() == want, "%s: tile case %zu: tiles %s, expected %s", op->qnn_type, i,
                      lpai_emu_last_tiled() ? "used" : "not used", want ? "used" : "not used");
            }
            if (mode == LPAI_EMU_PATH_TABLE && !lpai_emu_last_repacked()) {
                /* HVX builds: the table's walk reads a channels-last input by tiles and
                 * looks their rows up as vectors, at any row length (a channels-first
                 * input has unit-step rows: vectors, no tiles). */
                const int last0 = (t->last_mask & 1u) != 0u;
                const int table_tiles = LPAI_HVX && LPAI_TILES && t->dims[c] >= 8u && last0;
                const int table_hvx = LPAI_HVX && (table_tiles || !last0);
                CHECK(lpai_emu_last_tiled() == table_tiles && lpai_emu_last_hvx() == table_hvx,
                      "%s: tile case %zu: table-walk tiles %s, HVX %s, expected %d and %d", op->qnn_type, i,
                      lpai_emu_last_tiled() ? "used" : "not used", lpai_emu_last_hvx() ? "used" : "not used",
                      table_tiles, table_hvx);
            }
        }
        for (uint32_t k = 0; k < NIN; ++k) {
            free(codes[k]);
        }
        free(ref);
        free(got);
    }
}

/* ---- every size: block tails, the cost-based choice ------------------------------ */
static void test_sizes(const op_case *op)
{
    static const uint32_t sizes[] = {1u, 7u, 12u, 16u, 40u, 63u, 64u, 65u, 200u, 300u, 1000u, 4096u};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        const uint32_t n = sizes[i];
        uint8_t *codes[NIN];
        lpai_emu_desc in[NIN];
        for (uint32_t k = 0; k < NIN; ++k) {
            codes[k] = (uint8_t *)malloc(n);
            for (uint32_t e = 0; e < n; ++e) {
                codes[k][e] = (uint8_t)rnd();
            }
            in[k] = desc4(1u, 1u, 1u, n);
            in[k].scale = rnd_scale();
            in[k].zero_point = (int32_t)(rnd() % 256u);
        }
        uint8_t *ref = (uint8_t *)malloc(n), *got = (uint8_t *)malloc(n);
        lpai_emu_desc out = desc4(1u, 1u, 1u, n);
        out.scale = rnd_scale();
        out.zero_point = (int32_t)(rnd() % 256u);
        const uint8_t *cc[NIN] = {codes[0], codes[1], codes[2], codes[3]};
        CHECK(run(op, in, &out, cc, LPAI_EMU_PATH_REFERENCE, ref) == 0, "%s: reference at %u elements", op->qnn_type,
              n);
        for (int mode = LPAI_EMU_PATH_AUTO; mode <= LPAI_EMU_PATH_TABLE; ++mode) {
            if (mode == LPAI_EMU_PATH_REFERENCE) {
                continue;
            }
            CHECK(run(op, in, &out, cc, mode, got) == 0, "%s: path %d at %u elements", op->qnn_type, mode, n);
            CHECK(memcmp(got, ref, n) == 0, "%s: path %s differs from reference at %u elements", op->qnn_type,
                  lpai_emu_last_path(), n);
            /* HVX builds: whole vectors through vlut32, the n % 128 left as one masked vector. */
            CHECK(lpai_emu_last_hvx() == (LPAI_HVX && strcmp(lpai_emu_last_path(), "table-dense") == 0),
                  "%s: %s at %u elements, HVX %s", op->qnn_type, lpai_emu_last_path(), n,
                  lpai_emu_last_hvx() ? "used" : "not used");
            if (mode == LPAI_EMU_PATH_AUTO && n <= 256u) {
                /* The table costs 256 evaluations: it never pays below 256 elements; up
                 * to 8 (LPAI_SMALL) every element is computed alone. */
                const char *want = n <= 8u ? "small" : "direct-dense";
                CHECK(strcmp(lpai_emu_last_path(), want) == 0, "%s: %u elements took %s", op->qnn_type, n,
                      lpai_emu_last_path());
            }
        }
        for (uint32_t k = 0; k < NIN; ++k) {
            free(codes[k]);
        }
        free(ref);
        free(got);
    }
}

/* ---- small tensors (up to LPAI_SMALL, 8 elements: each element computed alone) ----
 * The kernel's choice (auto) against the reference path, in dense, permuted padded
 * and, with two inputs or more, broadcast layouts (every input but the first (1,C,1,1)
 * or a single value): the offsets, the odometer and the broadcast steps of the small
 * loop are its own code. */
static void test_small(const op_case *op)
{
    /* One shape a line (no two braces in a row: this file is a Jinja template). */
    static const uint32_t shapes[][4] = {
        {1u, 1u, 1u, 1u},
        {1u, 2u, 1u, 3u},
        {1u, 1u, 1u, 7u},
        {2u, 2u, 2u, 1u},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
        const uint32_t *s = shapes[i];
        const uint32_t n = s[0] * s[1] * s[2] * s[3];
        for (int variant = 0; variant < 4; ++variant) { /* dense, permuted padded, (1,C,1,1), one value */
            if (variant >= 2 && op->n_inputs < 2u) {
                break;
            }
            uint8_t *codes[NIN];
            lpai_emu_desc in[NIN];
            for (uint32_t k = 0; k < NIN; ++k) {
                const int bcast = variant >= 2 && k > 0u;
                in[k] = bcast ? desc4(1u, variant == 2 ? s[1] : 1u, 1u, 1u) : desc4(s[0], s[1], s[2], s[3]);
                const uint32_t m = in[k].dims[0] * in[k].dims[1] * in[k].dims[2] * in[k].dims[3];
                codes[k] = (uint8_t *)malloc(m);
                for (uint32_t e = 0; e < m; ++e) {
                    codes[k][e] = (uint8_t)rnd();
                }
                if (variant == 1) {
                    permute_padded(&in[k], 1u + k);
                }
                in[k].scale = rnd_scale();
                in[k].zero_point = (int32_t)(rnd() % 256u);
            }
            lpai_emu_desc out = desc4(s[0], s[1], s[2], s[3]);
            if (variant == 1) {
                permute_padded(&out, 2u);
            }
            out.scale = rnd_scale();
            out.zero_point = (int32_t)(rnd() % 256u);
            uint8_t *ref = (uint8_t *)malloc(n), *got = (uint8_t *)malloc(n);
            const uint8_t *cc[NIN] = {codes[0], codes[1], codes[2], codes[3]};
            CHECK(run(op, in, &out, cc, LPAI_EMU_PATH_REFERENCE, ref) == 0, "%s: reference at %u elements (small)",
                  op->qnn_type, n);
            CHECK(run(op, in, &out, cc, LPAI_EMU_PATH_AUTO, got) == 0, "%s: %u elements (small) refused (%s)",
                  op->qnn_type, n, lpai_emu_last_reject());
            CHECK(strcmp(lpai_emu_last_path(), "small") == 0, "%s: %u elements took %s", op->qnn_type, n,
                  lpai_emu_last_path());
            CHECK(lpai_emu_padding_untouched(), "%s: the small loop wrote into the output's padding", op->qnn_type);
            CHECK(memcmp(got, ref, n) == 0, "%s: the small loop differs from reference at %u elements (variant %d)",
                  op->qnn_type, n, variant);
            for (uint32_t k = 0; k < NIN; ++k) {
                free(codes[k]);
            }
            free(ref);
            free(got);
        }
    }
}

/* ---- broadcasting: stride-0 walks against the inputs expanded by hand -------------
 * Each case gives every input its own shape; the output has their broadcast shape.
 * The oracle shares nothing with the kernel's broadcasting: the same op on inputs
 * expanded to the output's shape by this file (plain copies, dense) must give the
 * same bytes, on every path and in permuted, padded layouts. */
typedef struct {
    const char *what;
    uint32_t rank[NIN];
    uint32_t dims[NIN][4]; /* right-aligned: the first 4 - rank entries are unused */
    /* HVX builds (lpai_row_table_input): ops of 2 to this many inputs, dense, take the
     * per-row tables (rows of 512 or more, every input but the first constant along
     * them); 0: never. */
    uint32_t rowtable_upto;
} bcast_case;

/* One case a line (and no two braces in a row: this file is a Jinja template). */
/* clang-format off */
static const bcast_case k_bcast[] = {
    {"per-channel bias (1,C,1,1)", {4u, 4u, 4u, 4u}, { {1u, 4u, 8u, 16u}, {1u, 4u, 1u, 1u}, {1u, 4u, 8u, 16u}, {1u, 1u, 1u, 16u} }, 0u},
    {"lower rank (W) against (N,C,H,W)", {4u, 1u, 4u, 2u}, { {2u, 3u, 8u, 16u}, {0u, 0u, 0u, 16u}, {2u, 3u, 8u, 16u}, {0u, 0u, 8u, 1u} }, 0u},
    {"outer product (1,1,H,1) x (1,C,1,W)", {4u, 4u, 4u, 4u}, { {1u, 1u, 8u, 1u}, {1u, 4u, 1u, 16u}, {1u, 4u, 8u, 16u}, {1u, 4u, 1u, 1u} }, 0u},
    {"scalar-like (1) against (N,C,H,W)", {4u, 1u, 1u, 4u}, { {2u, 4u, 8u, 16u}, {0u, 0u, 0u, 1u}, {0u, 0u, 0u, 1u}, {2u, 4u, 8u, 16u} }, 3u},
    {"per-channel scale, rows of 600 (1,C,1,1)", {4u, 4u, 4u, 4u}, { {1u, 3u, 20u, 30u}, {1u, 3u, 1u, 1u}, {1u, 1u, 1u, 1u}, {1u, 3u, 1u, 1u} }, 4u},
};
/* clang-format on */

/* Logical row-major index of input k's element for output coordinate `coord`. */
static uint32_t bcast_index(const bcast_case *b, uint32_t k, const uint32_t *coord)
{
    uint32_t idx = 0u;
    for (uint32_t d = 4u - b->rank[k]; d < 4u; ++d) {
        idx = idx * b->dims[k][d] + (b->dims[k][d] == 1u ? 0u : coord[d]);
    }
    return idx;
}

static lpai_emu_desc bcast_desc(const bcast_case *b, uint32_t k)
{
    lpai_emu_desc d = desc4(1u, 1u, 1u, 1u);
    d.rank = b->rank[k];
    for (uint32_t i = 0; i < 4u; ++i) {
        d.dims[i] = i < d.rank ? b->dims[k][4u - d.rank + i] : 0u;
        d.order[i] = (uint8_t)i;
    }
    return d;
}

static void test_broadcast(const op_case *op)
{
    const uint32_t nin = op->n_inputs;
    for (size_t c = 0; c < sizeof k_bcast / sizeof k_bcast[0]; ++c) {
        const bcast_case *b = &k_bcast[c];
        uint32_t odims[4] = {1u, 1u, 1u, 1u};
        for (uint32_t k = 0; k < nin; ++k) {
            for (uint32_t d = 4u - b->rank[k]; d < 4u; ++d) {
                odims[d] = b->dims[k][d] > odims[d] ? b->dims[k][d] : odims[d];
            }
        }
        const uint32_t count = odims[0] * odims[1] * odims[2] * odims[3];
        lpai_emu_desc in[NIN], full[NIN];
        uint8_t *codes[NIN], *expanded[NIN];
        lpai_emu_desc out = desc4(odims[0], odims[1], odims[2], odims[3]);
        out.scale = rnd_scale();
        out.zero_point = (int32_t)(rnd() % 256u);
        for (uint32_t k = 0; k < NIN; ++k) {
            in[k] = bcast_desc(b, k);
            in[k].scale = rnd_scale();
            in[k].zero_point = (int32_t)(rnd() % 256u);
            full[k] = out;
            full[k].scale = in[k].scale;
            full[k].zero_point = in[k].zero_point;
            /* `count` codes: enough for this input and for the bad shapes below. */
            codes[k] = (uint8_t *)malloc(count);
            for (uint32_t e = 0; e < count; ++e) {
                codes[k][e] = (uint8_t)rnd();
            }
            expanded[k] = (uint8_t *)malloc(count);
            uint32_t coord[4];
            for (uint32_t e = 0; e < count; ++e) {
                coord[0] = e / (odims[1] * odims[2] * odims[3]);
                coord[1] = e / (odims[2] * odims[3]) % odims[1];
                coord[2] = e / odims[3] % odims[2];
                coord[3] = e % odims[3];
                expanded[k][e] = codes[k][bcast_index(b, k, coord)];
            }
        }
        uint8_t *want = (uint8_t *)malloc(count), *got = (uint8_t *)malloc(count);
        const uint8_t *cc[NIN] = {codes[0], codes[1], codes[2], codes[3]};
        const uint8_t *ee[NIN] = {expanded[0], expanded[1], expanded[2], expanded[3]};
        CHECK(run(op, full, &out, ee, LPAI_EMU_PATH_REFERENCE, want) == 0, "%s: expanded inputs refused", op->qnn_type);
        for (int layout = 0; layout < 2; ++layout) {
            lpai_emu_desc pin[NIN], pout = out;
            for (uint32_t k = 0; k < NIN; ++k) {
                pin[k] = in[k];
                if (layout == 1 && pin[k].rank == 4u) {
                    permute_padded(&pin[k], 1u + k);
                }
            }
            if (layout == 1) {
                permute_padded(&pout, 2u);
            }
            for (int mode = LPAI_EMU_PATH_AUTO; mode <= LPAI_EMU_PATH_DIRECT; ++mode) {
                const int32_t rc = run(op, pin, &pout, cc, mode, got);
                CHECK(rc == 0, "%s: %s refused (%s)", op->qnn_type, b->what, lpai_emu_last_reject());
                if (rc != 0) {
                    continue;
                }
                const int rows = LPAI_HVX && mode == LPAI_EMU_PATH_AUTO && layout == 0 && nin <= b->rowtable_upto;
                CHECK(mode == LPAI_EMU_PATH_REFERENCE || walked(rows ? "rowtable-walk" : "direct-walk"),
                      "%s: %s took path \"%s\"", op->qnn_type, b->what, lpai_emu_last_path());
                CHECK(lpai_emu_last_repacked() || lpai_emu_last_hvx() == rows, "%s: %s, HVX %s", op->qnn_type, b->what,
                      lpai_emu_last_hvx() ? "used" : "not used");
                CHECK(memcmp(got, want, count) == 0, "%s: %s (%s layout, path %s) differs from the expanded inputs",
                      op->qnn_type, b->what, layout ? "permuted" : "dense", lpai_emu_last_path());
                CHECK(lpai_emu_padding_untouched(), "%s: %s wrote into the output's padding", op->qnn_type, b->what);
            }
        }
        /* Shapes that do not broadcast, and an output that is not their broadcast. */
        lpai_emu_desc bad[NIN];
        for (uint32_t k = 0; k < NIN; ++k) {
            bad[k] = in[k];
        }
        bad[nin - 1u].dims[bad[nin - 1u].rank - 1u] = 3u; /* 3 against 16 or 1 */
        if (odims[3] != 3u) {
            CHECK(run(op, bad, &out, cc, 0, NULL) > 0 && lpai_emu_output_untouched() &&
                      strstr(lpai_emu_last_reject(), "shapes differ") != NULL,
                  "%s: %s: inputs that do not broadcast accepted", op->qnn_type, b->what);
        }
        lpai_emu_desc small = out;
        small.dims[1] = 1u; /* the output must be the broadcast shape, not less */
        if (odims[1] != 1u) {
            CHECK(run(op, in, &small, cc, 0, NULL) > 0 && lpai_emu_output_untouched(),
                  "%s: %s: an output smaller than the broadcast accepted", op->qnn_type, b->what);
        }
        for (uint32_t k = 0; k < NIN; ++k) {
            free(codes[k]);
            free(expanded[k]);
        }
        free(want);
        free(got);
    }
}

/* ---- the cost model's choice (lpai_drivers.h) --------------------------------------- */
static void test_cost_model(void)
{
    static const uint32_t costs[] = {0u, 1u, 10u, 40u, 100u, 1000u};
    for (size_t i = 0; i < sizeof costs / sizeof costs[0]; ++i) {
        for (int vec = 0; vec <= 1; ++vec) {
            for (uint32_t copies = 0; copies <= 2u; ++copies) {
                for (int dense = 0; dense <= 1; ++dense) {
                    CHECK(!lpai_unary_table_pays(256u, costs[i], vec, copies, 8u, dense),
                          "table chosen at 256 elements (cost %u)", costs[i]);
                    int was = 0;
                    for (uint64_t n = 1u; n < (1ull << 40); n *= 3u) {
                        const int now = lpai_unary_table_pays(n, costs[i], vec, copies, 8u, dense);
                        CHECK(now >= was, "choice not monotone in the element count (cost %u, %llu)", costs[i],
                              (unsigned long long)n);
                        was = now;
                    }
                }
            }
        }
    }
    /* Math cheaper than a lookup never takes the table on a dense tensor; copies of
     * strided operands make it pay; expensive math takes it early. */
#if defined(__hexagon__)
    /* Hexagon: the direct loop's float math is scalar and a lookup costs a fraction of
     * it, so even one multiplication takes the table on a large dense tensor. */
    CHECK(lpai_unary_table_pays(1ull << 40, 1u, 1, 0u, 1ull << 40, 1), "no table for one multiplication on Hexagon");
#else
    CHECK(!lpai_unary_table_pays(1ull << 40, 1u, 1, 0u, 1ull << 40, 1), "table chosen for one multiplication");
#endif
    CHECK(lpai_unary_table_pays(1ull << 20, 1u, 1, 2u, 28u, 0), "no table for a strided walk of 2^20 elements");
    CHECK(lpai_unary_table_pays(300u, 1000u, 0, 0u, 300u, 1), "no table for costly scalar math at 300 elements");
    CHECK(lpai_unary_table_pays(UINT64_MAX, 40u, 0, 0u, UINT64_MAX, 1), "no table at 2^64 - 1 elements");
}

/* ---- bad nodes are refused and the output stays untouched ------------------------ */
typedef struct {
    const char *what;
    const char *reason; /* substring of the kernel's reason */
    void (*mutate)(lpai_emu_desc *in, lpai_emu_desc *out);
} bad_case;

static void m_undef_in(lpai_emu_desc *i, lpai_emu_desc *o)
{
    (void)o;
    i->scale_form = LPAI_EMU_SCALE_UNDEFINED;
}
static void m_undef_out(lpai_emu_desc *i, lpai_emu_desc *o)
{
    (void)i;
    o->scale_form = LPAI_EMU_SCALE_UNDEFINED;
}
static void m_zero_in(lpai_emu_desc *i, lpai_emu_desc *o)
{
    (void)o;
    i->scale = 0.0f;
}
static void m_neg_out(lpai_emu_desc *i, lpai_emu_desc *o)
{
    (void)i;
    o->scale = -0.5f;
}
static void m_nan_in(lpai_emu_desc *i, lpai_emu_desc *o)
{
    (void)o;
    i->scale = NAN;
}
static void m_inf_out(lpai_emu_desc *i, lpai_emu_desc *o)
{
    (void)i;
    o->scale = INFINITY;
}
static void m_ratio(lpai_emu_desc *i, lpai_emu_desc *o)
{
    i->scale = 1e30f;
    o->scale = 1e-30f;
}
static void m_tiny_out(lpai_emu_desc *i, lpai_emu_desc *o)
{
    (void)i;
    o->scale = 1e-45f;
}
static void m_rank6(lpai_emu_desc *i, lpai_emu_desc *o)
{
    for (lpai_emu_desc *d = i; d; d = (d == i) ? o : NULL) {
        d->rank = 6u;
        d->dims[4] = 1u;
        d->dims[5] = 1u;
        d->order[4] = 4u;
        d->order[5] = 5u;
    }
}
static void m_layout_rank(lpai_emu_desc *i, lpai_emu_desc *o)
{
    (void)o;
    i->layout_rank = 3u;
}
static void m_shape(lpai_emu_desc *i, lpai_emu_desc *o)
{
    (void)i;
    o->dims[3] = 8u;
}
static void m_16bit(lpai_emu_desc *i, lpai_emu_desc *o)
{
    i->bits = 16u;
    o->bits = 16u;
}
static void m_int32(lpai_emu_desc *i, lpai_emu_desc *o)
{
    (void)o;
    i->report_type = LPAI_CUSTOM_OP_DATATYPE_INT_32;
}
static void m_form(lpai_emu_desc *i, lpai_emu_desc *o)
{
    (void)i;
    o->layout_form = (int32_t)QNN_LPAI_CUSTOM_OP_LAYOUT_FORM_UNDEFINED;
}
static void m_order(lpai_emu_desc *i, lpai_emu_desc *o)
{
    (void)o;
    i->order[1] = 0u;
}
static void m_offset(lpai_emu_desc *i, lpai_emu_desc *o)
{
    (void)o;
    i->zero_point = 100000;
}
/* 2^64 elements (the product wraps to 0): tiny buffers, one non-zero stride each. */
static void m_count(lpai_emu_desc *i, lpai_emu_desc *o)
{
    for (lpai_emu_desc *d = i; d; d = (d == i) ? o : NULL) {
        for (uint32_t k = 0; k < 4u; ++k) {
            d->dims[k] = 65536u;
            d->stride[k] = k == 3u ? 1u : 0u;
        }
    }
}
/* Rows of 16 one byte apart... at a row stride of 8: rows overlap. */
static void m_overlap(lpai_emu_desc *i, lpai_emu_desc *o)
{
    (void)i;
    o->stride[3] = 1u;
    o->stride[2] = 8u;
    o->stride[1] = 128u;
    o->stride[0] = 128u;
}

static const bad_case k_bad[] = {
    {"UNDEFINED input scale type", "UNDEFINED", m_undef_in},
    {"UNDEFINED output scale type", "UNDEFINED", m_undef_out},
    {"zero input scale", "zero, negative", m_zero_in},
    {"negative output scale", "zero, negative", m_neg_out},
    {"NaN input scale", "zero, negative", m_nan_in},
    {"inf output scale", "zero, negative", m_inf_out},
    {"overflowing scale ratio", "ratio", m_ratio},
    {"output scale whose reciprocal is inf", "ratio", m_tiny_out},
    {"rank 6", "rank", m_rank6},
    {"layout rank != shape rank", "rank", m_layout_rank},
    {"mismatched shapes", "shapes differ", m_shape},
    {"16-bit tensors", "8 bits", m_16bit},
    {"INT_32 tensor (how 16-bit arrives)", "8 bits", m_int32},
    {"non-FLAT layout form", "layout", m_form},
    {"layoutOrder not a permutation", "layout", m_order},
    {"offset outside the storage range", "offset", m_offset},
    {"2^64 elements", "overflows 64 bits", m_count},
    {"overlapping output elements", "overlapping", m_overlap},
};

static void test_rejections(const op_case *op)
{
    uint8_t codes[256];
    for (uint32_t e = 0; e < 256u; ++e) {
        codes[e] = (uint8_t)e;
    }
    const uint8_t *cc[NIN] = {codes, codes, codes, codes};
    for (size_t b = 0; b < sizeof k_bad / sizeof k_bad[0]; ++b) {
        /* The bad descriptor goes on every input in turn, and on the first output. */
        for (uint32_t k = 0; k < op->n_inputs; ++k) {
            lpai_emu_desc in[NIN], o = desc4(1u, 1u, 16u, 16u), outs[NOUT];
            for (uint32_t i = 0; i < NIN; ++i) {
                in[i] = desc4(1u, 1u, 16u, 16u);
            }
            k_bad[b].mutate(&in[k], &o);
            for (uint32_t i = 0; i < NIN; ++i) {
                if (in[k].bits == 16u || k_bad[b].mutate == m_count) {
                    in[i] = in[k]; /* every input 16-bit, or of the huge shape */
                }
            }
            derive_outputs(op, &o, outs);
            if (k_bad[b].mutate == m_count) {
                /* A later reduced output: tiny too (one non-zero stride), not a dense
                 * buffer of its reduced 2^32 or 2^48 elements, allocated, filled and
                 * digested for every input in turn (18 s of a 20 s suite, measured). */
                for (uint32_t j = 1; j < op->n_outputs; ++j) {
                    for (uint32_t d = 0; op->rules[j].kind == LPAI_SHAPE_REDUCE && d < outs[j].rank; ++d) {
                        outs[j].stride[d] = d + 1u == outs[j].rank ? 1u : 0u;
                    }
                }
            }
            if (op->rules[0].kind == LPAI_SHAPE_REDUCE) {
                if (k_bad[b].mutate == m_overlap || k_bad[b].mutate == m_count) {
                    continue; /* strides made for o's shape, not the reduced one */
                }
                if (k_bad[b].mutate == m_shape) {
                    outs[0].dims[outs[0].rank - 1u] += 1u;
                }
            }
            const int32_t rc = run(op, in, outs, cc, 0, NULL);
            CHECK(rc > 0, "%s: %s (input %u) accepted (rc %d)", op->qnn_type, k_bad[b].what, k, rc);
            CHECK(lpai_emu_output_untouched(), "%s: %s: output written before the refusal", op->qnn_type,
                  k_bad[b].what);
            CHECK(strstr(lpai_emu_last_reject(), k_bad[b].reason) != NULL,
                  "%s: %s refused for the wrong reason: \"%s\"", op->qnn_type, k_bad[b].what, lpai_emu_last_reject());
        }
    }
    if (op->n_params > 0u) {
        lpai_emu_desc in = desc4(1u, 1u, 16u, 16u), o = desc4(1u, 1u, 16u, 16u), outs[NOUT];
        derive_outputs(op, &o, outs);
        lpai_emu_reset();
        for (uint32_t k = 0; k < op->n_inputs; ++k) {
            lpai_emu_add_input(&in, codes);
        }
        for (uint32_t j = 0; j < op->n_outputs; ++j) {
            lpai_emu_add_output(&outs[j]);
        }
        push_params(op);
        lpai_emu_drop_params(1);
        CHECK(lpai_emu_execute(op->qnn_type, 0) > 0, "%s: ran without its parameters", op->qnn_type);
        CHECK(lpai_emu_output_untouched(), "%s: output written without parameters", op->qnn_type);
        /* getParamTensor looks a param up by its name: under any other name it is
         * not there (NULL), in any order it is. */
        for (int how = 0; how < 2; ++how) {
            lpai_emu_reset();
            for (uint32_t k = 0; k < op->n_inputs; ++k) {
                lpai_emu_add_input(&in, codes);
            }
            for (uint32_t j = 0; j < op->n_outputs; ++j) {
                lpai_emu_add_output(&outs[j]);
            }
            push_params_as(op, how ? "" : "_renamed", how);
            const int32_t rc = lpai_emu_execute(op->qnn_type, 0);
            if (how == 0) {
                CHECK(rc > 0 && lpai_emu_output_untouched() && strstr(lpai_emu_last_reject(), "parameter") != NULL,
                      "%s: ran with its params under other names (rc %d, \"%s\")", op->qnn_type, rc,
                      lpai_emu_last_reject());
            } else {
                CHECK(rc == 0 || strstr(lpai_emu_last_reject(), "not written yet") != NULL,
                      "%s: params in reverse order refused: %s", op->qnn_type, lpai_emu_last_reject());
            }
        }
    }
}

/* ---- custom ops: the user's math, its scratch ------------------------------------ */
static uint64_t desc_count(const lpai_emu_desc *d)
{
    uint64_t n = 1u;
    for (uint32_t i = 0; i < d->rank; ++i) {
        n *= d->dims[i];
    }
    return n;
}

/* Runs the custom op with getTempBuffer serving `temp` (LPAI_EMU_TEMP_*). */
static int32_t run_temp(const op_case *op, const lpai_emu_desc *in, const lpai_emu_desc *outs, const uint8_t *const *cc,
                        int64_t temp)
{
    lpai_emu_reset();
    for (uint32_t k = 0; k < op->n_inputs; ++k) {
        lpai_emu_add_input(&in[k], cc[k]);
    }
    for (uint32_t j = 0; j < op->n_outputs; ++j) {
        lpai_emu_add_output(&outs[j]);
    }
    push_params(op);
    lpai_emu_temp(temp);
    return lpai_emu_execute(op->qnn_type, 0);
}

static int test_custom(const op_case *op)
{
    uint8_t codes[256];
    for (uint32_t e = 0; e < 256u; ++e) {
        codes[e] = (uint8_t)e;
    }
    const uint8_t *cc[NIN] = {codes, codes, codes, codes};
    /* Two channels, so that a reduction over any dimension reduces something. */
    lpai_emu_desc in[NIN], o = desc4(1u, 2u, 8u, 16u), outs[NOUT];
    for (uint32_t k = 0; k < NIN; ++k) {
        in[k] = desc4(1u, 2u, 8u, 16u);
    }
    derive_outputs(op, &o, outs);

    /* Scratch: without it a whole-tensor op refuses cleanly (before the user's math,
     * so even an unwritten stub shows it); a rowwise op never asks for it. */
    static const int64_t missing[2] = {LPAI_EMU_TEMP_NULL, LPAI_EMU_TEMP_NO_CALL};
    for (int m = 0; m < 2; ++m) {
        const int32_t rc = run_temp(op, in, outs, cc, missing[m]);
        if (op->rowwise) {
            CHECK(!lpai_emu_temp_called(), "%s: a rowwise op called getTempBuffer", op->qnn_type);
            CHECK(rc == 0 || strstr(lpai_emu_last_reject(), "not written yet") != NULL,
                  "%s: rowwise op refused without scratch: %s", op->qnn_type, lpai_emu_last_reject());
        } else {
            CHECK(rc == (int32_t)LPAI_CUSTOM_OP_MEMORY && strstr(lpai_emu_last_reject(), "scratch") != NULL,
                  "%s: no scratch: rc %d, \"%s\"", op->qnn_type, rc, lpai_emu_last_reject());
            CHECK(lpai_emu_output_untouched(), "%s: output written without scratch", op->qnn_type);
        }
    }

    const int32_t rc = run_temp(op, in, outs, cc, LPAI_EMU_TEMP_ASKED);
    if (rc != 0 && strstr(lpai_emu_last_reject(), "not written yet")) {
        printf("NOTE %s (%s): user math not written yet; the Python kernel test fails until it is\n", op->qnn_type,
               op->torch_name);
        return 0;
    }
    CHECK(rc == 0, "%s: custom op failed: %s", op->qnn_type, lpai_emu_last_reject());
    /* The scratch the kernel used, against what getTempBufferSize asked for (the
     * emulator serves exactly that, so ASan also catches an overrun). */
    uint64_t floats = 0u;
    for (uint32_t k = 0; k < op->n_inputs; ++k) {
        floats += desc_count(&in[k]);
    }
    for (uint32_t j = 0; j < op->n_outputs; ++j) {
        floats += desc_count(&outs[j]);
    }
    const uint64_t want = op->rowwise ? (uint64_t)(op->n_inputs + op->n_outputs) * LPAI_ROW_MAX * 4u : floats * 4u;
    CHECK(lpai_emu_last_scratch() == want, "%s: used %llu bytes of scratch, expected %llu", op->qnn_type,
          (unsigned long long)lpai_emu_last_scratch(), (unsigned long long)want);
    CHECK(op->rowwise ? !lpai_emu_temp_called() : lpai_emu_last_scratch() <= lpai_emu_temp_served(),
          "%s: getTempBuffer served %llu bytes for %llu used", op->qnn_type, (unsigned long long)lpai_emu_temp_served(),
          (unsigned long long)lpai_emu_last_scratch());
    printf("SCRATCH %s inputs=%u outputs=%u shape=(1,2,8,16) %s=%llu bytes\n", op->qnn_type, op->n_inputs,
           op->n_outputs, op->rowwise ? "stack" : "temp", (unsigned long long)lpai_emu_last_scratch());
    uint8_t result[NOUT][256], other[256];
    for (uint32_t j = 0; j < op->n_outputs; ++j) {
        lpai_emu_read_output_k(j, result[j]);
    }
    /* Strided and permuted tensors reach the user's math in logical order. */
    for (uint32_t k = 0; k < op->n_inputs; ++k) {
        permute_padded(&in[k], 2u + k);
    }
    for (uint32_t j = 0; j < op->n_outputs; ++j) {
        if (outs[j].rank == 4u) {
            permute_padded(&outs[j], 1u + j);
        }
    }
    CHECK(run(op, in, outs, cc, 0, NULL) == 0, "%s: permuted layout refused", op->qnn_type);
    for (uint32_t j = 0; j < op->n_outputs; ++j) {
        lpai_emu_read_output_k(j, other);
        CHECK(memcmp(result[j], other, desc_count(&outs[j])) == 0, "%s: output %u depends on the layout", op->qnn_type,
              j);
    }
    CHECK(lpai_emu_padding_untouched(), "%s: wrote into the output's padding", op->qnn_type);
    if (!op->rowwise && want > 0u) {
        /* A byte less than the tensors need (dense tensors again: the size asked is
         * the same): refused from the size getTempBuffer reports, nothing written. */
        lpai_emu_desc din[NIN], dout = desc4(1u, 2u, 8u, 16u), douts[NOUT];
        for (uint32_t k = 0; k < NIN; ++k) {
            din[k] = desc4(1u, 2u, 8u, 16u);
        }
        derive_outputs(op, &dout, douts);
        const int32_t short_rc = run_temp(op, din, douts, cc, (int64_t)want - 1);
        CHECK(short_rc == (int32_t)LPAI_CUSTOM_OP_MEMORY && lpai_emu_output_untouched(),
              "%s: ran on %llu bytes of scratch for %llu needed (rc %d)", op->qnn_type, (unsigned long long)want - 1u,
              (unsigned long long)want, short_rc);
    }
    if (op->rowwise) {
        /* A row longer than the stack buffer holds: refused, nothing written. */
        lpai_emu_desc lin[NIN], lo = desc4(1u, 1u, 1u, LPAI_ROW_MAX + 1u), louts[NOUT];
        uint8_t *lc = (uint8_t *)calloc(LPAI_ROW_MAX + 1u, 1u);
        const uint8_t *lcc[NIN] = {lc, lc, lc, lc};
        for (uint32_t k = 0; k < NIN; ++k) {
            lin[k] = lo;
        }
        derive_outputs(op, &lo, louts);
        CHECK(run(op, lin, louts, lcc, 0, NULL) == (int32_t)LPAI_CUSTOM_OP_NOT_SUPPORTED &&
                  strstr(lpai_emu_last_reject(), "LPAI_ROW_MAX") != NULL && lpai_emu_output_untouched(),
              "%s: a row of %u elements: \"%s\"", op->qnn_type, LPAI_ROW_MAX + 1u, lpai_emu_last_reject());
        free(lc);
    }
    return 1;
}

/* ---- the custom-op drivers on a node of their own ---------------------------------
 * lpai_execute_custom and lpai_execute_custom_rowwise with a probe for the user's
 * math, whatever custom ops this package has: each input at its own shape, several
 * outputs of their own rules, values in logical order, the rowwise call per row. With
 * scale 1 and zero point 0 a code is its value, so the expected values are the codes. */
static int g_probe_calls;
static int g_probe_bad;

static int shape_is(const lpai_shape *s, uint32_t rank, const uint32_t *dims, uint64_t count)
{
    int ok = s->rank == rank && s->count == count;
    for (uint32_t d = 0; d < rank; ++d) {
        ok = ok && s->dims[d] == dims[d];
    }
    return ok;
}

/* x (1,2,3,4) codes e, w (4) codes 10 + e; out0 like w: 2 w; out1 reduce x over
 * [1] keepdim (1,1,3,4): the sum over the two channels; out2 reduce x over [-1, 0]
 * (2,3): the max of each row. */
static int probe_whole(const lpai_custom_call *c)
{
    static const uint32_t xd[4] = {1u, 2u, 3u, 4u}, wd[1] = {4u}, m1[4] = {1u, 1u, 3u, 4u}, m2[2] = {2u, 3u};
    ++g_probe_calls;
    if (!shape_is(&c->in_shape[0], 4u, xd, 24u) || !shape_is(&c->in_shape[1], 1u, wd, 4u) ||
        !shape_is(&c->out_shape[0], 1u, wd, 4u) || !shape_is(&c->out_shape[1], 4u, m1, 12u) ||
        !shape_is(&c->out_shape[2], 2u, m2, 6u)) {
        g_probe_bad |= 1;
        return 0;
    }
    for (uint32_t e = 0; e < 24u; ++e) {
        g_probe_bad |= (c->in[0][e] != (float)e) ? 2 : 0; /* logical order, whatever the layout */
    }
    for (uint32_t e = 0; e < 4u; ++e) {
        g_probe_bad |= (c->in[1][e] != (float)(10u + e)) ? 4 : 0;
        c->out[0][e] = 2.0f * c->in[1][e];
    }
    for (uint32_t e = 0; e < 12u; ++e) {
        c->out[1][e] = c->in[0][e] + c->in[0][12u + e];
    }
    for (uint32_t r = 0; r < 6u; ++r) {
        c->out[2][r] = c->in[0][4u * r + 3u];
    }
    return 0;
}

/* x, y (2,3,5), one row at a time: out0 like y: x + y; out1 reduce x over [-1]
 * keepdim (2,3,1): the row's first value. */
static int probe_rows(const lpai_custom_call *c)
{
    static const uint32_t row[1] = {5u}, one[1] = {1u};
    ++g_probe_calls;
    if (!shape_is(&c->in_shape[0], 1u, row, 5u) || !shape_is(&c->in_shape[1], 1u, row, 5u) ||
        !shape_is(&c->out_shape[0], 1u, row, 5u) || !shape_is(&c->out_shape[1], 1u, one, 1u)) {
        g_probe_bad |= 8;
        return 0;
    }
    for (uint32_t e = 0; e < 5u; ++e) {
        c->out[0][e] = c->in[0][e] + c->in[1][e];
    }
    c->out[1][0] = c->in[0][0];
    return 0;
}

static int probe_refuse(const lpai_custom_call *c)
{
    (void)c;
    ++g_probe_calls;
    return 7;
}

static lpai_emu_desc plain(uint32_t rank, const uint32_t *dims)
{
    lpai_emu_desc d = desc4(1u, 1u, 1u, 1u);
    d.rank = rank;
    for (uint32_t i = 0; i < LPAI_EMU_MAX_DIMS; ++i) {
        d.dims[i] = i < rank ? dims[i] : 0u;
        d.order[i] = (uint8_t)i;
    }
    d.scale = 1.0f;
    d.zero_point = 0;
    return d;
}

static void test_custom_drivers(void)
{
    static const uint32_t xd[4] = {1u, 2u, 3u, 4u}, wd[1] = {4u}, m1[4] = {1u, 1u, 3u, 4u}, m2[2] = {2u, 3u};
    static const lpai_shape_rule rules[3] = {
        {LPAI_SHAPE_LIKE, 1u, 0u, 0u, {0, 0, 0, 0, 0}},
        {LPAI_SHAPE_REDUCE, 0u, 1u, 1u, {1, 0, 0, 0, 0}},
        {LPAI_SHAPE_REDUCE, 0u, 0u, 2u, {-1, 0, 0, 0, 0}},
    };
    uint8_t xc[24], wc[4], got[30];
    for (uint32_t e = 0; e < 24u; ++e) {
        xc[e] = (uint8_t)e;
    }
    for (uint32_t e = 0; e < 4u; ++e) {
        wc[e] = (uint8_t)(10u + e);
    }
    lpai_emu_desc x = plain(4u, xd), w = plain(1u, wd), o[3] = {plain(1u, wd), plain(4u, m1), plain(2u, m2)};
    permute_padded(&x, 1u); /* the probe must still see logical order */
    /* No scratch (getTempBuffer fails), 4 bytes short of it, then exactly it. */
    const int64_t needed = 4 * (24 + 4 + 4 + 12 + 6);
    const int64_t serve[3] = {LPAI_EMU_TEMP_NULL, needed - 4, LPAI_EMU_TEMP_ASKED};
    for (int scratch = -1; scratch < 2; ++scratch) {
        lpai_emu_reset();
        lpai_emu_add_input(&x, xc);
        lpai_emu_add_input(&w, wc);
        for (uint32_t j = 0; j < 3u; ++j) {
            lpai_emu_add_output(&o[j]);
        }
        lpai_emu_temp(serve[scratch + 1]);
        g_probe_calls = 0;
        g_probe_bad = 0;
        QnnLpai_CustomOpNode_t node = (QnnLpai_CustomOpNode_t)lpai_emu_direct_begin();
        int32_t rc = lpai_execute_custom(node, "Probe", 2u, 3u, rules, NULL, 0u, probe_whole, "probe");
        lpai_emu_direct_end();
        if (scratch <= 0) {
            CHECK(rc == (int32_t)LPAI_CUSTOM_OP_MEMORY && g_probe_calls == 0 && lpai_emu_output_untouched(),
                  "custom driver %s scratch: rc %d, %d calls", scratch ? "without" : "on short", rc, g_probe_calls);
            continue;
        }
        CHECK(rc == 0 && g_probe_calls == 1 && g_probe_bad == 0, "custom driver: rc %d (%s), %d calls, bad %d", rc,
              lpai_emu_last_reject(), g_probe_calls, g_probe_bad);
        CHECK(lpai_emu_last_scratch() == 4u * (24u + 4u + 4u + 12u + 6u) &&
                  lpai_emu_last_scratch() == lpai_emu_temp_served(),
              "custom driver: %llu bytes of scratch", (unsigned long long)lpai_emu_last_scratch());
        lpai_emu_read_output_k(0u, got);
        for (uint32_t e = 0; e < 4u; ++e) {
            CHECK(got[e] == 2u * (10u + e), "like w: [%u] = %u", e, got[e]);
        }
        lpai_emu_read_output_k(1u, got);
        for (uint32_t e = 0; e < 12u; ++e) {
            CHECK(got[e] == e + e + 12u, "sum over channels: [%u] = %u", e, got[e]);
        }
        lpai_emu_read_output_k(2u, got);
        for (uint32_t r = 0; r < 6u; ++r) {
            CHECK(got[r] == 4u * r + 3u, "reduce [-1, 0]: [%u] = %u", r, got[r]);
        }
    }
    /* An output whose dims break its rule: refused before the math runs. */
    lpai_emu_desc bad = plain(4u, m1);
    bad.dims[1] = 2u;
    lpai_emu_reset();
    lpai_emu_add_input(&x, xc);
    lpai_emu_add_input(&w, wc);
    lpai_emu_add_output(&o[0]);
    lpai_emu_add_output(&bad);
    lpai_emu_add_output(&o[2]);
    g_probe_calls = 0;
    QnnLpai_CustomOpNode_t node = (QnnLpai_CustomOpNode_t)lpai_emu_direct_begin();
    int32_t rc = lpai_execute_custom(node, "Probe", 2u, 3u, rules, NULL, 0u, probe_whole, "probe");
    lpai_emu_direct_end();
    CHECK(rc > 0 && g_probe_calls == 0 && lpai_emu_output_untouched() &&
              strstr(lpai_emu_last_reject(), "shapes differ") != NULL,
          "an output against its reduce rule: rc %d, \"%s\"", rc, lpai_emu_last_reject());

    /* Rowwise: per row, from the stack buffer, never getTempBuffer. */
    static const uint32_t rd[3] = {2u, 3u, 5u}, kd[3] = {2u, 3u, 1u};
    static const lpai_shape_rule row_rules[2] = {
        {LPAI_SHAPE_LIKE, 1u, 0u, 0u, {0, 0, 0, 0, 0}},
        {LPAI_SHAPE_REDUCE, 0u, 1u, 1u, {-1, 0, 0, 0, 0}},
    };
    uint8_t rc0[30], rc1[30];
    for (uint32_t e = 0; e < 30u; ++e) {
        rc0[e] = (uint8_t)e;
        rc1[e] = (uint8_t)(100u + e);
    }
    lpai_emu_desc rx = plain(3u, rd), ry = plain(3u, rd), ro[2] = {plain(3u, rd), plain(3u, kd)};
    ry.stride[0] = 64u; /* padded planes: rows are addressed by the strides */
    ry.stride[1] = 8u;
    ry.stride[2] = 1u;
    float rows[(2u + 2u) * LPAI_ROW_MAX];
    for (int refuse = 0; refuse < 2; ++refuse) {
        lpai_emu_reset();
        lpai_emu_add_input(&rx, rc0);
        lpai_emu_add_input(&ry, rc1);
        lpai_emu_add_output(&ro[0]);
        lpai_emu_add_output(&ro[1]);
        lpai_emu_temp(LPAI_EMU_TEMP_NULL);
        g_probe_calls = 0;
        g_probe_bad = 0;
        node = (QnnLpai_CustomOpNode_t)lpai_emu_direct_begin();
        rc = lpai_execute_custom_rowwise(node, "ProbeRows", 2u, 2u, row_rules, NULL, 0u,
                                         refuse ? probe_refuse : probe_rows, "probe", rows);
        lpai_emu_direct_end();
        if (refuse) {
            CHECK(rc > 0 && g_probe_calls == 1 && lpai_emu_output_untouched(),
                  "rowwise refusal on the first row: rc %d, %d calls", rc, g_probe_calls);
            continue;
        }
        CHECK(rc == 0 && g_probe_calls == 6 && g_probe_bad == 0 && !lpai_emu_temp_called(),
              "rowwise driver: rc %d (%s), %d calls, bad %d", rc, lpai_emu_last_reject(), g_probe_calls, g_probe_bad);
        lpai_emu_read_output_k(0u, got);
        for (uint32_t e = 0; e < 30u; ++e) {
            CHECK(got[e] == (uint8_t)(e + 100u + e), "rowwise x + y: [%u] = %u", e, got[e]);
        }
        lpai_emu_read_output_k(1u, got);
        for (uint32_t r = 0; r < 6u; ++r) {
            CHECK(got[r] == 5u * r, "rowwise first of row: [%u] = %u", r, got[r]);
        }
    }
}

/* ---- the custom-op walks against the per-element definition ------------------------
 * lpai_gather_f32 and lpai_scatter_u8 walk rows (the innermost dimensions merged
 * while contiguous) in blocks of LPAI_LANES with a scalar tail, in the 8-bit
 * arithmetic of the blocked loop. Here they are held, float for float and byte for
 * byte (padding included), against each element read or written at its logical
 * coordinates through lpai_code_from_stored / lpai_requant_store, on layouts whose
 * rows are 330 (merged), 55 (two dims merged), 11 and 11 of step 15 (permuted), none a
 * multiple of LPAI_LANES, and quantizations whose offset wraps. */
#define WALK_BYTES 2048u

static uint64_t walk_offset(const lpai_view *v, uint64_t e)
{
    uint64_t off = 0u;
    for (uint32_t d = v->rank; d-- > 0;) {
        off += (e % v->dims[d]) * v->stride[d];
        e /= v->dims[d];
    }
    return off;
}

static void test_custom_walks(void)
{
    static const uint32_t dims[4] = {2u, 3u, 5u, 11u};
    static const uint64_t strides[4][4] = {
        {165u, 55u, 11u, 1u},  /* dense: one row of 330 */
        {180u, 60u, 11u, 1u},  /* padded channels: rows of 55 */
        {198u, 66u, 13u, 1u},  /* padded rows of 11 */
        {843u, 4u, 168u, 15u}, /* channels last, every dimension padded: rows of 11, step 15 */
    };
    static const float scales[3] = {0.05f, 0.3f, 1.0f / 7.0f};
    static const int32_t offsets[3] = {-128, 0, -255};
    const uint64_t count = 330u;
    static uint8_t in[WALK_BYTES], out[WALK_BYTES], want[WALK_BYTES];
    static float got[330], ref[330], src[330];
    for (uint32_t i = 0; i < WALK_BYTES; ++i) {
        in[i] = (uint8_t)rnd();
    }
    for (uint32_t l = 0; l < 4u; ++l) {
        lpai_view v;
        memset(&v, 0, sizeof v);
        v.rank = 4u;
        for (uint32_t d = 0; d < 4u; ++d) {
            v.dims[d] = dims[d];
            v.stride[d] = strides[l][d];
            v.order[d] = (uint8_t)d;
        }
        uint64_t extent = 0u;
        CHECK(lpai_view_extent(&v, &extent) && extent < WALK_BYTES && !lpai_view_overlaps(&v), "walk layout %u", l);
        for (uint32_t qi = 0; qi < 3u; ++qi) {
            lpai_quant q;
            lpai_requant rq;
            CHECK(lpai_quant_init(&q, scales[qi], offsets[qi], 8u) == LPAI_OK && lpai_requant_init(&rq, &q) == LPAI_OK,
                  "walk quant %u", qi);
            v.data = in;
            lpai_gather_f32(&v, &q, got);
            for (uint64_t e = 0; e < count; ++e) {
                ref[e] = q.scale * (float)lpai_code_from_stored(lpai_load_stored(in + walk_offset(&v, e), 8u), &q);
            }
            CHECK(memcmp(got, ref, sizeof ref) == 0, "gather, layout %u, quant %u: not the per-element values", l, qi);
            /* Values around every code: ties, both ends, beyond them, NaN and infinities. */
            for (uint64_t e = 0; e < count; ++e) {
                const float code = (float)((int32_t)(rnd() % 300u) - 150 + q.lo + 128) + 0.5f * (float)(rnd() % 3u);
                src[e] = code * q.scale;
            }
            src[0] = NAN;
            src[1] = INFINITY;
            src[2] = -INFINITY;
            src[count - 1u] = -0.0f;
            memset(out, 0xA5, sizeof out);
            memcpy(want, out, sizeof out);
            v.data = out;
            lpai_scatter_u8(&v, &rq, src);
            for (uint64_t e = 0; e < count; ++e) {
                want[walk_offset(&v, e)] = (uint8_t)lpai_requant_store(src[e], &rq);
            }
            CHECK(memcmp(out, want, sizeof out) == 0, "scatter, layout %u, quant %u: not the per-element bytes", l, qi);
            lpai_emu_digest_bytes(got, sizeof got); /* computed outside the emulator */
            lpai_emu_digest_bytes(out, sizeof out);
        }
    }
}

/* ---- C3 at exact ties, odd zero points, every path ----------------------------------
 * The kernels requantize as ExecuTorch's quantize_per_tensor kernel and torch's
 * quantized_decomposed.quantize_per_tensor (the op of the exported graph) do: round
 * half to even of value / scale, then add the zero point. torch.quantize_per_tensor
 * (quint8 tensors, FBGEMM) adds the zero point first; at an exact tie with an odd zero
 * point the two differ by one (qnn-op-template/docs/spec.md, "Rounding"). An identity
 * math with input scale 2^-k and output scale 2^(1-k) puts every other code exactly on
 * a tie; the expected code is integer arithmetic, independent of the kernel. */
static float tie_ident1(float a, const float *p)
{
    (void)p;
    return a;
}

static float tie_ident_v(const float *v, const float *p)
{
    (void)p;
    return v[0];
}

static float tie_add2(float a, float b, const float *p)
{
    (void)p;
    return a + b;
}

static float tie_add_v(const float *v, const float *p)
{
    (void)p;
    return v[0] + v[1];
}

static int tie_copy(const lpai_custom_call *c)
{
    for (uint64_t e = 0; e < c->in_shape[0].count; ++e) {
        c->out[0][e] = c->in[0][e];
    }
    return 0;
}

/* zp_out + round-half-even((q - zp_in) / 2), clamped to the 8-bit codes. */
static uint8_t tie_expected(int32_t q, int32_t zp_in, int32_t zp_out)
{
    const int32_t d = q - zp_in;
    int32_t r = d / 2; /* truncates toward zero */
    if (d % 2 != 0) {
        const int32_t other = d > 0 ? r + 1 : r - 1;
        r = (r % 2 == 0) ? r : other;
    }
    const int32_t code = r + zp_out;
    return (uint8_t)(code < 0 ? 0 : code > 255 ? 255 : code);
}

static void test_requant_ties(void)
{
    static const int32_t zps[5] = {1, 125, 131, 255, 128};
    static const float in_scales[2] = {0.5f, 0.125f};
    static const char *const modes[4] = {"auto", "reference", "direct", "table"};
    static const int mode_values[4] = {0, LPAI_HOST_REFERENCE, LPAI_HOST_FORCE_DIRECT, LPAI_HOST_FORCE_TABLE};
    static const lpai_shape_rule like0 = {LPAI_SHAPE_LIKE, 0u, 0u, 0u, {0, 0, 0, 0, 0}};
    uint8_t codes[256], zero[1], got[256];
    static float rows[2u * LPAI_ROW_MAX];
    for (uint32_t e = 0; e < 256u; ++e) {
        codes[e] = (uint8_t)e;
    }
    const int saved = lpai_host_use_reference;
    for (uint32_t z = 0; z < 5u; ++z) {
        for (uint32_t si = 0; si < 2u; ++si) {
            const int32_t zp_in = 100, zp_out = zps[z];
            for (int layout = 0; layout < 2; ++layout) {
                lpai_emu_desc in = desc4(1u, 1u, 16u, 16u), out = desc4(1u, 1u, 16u, 16u);
                in.scale = in_scales[si];
                in.zero_point = zp_in;
                out.scale = 2.0f * in_scales[si];
                out.zero_point = zp_out;
                if (layout) { /* the walks */
                    permute_padded(&in, 1u);
                    permute_padded(&out, 2u);
                }
                /* unary: the cost-based choice, the reference, the direct and the table paths */
                for (int m = 0; m < 4; ++m) {
                    lpai_host_use_reference = mode_values[m];
                    lpai_emu_reset();
                    lpai_emu_add_input(&in, codes);
                    lpai_emu_add_output(&out);
                    QnnLpai_CustomOpNode_t node = (QnnLpai_CustomOpNode_t)lpai_emu_direct_begin();
                    const int32_t rc = lpai_execute_unary_u8(node, "Ties", NULL, 0u, tie_ident_v, tie_ident1, 1u, 1);
                    lpai_emu_direct_end();
                    lpai_emu_read_output(got);
                    int bad = -1;
                    for (uint32_t e = 0; e < 256u && bad < 0; ++e) {
                        bad = got[e] == tie_expected((int32_t)e, zp_in, zp_out) ? -1 : (int)e;
                    }
                    CHECK(rc == 0 && bad < 0, "ties, zp %d, scale %g, %s path, layout %d: code %d gives %u, want %u",
                          zp_out, (double)in.scale, modes[m], layout, bad, bad < 0 ? 0u : got[bad],
                          bad < 0 ? 0u : tie_expected(bad, zp_in, zp_out));
                }
                /* binary with a broadcast zero: a + 0 on the direct and the reference paths */
                lpai_emu_desc b = desc4(1u, 1u, 1u, 1u);
                b.scale = 1.0f;
                b.zero_point = 7;
                zero[0] = 7u;
                for (int m = 0; m < 2; ++m) {
                    lpai_host_use_reference = m ? LPAI_HOST_REFERENCE : 0;
                    lpai_emu_reset();
                    lpai_emu_add_input(&in, codes);
                    lpai_emu_add_input(&b, zero);
                    lpai_emu_add_output(&out);
                    QnnLpai_CustomOpNode_t node = (QnnLpai_CustomOpNode_t)lpai_emu_direct_begin();
                    const int32_t rc = lpai_execute_binary_u8(node, "TiesB", NULL, 0u, tie_add_v, tie_add2);
                    lpai_emu_direct_end();
                    lpai_emu_read_output(got);
                    int bad = -1;
                    for (uint32_t e = 0; e < 256u && bad < 0; ++e) {
                        bad = got[e] == tie_expected((int32_t)e, zp_in, zp_out) ? -1 : (int)e;
                    }
                    CHECK(rc == 0 && bad < 0, "ties, broadcast, zp %d, %s path, layout %d: code %d", zp_out,
                          m ? "reference" : "direct", layout, bad);
                }
                /* custom ops: whole tensor (gather, scatter) and rowwise (row requantization) */
                for (int rowwise = 0; rowwise < 2; ++rowwise) {
                    lpai_host_use_reference = saved;
                    lpai_emu_reset();
                    lpai_emu_add_input(&in, codes);
                    lpai_emu_add_output(&out);
                    lpai_emu_temp(LPAI_EMU_TEMP_ASKED);
                    QnnLpai_CustomOpNode_t node = (QnnLpai_CustomOpNode_t)lpai_emu_direct_begin();
                    const int32_t rc =
                        rowwise
                            ? lpai_execute_custom_rowwise(node, "TiesR", 1u, 1u, &like0, NULL, 0u, tie_copy, "t", rows)
                            : lpai_execute_custom(node, "TiesC", 1u, 1u, &like0, NULL, 0u, tie_copy, "t");
                    lpai_emu_direct_end();
                    lpai_emu_read_output(got);
                    int bad = -1;
                    for (uint32_t e = 0; e < 256u && bad < 0; ++e) {
                        bad = got[e] == tie_expected((int32_t)e, zp_in, zp_out) ? -1 : (int)e;
                    }
                    CHECK(rc == 0 && bad < 0, "ties, custom %s, zp %d, layout %d: rc %d, code %d",
                          rowwise ? "rowwise" : "whole", zp_out, layout, rc, bad);
                }
            }
        }
    }
    lpai_host_use_reference = saved;
}

#if !defined(LPAI_INFERENCE_ONLY)
/* ---- host validateOpConfig ------------------------------------------------------- */
/* The scalar types ExecuTorch sends: FLOAT_32 for a float param, UINT_32 for int and bool. */
static uint32_t qnn_param_type(ptype t)
{
    return t == P_F32 ? (uint32_t)QNN_DATATYPE_FLOAT_32 : (uint32_t)QNN_DATATYPE_UINT_32;
}

/* Inputs of `rank` dims of 4; outputs shaped by the op's rules, output 0's last
 * dimension moved by out_last_dim - 4 (4: valid). */
static int64_t validate_typed(const op_case *op, uint32_t in_type, uint32_t out_type, uint32_t rank,
                              uint32_t out_last_dim, const char *const *names, const uint32_t *ptypes, uint32_t n_names)
{
    uint32_t types[NIN + NOUT], ranks[NIN + NOUT], dims[(NIN + NOUT) * LPAI_EMU_MAX_DIMS];
    uint32_t in_dims[NIN][LPAI_MAX_RANK];
    for (uint32_t k = 0; k < op->n_inputs; ++k) {
        types[k] = in_type;
        ranks[k] = rank;
        for (uint32_t d = 0; d < LPAI_EMU_MAX_DIMS; ++d) {
            dims[k * LPAI_EMU_MAX_DIMS + d] = 4u;
        }
        for (uint32_t d = 0; d < LPAI_MAX_RANK; ++d) {
            in_dims[k][d] = 4u;
        }
    }
    for (uint32_t j = 0; j < op->n_outputs; ++j) {
        const uint32_t t = op->n_inputs + j;
        uint32_t want[LPAI_MAX_RANK] = {0u};
        uint32_t want_rank = rank;
        types[t] = out_type;
        if (!lpai_rule_dims(&op->rules[j], op->n_inputs, ranks, (const uint32_t (*)[LPAI_MAX_RANK])in_dims, &want_rank,
                            want)) {
            want_rank = rank; /* rank 6: refused for its rank first */
            for (uint32_t d = 0; d < LPAI_MAX_RANK; ++d) {
                want[d] = 4u;
            }
        }
        ranks[t] = want_rank;
        for (uint32_t d = 0; d < LPAI_EMU_MAX_DIMS; ++d) {
            dims[t * LPAI_EMU_MAX_DIMS + d] = d < LPAI_MAX_RANK ? want[d] : 4u;
        }
        if (j == 0u && want_rank > 0u) {
            dims[t * LPAI_EMU_MAX_DIMS + want_rank - 1u] += out_last_dim - 4u;
        }
    }
    return lpai_emu_validate(LPAI_PACKAGE_NAME, op->qnn_type, op->n_inputs, op->n_outputs, types, ranks, dims, n_names,
                             names, ptypes);
}

/* With the parameter types ExecuTorch sends for this op. */
static int64_t validate(const op_case *op, uint32_t in_type, uint32_t out_type, uint32_t rank, uint32_t out_last_dim,
                        const char *const *names, uint32_t n_names)
{
    uint32_t ptypes[LPAI_MAX_PARAMS + 1u];
    for (uint32_t p = 0; p < LPAI_MAX_PARAMS + 1u; ++p) {
        ptypes[p] = p < op->n_params ? qnn_param_type(op->ptypes[p]) : (uint32_t)QNN_DATATYPE_FLOAT_32;
    }
    return validate_typed(op, in_type, out_type, rank, out_last_dim, names, ptypes, n_names);
}

/* ExecuTorch's builder makes a node with one input per tensor argument of the schema
 * and one output per declared output: a node with one more or one fewer of either is
 * refused (validateOpConfig and the op's validateOp both count them). */
static void test_validation_counts(const op_case *op)
{
    uint32_t types[NIN + NOUT], ranks[NIN + NOUT], dims[(NIN + NOUT) * LPAI_EMU_MAX_DIMS];
    uint32_t ptypes[LPAI_MAX_PARAMS + 1u];
    for (uint32_t t = 0; t < NIN + NOUT; ++t) {
        types[t] = QNN_DATATYPE_UINT_8;
        ranks[t] = 4u;
        for (uint32_t d = 0; d < LPAI_EMU_MAX_DIMS; ++d) {
            dims[t * LPAI_EMU_MAX_DIMS + d] = 4u;
        }
    }
    for (uint32_t p = 0; p < LPAI_MAX_PARAMS + 1u; ++p) {
        ptypes[p] = p < op->n_params ? qnn_param_type(op->ptypes[p]) : (uint32_t)QNN_DATATYPE_FLOAT_32;
    }
    /* Two arrays, not one of pairs: a double brace would start a Jinja expression. */
    const uint32_t nins[4] = {op->n_inputs - 1u, op->n_inputs + 1u, op->n_inputs, op->n_inputs};
    const uint32_t nouts[4] = {op->n_outputs, op->n_outputs, op->n_outputs - 1u, op->n_outputs + 1u};
    for (uint32_t c = 0; c < 4u; ++c) {
        const uint32_t nin = nins[c], nout = nouts[c];
        if (nin == 0u || nout == 0u || nin > NIN || nout > NOUT) {
            continue;
        }
        CHECK(lpai_emu_validate(LPAI_PACKAGE_NAME, op->qnn_type, nin, nout, types, ranks, dims, op->n_params,
                                op->pnames, ptypes) != 0,
              "%s: a node of %u inputs and %u outputs accepted", op->qnn_type, nin, nout);
    }
}

static void test_validation(const op_case *op)
{
    const char *const *names = op->pnames;
    const uint32_t np = op->n_params;
    /* C7: both spellings, also mixed, since validation runs before and after folding. */
    CHECK(validate(op, QNN_DATATYPE_UINT_8, QNN_DATATYPE_UINT_8, 4u, 4u, names, np) == 0, "%s: UINT_8 refused",
          op->qnn_type);
    CHECK(validate(op, QNN_DATATYPE_UFIXED_POINT_8, QNN_DATATYPE_UFIXED_POINT_8, 4u, 4u, names, np) == 0,
          "%s: UFIXED_POINT_8 refused", op->qnn_type);
    CHECK(validate(op, QNN_DATATYPE_UINT_8, QNN_DATATYPE_UFIXED_POINT_8, 4u, 4u, names, np) == 0,
          "%s: mixed 8-bit spellings refused", op->qnn_type);
    /* C8 */
    CHECK(validate(op, QNN_DATATYPE_INT_32, QNN_DATATYPE_INT_32, 4u, 4u, names, np) != 0, "%s: INT_32 accepted",
          op->qnn_type);
    CHECK(validate(op, QNN_DATATYPE_UFIXED_POINT_16, QNN_DATATYPE_UFIXED_POINT_16, 4u, 4u, names, np) != 0,
          "%s: 16-bit accepted", op->qnn_type);
    CHECK(validate(op, QNN_DATATYPE_UINT_8, QNN_DATATYPE_UINT_8, 6u, 4u, names, np) != 0, "%s: rank 6 accepted",
          op->qnn_type);
    CHECK(validate(op, QNN_DATATYPE_UINT_8, QNN_DATATYPE_UINT_8, 4u, 5u, names, np) != 0,
          "%s: mismatched shapes accepted", op->qnn_type);
    if (np > 0u) {
        const char *wrong[LPAI_MAX_PARAMS];
        for (uint32_t p = 0; p < LPAI_MAX_PARAMS; ++p) {
            wrong[p] = p == 0u ? "not_a_param" : "x";
        }
        CHECK(validate(op, QNN_DATATYPE_UINT_8, QNN_DATATYPE_UINT_8, 4u, 4u, wrong, np) != 0,
              "%s: wrong parameter name accepted", op->qnn_type);
        /* The types an OpDef would naturally declare (INT_32, BOOL_8) and a float where
         * a uint32 is expected are what the kernel would misread: refused. */
        uint32_t ptypes[LPAI_MAX_PARAMS];
        for (uint32_t p = 0; p < np; ++p) {
            ptypes[p] = qnn_param_type(op->ptypes[p]);
        }
        for (uint32_t p = 0; p < np; ++p) {
            const uint32_t keep = ptypes[p];
            const uint32_t bad[3] = {QNN_DATATYPE_INT_32, QNN_DATATYPE_BOOL_8,
                                     keep == (uint32_t)QNN_DATATYPE_FLOAT_32 ? (uint32_t)QNN_DATATYPE_UINT_32
                                                                             : (uint32_t)QNN_DATATYPE_FLOAT_32};
            for (uint32_t b = 0; b < 3u; ++b) {
                ptypes[p] = bad[b];
                CHECK(validate_typed(op, QNN_DATATYPE_UINT_8, QNN_DATATYPE_UINT_8, 4u, 4u, names, ptypes, np) != 0,
                      "%s: parameter %s of type 0x%x accepted", op->qnn_type, names[p], (unsigned)bad[b]);
            }
            ptypes[p] = keep;
        }
    }
    CHECK(validate(op, QNN_DATATYPE_UINT_8, QNN_DATATYPE_UINT_8, 4u, 4u, names, np + 1u) != 0,
          "%s: extra parameter accepted", op->qnn_type);
    test_validation_counts(op);
}
#endif

/* With LPAI_TEST_DIGEST set, one line per test and op: a digest of every status and
 * output byte it computed (lpai_emu_digest_take). `make hexagon-test` runs the suite
 * built for x86_64 and for Hexagon (both with zig, on the same musl libm) and compares
 * the lines: the two builds must compute the same bytes on every case. */
static int g_digest = 0;

static void digest(const char *test, const char *op)
{
    uint32_t calls = 0u;
    const uint64_t d = lpai_emu_digest_take(&calls);
    if (g_digest) {
        printf("DIGEST %s %s calls=%u %016llx\n", test, op, calls, (unsigned long long)d);
    }
}

/* Every op declares the layout support the spec chose (layout_support, lpai_package.h):
 * SHAPE_NE_LAYOUT where the header defines it, DEFAULT otherwise. */
#if LPAI_LAYOUT_SUPPORT_SHAPE_NE_LAYOUT && defined(QNN_LPAI_OP_LAYOUT_SHAPE_NE_LAYOUT)
#define WANT_LAYOUT_FLAG QNN_LPAI_OP_LAYOUT_SHAPE_NE_LAYOUT
#else
#define WANT_LAYOUT_FLAG QNN_LPAI_OP_LAYOUT_DEFAULT
#endif
static void test_layout_flag_values(void)
{
    for (size_t i = 0; i < N_OPS; ++i) {
        CHECK(lpai_emu_layout_flag(k_ops[i].qnn_type) == WANT_LAYOUT_FLAG,
              "%s: layout support flag 0x%x, the spec says 0x%x", k_ops[i].qnn_type,
              (unsigned)lpai_emu_layout_flag(k_ops[i].qnn_type), (unsigned)WANT_LAYOUT_FLAG);
    }
}

static void test_layout_flag(void)
{
    const uint32_t want = WANT_LAYOUT_FLAG;
    test_layout_flag_values();
    /* What the flag means for the kernel: a permuted, padded node reaches it as given
     * under SHAPE_NE_LAYOUT, repacked to dense under DEFAULT. */
    const op_case *op = &k_ops[0];
    lpai_emu_desc in[NIN], out = desc4(1u, 2u, 4u, 8u), outs[NOUT];
    uint8_t codes[64];
    for (uint32_t e = 0; e < 64u; ++e) {
        codes[e] = (uint8_t)(e * 3u);
    }
    const uint8_t *cc[NIN] = {codes, codes, codes, codes};
    for (uint32_t k = 0; k < NIN; ++k) {
        in[k] = desc4(1u, 2u, 4u, 8u);
    }
    permute_padded(&in[0], 1u);
    derive_outputs(op, &out, outs);
    (void)run(op, in, outs, cc, 0, NULL);
    CHECK(lpai_emu_last_repacked() == (want == QNN_LPAI_OP_LAYOUT_DEFAULT), "%s: flag 0x%x but the node was %s",
          op->qnn_type, (unsigned)want, lpai_emu_last_repacked() ? "repacked" : "handed as given");
}

#if !defined(LPAI_INFERENCE_ONLY)
/* `test_kernels --library <libQnn...so>`: the host library built by `make lpai_x86`
 * (against the SDK), loaded as the runtime loads it: it registers, reports the layout
 * flag, answers getInfo and validateOpConfig as the package linked here does. */
static int test_library(const char *path)
{
    lpai_emu_quiet(getenv("LPAI_TEST_VERBOSE") == NULL);
    CHECK(lpai_emu_load_library(path) == 0, "%s does not load or has no interface provider", path);
    if (g_failures == 0) {
        CHECK(lpai_emu_register() == 0, "%s: registration fails", path);
        test_layout_flag_values();
        for (size_t i = 0; i < N_OPS; ++i) {
            test_validation(&k_ops[i]);
        }
    }
    printf("%s: %s: %d checks, %d failures\n", g_failures ? "FAILED" : "ok", path, g_checks, g_failures);
    return g_failures ? 1 : 0;
}
#endif

int main(int argc, char **argv)
{
#if !defined(LPAI_INFERENCE_ONLY)
    if (argc == 3 && strcmp(argv[1], "--library") == 0) {
        return test_library(argv[2]);
    }
#endif
    if (argc != 1) {
        printf("usage: %s [--library libQnn<Package>.so]\n", argv[0]);
        return 2;
    }
    /* Expected refusals would flood stderr; failures print on stdout. LPAI_TEST_VERBOSE
     * shows the package's own diagnostics. */
    lpai_emu_quiet(getenv("LPAI_TEST_VERBOSE") == NULL);
    g_digest = getenv("LPAI_TEST_DIGEST") != NULL;
#if defined(__HVX__) && !defined(LPAI_NO_HVX)
    CHECK(LPAI_HVX == 1, "an HVX build (__HVX_LENGTH__ %d) without the HVX loops", (int)__HVX_LENGTH__);
#endif
    test_conventions();
    test_cost_model();
    /* C6: as the device registers the package. */
    CHECK(lpai_emu_register() == 0, "registration fails (layout support flag?)");
    digest("conventions", "-");
    test_layout_flag();
    test_custom_drivers();
    digest("custom_drivers", "-");
    test_custom_walks();
    digest("custom_walks", "-");
    test_requant_ties();
    digest("requant_ties", "-");
    for (size_t i = 0; i < N_OPS; ++i) {
        const op_case *op = &k_ops[i];
        test_rejections(op);
        digest("rejections", op->qnn_type);
        if (op->custom) {
            test_custom(op);
            digest("custom", op->qnn_type);
        } else {
            test_paths(op);
            digest("paths", op->qnn_type);
            test_x86_isa(op);
            digest("x86_isa", op->qnn_type);
            test_sizes(op);
            digest("sizes", op->qnn_type);
            test_small(op);
            digest("small", op->qnn_type);
            test_padded_rows(op);
            digest("padded_rows", op->qnn_type);
            test_tiles(op);
            digest("tiles", op->qnn_type);
            if (op->n_inputs >= 2u) {
                test_broadcast(op);
                digest("broadcast", op->qnn_type);
            }
        }
#if !defined(LPAI_INFERENCE_ONLY)
        test_validation(op);
        digest("validation", op->qnn_type);
#endif
    }
    lpai_emu_reset();
    printf("%s: %d checks, %d failures\n", g_failures ? "FAILED" : "ok", g_checks, g_failures);
    return g_failures ? 1 : 0;
}
