// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// The HTP package's loops, free of the SDK: tensors arrive as htp_view (an element
// type, the quantization, the logical shape and a flat row-major buffer), made by
// include/htp_kernels.h from what the runtime hands an op. The math is the LPAI
// package's (one generated function per op, one user file per custom op): this file
// reads real values from the views and writes real values back, for the three element
// types an HTP graph gives a custom op:
//   HTP_F32   fp32 graphs, and fp16 graphs (ExecuTorch sends a custom op FLOAT_32)
//   HTP_U8    the a8w8 quantizer's activations: real = (code - offset) * scale
//   HTP_U16   the a16w8 quantizer's activations, the same with 16-bit codes
// A quantized result is rounded as on LPAI and in torch: value x (1 / scale), clamped
// to the code window, rounded half to even, then the zero point added
// (lpai_round_half_even, lpai_conventions.h; qnn-op-template/docs/spec.md "Rounding").
// Shapes: inputs broadcast like torch (lpai_shapes.h, shared with LPAI); each output
// must have its rule's shape, up to leading dims of 1 (HTP tensors are 4-D).
#ifndef HTP_ENGINE_H
#define HTP_ENGINE_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "lpai_conventions.h" // lpai_round_half_even, LPAI_USER_MATH_MISSING, LPAI_MAX_*
#include "lpai_expr_math.h"   // the functions the expressions call
#include "lpai_shapes.h"      // the shape rules and lpai_custom_call, shared with LPAI

// One message per refusal on the host builds; the device has no stdio to speak to.
#if defined(HTP_STANDIN)
#define HTP_REPORT(...) std::fprintf(stderr, __VA_ARGS__)
#else
#define HTP_REPORT(...) ((void)sizeof(std::printf(__VA_ARGS__))) // not evaluated: uses the arguments
#endif

// The element types the package computes; include/htp_kernels.h maps the runtime's.
enum htp_elem : uint32_t {
    HTP_F32 = 0,
    HTP_U8 = 1,
    HTP_U16 = 2,
};

// Why the loops refused (0: they did not); include/htp_kernels.h maps each to the
// runtime's status.
enum htp_rc : uint32_t {
    HTP_OK = 0,
    HTP_BAD_DIMS,    // a shape that is not the op's rule's
    HTP_BAD_INPUT,   // a missing buffer, or the user math failed
    HTP_BAD_QUANT,   // an element type or a quantization the package does not take
    HTP_NO_SPACE,    // no memory for the custom op's float buffer
    HTP_UNSUPPORTED, // the user math is not written yet
};

// One tensor as the loops read or write it.
struct htp_view {
    htp_elem elem;
    float scale;
    float inv_scale; // 1 / scale, for writing: the reciprocal multiplies, as torch's quantize
    int32_t offset;  // zero point
    int32_t qmax;    // the largest code; 0 for HTP_F32
    lpai_shape shape;
    const void *in;
    void *out;
};

// The quantization of a quantized view, checked: a usable scale (lpai_scale_ok) and a
// zero point inside the code window; 1 / scale finite.
static inline htp_rc htp_view_quant(htp_view *v, float scale, int32_t offset)
{
    v->scale = scale;
    v->offset = offset;
    if (!lpai_scale_ok(v->scale) || v->offset < 0 || v->offset > v->qmax) {
        HTP_REPORT("htp: scale %g zero point %d: not a usable quantization\n", (double)v->scale, (int)v->offset);
        return HTP_BAD_QUANT;
    }
    v->inv_scale = 1.0f / v->scale;
    return lpai_ratio_ok(v->inv_scale) ? HTP_OK : HTP_BAD_QUANT;
}

// The logical shape of a view from its rank and dims (size_t, as the runtimes give them).
static inline htp_rc htp_view_shape(htp_view *v, size_t rank, const size_t *dims)
{
    if (rank > LPAI_MAX_RANK) {
        return HTP_BAD_DIMS;
    }
    v->shape.rank = static_cast<uint32_t>(rank);
    for (size_t d = 0; d < rank; ++d) {
        if (dims[d] > UINT32_MAX) {
            return HTP_BAD_DIMS;
        }
        v->shape.dims[d] = static_cast<uint32_t>(dims[d]);
    }
    return lpai_count_elements_checked(v->shape.dims, v->shape.rank, &v->shape.count) ? HTP_OK : HTP_BAD_DIMS;
}

static inline float htp_load(const htp_view &v, uint64_t i)
{
    if (v.elem == HTP_F32) {
        float x;
        std::memcpy(&x, static_cast<const unsigned char *>(v.in) + i * 4u, sizeof x);
        return x;
    }
    int32_t code;
    if (v.elem == HTP_U8) {
        code = static_cast<const uint8_t *>(v.in)[i];
    } else {
        uint16_t c16;
        std::memcpy(&c16, static_cast<const unsigned char *>(v.in) + i * 2u, sizeof c16);
        code = c16;
    }
    return static_cast<float>(code - v.offset) * v.scale;
}

static inline void htp_store(const htp_view &v, uint64_t i, float value)
{
    unsigned char *p = static_cast<unsigned char *>(v.out);
    if (v.elem == HTP_F32) {
        std::memcpy(p + i * 4u, &value, sizeof value);
        return;
    }
    // Clamped in float before the conversion (NaN, and out-of-range floats, would be
    // undefined behaviour as an int): `!(c > lo)` sends NaN to the lowest code.
    const float lo = static_cast<float>(-v.offset);
    const float hi = static_cast<float>(v.qmax - v.offset);
    float c = value * v.inv_scale;
    c = (c > lo) ? c : lo;
    c = (c < hi) ? c : hi;
    const int32_t code = static_cast<int32_t>(lpai_round_half_even(c)) + v.offset;
    if (v.elem == HTP_U8) {
        p[i] = static_cast<uint8_t>(code);
    } else {
        const uint16_t c16 = static_cast<uint16_t>(code);
        std::memcpy(p + i * 2u, &c16, sizeof c16);
    }
}

// 1 when `got` is `want` up to leading dims of 1 (an HTP tensor is 4-D whatever the
// rank torch gives it).
static inline int htp_same_shape(uint32_t want_rank, const uint32_t *want, const lpai_shape &got)
{
    uint32_t a = want_rank, b = got.rank;
    while (a > 0u && b > 0u) {
        if (want[--a] != got.dims[--b]) {
            return 0;
        }
    }
    while (a > 0u) {
        if (want[--a] != 1u) {
            return 0;
        }
    }
    while (b > 0u) {
        if (got.dims[--b] != 1u) {
            return 0;
        }
    }
    return 1;
}

// The inputs' ranks and dims in the form lpai_shapes.h's rules read them: gathered once
// per call (htp_inputs), read by every output's rule.
struct htp_shapes {
    uint32_t ranks[LPAI_MAX_INPUTS];
    uint32_t dims[LPAI_MAX_INPUTS][LPAI_MAX_RANK];
};

// The shape `rule` gives an output of these inputs (0: the inputs admit none).
static inline int htp_rule_shape(const lpai_shape_rule *rule, uint32_t nin, const htp_shapes &in, lpai_shape *out)
{
    std::memset(out, 0, sizeof *out);
    if (!lpai_rule_dims(rule, nin, in.ranks, in.dims, &out->rank, out->dims)) {
        return 0;
    }
    return lpai_count_elements_checked(out->dims, out->rank, &out->count);
}

// The math of an elementwise op: real inputs in, the real result out (in[] by input,
// params[] by param, each param as float).
typedef float (*htp_math_fn)(const float *in, const float *params);

// The inputs' ranks and dims, gathered once per call for the shape rules.
static inline void htp_gather_shapes(const htp_view *v, uint32_t nin, htp_shapes *shapes)
{
    for (uint32_t k = 0; k < nin; ++k) {
        shapes->ranks[k] = v[k].shape.rank;
        std::memcpy(shapes->dims[k], v[k].shape.dims, sizeof shapes->dims[k]);
    }
}

// An elementwise op: every output element from the inputs' elements at the same
// (broadcast) position. The output's own dims lead: its coordinates walk the inputs
// with a stride of 0 along a broadcast dim.
static inline htp_rc htp_elementwise_run(const htp_view &o, const htp_view *v, uint32_t nin, const float *params,
                                         htp_math_fn math)
{
    htp_shapes shapes;
    htp_gather_shapes(v, nin, &shapes);
    const lpai_shape_rule broadcast = {LPAI_SHAPE_BROADCAST, 0u, 0u, 0u, {0, 0, 0, 0, 0}};
    lpai_shape want;
    if (!htp_rule_shape(&broadcast, nin, shapes, &want) || !htp_same_shape(want.rank, want.dims, o.shape)) {
        HTP_REPORT("htp: the output's shape is not the broadcast of the inputs'\n");
        return HTP_BAD_DIMS;
    }
    // Walk the broadcast shape (`want`), which holds as many elements as the output.
    const uint32_t rank = want.rank;
    uint64_t stride[LPAI_MAX_INPUTS][LPAI_MAX_RANK] = {};
    for (uint32_t k = 0; k < nin; ++k) {
        uint64_t s = 1u;
        const uint32_t lead = rank - v[k].shape.rank;
        for (uint32_t d = v[k].shape.rank; d-- > 0u;) {
            stride[k][lead + d] = v[k].shape.dims[d] == 1u ? 0u : s;
            s *= v[k].shape.dims[d];
        }
    }
    uint32_t idx[LPAI_MAX_RANK] = {};
    uint64_t at[LPAI_MAX_INPUTS] = {};
    float x[LPAI_MAX_INPUTS];
    for (uint64_t i = 0; i < want.count; ++i) {
        for (uint32_t k = 0; k < nin; ++k) {
            x[k] = htp_load(v[k], at[k]);
        }
        htp_store(o, i, math(x, params));
        for (uint32_t d = rank; d-- > 0u;) {
            for (uint32_t k = 0; k < nin; ++k) {
                at[k] += stride[k][d];
            }
            if (++idx[d] < want.dims[d]) {
                break;
            }
            for (uint32_t k = 0; k < nin; ++k) {
                at[k] -= stride[k][d] * want.dims[d];
            }
            idx[d] = 0u;
        }
    }
    return HTP_OK;
}

// A custom op: every input dequantized into one float buffer (each in its own shape,
// logical row-major), the user's math called through the generated <Op>_call (the same
// adapter the LPAI kernel calls), every output requantized. The buffer is the sum of
// all element counts x 4 bytes, from the heap: HTP gives an op package no scratch of
// its own to ask for. malloc, not std::vector: the package needs nothing of the C++
// library at run time (no exceptions, no libc++ to load beside it).
static inline htp_rc htp_custom_run(const htp_view *o, uint32_t nout, const htp_view *v, uint32_t nin,
                                    const lpai_shape_rule *rules, const float *params, const uint32_t *params_u32,
                                    lpai_custom_fn call_math, const char *op_type, const char *missing)
{
    lpai_shape want[LPAI_MAX_OUTPUTS];
    htp_shapes shapes;
    htp_gather_shapes(v, nin, &shapes);
    if (!lpai_broadcasts_to_first(nin, shapes.ranks, shapes.dims)) {
        HTP_REPORT("htp: %s: a later input does not broadcast to the first\n", op_type);
        return HTP_BAD_DIMS;
    }
    uint64_t floats = 0u;
    for (uint32_t k = 0; k < nin; ++k) {
        floats += v[k].shape.count;
    }
    for (uint32_t k = 0; k < nout; ++k) {
        if (!htp_rule_shape(&rules[k], nin, shapes, &want[k]) ||
            !htp_same_shape(want[k].rank, want[k].dims, o[k].shape)) {
            HTP_REPORT("htp: %s: output %u does not have its rule's shape\n", op_type, (unsigned)k);
            return HTP_BAD_DIMS;
        }
        floats += want[k].count;
    }
    if (floats > SIZE_MAX / sizeof(float)) {
        return HTP_NO_SPACE;
    }
    float *buffer = static_cast<float *>(std::malloc(floats == 0u ? 1u : static_cast<size_t>(floats) * sizeof(float)));
    if (buffer == nullptr) {
        return HTP_NO_SPACE;
    }
    htp_rc st = HTP_OK;
    lpai_custom_call call;
    std::memset(&call, 0, sizeof call);
    float *at = buffer;
    for (uint32_t k = 0; k < nin; ++k) {
        for (uint64_t i = 0; i < v[k].shape.count; ++i) {
            at[i] = htp_load(v[k], i);
        }
        call.in[k] = at;
        call.in_shape[k] = v[k].shape;
        at += v[k].shape.count;
    }
    for (uint32_t k = 0; k < nout; ++k) {
        call.out[k] = at;
        call.out_shape[k] = want[k];
        at += want[k].count;
    }
    call.params = params;
    call.params_u32 = params_u32;
    const int rc = call_math(&call);
    if (rc == LPAI_USER_MATH_MISSING) {
        HTP_REPORT("%s\n", missing);
        st = HTP_UNSUPPORTED;
    } else if (rc != 0) {
        HTP_REPORT("htp: %s: the user math returned %d\n", op_type, rc);
        st = HTP_BAD_INPUT;
    } else {
        for (uint32_t k = 0; k < nout; ++k) {
            for (uint64_t i = 0; i < want[k].count; ++i) {
                htp_store(o[k], i, call.out[k][i]);
            }
        }
    }
    std::free(buffer);
    return st;
}

#endif // HTP_ENGINE_H
