// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// The HTP side of every op: what src/ops/<Op>.cpp hands its tensors to. The math is
// the LPAI package's (one generated function per op, one user file per custom op): this
// file only reads HTP tensors into real values and writes real values back, for the
// three element types an HTP graph gives a custom op:
//   Float32  fp32 graphs, and fp16 graphs (ExecuTorch sends a custom op FLOAT_32)
//   QUInt8   the a8w8 quantizer's activations: real = (code - offset) * scale
//   QUInt16  the a16w8 quantizer's activations, the same with 16-bit codes
// HTP's `interface_offset()` is the zero point (QNN's Qnn_ScaleOffset_t offset negated).
// A quantized result is rounded as on LPAI and in torch: value x (1 / scale), clamped
// to the code window, rounded half to even, then the zero point added
// (lpai_round_half_even, lpai_conventions.h; qnn-op-template/docs/spec.md "Rounding").
//
// Layout: the tensors are read as flat row-major arrays (raw_data), what HTP hands a
// package that declares no layout of its own; a crouton tensor would need its tiles read
// (not verifiable without the SDK's runtime: docs/htp.md).
// Shapes: inputs broadcast like torch (lpai_shapes.h, shared with LPAI); each output
// must have its rule's shape, up to leading dims of 1 (HTP tensors are 4-D).
#ifndef HTP_KERNELS_H
#define HTP_KERNELS_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "htp_sdk.h"
#include "lpai_conventions.h" // lpai_round_half_even, LPAI_USER_MATH_MISSING, LPAI_MAX_*
#include "lpai_expr_math.h"   // the functions the expressions call
#include "lpai_shapes.h"      // the shape rules and lpai_custom_call, shared with LPAI

// One message per refusal on the host builds; the device has no stdio to speak to.
#if defined(HTP_STANDIN)
#define HTP_REPORT(...) std::fprintf(stderr, __VA_ARGS__)
#else
#define HTP_REPORT(...) ((void)sizeof(std::printf(__VA_ARGS__))) // not evaluated: uses the arguments
#endif

// One tensor as the loops read or write it.
struct htp_view {
    DType dtype;
    float scale;
    float inv_scale; // 1 / scale, for writing: the reciprocal multiplies, as torch's quantize
    int32_t offset;  // zero point
    int32_t qmax;    // the largest code; 0 for Float32
    lpai_shape shape;
    const void *in;
    void *out;
};

static inline GraphStatus htp_view_of(const Tensor &t, htp_view *v)
{
    std::memset(v, 0, sizeof *v);
    v->dtype = t.get_dtype();
    if (v->dtype == DType::QUInt8) {
        v->qmax = 255;
    } else if (v->dtype == DType::QUInt16) {
        v->qmax = 65535;
    } else if (v->dtype != DType::Float32) {
        HTP_REPORT("htp: a tensor of element type %u: the package takes Float32, QUInt8, QUInt16\n",
                   static_cast<unsigned>(v->dtype));
        return GraphStatus::ErrorPrecision;
    }
    if (v->qmax != 0) {
        v->scale = t.interface_scale();
        v->offset = t.interface_offset();
        if (!lpai_scale_ok(v->scale) || v->offset < 0 || v->offset > v->qmax) {
            HTP_REPORT("htp: scale %g zero point %d: not a usable quantization\n", (double)v->scale, (int)v->offset);
            return GraphStatus::ErrorPrecision;
        }
        v->inv_scale = 1.0f / v->scale;
        if (!lpai_ratio_ok(v->inv_scale)) {
            return GraphStatus::ErrorPrecision;
        }
    }
    const size_t rank = t.rank();
    if (rank > LPAI_MAX_RANK) {
        return GraphStatus::ErrorDimensions;
    }
    v->shape.rank = static_cast<uint32_t>(rank);
    for (size_t d = 0; d < rank; ++d) {
        const size_t n = t.dim(d);
        if (n > UINT32_MAX) {
            return GraphStatus::ErrorDimensions;
        }
        v->shape.dims[d] = static_cast<uint32_t>(n);
    }
    if (!lpai_count_elements_checked(v->shape.dims, v->shape.rank, &v->shape.count)) {
        return GraphStatus::ErrorDimensions;
    }
    v->in = t.raw_data_const();
    return (v->in == nullptr && v->shape.count != 0u) ? GraphStatus::ErrorBadInput : GraphStatus::Success;
}

static inline float htp_load(const htp_view &v, uint64_t i)
{
    if (v.dtype == DType::Float32) {
        float x;
        std::memcpy(&x, static_cast<const unsigned char *>(v.in) + i * 4u, sizeof x);
        return x;
    }
    int32_t code;
    if (v.dtype == DType::QUInt8) {
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
    if (v.dtype == DType::Float32) {
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
    if (v.dtype == DType::QUInt8) {
        p[i] = static_cast<uint8_t>(code);
    } else {
        const uint16_t c16 = static_cast<uint16_t>(code);
        std::memcpy(p + i * 2u, &c16, sizeof c16);
    }
}

static inline GraphStatus htp_output_view(Tensor &t, htp_view *v)
{
    const GraphStatus st = htp_view_of(t, v);
    if (st) {
        return st;
    }
    v->out = t.raw_data();
    v->in = nullptr;
    return (v->out == nullptr && v->shape.count != 0u) ? GraphStatus::ErrorBadInput : GraphStatus::Success;
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

static inline GraphStatus htp_inputs(const Tensor *const *ins, uint32_t nin, htp_view *v, htp_shapes *shapes)
{
    for (uint32_t k = 0; k < nin; ++k) {
        const GraphStatus st = htp_view_of(*ins[k], &v[k]);
        if (st) {
            return st;
        }
        shapes->ranks[k] = v[k].shape.rank;
        std::memcpy(shapes->dims[k], v[k].shape.dims, sizeof shapes->dims[k]);
    }
    return GraphStatus::Success;
}

// An elementwise op: every output element from the inputs' elements at the same
// (broadcast) position. The output's own dims lead: its coordinates walk the inputs
// with a stride of 0 along a broadcast dim.
static inline GraphStatus htp_elementwise(Tensor &out, const Tensor *const *ins, uint32_t nin, const float *params,
                                          htp_math_fn math)
{
    htp_view v[LPAI_MAX_INPUTS];
    htp_view o;
    htp_shapes shapes;
    GraphStatus st = htp_inputs(ins, nin, v, &shapes);
    if (st || (st = htp_output_view(out, &o))) {
        return st;
    }
    const lpai_shape_rule broadcast = {LPAI_SHAPE_BROADCAST, 0u, 0u, 0u, {0, 0, 0, 0, 0}};
    lpai_shape want;
    if (!htp_rule_shape(&broadcast, nin, shapes, &want) || !htp_same_shape(want.rank, want.dims, o.shape)) {
        HTP_REPORT("htp: the output's shape is not the broadcast of the inputs'\n");
        return GraphStatus::ErrorDimensions;
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
    return GraphStatus::Success;
}

// A custom op: every input dequantized into one float buffer (each in its own shape,
// logical row-major), the user's math called through the generated <Op>_call (the same
// adapter the LPAI kernel calls), every output requantized. The buffer is the sum of
// all element counts x 4 bytes, from the heap: HTP gives an op package no scratch of
// its own to ask for. malloc, not std::vector: the package needs nothing of the C++
// library at run time (no exceptions, no libc++ to load beside it).
static inline GraphStatus htp_custom(Tensor *const *outs, uint32_t nout, const Tensor *const *ins, uint32_t nin,
                                     const lpai_shape_rule *rules, const float *params, const uint32_t *params_u32,
                                     lpai_custom_fn call_math, const char *op_type, const char *missing)
{
    htp_view v[LPAI_MAX_INPUTS];
    htp_view o[LPAI_MAX_OUTPUTS];
    lpai_shape want[LPAI_MAX_OUTPUTS];
    htp_shapes shapes;
    GraphStatus st = htp_inputs(ins, nin, v, &shapes);
    if (st) {
        return st;
    }
    if (!lpai_broadcasts_to_first(nin, shapes.ranks, shapes.dims)) {
        HTP_REPORT("htp: %s: a later input does not broadcast to the first\n", op_type);
        return GraphStatus::ErrorDimensions;
    }
    uint64_t floats = 0u;
    for (uint32_t k = 0; k < nin; ++k) {
        floats += v[k].shape.count;
    }
    for (uint32_t k = 0; k < nout; ++k) {
        if ((st = htp_output_view(*outs[k], &o[k]))) {
            return st;
        }
        if (!htp_rule_shape(&rules[k], nin, shapes, &want[k]) ||
            !htp_same_shape(want[k].rank, want[k].dims, o[k].shape)) {
            HTP_REPORT("htp: %s: output %u does not have its rule's shape\n", op_type, (unsigned)k);
            return GraphStatus::ErrorDimensions;
        }
        floats += want[k].count;
    }
    if (floats > SIZE_MAX / sizeof(float)) {
        return GraphStatus::ErrorNoSpace;
    }
    float *buffer = static_cast<float *>(std::malloc(floats == 0u ? 1u : static_cast<size_t>(floats) * sizeof(float)));
    if (buffer == nullptr) {
        return GraphStatus::ErrorNoSpace;
    }
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
        st = GraphStatus::ErrorUnsupported;
    } else if (rc != 0) {
        HTP_REPORT("htp: %s: the user math returned %d\n", op_type, rc);
        st = GraphStatus::ErrorBadInput;
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

// A scalar param as HTP hands it (a tensor of one element), read through the SDK's
// accessor as Qualcomm's own examples read theirs (Softmax's beta): as float. An int or
// bool param (sent as QNN_DATATYPE_UINT_32) is exact below 2^24 so.
static inline float htp_param(const Tensor &p)
{
    return p(0, 0, 0, 0);
}

static inline uint32_t htp_param_u32(const Tensor &p)
{
    const float f = htp_param(p);
    if (!(f > 0.0f)) {
        return 0u;
    }
    return f >= 4294967040.0f ? UINT32_MAX : static_cast<uint32_t>(f);
}

#endif // HTP_KERNELS_H
