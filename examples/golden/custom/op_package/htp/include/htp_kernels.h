// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// The HTP side of every op: what src/ops/<Op>.cpp hands its tensors to. This file reads
// what the runtime hands an op (element type, quantization, shape, buffer) into the
// views of include/htp_engine.h, whose loops compute, and maps their answer to the
// runtime's status. HTP's `interface_offset()` is the zero point (QNN's
// Qnn_ScaleOffset_t offset negated).
//
// Layout: the tensors are read as flat row-major arrays (raw_data), what HTP hands a
// package that declares no layout of its own; a crouton tensor would need its tiles read
// (not verifiable without the SDK's runtime: docs/htp.md).
#ifndef HTP_KERNELS_H
#define HTP_KERNELS_H

#include "htp_engine.h"
#include "htp_sdk.h"

static inline GraphStatus htp_status(htp_rc rc)
{
    switch (rc) {
    case HTP_OK:
        return GraphStatus::Success;
    case HTP_BAD_DIMS:
        return GraphStatus::ErrorDimensions;
    case HTP_BAD_INPUT:
        return GraphStatus::ErrorBadInput;
    case HTP_BAD_QUANT:
        return GraphStatus::ErrorPrecision;
    case HTP_NO_SPACE:
        return GraphStatus::ErrorNoSpace;
    case HTP_UNSUPPORTED:
        return GraphStatus::ErrorUnsupported;
    }
    return GraphStatus::ErrorFatal;
}

static inline htp_rc htp_view_of(const Tensor &t, htp_view *v)
{
    std::memset(v, 0, sizeof *v);
    const DType dtype = t.get_dtype();
    if (dtype == DType::QUInt8) {
        v->elem = HTP_U8;
        v->qmax = 255;
    } else if (dtype == DType::QUInt16) {
        v->elem = HTP_U16;
        v->qmax = 65535;
    } else if (dtype == DType::Float32) {
        v->elem = HTP_F32;
    } else {
        HTP_REPORT("htp: a tensor of element type %u: the package takes Float32, QUInt8, QUInt16\n",
                   static_cast<unsigned>(dtype));
        return HTP_BAD_QUANT;
    }
    htp_rc rc;
    if (v->qmax != 0 && (rc = htp_view_quant(v, t.interface_scale(), t.interface_offset()))) {
        return rc;
    }
    size_t dims[LPAI_MAX_RANK] = {};
    const size_t rank = t.rank();
    for (size_t d = 0; d < rank && d < LPAI_MAX_RANK; ++d) {
        dims[d] = t.dim(d);
    }
    if ((rc = htp_view_shape(v, rank, dims))) {
        return rc;
    }
    v->in = t.raw_data_const();
    return (v->in == nullptr && v->shape.count != 0u) ? HTP_BAD_INPUT : HTP_OK;
}

static inline htp_rc htp_output_view(Tensor &t, htp_view *v)
{
    const htp_rc rc = htp_view_of(t, v);
    if (rc) {
        return rc;
    }
    v->out = t.raw_data();
    v->in = nullptr;
    return (v->out == nullptr && v->shape.count != 0u) ? HTP_BAD_INPUT : HTP_OK;
}

static inline htp_rc htp_input_views(const Tensor *const *ins, uint32_t nin, htp_view *v)
{
    for (uint32_t k = 0; k < nin; ++k) {
        const htp_rc rc = htp_view_of(*ins[k], &v[k]);
        if (rc) {
            return rc;
        }
    }
    return HTP_OK;
}

// An elementwise op (include/htp_engine.h, htp_elementwise_run).
static inline GraphStatus htp_elementwise(Tensor &out, const Tensor *const *ins, uint32_t nin, const float *params,
                                          htp_math_fn math)
{
    htp_view v[LPAI_MAX_INPUTS];
    htp_view o;
    htp_rc rc = htp_input_views(ins, nin, v);
    if (rc || (rc = htp_output_view(out, &o))) {
        return htp_status(rc);
    }
    return htp_status(htp_elementwise_run(o, v, nin, params, math));
}

// A custom op (include/htp_engine.h, htp_custom_run).
static inline GraphStatus htp_custom(Tensor *const *outs, uint32_t nout, const Tensor *const *ins, uint32_t nin,
                                     const lpai_shape_rule *rules, const float *params, const uint32_t *params_u32,
                                     lpai_custom_fn call_math, const char *op_type, const char *missing)
{
    htp_view v[LPAI_MAX_INPUTS];
    htp_view o[LPAI_MAX_OUTPUTS];
    htp_rc rc = htp_input_views(ins, nin, v);
    for (uint32_t k = 0; rc == HTP_OK && k < nout; ++k) {
        rc = htp_output_view(*outs[k], &o[k]);
    }
    if (rc) {
        return htp_status(rc);
    }
    return htp_status(htp_custom_run(o, nout, v, nin, rules, params, params_u32, call_math, op_type, missing));
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
