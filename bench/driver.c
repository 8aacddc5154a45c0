/*
 * Benchmark driver: one binary per rendered op package, built by bench/run.py with
 * the package's inference sources, its host emulator and a generated bench_ops.h
 * (the package's elementwise ops, their parameters and a per-element baseline each;
 * its custom ops, their output rules and an adapter to the user's math each).
 *
 *   driver check SHAPE...   fast kernel vs baseline vs the kernel's reference path
 *                           vs the seed-style kernel (run_seed),
 *                           whole output buffers (padding included), byte for byte;
 *                           a custom op vs its recomputation (custom_ref.h)
 *   driver count SHAPE...   one call of each under callgrind client requests: run it
 *                           as valgrind --tool=callgrind --collect-atstart=no
 *                           --instr-atstart=no; one dump per call, labelled (custom
 *                           ops: with --toggle-collect=<Op>_compute, see do_case);
 *                           built for Hexagon, the same windows under qemu-hexagon
 *                           with bench/qemu_count.c (bench_count_on/off, WINDOW
 *                           lines); the seed-style kernel is counted after the
 *                           baseline
 *   driver time SHAPE...    median wall time of many calls of the fast kernel
 *
 * Layouts: contig, strided (padded rows and planes), transposed (input 0 channels
 * last) and, for ops of two or more inputs, broadcast: every input but the first has
 * extent 1 in every dimension but the channels (1,C,1,1; of rank 2 or less, every
 * dimension: one value), as a per-channel bias or scale is broadcast in torch.
 *
 * SHAPE is comma-separated (1,32,28,28). Every op is run in the three layouts; a
 * custom op's outputs follow its spec's rules (like an input, or reduced), in the
 * output's layout (channels-first, padded when strided).
 * Output lines are "KEY=VALUE" records that run.py turns into BENCH lines.
 *
 * The emulator's source is included, not linked, to reach its node and its
 * infrastructure table: the kernel's executeOp is then called directly, so neither
 * the count nor the time contains the emulator's per-call registration.
 */
#define _POSIX_C_SOURCE 199309L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lpai_emu.c"
#include "lpai_expr_math.h" /* the expression grammar's helpers (lpai_sigmoidf, ...) */
#include "baseline.h"
#include "custom_ref.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define BENCH_HAVE_CALLGRIND 1
#endif
#endif
#if !defined(BENCH_HAVE_CALLGRIND)
/* Without the header the count mode cannot label its calls; run.py checks for it. */
#define CALLGRIND_START_INSTRUMENTATION ((void)0)
#define CALLGRIND_STOP_INSTRUMENTATION ((void)0)
#define CALLGRIND_ZERO_STATS ((void)0)
#define CALLGRIND_TOGGLE_COLLECT ((void)0)
#define CALLGRIND_DUMP_STATS_AT(label) ((void)(label))
#endif

/* The windows of the Hexagon count (bench/qemu_count.c, run under qemu-hexagon): the
 * plugin counts every packet executed from an entry of bench_count_on to the next
 * entry of bench_count_off, callees included, as callgrind's client toggles do on the
 * host. Empty, never inlined: their addresses are the plugin's arguments (run.py reads
 * them from the symbol table); the constant cost of the two calls is measured by an
 * empty window first ("calib") and subtracted by run.py. */
__attribute__((noinline)) void bench_count_on(void)
{
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void bench_count_off(void)
{
    __asm__ volatile("" ::: "memory");
}

/* One counted window's label, printed after it closes: run.py pairs the plugin's
 * windows with these lines in order. */
static void bench_window(const char *which, const char *tag)
{
    printf("WINDOW %s %s\n", which, tag);
}

typedef void (*bench_baseline_fn)(const bl_tensor *in, uint32_t nin, const bl_tensor *out, const float *params);

typedef struct {
    const char *name;     /* torch op name, as printed */
    const char *qnn_type; /* the package's op type */
    uint32_t nin;
    uint32_t nparams;
    char kinds[8];        /* 'f' float, 'i' int, 'b' bool: how the node serves each one */
    double values[8];     /* the spec defaults (a double holds any uint32 and float exactly) */
    const char *pnames[8]; /* their names: getParamTensor looks each up by name */
    bench_baseline_fn baseline;
} bench_op;

/* The shape rule of a custom op's output (the spec's, as run.py reads it from the
 * model): 'l' like an input, 'r' an input reduced over `dims` (negative from the end;
 * `keepdim` keeps them as 1). Which input does not matter here: every input of a
 * custom op has the benchmark shape. */
typedef struct {
    char kind;
    uint8_t keepdim;
    uint8_t ndims;
    int8_t dims[LPAI_EMU_MAX_DIMS];
} bench_rule;

#define BENCH_MAX_OUT 4u

typedef struct {
    bench_op sig; /* name, op type, inputs and parameters; no baseline */
    uint32_t nout;
    int rowwise;
    bench_rule rules[BENCH_MAX_OUT];
    bench_user_fn user; /* the user's math behind the framework's call (bench_ops.h) */
} bench_custom;

#include "bench_ops.h" /* generated: the math, the baselines, BENCH_OPS and BENCH_CUSTOM_OPS */

static const bench_op k_ops[] = {BENCH_OPS};
#define N_OPS (sizeof k_ops / sizeof k_ops[0])
/* At least one entry (an empty initializer is not C11); BENCH_N_CUSTOM counts them. */
static const bench_custom k_custom[] = {BENCH_CUSTOM_OPS};

enum { L_CONTIG, L_STRIDED, L_TRANSPOSED, L_BROADCAST, N_LAYOUTS };
static const char *const k_layouts[N_LAYOUTS] = {"contig", "strided", "transposed", "broadcast"};

/* Quantization of the operands: uneven scales and zero points, so that rounding and
 * the wrapped storage are exercised; the output window is wide enough that most
 * results are not saturated. */
static const float k_in_scale[4] = {0.05f, 0.031f, 0.043f, 0.027f};
static const int32_t k_in_zp[4] = {120, 131, 97, 140};
static const float k_out_scale = 0.15f;
static const int32_t k_out_zp = 125;

typedef struct {
    uint32_t rank;
    uint32_t dims[LPAI_EMU_MAX_DIMS];
} shape_t;

/* The tensor's layout in the given benchmark layout. `lead` is input 0: in the
 * transposed layout it alone is channels-last, so the kernel has to walk two
 * different memory orders at once. */
static void make_desc(lpai_emu_desc *d, const shape_t *s, int layout, int lead, int is_output, float scale, int32_t zp)
{
    memset(d, 0, sizeof *d);
    d->rank = s->rank;
    for (uint32_t i = 0; i < s->rank; ++i) {
        d->dims[i] = s->dims[i];
        d->order[i] = (uint8_t)i;
    }
    d->bits = 8u;
    d->report_type = -1;
    d->scale_form = LPAI_EMU_SCALE_FLOAT;
    d->scale = scale;
    d->zero_point = zp;
    if (layout == L_STRIDED) {
        /* Rows padded by 4 bytes and every outer plane by 16 more: no two dimensions
         * merge, the walk runs row by row. */
        uint32_t st = 1u;
        for (uint32_t i = s->rank; i-- > 0;) {
            d->stride[i] = st;
            st = st * s->dims[i] + (i + 1u == s->rank ? 4u : 16u);
        }
    } else if (layout == L_BROADCAST && !lead && !is_output) {
        for (uint32_t i = 0; i < s->rank; ++i) {
            d->dims[i] = (i == 1u && s->rank >= 3u) ? s->dims[i] : 1u;
        }
    } else if (layout == L_TRANSPOSED && lead && s->rank >= 3u) {
        /* Channels last: dimension 1 moves to the fastest position. Dense strides
         * (left 0) are filled by the emulator in this order. */
        uint32_t k = 0;
        d->order[k++] = 0u;
        for (uint32_t i = 2; i < s->rank; ++i) {
            d->order[k++] = (uint8_t)i;
        }
        d->order[k] = 1u;
    }
}

static uint64_t count_elems(const shape_t *s)
{
    uint64_t n = 1u;
    for (uint32_t i = 0; i < s->rank; ++i) {
        n *= s->dims[i];
    }
    return n;
}

/* A fixed-seed generator, so every run benchmarks the same bytes. */
static uint32_t g_seed = 12345u;
static uint8_t next_byte(void)
{
    g_seed = g_seed * 1664525u + 1013904223u;
    return (uint8_t)(g_seed >> 24);
}

/* The shape of a custom op's output for inputs of shape `s`. */
static void rule_shape(const bench_rule *r, const shape_t *s, shape_t *out)
{
    uint32_t reduced = 0u;
    for (uint32_t i = 0; r->kind == 'r' && i < r->ndims; ++i) {
        reduced |= 1u << (uint32_t)(r->dims[i] < 0 ? r->dims[i] + (int32_t)s->rank : r->dims[i]);
    }
    memset(out, 0, sizeof *out);
    for (uint32_t d = 0; d < s->rank; ++d) {
        if (!(reduced & (1u << d))) {
            out->dims[out->rank++] = s->dims[d];
        } else if (r->keepdim) {
            out->dims[out->rank++] = 1u;
        }
    }
}

typedef struct {
    QnnOpPackage_Interface_t itf;
    QnnOpPackage_OperationInfo_t op;
    uint8_t *bl_buf[BENCH_MAX_OUT]; /* the driver's own outputs (baseline, recomputation), same layouts */
    uint32_t nout;
    uint64_t n;
} bench_case;

/* One node: the op's inputs in shape `s`, its `nout` outputs in shapes `outs`. */
static int setup(bench_case *c, const bench_op *o, const shape_t *s, int layout, const shape_t *outs, uint32_t nout)
{
    memset(c, 0, sizeof *c);
    lpai_emu_reset();
    if (nout > BENCH_MAX_OUT) {
        return -1;
    }
    lpai_emu_quiet(1);
    c->n = count_elems(s);
    uint8_t *codes = (uint8_t *)malloc(c->n ? c->n : 1u);
    if (!codes) {
        return -1;
    }
    for (uint32_t k = 0; k < o->nin; ++k) {
        lpai_emu_desc d;
        make_desc(&d, s, layout, k == 0, 0, k_in_scale[k], k_in_zp[k]);
        for (uint64_t e = 0; e < c->n; ++e) {
            codes[e] = next_byte();
        }
        if (lpai_emu_add_input(&d, codes) < 0) {
            free(codes);
            return -1;
        }
    }
    free(codes);
    c->nout = nout;
    for (uint32_t j = 0; j < nout; ++j) {
        lpai_emu_desc d;
        make_desc(&d, &outs[j], layout, 0, 1, k_out_scale, k_out_zp);
        if (lpai_emu_add_output(&d) < 0) {
            return -1;
        }
    }
    for (uint32_t p = 0; p < o->nparams; ++p) {
        int32_t rc;
        if (o->kinds[p] == 'f') {
            rc = lpai_emu_add_param_f32(o->pnames[p], (float)o->values[p]);
        } else { /* int and bool: UINT_32, as ExecuTorch sends them */
            rc = lpai_emu_add_param_u32(o->pnames[p], (uint32_t)o->values[p]);
        }
        if (rc < 0) {
            return -1;
        }
    }
    const QnnOpPackage_Info_t *info = NULL;
    if (open_package(&c->itf, &info) != 0) {
        return -1;
    }
    c->op = find_op(info, o->qnn_type);
    if (!c->op || !c->op->executeOp) {
        return -1;
    }
    const size_t bytes = temp_size(c->op);
    g_node.temp = malloc(bytes ? bytes : 1u);
    g_node.temp_bytes = g_node.temp ? bytes : 0u; /* getTempBuffer reports the size */
    for (uint32_t j = 0; j < nout; ++j) {
        c->bl_buf[j] = (uint8_t *)malloc(g_node.out[j].bytes);
        if (!c->bl_buf[j]) {
            return -1;
        }
        memset(c->bl_buf[j], EMU_CANARY, g_node.out[j].bytes);
    }
    return 0;
}

static void teardown(bench_case *c)
{
    if (c->itf.v1_4.terminate) {
        c->itf.v1_4.terminate();
    }
    for (uint32_t j = 0; j < BENCH_MAX_OUT; ++j) {
        free(c->bl_buf[j]);
    }
    lpai_emu_reset();
}

/* The kernel as the runtime calls it: executeOp on the node, nothing around it. */
/* BENCH_PATH=direct|table forces one of the kernel's fast paths (the emulator's
 * switch, LPAI_EMU_PATH_*); unset, the kernel chooses as on the device. */
static int g_fast_mode = 0;

static int32_t run_fast(bench_case *c)
{
    lpai_host_use_reference = g_fast_mode;
    const int32_t rc = c->op->executeOp((QnnLpai_CustomOpNode_t)(void *)&g_node);
    lpai_host_use_reference = 0;
    return rc;
}

/* The baseline reads its node as any kernel must, through the package's
 * infrastructure table (the one the kernel reads): each tensor's rank, dims, layout,
 * quantization and data, and each parameter, without the kernel's checks (a
 * per-element kernel that trusts its node). Counted inside the baseline's call, as
 * the kernel's own reading is inside executeOp: with its tensors read before the
 * count, the baseline was a loop, and the kernel alone paid the accessors (about 350
 * instructions per tensor on the emulator, 20 per element per tensor at 16
 * elements). Its output goes to its own buffer, so the check compares the two. */
static void bl_read_tensor(QnnLpai_CustomOpTensor_t t, bl_tensor *b)
{
    const QnnLpaiOpPackage_GlobalInfrastructure_t *gi = &g_infra; /* the table the package copies at init */
    QnnLpaiCustomOp_Layout_t layout;
    QnnLpaiCustomOp_PerTensorQuantInfo_t q;
    gi->getTensorShapeRank(t, &b->rank);
    gi->getTensorLayout(t, &layout);
    for (uint32_t i = 0; i < b->rank; ++i) {
        gi->getTensorShapeDimSize(t, i, &b->dims[i]);
        b->stride[layout.layoutOrder[i]] = layout.layoutStride[i]; /* layout position -> logical dim */
    }
    for (uint32_t i = 0; i < b->rank; ++i) {
        if (b->dims[i] == 1u) {
            b->stride[i] = 0u; /* a broadcast dimension: the same element for every index */
        }
    }
    gi->getPerTensorQuantParams(t, &q);
    b->scale = q.scale.fScale; /* the benchmark's tensors use the float form */
    b->offset = q.offset;
    b->data = (uint8_t *)gi->getTensorData(t);
}

/* The parameters as the kernel converts them: float as is, uint32 -> float, bool -> 0/1
 * (the baseline's and the recomputation's). */
static void read_params(const bench_op *o, float *params)
{
    const QnnLpaiOpPackage_GlobalInfrastructure_t *gi = &g_infra;
    const QnnLpai_CustomOpNode_t node = (QnnLpai_CustomOpNode_t)(void *)&g_node;
    for (uint32_t p = 0; p < o->nparams; ++p) {
        const void *v = gi->getTensorData(gi->getParamTensor(node, o->pnames[p]));
        /* As the kernel converts them: float as is, uint32 -> float, bool -> 0/1. */
        if (o->kinds[p] == 'f') {
            memcpy(&params[p], v, sizeof(float));
        } else {
            uint32_t u;
            memcpy(&u, v, sizeof u);
            params[p] = o->kinds[p] == 'b' ? (float)(u != 0u) : (float)u;
        }
    }
}

static void run_baseline(bench_case *c, const bench_op *o)
{
    const QnnLpaiOpPackage_GlobalInfrastructure_t *gi = &g_infra; /* the table the package copies at init */
    const QnnLpai_CustomOpNode_t node = (QnnLpai_CustomOpNode_t)(void *)&g_node;
    bl_tensor in[BL_MAX_INPUTS];
    bl_tensor out;
    float params[8];
    for (uint32_t k = 0; k < o->nin; ++k) {
        bl_read_tensor(gi->getInputTensor(node, k), &in[k]);
    }
    bl_read_tensor(gi->getOutputTensor(node, 0), &out);
    out.data = c->bl_buf[0];
    read_params(o, params);
    o->baseline(in, o->nin, &out, params);
}

/* The seed-style kernel: the public example kernel's approach as a whole kernel call
 * (the seed PR): per tensor, the width check of the reported data type (its
 * signedness is unusable) and both scale forms (scale / 2^shift by ldexpf, the shift
 * may exceed 31), then the baseline's per-element loop (bl_run: a rank loop for every
 * byte offset, float dequantization and requantization, an odometer). It checks
 * nothing else (scales, shapes, overlaps), as the seed does not; it returns 1 when a
 * tensor is not 8-bit. Same node, same output bytes as the baseline (its own buffer). */
static int sd_read_tensor(QnnLpai_CustomOpTensor_t t, bl_tensor *b)
{
    const QnnLpaiOpPackage_GlobalInfrastructure_t *gi = &g_infra;
    QnnLpaiCustomOp_DataType_t type;
    QnnLpaiCustomOp_PerTensorQuantInfo_t q;
    gi->getTensorDataType(t, &type);
    if (type != LPAI_CUSTOM_OP_DATATYPE_UINT_8 && type != LPAI_CUSTOM_OP_DATATYPE_INT_8) {
        return 1;
    }
    bl_read_tensor(t, b);
    gi->getPerTensorQuantParams(t, &q);
    b->scale = q.scale.type == QNN_LPAI_CUSTOM_OP_QUANT_SCALE_TYPE_FLOAT
                   ? q.scale.fScale
                   : ldexpf((float)q.scale.iScale.scale, -(int)q.scale.iScale.shift);
    return 0;
}

static int run_seed(bench_case *c, const bench_op *o)
{
    const QnnLpaiOpPackage_GlobalInfrastructure_t *gi = &g_infra;
    const QnnLpai_CustomOpNode_t node = (QnnLpai_CustomOpNode_t)(void *)&g_node;
    bl_tensor in[BL_MAX_INPUTS];
    bl_tensor out;
    float params[8];
    for (uint32_t k = 0; k < o->nin; ++k) {
        if (sd_read_tensor(gi->getInputTensor(node, k), &in[k])) {
            return 1;
        }
    }
    if (sd_read_tensor(gi->getOutputTensor(node, 0), &out)) {
        return 1;
    }
    out.data = c->bl_buf[0];
    read_params(o, params);
    o->baseline(in, o->nin, &out, params);
    return 0;
}

/* A custom op's outputs recomputed into the driver's buffers (custom_ref.h), from the
 * node as the baseline reads it. Not counted: it is the check's oracle only. */
static int run_recompute(bench_case *c, const bench_custom *cu)
{
    const QnnLpaiOpPackage_GlobalInfrastructure_t *gi = &g_infra;
    const QnnLpai_CustomOpNode_t node = (QnnLpai_CustomOpNode_t)(void *)&g_node;
    bl_tensor in[BL_MAX_INPUTS];
    bl_tensor out[BENCH_MAX_OUT];
    float params[8];
    for (uint32_t k = 0; k < cu->sig.nin; ++k) {
        bl_read_tensor(gi->getInputTensor(node, k), &in[k]);
    }
    for (uint32_t j = 0; j < cu->nout; ++j) {
        bl_read_tensor(gi->getOutputTensor(node, j), &out[j]);
        out[j].data = c->bl_buf[j];
    }
    read_params(&cu->sig, params);
    /* An int or bool param also as the uint32 the kernel read (its custom-op call's
     * params_u32): 0 for a float, 0 or 1 for a bool. */
    uint32_t params_u32[8] = {0u};
    for (uint32_t p = 0; p < cu->sig.nparams; ++p) {
        if (cu->sig.kinds[p] != 'f') {
            memcpy(&params_u32[p], gi->getTensorData(gi->getParamTensor(node, cu->sig.pnames[p])), sizeof(uint32_t));
            params_u32[p] = cu->sig.kinds[p] == 'b' ? (params_u32[p] != 0u) : params_u32[p];
        }
    }
    return cr_run(in, cu->sig.nin, out, cu->nout, params, params_u32, cu->rowwise, cu->user);
}

static void shape_text(char *buf, size_t size, const shape_t *s)
{
    size_t used = (size_t)snprintf(buf, size, "(");
    for (uint32_t i = 0; i < s->rank && used < size; ++i) {
        used += (size_t)snprintf(buf + used, size - used, i ? ",%u" : "%u", s->dims[i]);
    }
    if (used < size) {
        snprintf(buf + used, size - used, ")");
    }
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a;
    const double y = *(const double *)b;
    return (x > y) - (x < y);
}

static uint64_t count_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
    uint64_t d = 0;
    for (size_t i = 0; i < n; ++i) {
        d += a[i] != b[i];
    }
    return d;
}

/* A custom op's check: its one path against the recomputation, every output whole
 * (padding included). scratch_bytes: what it asked getTempBuffer for (the framework's
 * own record of it, lpai_host_last_scratch), 0 when it did not call it (rowwise: its
 * rows are on its stack). */
static int check_custom(bench_case *c, const bench_custom *cu, const char *tag)
{
    const int32_t rc_fast = run_fast(c);
    const char *path = lpai_host_last_path ? lpai_host_last_path : "?";
    const unsigned long long scratch = g_node.temp_called ? (unsigned long long)lpai_host_last_scratch : 0ull;
    const int rc_ref = run_recompute(c, cu);
    uint64_t diff = 0u;
    uint64_t bytes = 0u;
    for (uint32_t j = 0; j < cu->nout; ++j) {
        diff += count_diff(g_node.out[j].buf, c->bl_buf[j], g_node.out[j].bytes);
        bytes += g_node.out[j].bytes;
    }
    printf("CHECK %s path=%s rc=%d,%d bytes=%llu diff_recompute=%llu scratch_bytes=%llu\n", tag, path, rc_fast, rc_ref,
           (unsigned long long)bytes, (unsigned long long)diff, scratch);
    return rc_fast != 0 || rc_ref != 0 || diff != 0u;
}

/* `cu` is the custom op whose signature `o` is, NULL for an elementwise op. */
static int do_case(const char *mode, const bench_op *o, const bench_custom *cu, const shape_t *s, int layout)
{
    bench_case c;
    char shape[96];
    shape_text(shape, sizeof shape, s);
    shape_t outs[BENCH_MAX_OUT];
    const uint32_t nout = cu ? cu->nout : 1u;
    for (uint32_t j = 0; j < nout && j < BENCH_MAX_OUT; ++j) {
        if (cu) {
            rule_shape(&cu->rules[j], s, &outs[j]);
        } else {
            outs[j] = *s; /* an elementwise op's output: the inputs' shape */
        }
    }
    /* A custom case draws its bytes from the generator and puts its state back: the
     * elementwise cases get the bytes they got before custom ops were measured, so
     * their figures stay comparable with earlier runs. */
    const uint32_t seed = g_seed;
    if (setup(&c, o, s, layout, outs, nout) != 0) {
        printf("ERROR op=%s layout=%s shape=%s setup failed\n", o->name, k_layouts[layout], shape);
        teardown(&c);
        return 1;
    }
    int bad = 0;
    char tag[256];
    if (cu) {
        snprintf(tag, sizeof tag, "op=%s kind=custom inputs=%u outputs=%u layout=%s shape=%s elems=%llu", o->name,
                 o->nin, nout, k_layouts[layout], shape, (unsigned long long)c.n);
    } else {
        snprintf(tag, sizeof tag, "op=%s inputs=%u layout=%s shape=%s elems=%llu", o->name, o->nin, k_layouts[layout],
                 shape, (unsigned long long)c.n);
    }
    if (strcmp(mode, "check") == 0 && cu) {
        bad = check_custom(&c, cu, tag);
    } else if (strcmp(mode, "check") == 0) {
        const size_t bytes = g_node.out[0].bytes;
        const int32_t rc_fast = run_fast(&c);
        const char *path = lpai_host_last_path ? lpai_host_last_path : "?";
        uint8_t *fast = (uint8_t *)malloc(bytes);
        memcpy(fast, g_node.out[0].buf, bytes);
        memset(g_node.out[0].buf, EMU_CANARY, bytes);
        lpai_host_use_reference = LPAI_EMU_PATH_REFERENCE;
        const int32_t rc_ref = c.op->executeOp((QnnLpai_CustomOpNode_t)(void *)&g_node);
        lpai_host_use_reference = 0;
        const int rc_seed = run_seed(&c, o);
        const uint64_t d_seed = count_diff(fast, c.bl_buf[0], bytes);
        memset(c.bl_buf[0], EMU_CANARY, bytes);
        run_baseline(&c, o);
        const uint64_t d_base = count_diff(fast, c.bl_buf[0], bytes);
        const uint64_t d_ref = count_diff(fast, g_node.out[0].buf, bytes);
        printf("CHECK %s path=%s rc=%d,%d bytes=%llu diff_baseline=%llu diff_reference=%llu diff_seed=%llu\n", tag,
               path, rc_fast, rc_ref, (unsigned long long)bytes, (unsigned long long)d_base, (unsigned long long)d_ref,
               (unsigned long long)d_seed);
        bad = rc_fast != 0 || rc_ref != 0 || rc_seed != 0 || d_base != 0 || d_ref != 0 || d_seed != 0;
        free(fast);
    } else if (strcmp(mode, "count") == 0) {
        /* One call each: the instruction count does not depend on caches. The label
         * names the dump; run.py reads the dump's total in the same order. */
        char label[300];
        snprintf(label, sizeof label, "fast %s", tag);
        /* The same windows are counted on Hexagon (bench_count_on/off, outside the
         * callgrind toggles; there the toggles are no-ops): on a custom op's second
         * call the user function is not toggled out, so its "user" window is the
         * whole executeOp. */
        CALLGRIND_START_INSTRUMENTATION;
        CALLGRIND_ZERO_STATS;
        bench_count_on();
        CALLGRIND_TOGGLE_COLLECT;
        int32_t rc = run_fast(&c);
        CALLGRIND_TOGGLE_COLLECT;
        bench_count_off();
        bench_window("fast", tag);
        CALLGRIND_DUMP_STATS_AT(label);
        if (cu) {
            /* The user's share, exactly. run.py runs this binary with
             * --toggle-collect=<Op>_compute, which flips collection on entering and on
             * leaving that function, as the client toggle does: the call above counted
             * executeOp less the user's function (the framework), this one, with the
             * client toggle off, the user's function alone (its callees, sqrtf, ...,
             * included). The sum is the whole executeOp. */
            snprintf(label, sizeof label, "user %s", tag);
            CALLGRIND_ZERO_STATS;
            bench_count_on();
            rc |= run_fast(&c);
            bench_count_off();
            bench_window("user", tag);
            CALLGRIND_DUMP_STATS_AT(label);
        } else {
            snprintf(label, sizeof label, "baseline %s", tag);
            CALLGRIND_ZERO_STATS;
            bench_count_on();
            CALLGRIND_TOGGLE_COLLECT;
            run_baseline(&c, o);
            CALLGRIND_TOGGLE_COLLECT;
            bench_count_off();
            bench_window("baseline", tag);
            CALLGRIND_DUMP_STATS_AT(label);
            snprintf(label, sizeof label, "seed %s", tag);
            CALLGRIND_ZERO_STATS;
            bench_count_on();
            CALLGRIND_TOGGLE_COLLECT;
            rc |= run_seed(&c, o);
            CALLGRIND_TOGGLE_COLLECT;
            bench_count_off();
            bench_window("seed", tag);
            CALLGRIND_DUMP_STATS_AT(label);
        }
        CALLGRIND_STOP_INSTRUMENTATION;
        printf("COUNTED %s rc=%d\n", tag, rc);
        bad = rc != 0;
    } else {
        /* Median of many calls, after warm-up; as many calls as fit a time budget. */
        const double budget_ns = 1e6 * (getenv("BENCH_TIME_MS") ? atof(getenv("BENCH_TIME_MS")) : 150.0);
        int32_t rc = 0;
        double t0 = now_ns();
        for (int w = 0; w < 3; ++w) {
            rc |= run_fast(&c);
        }
        const double one = (now_ns() - t0) / 3.0;
        int reps = (int)(budget_ns / (one > 1.0 ? one : 1.0));
        reps = reps < 21 ? 21 : (reps > 20001 ? 20001 : reps);
        double *t = (double *)malloc(sizeof(double) * (size_t)reps);
        for (int r = 0; r < reps; ++r) {
            const double a = now_ns();
            rc |= run_fast(&c);
            t[r] = now_ns() - a;
        }
        qsort(t, (size_t)reps, sizeof(double), cmp_double);
        printf("TIME %s reps=%d ns_per_elem=%.3f rc=%d\n", tag, reps, t[reps / 2] / (double)c.n, rc);
        free(t);
        bad = rc != 0;
    }
    if (cu) {
        g_seed = seed;
    }
    teardown(&c);
    return bad;
}

/* Exact names in a comma-separated list ("mul" must not select "mul3"). */
static int selected(const char *list, const char *name)
{
    const size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0) {
            return 1;
        }
        p = end ? end + 1 : NULL;
    }
    return 0;
}

static int parse_shape(const char *text, shape_t *s)
{
    memset(s, 0, sizeof *s);
    const char *p = text;
    while (*p) {
        char *end = NULL;
        const unsigned long v = strtoul(p, &end, 10);
        if (end == p || s->rank >= LPAI_MAX_RANK || v == 0 || v > 1000000ul) {
            return -1;
        }
        s->dims[s->rank++] = (uint32_t)v;
        p = (*end == ',') ? end + 1 : end;
        if (*end != ',' && *end != '\0') {
            return -1;
        }
    }
    return s->rank ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc < 3 || (strcmp(argv[1], "check") && strcmp(argv[1], "count") && strcmp(argv[1], "time"))) {
        fprintf(stderr, "usage: %s check|count|time SHAPE...\n", argv[0]);
        return 2;
    }
    const char *only = getenv("BENCH_OPS"); /* comma-separated op names, optional */
    const char *force = getenv("BENCH_PATH");
    if (force && strcmp(force, "direct") == 0) {
        g_fast_mode = LPAI_EMU_PATH_DIRECT;
    } else if (force && strcmp(force, "table") == 0) {
        g_fast_mode = LPAI_EMU_PATH_TABLE;
    }
    int bad = 0;
    if (strcmp(argv[1], "count") == 0) {
        /* The Hexagon count's constant: an empty window (run.py subtracts it). */
        bench_count_on();
        bench_count_off();
        bench_window("calib", "-");
    }
    for (int a = 2; a < argc; ++a) {
        shape_t s;
        if (parse_shape(argv[a], &s) != 0) {
            fprintf(stderr, "bad shape %s\n", argv[a]);
            return 2;
        }
        for (size_t i = 0; i < N_OPS; ++i) {
            if (only && !selected(only, k_ops[i].name)) {
                continue;
            }
            for (int l = 0; l < N_LAYOUTS; ++l) {
                if (l == L_BROADCAST && k_ops[i].nin < 2u) {
                    continue;
                }
                bad |= do_case(argv[1], &k_ops[i], NULL, &s, l);
                fflush(stdout);
            }
        }
        for (size_t i = 0; i < BENCH_N_CUSTOM; ++i) {
            if (only && !selected(only, k_custom[i].sig.name)) {
                continue;
            }
            /* No broadcast layout: a custom op's inputs come in its own shapes. */
            for (int l = 0; l < L_BROADCAST; ++l) {
                bad |= do_case(argv[1], &k_custom[i].sig, &k_custom[i], &s, l);
                fflush(stdout);
            }
        }
    }
    return bad ? 1 : 0;
}
