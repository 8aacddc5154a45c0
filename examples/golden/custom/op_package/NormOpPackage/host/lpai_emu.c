/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * Host emulator of the LPAI kernel interface for this op package, part 3 of 3: the
 * test-facing API of lpai_emu.h (build a node, read its output, check its padding) and
 * the runtime's side (load the package through its interface provider, register,
 * validate and execute an op). Parts 1 and 2, included here: the emulated node
 * (lpai_emu_node.h) and the infrastructure table the kernels call (lpai_emu_infra.h).
 * The behaviour it imitates is the measured one (docs/conventions/) and the calls'
 * contracts as the SDK's headers declare them (getParamTensor by name, getTempBuffer
 * with its size); where the device behaviour is not public (a scalar parameter's
 * tensor data, how the backend repacks under LAYOUT_DEFAULT) it does the plausible
 * thing and the kernels mark their reliance on it.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lpai_sdk.h"
#include "lpai_emu.h"
#include "lpai_emu_infra.h"
#include "lpai_emu_node.h"
#include "lpai_expr_math.h" /* lpai_x86_has_sse41 */
#include "lpai_package.h"

/* The package's entry point (src/<Package>Interface.c; its name: lpai_package.h). */
Qnn_ErrorHandle_t LPAI_PACKAGE_INTERFACE_PROVIDER(QnnOpPackage_Interface_t *interface);

/* Defined by the package (src/<Package>Interface.c) in emulator builds. */
extern int lpai_host_use_reference;
extern const char *lpai_host_last_path;
extern int lpai_host_last_tiled;
extern int lpai_host_last_hvx;
extern int lpai_host_force_sse2;
extern int lpai_host_last_sse41;
extern uint64_t lpai_host_values;
extern const char *lpai_host_last_reject;
extern int lpai_host_quiet;
extern uint64_t lpai_host_last_scratch;

/* temp_mode starts as after lpai_emu_reset. */
static struct LpaiEmuNode g_node = {.temp_mode = LPAI_EMU_TEMP_ASKED};

static void free_node(void)
{
    for (uint32_t k = 0; k < EMU_MAX_INPUTS; ++k) {
        free(g_node.in[k].buf);
    }
    for (uint32_t j = 0; j < EMU_MAX_OUTPUTS; ++j) {
        free(g_node.out[j].buf);
    }
    free(g_node.temp);
    memset(&g_node, 0, sizeof g_node);
    g_node.temp_mode = LPAI_EMU_TEMP_ASKED;
}

/* FNV-1a, 64 bits: cheap, byte order free, and any changed byte changes it. */
static uint64_t g_digest = 0xCBF29CE484222325ull;
static uint32_t g_digest_calls = 0u;

void lpai_emu_digest_bytes(const void *data, size_t n)
{
    const uint8_t *p = (const uint8_t *)data;
    for (size_t i = 0; i < n; ++i) {
        g_digest = (g_digest ^ p[i]) * 0x100000001B3ull;
    }
}

uint64_t lpai_emu_digest_take(uint32_t *calls)
{
    const uint64_t d = g_digest;
    if (calls) {
        *calls = g_digest_calls;
    }
    g_digest = 0xCBF29CE484222325ull;
    g_digest_calls = 0u;
    return d;
}

/* The status (little-endian), every byte of every output buffer (padding included) and
 * the digest of the float results of the call's math. */
static void digest_call(int32_t rc)
{
    const uint8_t st[4] = {(uint8_t)rc, (uint8_t)((uint32_t)rc >> 8), (uint8_t)((uint32_t)rc >> 16),
                           (uint8_t)((uint32_t)rc >> 24)};
    lpai_emu_digest_bytes(st, sizeof st);
    for (uint32_t j = 0; j < g_node.n_out; ++j) {
        lpai_emu_digest_bytes(g_node.out[j].buf, g_node.out[j].bytes);
    }
    /* and the float results of the math (lpai_host_value, lpai_elementwise.h) */
    uint8_t values[8];
    for (uint32_t i = 0; i < 8u; ++i) {
        values[i] = (uint8_t)(lpai_host_values >> (8u * i));
    }
    lpai_emu_digest_bytes(values, sizeof values);
    lpai_host_values = 0u;
    ++g_digest_calls;
}

void lpai_emu_reset(void)
{
    free_node();
}

int32_t lpai_emu_add_input(const lpai_emu_desc *d, const uint8_t *codes)
{
    if (!d || g_node.n_in >= EMU_MAX_INPUTS) {
        return LPAI_EMU_E_ARG;
    }
    struct LpaiEmuTensor *t = &g_node.in[g_node.n_in];
    const int32_t rc = alloc_tensor(t, d);
    if (rc != 0) {
        return rc;
    }
    const uint64_t n = count_of(&t->d);
    emu_cursor at;
    cursor_start(&at, &t->d);
    for (uint64_t e = 0; codes && e < n && t->d.rank <= LPAI_EMU_MAX_DIMS; ++e, cursor_next(&at)) {
        /* torch q -> stored byte under offset zp - 128: (q - 128) mod 256. */
        const uint32_t stored = ((uint32_t)codes[e] - 128u) & 0xFFu;
        uint8_t *p = t->buf + at.off;
        if (elem_bytes(&t->d) == 1u) {
            *p = (uint8_t)stored;
        } else {
            const uint16_t w = (uint16_t)stored;
            memcpy(p, &w, sizeof w);
        }
    }
    return (int32_t)g_node.n_in++;
}

int32_t lpai_emu_add_output(const lpai_emu_desc *d)
{
    if (!d || g_node.n_out >= EMU_MAX_OUTPUTS) {
        return LPAI_EMU_E_ARG;
    }
    const int32_t rc = alloc_tensor(&g_node.out[g_node.n_out], d);
    if (rc != 0) {
        return rc;
    }
    return (int32_t)g_node.n_out++;
}

static int32_t add_param(const char *name, const void *value, size_t size, int32_t report_type)
{
    if (g_node.n_param >= EMU_MAX_PARAMS || !name || strlen(name) >= LPAI_EMU_NAME_MAX) {
        return LPAI_EMU_E_ARG;
    }
    struct LpaiEmuTensor *t = &g_node.param[g_node.n_param];
    memset(t, 0, sizeof *t);
    t->d.rank = 0u;
    t->d.bits = (uint32_t)size * 8u;
    t->d.report_type = report_type;
    memcpy(t->param_storage + 1, value, size);
    memcpy(t->name, name, strlen(name) + 1u);
    return (int32_t)g_node.n_param++;
}

int32_t lpai_emu_add_param_f32(const char *name, float value)
{
    return add_param(name, &value, sizeof value, LPAI_CUSTOM_OP_DATATYPE_FLOAT_32);
}

/* An int or a bool param: ExecuTorch sends both as QNN_DATATYPE_UINT_32. */
int32_t lpai_emu_add_param_u32(const char *name, uint32_t value)
{
    return add_param(name, &value, sizeof value, LPAI_CUSTOM_OP_DATATYPE_UINT_32);
}

void lpai_emu_drop_params(int32_t drop)
{
    g_node.drop_params = drop;
}

void lpai_emu_temp(int64_t bytes)
{
    g_node.temp_mode = bytes;
}

uint64_t lpai_emu_temp_served(void)
{
    return g_node.temp ? (uint64_t)g_node.temp_bytes : 0u;
}

uint64_t lpai_emu_last_scratch(void)
{
    return lpai_host_last_scratch;
}

int32_t lpai_emu_temp_called(void)
{
    return g_node.temp_called;
}

uint32_t lpai_emu_row_max(void)
{
    return LPAI_ROW_MAX;
}

int32_t lpai_emu_int_scale(float scale, int32_t shift, int32_t *iscale)
{
    /* Exact only: the emulator must serve the same scale in both forms. */
    const double v = ldexp((double)scale, shift);
    if (!(v >= 1.0) || v > 2147483647.0 || v != floor(v)) {
        return LPAI_EMU_E_SCALE_FORM;
    }
    *iscale = (int32_t)v;
    return 0;
}

/* ---- the package, registered as the runtime would ---------------------------------- */
/* The provider the emulator registers: the package linked into this binary, or the one
 * of a library loaded with lpai_emu_load_library (the host library make lpai_x86
 * builds against the SDK). */
static QnnOpPackage_InterfaceProvider_t g_provider = NULL;

int32_t lpai_emu_load_library(const char *path)
{
    void *lib = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!lib) {
        LPAI_DIAG("cannot load %s: %s\n", path ? path : "(null)", dlerror());
        return LPAI_EMU_E_PACKAGE;
    }
#define LPAI_EMU_STR2(x) #x
#define LPAI_EMU_STR(x) LPAI_EMU_STR2(x)
    void *symbol = dlsym(lib, LPAI_EMU_STR(LPAI_PACKAGE_INTERFACE_PROVIDER));
    if (!symbol) {
        LPAI_DIAG("%s exports no %s\n", path, LPAI_EMU_STR(LPAI_PACKAGE_INTERFACE_PROVIDER));
        return LPAI_EMU_E_PACKAGE;
    }
    /* POSIX: a function pointer travels through the object pointer dlsym returns. */
    memcpy(&g_provider, &symbol, sizeof g_provider);
    return 0; /* the library stays loaded for the rest of the process */
}

static int32_t open_package(QnnOpPackage_Interface_t *itf, const QnnOpPackage_Info_t **info)
{
    memset(itf, 0, sizeof *itf);
    const QnnOpPackage_InterfaceProvider_t provider = g_provider ? g_provider : LPAI_PACKAGE_INTERFACE_PROVIDER;
    if (provider(itf) != QNN_SUCCESS || !itf->v1_4.init || !itf->v1_4.getInfo) {
        return LPAI_EMU_E_PACKAGE;
    }
    if (itf->v1_4.init(&g_infra) != QNN_SUCCESS) {
        return LPAI_EMU_E_PACKAGE;
    }
    if (itf->v1_4.getInfo(info) != QNN_SUCCESS || !*info) {
        itf->v1_4.terminate();
        return LPAI_EMU_E_PACKAGE;
    }
    return 0;
}

static QnnOpPackage_OperationInfo_t find_op(const QnnOpPackage_Info_t *info, const char *op_type)
{
    for (uint32_t i = 0; i < info->numOperations; ++i) {
        if (op_type && strcmp(info->operationInfo[i]->opType, op_type) == 0) {
            return info->operationInfo[i];
        }
    }
    return NULL;
}

#if !defined(LPAI_INFERENCE_ONLY)
static void fake_tensor(Qnn_Tensor_t *q, uint32_t *dims, const lpai_emu_desc *d)
{
    memset(q, 0, sizeof *q);
    q->version = QNN_TENSOR_VERSION_1;
    q->v1.dataType = QNN_DATATYPE_UFIXED_POINT_8;
    q->v1.rank = shown_rank(d);
    for (uint32_t i = 0; i < q->v1.rank; ++i) {
        dims[i] = d->dims[i];
    }
    q->v1.dimensions = dims;
}
#endif

/* The runtime sizes the temp buffer with the op's getTempBufferSize (host library);
 * an inference-only build has none, so the emulator falls back to the formula the
 * custom ops document: one float per element of every input and every output. */
static size_t temp_size(QnnOpPackage_OperationInfo_t op)
{
    uint64_t n = 0u;
    for (uint32_t k = 0; k < g_node.n_in + g_node.n_out; ++k) {
        const uint64_t c = count_of(k < g_node.n_in ? &g_node.in[k].d : &g_node.out[k - g_node.n_in].d);
        n = (c > UINT64_MAX / 8u - n) ? UINT64_MAX / 8u : n + c; /* saturates: no wrap to a small size */
    }
    size_t bytes = n > (uint64_t)(SIZE_MAX / sizeof(float)) ? SIZE_MAX : (size_t)n * sizeof(float);
#if !defined(LPAI_INFERENCE_ONLY)
    if (op->getTempBufferSize && g_node.n_out) {
        Qnn_Tensor_t ins[EMU_MAX_INPUTS];
        Qnn_Tensor_t outs[EMU_MAX_OUTPUTS];
        uint32_t dims[EMU_MAX_INPUTS + EMU_MAX_OUTPUTS][LPAI_EMU_MAX_DIMS];
        for (uint32_t k = 0; k < g_node.n_in; ++k) {
            fake_tensor(&ins[k], dims[k], &g_node.in[k].d);
        }
        for (uint32_t j = 0; j < g_node.n_out; ++j) {
            fake_tensor(&outs[j], dims[EMU_MAX_INPUTS + j], &g_node.out[j].d);
        }
        Qnn_OpConfig_t cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.version = QNN_OPCONFIG_VERSION_1;
        cfg.v1.numOfInputs = g_node.n_in;
        cfg.v1.inputTensors = ins;
        cfg.v1.numOfOutputs = g_node.n_out;
        cfg.v1.outputTensors = outs;
        size_t asked = 0;
        if (op->getTempBufferSize(cfg, &asked) == QNN_SUCCESS) {
            bytes = asked;
        }
    }
#else
    (void)op;
#endif
    return bytes;
}

/* ---- layouts under QNN_LPAI_OP_LAYOUT_DEFAULT --------------------------------------- */
/* Older SDK headers lack the flag's macro; its value is bit 0. */
#if defined(QNN_LPAI_OP_LAYOUT_SHAPE_NE_LAYOUT)
#define EMU_SHAPE_NE_LAYOUT QNN_LPAI_OP_LAYOUT_SHAPE_NE_LAYOUT
#else
#define EMU_SHAPE_NE_LAYOUT (1u << 0)
#endif

static uint32_t op_layout_flag(QnnOpPackage_OperationInfo_t op)
{
    uint32_t flag = 0xFFFFFFFFu;
    if (!op->getLayoutSupportFlag || op->getLayoutSupportFlag(&flag) != QNN_SUCCESS) {
        return 0xFFFFFFFFu;
    }
    return flag;
}

/* A layout the backend can produce and repack: FLAT, at most 5 dims, layoutOrder a
 * permutation, every stride at least the dense extent of the faster dimensions (no
 * overlap). Only a permuted or padded one of these needs a repack. */
static int repackable(const lpai_emu_desc *d, int *dense)
{
    const uint32_t r = d->rank;
    uint32_t seen = 0u;
    if (d->layout_form != 0 || r > QNN_LPAI_CUSTOM_OP_MAX_LAYOUT_RANK || (d->layout_rank && d->layout_rank != r)) {
        return 0;
    }
    *dense = 1;
    uint64_t extent = elem_bytes(d);
    for (uint32_t i = r; i-- > 0;) {
        if (d->order[i] >= r || (seen & (1u << d->order[i])) || d->stride[i] < extent) {
            return 0;
        }
        seen |= 1u << d->order[i];
        *dense = *dense && d->order[i] == i && d->stride[i] == extent;
        extent = (uint64_t)d->stride[i] * d->dims[d->order[i]];
        if (extent > EMU_TEMP_MAX) {
            return 0;
        }
    }
    return 1;
}

/* The test's tensors while the kernel works on dense copies. */
static struct LpaiEmuTensor g_given_in[EMU_MAX_INPUTS], g_given_out[EMU_MAX_OUTPUTS];

/* Swaps a permuted or padded tensor for a dense copy in logical row-major order (an
 * output's copy holds the canary), as the backend's transpose / repack would. */
static int32_t repack(struct LpaiEmuTensor *t, struct LpaiEmuTensor *given, int copy_in)
{
    int dense = 1;
    memset(given, 0, sizeof *given);
    if (!repackable(&t->d, &dense) || dense) {
        return 0;
    }
    lpai_emu_desc d = t->d;
    for (uint32_t i = 0; i < d.rank; ++i) {
        d.order[i] = (uint8_t)i;
        d.stride[i] = 0u;
    }
    struct LpaiEmuTensor copy;
    if (alloc_tensor(&copy, &d) != 0) {
        return LPAI_EMU_E_ARG;
    }
    const uint64_t n = count_of(&d);
    emu_cursor to, from;
    cursor_start(&to, &copy.d);
    cursor_start(&from, &t->d);
    for (uint64_t e = 0; copy_in && e < n; ++e, cursor_next(&to), cursor_next(&from)) {
        memcpy(copy.buf + to.off, t->buf + from.off, elem_bytes(&d));
    }
    *given = *t;
    t->d = copy.d;
    t->buf = copy.buf;
    t->bytes = copy.bytes;
    g_node.repacked = 1;
    return 0;
}

/* Puts the test's tensors back; outputs receive the kernel's elements only when it
 * succeeded (a refusal leaves them untouched, padding always is). */
static void unpack(int32_t rc)
{
    for (uint32_t k = 0; k < g_node.n_in; ++k) {
        if (g_given_in[k].buf) {
            free(g_node.in[k].buf);
            g_node.in[k] = g_given_in[k];
        }
    }
    for (uint32_t j = 0; j < g_node.n_out; ++j) {
        struct LpaiEmuTensor *t = &g_node.out[j];
        if (!g_given_out[j].buf) {
            continue;
        }
        const uint64_t n = count_of(&t->d);
        emu_cursor to, from;
        cursor_start(&to, &g_given_out[j].d);
        cursor_start(&from, &t->d);
        for (uint64_t e = 0; rc == 0 && e < n; ++e, cursor_next(&to), cursor_next(&from)) {
            memcpy(g_given_out[j].buf + to.off, t->buf + from.off, elem_bytes(&t->d));
        }
        free(t->buf);
        *t = g_given_out[j];
    }
    memset(g_given_in, 0, sizeof g_given_in);
    memset(g_given_out, 0, sizeof g_given_out);
}

int32_t lpai_emu_last_repacked(void)
{
    return g_node.repacked;
}

uint32_t lpai_emu_layout_flag(const char *op_type)
{
    QnnOpPackage_Interface_t itf;
    const QnnOpPackage_Info_t *info = NULL;
    if (open_package(&itf, &info) != 0) {
        return 0xFFFFFFFFu;
    }
    QnnOpPackage_OperationInfo_t op = find_op(info, op_type);
    const uint32_t flag = op ? op_layout_flag(op) : 0xFFFFFFFFu;
    itf.v1_4.terminate();
    return flag;
}

int32_t lpai_emu_execute(const char *op_type, int32_t reference)
{
    QnnOpPackage_Interface_t itf;
    const QnnOpPackage_Info_t *info = NULL;
    /* Before init, which copies the table: an infrastructure without getTempBuffer. */
    g_infra.getTempBuffer = g_node.temp_mode == LPAI_EMU_TEMP_NO_CALL ? NULL : emu_temp;
    int32_t rc = open_package(&itf, &info);
    if (rc != 0) {
        return rc;
    }
    QnnOpPackage_OperationInfo_t op = find_op(info, op_type);
    if (!op || !op->executeOp) {
        itf.v1_4.terminate();
        return LPAI_EMU_E_NO_OP;
    }
    free(g_node.temp);
    g_node.temp = NULL;
    g_node.temp_bytes = 0u;
    g_node.temp_called = 0;
    lpai_host_last_scratch = 0u;
    if (g_node.temp_mode >= 0 || g_node.temp_mode == LPAI_EMU_TEMP_ASKED) {
        /* Exactly the size asked for (or given), so ASan sees any overrun. Beyond
         * EMU_TEMP_MAX (the tests' huge shapes) the emulator behaves as a runtime out
         * of memory: getTempBuffer fails. */
        const size_t bytes = g_node.temp_mode >= 0 ? (size_t)g_node.temp_mode : temp_size(op);
        if (bytes <= EMU_TEMP_MAX) {
            g_node.temp = malloc(bytes ? bytes : 1u);
            g_node.temp_bytes = bytes;
        }
    }
    /* LAYOUT_DEFAULT: the backend hands the kernel layout == shape only. */
    g_node.repacked = 0;
    if (!(op_layout_flag(op) & EMU_SHAPE_NE_LAYOUT) || op_layout_flag(op) == 0xFFFFFFFFu) {
        for (uint32_t k = 0; k < g_node.n_in && rc == 0; ++k) {
            rc = repack(&g_node.in[k], &g_given_in[k], 1);
        }
        for (uint32_t j = 0; j < g_node.n_out && rc == 0; ++j) {
            rc = repack(&g_node.out[j], &g_given_out[j], 0);
        }
        if (rc != 0) {
            unpack(rc);
            itf.v1_4.terminate();
            return rc;
        }
    }
    lpai_host_use_reference = (reference >= 0 && reference <= 3) ? reference : 1;
    lpai_host_last_path = NULL;
    lpai_host_last_tiled = 0;
    lpai_host_last_hvx = 0;
    lpai_host_last_sse41 = 0;
    lpai_host_last_reject = NULL;
    rc = op->executeOp((QnnLpai_CustomOpNode_t)(void *)&g_node);
    unpack(rc);
    lpai_host_use_reference = 0;
    digest_call(rc);
    itf.v1_4.terminate();
    return rc;
}

static QnnOpPackage_Interface_t g_direct_itf;

void *lpai_emu_direct_begin(void)
{
    const QnnOpPackage_Info_t *info = NULL;
    g_infra.getTempBuffer = g_node.temp_mode == LPAI_EMU_TEMP_NO_CALL ? NULL : emu_temp;
    if (open_package(&g_direct_itf, &info) != 0) {
        return NULL;
    }
    free(g_node.temp);
    g_node.temp = NULL;
    g_node.temp_bytes = 0u;
    g_node.temp_called = 0;
    lpai_host_last_scratch = 0u;
    lpai_host_last_reject = NULL;
    lpai_host_last_path = NULL;
    lpai_host_last_tiled = 0;
    lpai_host_last_hvx = 0;
    lpai_host_last_sse41 = 0;
    if (g_node.temp_mode >= 0 || g_node.temp_mode == LPAI_EMU_TEMP_ASKED) {
        QnnLpaiOpPackage_OperationInfo_t none;
        memset(&none, 0, sizeof none); /* no getTempBufferSize: the formula */
        const size_t bytes = g_node.temp_mode >= 0 ? (size_t)g_node.temp_mode : temp_size(&none);
        if (bytes <= EMU_TEMP_MAX) {
            g_node.temp = malloc(bytes ? bytes : 1u);
            g_node.temp_bytes = bytes;
        }
    }
    return &g_node;
}

void lpai_emu_direct_end(void)
{
    digest_call(0);
    if (g_direct_itf.v1_4.terminate) {
        g_direct_itf.v1_4.terminate();
    }
    memset(&g_direct_itf, 0, sizeof g_direct_itf);
}

int32_t lpai_emu_read_output(uint8_t *codes)
{
    return lpai_emu_read_output_k(0u, codes);
}

int32_t lpai_emu_read_output_k(uint32_t k, uint8_t *codes)
{
    if (k >= g_node.n_out || !codes) {
        return LPAI_EMU_E_ARG;
    }
    const struct LpaiEmuTensor *t = &g_node.out[k];
    const uint64_t n = count_of(&t->d);
    emu_cursor at;
    cursor_start(&at, &t->d);
    for (uint64_t e = 0; e < n; ++e, cursor_next(&at)) {
        /* stored byte -> torch q: the inverse of the input mapping. */
        codes[e] = (uint8_t)((t->buf[at.off] + 128u) & 0xFFu);
    }
    return 0;
}

int32_t lpai_emu_output_untouched(void)
{
    for (uint32_t j = 0; j < g_node.n_out; ++j) {
        for (size_t i = 0; i < g_node.out[j].bytes; ++i) {
            if (g_node.out[j].buf[i] != EMU_CANARY) {
                return 0;
            }
        }
    }
    return 1;
}

static int32_t padding_untouched(const struct LpaiEmuTensor *t)
{
    uint8_t *is_elem = (uint8_t *)calloc(t->bytes, 1u);
    if (!is_elem) {
        return 0;
    }
    const uint64_t n = count_of(&t->d);
    emu_cursor at;
    cursor_start(&at, &t->d);
    for (uint64_t e = 0; e < n; ++e, cursor_next(&at)) {
        for (uint32_t b = 0; b < elem_bytes(&t->d); ++b) {
            is_elem[at.off + b] = 1u;
        }
    }
    int ok = 1;
    for (size_t i = 0; i < t->bytes; ++i) {
        if (!is_elem[i] && t->buf[i] != EMU_CANARY) {
            ok = 0;
        }
    }
    free(is_elem);
    return ok;
}

int32_t lpai_emu_padding_untouched(void)
{
    int32_t ok = 1;
    for (uint32_t j = 0; j < g_node.n_out; ++j) {
        ok = ok && padding_untouched(&g_node.out[j]);
    }
    return ok;
}

const char *lpai_emu_last_reject(void)
{
    return lpai_host_last_reject ? lpai_host_last_reject : "";
}

void lpai_emu_quiet(int32_t quiet)
{
    lpai_host_quiet = quiet ? 1 : 0;
}

const char *lpai_emu_last_path(void)
{
    return lpai_host_last_path ? lpai_host_last_path : "";
}

int lpai_emu_last_tiled(void)
{
    return lpai_host_last_tiled;
}

int lpai_emu_last_hvx(void)
{
    return lpai_host_last_hvx;
}

void lpai_emu_x86_force_sse2(int32_t force)
{
    lpai_host_force_sse2 = force ? 1 : 0;
}

int lpai_emu_x86_sse41(void)
{
#if LPAI_X86_DISPATCH
    return lpai_x86_has_sse41();
#else
    return 0;
#endif
}

int lpai_emu_last_sse41(void)
{
    return lpai_host_last_sse41;
}

int64_t lpai_emu_register(void)
{
    QnnOpPackage_Interface_t itf;
    const QnnOpPackage_Info_t *info = NULL;
    if (open_package(&itf, &info) != 0) {
        return LPAI_EMU_E_PACKAGE;
    }
    int64_t rc = 0;
    for (uint32_t i = 0; i < info->numOperations; ++i) {
        QnnOpPackage_OperationInfo_t op = info->operationInfo[i];
        uint32_t flag = 0xFFFFFFFFu;
        /* C6: the device queries the flag while it sets up the node. */
        if (!op->getLayoutSupportFlag || op->getLayoutSupportFlag(&flag) != QNN_SUCCESS) {
            LPAI_DIAG("%s: no layout support flag: registration fails with AEE_EBADSTATE (0x%x), "
                      "\"Failed to register custom op package through platform\"\n",
                      op->opType, (unsigned)LPAI_EMU_AEE_EBADSTATE);
            rc = LPAI_EMU_AEE_EBADSTATE;
        }
        if (!op->executeOp || strcmp(op->opType, info->operationNames[i]) != 0) {
            LPAI_DIAG("%s: op info incomplete\n", info->operationNames[i]);
            rc = LPAI_EMU_E_PACKAGE;
        }
    }
    itf.v1_4.terminate();
    return rc;
}

int64_t lpai_emu_validate(const char *package, const char *op_type, uint32_t n_inputs, uint32_t n_outputs,
                          const uint32_t *types, const uint32_t *ranks, const uint32_t *dims, uint32_t n_params,
                          const char *const *param_names, const uint32_t *param_types)
{
#if defined(LPAI_INFERENCE_ONLY)
    (void)package;
    (void)op_type;
    (void)n_inputs;
    (void)n_outputs;
    (void)types;
    (void)ranks;
    (void)dims;
    (void)n_params;
    (void)param_names;
    (void)param_types;
    return LPAI_EMU_E_PACKAGE; /* the DSP build has no validateOpConfig */
#else
    if (n_inputs > EMU_MAX_INPUTS || n_outputs > EMU_MAX_OUTPUTS || n_params > EMU_MAX_PARAMS) {
        return LPAI_EMU_E_ARG;
    }
    QnnOpPackage_Interface_t itf;
    const QnnOpPackage_Info_t *info = NULL;
    if (open_package(&itf, &info) != 0) {
        return LPAI_EMU_E_PACKAGE;
    }
    Qnn_Tensor_t tensors[EMU_MAX_INPUTS + EMU_MAX_OUTPUTS];
    uint32_t dim_copy[EMU_MAX_INPUTS + EMU_MAX_OUTPUTS][LPAI_EMU_MAX_DIMS];
    for (uint32_t k = 0; k < n_inputs + n_outputs; ++k) {
        memset(&tensors[k], 0, sizeof tensors[k]);
        tensors[k].version = QNN_TENSOR_VERSION_1;
        tensors[k].v1.dataType = (Qnn_DataType_t)types[k];
        tensors[k].v1.rank = ranks[k];
        memcpy(dim_copy[k], dims + (size_t)k * LPAI_EMU_MAX_DIMS, sizeof dim_copy[k]);
        tensors[k].v1.dimensions = dim_copy[k];
    }
    Qnn_Param_t params[EMU_MAX_PARAMS];
    memset(params, 0, sizeof params);
    for (uint32_t i = 0; i < n_params; ++i) {
        params[i].paramType = QNN_PARAMTYPE_SCALAR;
        params[i].name = param_names[i];
        params[i].scalarParam.dataType = (Qnn_DataType_t)param_types[i];
    }
    Qnn_OpConfig_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.version = QNN_OPCONFIG_VERSION_1;
    cfg.v1.name = "emulated_node";
    cfg.v1.packageName = package;
    cfg.v1.typeName = op_type;
    cfg.v1.numOfParams = n_params;
    cfg.v1.params = params;
    cfg.v1.numOfInputs = n_inputs;
    cfg.v1.inputTensors = tensors;
    cfg.v1.numOfOutputs = n_outputs;
    cfg.v1.outputTensors = &tensors[n_inputs];
    const int64_t rc = itf.v1_4.validateOpConfig ? (int64_t)itf.v1_4.validateOpConfig(cfg) : LPAI_EMU_E_PACKAGE;
    itf.v1_4.terminate();
    return rc;
#endif
}
