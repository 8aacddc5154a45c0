// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// The HTP side of every op, in QHPI form (the SDK's HTP/core/qhpi.h): what
// src/ops/<Op>.cpp registers and what its kernel hands its tensors to. This file reads
// what the runtime hands a kernel (element type, quantization, shape, buffer) into the
// views of include/htp_engine.h, whose loops compute, and maps their answer to QHPI's
// status.
//
// Each op registers three kernels, one per element type (Float32, QUInt8, QUInt16), whose
// signatures ask for every tensor flat (QHPI_Layout_Flat4) and direct (one contiguous
// buffer, never a crouton block table): the runtime converts to that before it calls the
// kernel, so raw data is the whole tensor, row-major. The params follow the tensors as
// inputs, in OpDef order, each a one-element tensor of its own type: a float param
// Float32, an int or bool param (sent as QNN_DATATYPE_UINT_32) Int32, whose 32 bits are
// read as they are (exact past 2^24).
#ifndef HTP_KERNELS_H
#define HTP_KERNELS_H

#include <cmath>

#include "htp_engine.h"
#include "htp_sdk.h"

// The most inputs a kernel takes: the tensors, then the params.
#define HTP_MAX_KERNEL_INPUTS (LPAI_MAX_INPUTS + LPAI_MAX_PARAMS)
// One kernel per element type the package computes.
#define HTP_KERNELS 3u

static inline uint32_t htp_status(htp_rc rc)
{
    switch (rc) {
    case HTP_OK:
        return QHPI_Success;
    case HTP_UNSUPPORTED:
        return QHPI_Unsupported;
    case HTP_BAD_DIMS:
    case HTP_BAD_INPUT:
    case HTP_BAD_QUANT:
    case HTP_NO_SPACE:
        break;
    }
    return QHPI_ErrorFatal;
}

// A scale the loops can use: a normal, finite, positive float. A denormal one (1e-45)
// would give an infinite 1 / scale; it is refused with the line 0, NaN and inf get.
static inline htp_rc htp_view_quant_checked(htp_view *v, float scale, int32_t offset)
{
    if (!(std::isnormal(scale) && scale > 0.0f)) {
        HTP_REPORT("htp: scale %g zero point %d: not a usable quantization\n", (double)scale, (int)offset);
        return HTP_BAD_QUANT;
    }
    return htp_view_quant(v, scale, offset);
}

static inline htp_rc htp_view_of(const QHPI_Tensor *t, htp_view *v)
{
    std::memset(v, 0, sizeof *v);
    const QHPI_Element_Type type = qhpi_tensor_type(t);
    if (type == QHPI_QUInt8) {
        v->elem = HTP_U8;
        v->qmax = 255;
    } else if (type == QHPI_QUInt16) {
        v->elem = HTP_U16;
        v->qmax = 65535;
    } else if (type == QHPI_Float32) {
        v->elem = HTP_F32;
    } else {
        HTP_REPORT("htp: a tensor of element type %u: the package takes Float32, QUInt8, QUInt16\n",
                   static_cast<unsigned>(type));
        return HTP_BAD_QUANT;
    }
    htp_rc rc;
    if (v->qmax != 0) {
        const QHPI_Quant_Parameters q = qhpi_tensor_quant_parameters(t);
        if ((rc = htp_view_quant_checked(v, q.stepsize, q.zero_offset))) {
            return rc;
        }
    }
    const QHPI_Shape shape = qhpi_tensor_shape(t);
    if (shape.rank > QHPI_MAX_RANK) {
        return HTP_BAD_DIMS;
    }
    size_t dims[QHPI_MAX_RANK] = {};
    for (uint32_t d = 0; d < shape.rank; ++d) {
        dims[d] = shape.dims[d];
    }
    if ((rc = htp_view_shape(v, shape.rank, dims))) {
        return rc;
    }
    v->in = qhpi_tensor_raw_data(t);
    return (v->in == nullptr && v->shape.count != 0u) ? HTP_BAD_INPUT : HTP_OK;
}

static inline htp_rc htp_output_view(QHPI_Tensor *t, htp_view *v)
{
    const htp_rc rc = htp_view_of(t, v);
    if (rc) {
        return rc;
    }
    v->out = qhpi_tensor_raw_data(t);
    v->in = nullptr;
    return (v->out == nullptr && v->shape.count != 0u) ? HTP_BAD_INPUT : HTP_OK;
}

static inline htp_rc htp_views(uint32_t num_outputs, QHPI_Tensor **outputs, uint32_t nout, uint32_t num_inputs,
                               const QHPI_Tensor *const *inputs, uint32_t nin, uint32_t nparams, htp_view *o,
                               htp_view *v)
{
    if (num_outputs != nout || num_inputs != nin + nparams || outputs == nullptr || inputs == nullptr) {
        HTP_REPORT("htp: %u outputs and %u inputs: the op takes %u and %u (tensors, then params)\n",
                   (unsigned)num_outputs, (unsigned)num_inputs, (unsigned)nout, (unsigned)(nin + nparams));
        return HTP_BAD_INPUT;
    }
    htp_rc rc = HTP_OK;
    for (uint32_t k = 0; rc == HTP_OK && k < nin; ++k) {
        rc = htp_view_of(inputs[k], &v[k]);
    }
    for (uint32_t k = 0; rc == HTP_OK && k < nout; ++k) {
        rc = htp_output_view(outputs[k], &o[k]);
    }
    return rc;
}

// A float param: a Float32 tensor of one element.
static inline float htp_param_f32(const QHPI_Tensor *p)
{
    const void *data = qhpi_tensor_raw_data(p);
    float x = 0.0f;
    if (data != nullptr) {
        std::memcpy(&x, data, sizeof x);
    }
    return x;
}

// An int or bool param: an Int32 tensor of one element holding QNN_DATATYPE_UINT_32's
// bits, read as they are.
static inline uint32_t htp_param_u32(const QHPI_Tensor *p)
{
    const void *data = qhpi_tensor_raw_data(p);
    uint32_t u = 0u;
    if (data != nullptr) {
        std::memcpy(&u, data, sizeof u);
    }
    return u;
}

// A float param where the custom op's math asks a uint32: truncated toward zero, clamped
// to [0, UINT32_MAX], NaN 0 (as the LPAI kernel converts it).
static inline uint32_t htp_u32_of_f32(float f)
{
    if (!(f > 0.0f)) {
        return 0u;
    }
    return f >= 4294967040.0f ? UINT32_MAX : static_cast<uint32_t>(f);
}

// An elementwise op's kernel: `run` is the op's <Op>_run (src/ops/<Op>.cpp), the engine's
// htp_elementwise_run with the op's math (or, on x86, its SSE4.1 copy).
typedef htp_rc (*htp_run_fn)(const htp_view &o, const htp_view *v, const float *params);

static inline uint32_t htp_elementwise(uint32_t num_outputs, QHPI_Tensor **outputs, uint32_t num_inputs,
                                       const QHPI_Tensor *const *inputs, uint32_t nin, uint32_t nparams,
                                       const float *params, htp_run_fn run)
{
    htp_view v[LPAI_MAX_INPUTS];
    htp_view o;
    const htp_rc rc = htp_views(num_outputs, outputs, 1u, num_inputs, inputs, nin, nparams, &o, v);
    return htp_status(rc ? rc : run(o, v, params));
}

// A custom op's kernel (include/htp_engine.h, htp_custom_run).
static inline uint32_t htp_custom(uint32_t num_outputs, QHPI_Tensor **outputs, uint32_t nout, uint32_t num_inputs,
                                  const QHPI_Tensor *const *inputs, uint32_t nin, uint32_t nparams,
                                  const lpai_shape_rule *rules, const float *params, const uint32_t *params_u32,
                                  lpai_custom_fn call_math, const char *op_type, const char *missing)
{
    htp_view v[LPAI_MAX_INPUTS];
    htp_view o[LPAI_MAX_OUTPUTS];
    const htp_rc rc = htp_views(num_outputs, outputs, nout, num_inputs, inputs, nin, nparams, o, v);
    return htp_status(rc ? rc
                         : htp_custom_run(o, nout, v, nin, rules, params, params_u32, call_math, op_type, missing));
}

// The cycles an op's kernel is estimated to take, for the runtime's scheduler: its
// largest tensor input's elements times the op's cost per element.
static inline float htp_cost(uint32_t num_inputs, const QHPI_Tensor *const *inputs, uint32_t nin, float per_element)
{
    float largest = 1.0f;
    for (uint32_t k = 0; k < nin && k < num_inputs; ++k) {
        const QHPI_Shape s = qhpi_tensor_shape(inputs[k]);
        float n = 1.0f;
        for (uint32_t d = 0; d < s.rank && d < QHPI_MAX_RANK; ++d) {
            n *= static_cast<float>(s.dims[d]);
        }
        largest = n > largest ? n : largest;
    }
    return largest * per_element;
}

// An op's registration: three kernels (Float32, QUInt8, QUInt16), each the same function,
// every tensor flat and direct in memory the runtime chooses, the params after the
// tensors with their own element types. `t` holds the signatures and kernels (they must
// outlive the registration: static storage in the op's source).
struct htp_op_tables {
    QHPI_Tensor_Signature_v1 in[HTP_KERNELS][HTP_MAX_KERNEL_INPUTS];
    QHPI_Tensor_Signature_v1 out[HTP_KERNELS][LPAI_MAX_OUTPUTS];
    QHPI_Kernel_v1 kernels[HTP_KERNELS];
};

static inline QHPI_Tensor_Signature_v1 htp_flat(uint32_t element_type)
{
    QHPI_Tensor_Signature_v1 s;
    std::memset(&s, 0, sizeof s);
    s.element_type = element_type;
    s.layout = QHPI_Layout_Flat4;
    s.storage = QHPI_Storage_Direct;
    s.mem_placement = QHPI_MemLoc_DDR_OR_TCM;
    return s;
}

static inline void htp_op_info(QHPI_OpInfo_v1 *info, htp_op_tables *t, const char *name, QHPI_Plugin_Function function,
                               QHPI_Cost_Function cost, uint32_t nin, const uint32_t *param_types, uint32_t nparams,
                               uint32_t nout)
{
    static const uint32_t k_types[HTP_KERNELS] = {QHPI_Float32, QHPI_QUInt8, QHPI_QUInt16};
    std::memset(t, 0, sizeof *t);
    for (uint32_t k = 0; k < HTP_KERNELS; ++k) {
        for (uint32_t i = 0; i < nin; ++i) {
            t->in[k][i] = htp_flat(k_types[k]);
        }
        for (uint32_t i = 0; i < nparams; ++i) {
            t->in[k][nin + i] = htp_flat(param_types[i]);
        }
        for (uint32_t i = 0; i < nout; ++i) {
            t->out[k][i] = htp_flat(k_types[k]);
        }
        QHPI_Kernel_v1 &kernel = t->kernels[k];
        kernel.function_name = name;
        kernel.function = function;
        kernel.resources = QHPI_RESOURCE_HVX;
        kernel.source_destructive = 0;
        kernel.multithreaded = 0;
        kernel.variable_inputs = 0;
        kernel.variable_outputs = 0;
        kernel.min_inputs = nin + nparams;
        kernel.input_signature = t->in[k];
        kernel.min_outputs = nout;
        kernel.output_signature = t->out[k];
        kernel.cost_function = cost;
    }
    std::memset(info, 0, sizeof *info);
    info->name = name;
    info->num_kernels = HTP_KERNELS;
    info->kernels = t->kernels;
}

#endif // HTP_KERNELS_H
