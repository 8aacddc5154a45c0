/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * Host emulator, part 1 of 3: the emulated node and its tensors (host buffers with
 * the shapes, layouts, strides and quantization a test chose) and their geometry.
 * Included once, by lpai_emu.c; static like the rest of the emulator.
 */
#ifndef LPAI_EMU_NODE_H
#define LPAI_EMU_NODE_H

#include <stdlib.h>
#include <string.h>

#include "lpai_emu.h"
#include "lpai_package.h"

/* A node holds what the spec allows an op (lpai_package.h). */
#define EMU_MAX_INPUTS LPAI_MAX_INPUTS
#define EMU_MAX_OUTPUTS LPAI_MAX_OUTPUTS
#define EMU_MAX_PARAMS LPAI_MAX_PARAMS
#define EMU_CANARY 0xA5u
/* The largest temp buffer the emulator allocates; beyond it (the tests' huge shapes)
 * it behaves as a runtime out of memory: getTempBuffer fails. */
#define EMU_TEMP_MAX ((size_t)1 << 30)

struct LpaiEmuTensor {
    lpai_emu_desc d;
    uint8_t *buf;
    size_t bytes;
    uint8_t param_storage[16]; /* parameters sit at an odd address on purpose (C9) */
    char name[LPAI_EMU_NAME_MAX]; /* a parameter's name, as getParamTensor looks it up */
};

struct LpaiEmuNode {
    struct LpaiEmuTensor in[EMU_MAX_INPUTS];
    struct LpaiEmuTensor out[EMU_MAX_OUTPUTS];
    struct LpaiEmuTensor param[EMU_MAX_PARAMS];
    uint32_t n_in, n_out, n_param;
    int drop_params;
    int64_t temp_mode; /* LPAI_EMU_TEMP_* or a byte count */
    void *temp;
    size_t temp_bytes;
    int temp_called;
    int repacked; /* the last execute handed the kernel dense copies (LAYOUT_DEFAULT) */
};

static uint32_t elem_bytes(const lpai_emu_desc *d)
{
    return d->bits <= 8u ? 1u : d->bits / 8u;
}

static uint32_t shown_rank(const lpai_emu_desc *d)
{
    return d->rank < LPAI_EMU_MAX_DIMS ? d->rank : LPAI_EMU_MAX_DIMS;
}

/* Dense strides in layout order when the test gave none. */
static void fill_strides(lpai_emu_desc *d)
{
    const uint32_t r = shown_rank(d);
    for (uint32_t i = 0; i < r; ++i) {
        if (d->stride[i] != 0u) {
            return;
        }
    }
    uint32_t s = elem_bytes(d);
    for (uint32_t i = r; i-- > 0;) {
        d->stride[i] = s;
        s *= d->dims[d->order[i] < r ? d->order[i] : 0];
    }
}

static uint64_t count_of(const lpai_emu_desc *d)
{
    uint64_t n = 1u;
    for (uint32_t i = 0; i < shown_rank(d); ++i) {
        n *= d->dims[i];
    }
    return n;
}

/* The byte offsets of the logical elements 0, 1, 2, ... (row-major over dims), one step
 * at a time: `off` is the current element's. Element e's offset is the sum over the
 * layout's dims i of coord[order[i]] * stride[i]; a step adds one logical dim's stride
 * and carries like an odometer. Computing each offset afresh (two divisions per dim per
 * element) was two thirds of the sanitized C suite's run time (perf, measured). */
typedef struct {
    uint32_t rank;
    const uint32_t *dims; /* the walked tensor's (it outlives the walk) */
    uint64_t coord[LPAI_EMU_MAX_DIMS];
    uint64_t step[LPAI_EMU_MAX_DIMS]; /* bytes per step of logical dim j */
    uint64_t off;
} emu_cursor;

static void cursor_start(emu_cursor *c, const lpai_emu_desc *d)
{
    memset(c, 0, sizeof *c);
    c->rank = shown_rank(d);
    c->dims = d->dims;
    for (uint32_t i = 0; i < c->rank; ++i) {
        c->step[d->order[i] < c->rank ? d->order[i] : 0] += d->stride[i];
    }
}

static void cursor_next(emu_cursor *c)
{
    for (uint32_t j = c->rank; j-- > 0;) {
        c->off += c->step[j];
        if (++c->coord[j] < c->dims[j]) {
            return;
        }
        c->off -= c->step[j] * c->coord[j];
        c->coord[j] = 0u;
    }
}

static int32_t alloc_tensor(struct LpaiEmuTensor *t, const lpai_emu_desc *d)
{
    memset(t, 0, sizeof *t);
    t->d = *d;
    if (shown_rank(d) != d->rank || d->bits == 0u) {
        return LPAI_EMU_E_ARG;
    }
    fill_strides(&t->d);
    const uint64_t n = count_of(&t->d);
    size_t bytes = 1u;
    if (n > 0u) {
        uint64_t max_off = 0;
        for (uint32_t i = 0; i < d->rank; ++i) {
            max_off += (uint64_t)(t->d.dims[t->d.order[i] < d->rank ? t->d.order[i] : 0] - 1u) * t->d.stride[i];
        }
        bytes = (size_t)max_off + elem_bytes(d);
    }
    t->buf = (uint8_t *)malloc(bytes);
    if (!t->buf) {
        return LPAI_EMU_E_ARG;
    }
    memset(t->buf, EMU_CANARY, bytes);
    t->bytes = bytes;
    return 0;
}

#endif /* LPAI_EMU_NODE_H */
