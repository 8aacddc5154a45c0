/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * From the LPAI kernel interface to the SDK-free views of lpai_conventions.h: status
 * text and rejection, tensor, scale and parameter reading, the checks of a whole node
 * (lpai_glue_prepare) and the registration record. The executeOp drivers that run on
 * top of it are in lpai_drivers.h.
 *
 * Everything a kernel checks before it touches the output lives here, so every op
 * rejects a bad node the same way and leaves the output buffer untouched.
 * Functions are static: each op package keeps its own copy, and two packages loaded
 * into one process cannot bind each other's helpers.
 */
#ifndef LPAI_GLUE_H
#define LPAI_GLUE_H

#include "lpai_sdk.h"
#include "lpai_conventions.h"
#include "lpai_shapes.h"

/* The package's infrastructure, stored by the package init function (src/<Package>Interface.c). */
extern QnnLpaiOpPackage_GlobalInfrastructure_t lpai_pkg_infra;

#if !defined(LPAI_INFERENCE_ONLY) || defined(LPAI_HOST_EMULATOR)
#include <stdio.h>
/* Host builds (simulator library and emulator) say which check failed; the DSP build
 * stays silent because printf there is slow and its output is hard to reach. */
#define LPAI_HOST_DIAGNOSTICS 1
extern const char *lpai_host_last_reject; /* read by the emulator's tests */
#endif

static inline const char *lpai_status_text(lpai_status st)
{
    switch (st) {
    case LPAI_OK:
        return "ok";
    case LPAI_E_SCALE_TYPE:
        return "quantization scale type is UNDEFINED or unknown";
    case LPAI_E_SCALE:
        return "quantization scale is zero, negative, NaN or infinite";
    case LPAI_E_RATIO:
        return "ratio of quantization scales is not finite and positive";
    case LPAI_E_OFFSET:
        return "quantization offset outside the storage range";
    case LPAI_E_WIDTH:
        return "element width is not 8 bits (16-bit activations are broken on LPAI)";
    case LPAI_E_RANK:
        return "rank above the maximum, or layout rank differs from shape rank";
    case LPAI_E_SHAPE:
        return "input and output shapes differ from the op's shape rule (broadcast, like or reduce)";
    case LPAI_E_LAYOUT:
        return "layout form is not FLAT or layoutOrder is not a permutation";
    case LPAI_E_TENSOR:
        return "a tensor, its data or a parameter (asked by its name) is missing";
    case LPAI_E_USER:
        return "the user-written math of this custom op refused the node";
    case LPAI_E_BOUNDS:
        return "element count or byte extent overflows 64 bits";
    case LPAI_E_OVERLAP:
        return "output layout has overlapping elements";
    case LPAI_E_SCRATCH:
        return "no scratch for the custom op: getTempBuffer failed or served fewer bytes than needed (rowwise: true "
               "needs none)";
    case LPAI_E_ROW:
        return "row (last dimension) longer than LPAI_ROW_MAX elements for a rowwise op";
    }
    return "unknown";
}

/* Logs (host builds) and maps a rejection to the kernel interface's error codes. */
static inline int32_t lpai_reject(const char *op, lpai_status st, const char *detail)
{
#if defined(LPAI_HOST_DIAGNOSTICS)
    lpai_host_last_reject = detail ? detail : lpai_status_text(st);
    LPAI_DIAG("%s: node rejected: %s\n", op, lpai_host_last_reject);
#else
    (void)op;
    (void)detail;
#endif
    switch (st) {
    case LPAI_E_WIDTH:
    case LPAI_E_LAYOUT:
        return (int32_t)LPAI_CUSTOM_OP_NOT_SUPPORTED;
    case LPAI_E_ROW:
        return (int32_t)LPAI_CUSTOM_OP_NOT_SUPPORTED;
    case LPAI_E_SCRATCH:
        return (int32_t)LPAI_CUSTOM_OP_MEMORY;
    case LPAI_E_TENSOR:
    case LPAI_E_USER:
        return (int32_t)LPAI_CUSTOM_OP_FAIL;
    default:
        return (int32_t)LPAI_CUSTOM_OP_INVALID_ARGUMENT;
    }
}

/* C4: the reported signedness is unusable (INT_8 for unsigned tensors), so a data
 * type is reduced to its width and nothing else. Exhaustive on purpose. */
static inline uint32_t lpai_glue_width_bits(QnnLpaiCustomOp_DataType_t type)
{
    switch (type) {
    case LPAI_CUSTOM_OP_DATATYPE_INT_4:
    case LPAI_CUSTOM_OP_DATATYPE_UINT_4:
        return 4u;
    case LPAI_CUSTOM_OP_DATATYPE_INT_8:
    case LPAI_CUSTOM_OP_DATATYPE_UINT_8:
        return 8u;
    case LPAI_CUSTOM_OP_DATATYPE_INT_16:
    case LPAI_CUSTOM_OP_DATATYPE_UINT_16:
        return 16u;
    case LPAI_CUSTOM_OP_DATATYPE_INT_32:
    case LPAI_CUSTOM_OP_DATATYPE_UINT_32:
        return 32u;
    case LPAI_CUSTOM_OP_DATATYPE_INT_64:
    case LPAI_CUSTOM_OP_DATATYPE_UINT_64:
        return 64u;
    case LPAI_CUSTOM_OP_DATATYPE_FLOAT_16:
    case LPAI_CUSTOM_OP_DATATYPE_FLOAT_32:
    case LPAI_CUSTOM_OP_DATATYPE_UNDEFINED:
    default:
        return 0u; /* not a fixed-point activation */
    }
}

/* C1: both scale forms, matched exhaustively. Reading UNDEFINED as "integer" would
 * interpret whatever bytes the union holds as a scale/shift pair. */
static LPAI_ALWAYS_INLINE lpai_status lpai_glue_scale(const QnnLpaiCustomOp_QuantScale_t *s, float *out)
{
    switch (s->type) {
    case QNN_LPAI_CUSTOM_OP_QUANT_SCALE_TYPE_FLOAT:
        *out = s->fScale;
        return LPAI_OK;
    case QNN_LPAI_CUSTOM_OP_QUANT_SCALE_TYPE_INT:
        *out = lpai_scale_from_int((int64_t)s->iScale.scale, (int64_t)s->iScale.shift);
        return LPAI_OK;
    case QNN_LPAI_CUSTOM_OP_QUANT_SCALE_TYPE_UNDEFINED:
    default:
        return LPAI_E_SCALE_TYPE;
    }
}

typedef struct {
    lpai_view view;
    lpai_quant quant;
    uint32_t stretched; /* an elementwise op's input whose shape is not the output's (broadcast) */
} lpai_io;

/* Reads one activation tensor completely and checks it, its byte extent included (C10).
 * Nothing is written. Small tensors pay for every instruction here
 * (qnn-op-template/docs/benchmark.md, "The call's fixed cost"): the accessors' statuses
 * are ORed and tested once per group (SUCCESS is 0), nothing is zeroed that an accessor
 * writes, the checks come after the reads, and it is inlined into each executeOp (a
 * call per tensor cost mul3 about 25 of its 520 DSP packets at one element). */
/* LPAI_MEASURE_UNCHECKED: a measuring instrument of qnn-op-template's benchmark
 * (qnn-op-template/bench/run.py), never for a build that runs a model: it takes the checks out that do
 * not change what a valid node computes (the width and layout-rank reads and tests, the
 * bound and overlap tests, the scale-ratio tests), so that the benchmark can print what
 * they cost a small call (qnn-op-template/docs/benchmark.md, "What the checks cost at one element"). */
static LPAI_ALWAYS_INLINE lpai_status lpai_glue_io(QnnLpai_CustomOpTensor_t t, lpai_io *io)
{
    const QnnLpaiOpPackage_GlobalInfrastructure_t *gi = &lpai_pkg_infra;
    if (!t) {
        return LPAI_E_TENSOR;
    }
    uint32_t rank = 0u;
#if defined(LPAI_MEASURE_UNCHECKED)
    uint32_t failed = (uint32_t)gi->getTensorShapeRank(t, &rank);
    const uint32_t bits = LPAI_SUPPORTED_BITS;
#else
    QnnLpaiCustomOp_DataType_t type = LPAI_CUSTOM_OP_DATATYPE_UNDEFINED;
    uint32_t layout_rank = 0u;
    uint32_t failed = (uint32_t)gi->getTensorDataType(t, &type);
    failed |= (uint32_t)gi->getTensorShapeRank(t, &rank);
    failed |= (uint32_t)gi->getTensorLayoutRank(t, &layout_rank);
    if (failed != (uint32_t)LPAI_CUSTOM_OP_SUCCESS) {
        return LPAI_E_TENSOR;
    }
    const uint32_t bits = lpai_glue_width_bits(type);
    if (bits != LPAI_SUPPORTED_BITS) { /* C8 */
        return LPAI_E_WIDTH;
    }
    /* Checked before anything is read into arrays of LPAI_MAX_RANK entries. */
    if (rank > LPAI_MAX_RANK || layout_rank != rank) {
        return LPAI_E_RANK;
    }
#endif
    uint32_t dims[LPAI_MAX_RANK];
    for (uint32_t i = 0; i < rank; ++i) {
        failed |= (uint32_t)gi->getTensorShapeDimSize(t, i, &dims[i]);
    }
    QnnLpaiCustomOp_Layout_t layout;
    QnnLpaiCustomOp_PerTensorQuantInfo_t q;
    failed |= (uint32_t)gi->getTensorLayout(t, &layout);
    failed |= (uint32_t)gi->getPerTensorQuantParams(t, &q);
    void *data = gi->getTensorData(t);
    if (failed != (uint32_t)LPAI_CUSTOM_OP_SUCCESS || !data) {
        return LPAI_E_TENSOR;
    }
    if (layout.layoutForm != QNN_LPAI_CUSTOM_OP_LAYOUT_FORM_FLAT) {
        return LPAI_E_LAYOUT;
    }
    float scale = 0.0f;
    lpai_status st = lpai_glue_scale(&q.scale, &scale);
    if (st != LPAI_OK) {
        return st;
    }
    st = lpai_quant_init(&io->quant, scale, (int32_t)q.offset, bits);
    if (st != LPAI_OK) {
        return st;
    }
    int fits = 0;
    st = lpai_view_init_bounded(&io->view, rank, dims, layout.layoutOrder, layout.layoutStride, data, &fits);
    if (st != LPAI_OK) {
        return st;
    }
#if defined(LPAI_MEASURE_UNCHECKED)
    (void)fits;
    return LPAI_OK;
#else
    return fits ? LPAI_OK : LPAI_E_BOUNDS;
#endif
}

/* The shape of every output is the one its rule gives from the inputs (lpai_shapes.h):
 * the broadcast of the inputs for an elementwise op, the spec's rules for a custom op. */
static inline int lpai_same_shape(const lpai_view *a, const lpai_view *b)
{
    if (a->rank != b->rank) {
        return 0;
    }
    for (uint32_t d = 0; d < a->rank; ++d) {
        if (a->dims[d] != b->dims[d]) {
            return 0;
        }
    }
    return 1;
}

static inline lpai_status lpai_glue_shapes(lpai_io *in, uint32_t nin, const lpai_io *out, uint32_t nout,
                                           const lpai_shape_rule *rules)
{
    if (nout == 1u && rules[0].kind == LPAI_SHAPE_BROADCAST) {
        /* Elementwise ops, decided on the views in a few instructions (small tensors
         * pay for every one): numpy's rules against the output directly, the same
         * rules as lpai_rule_dims (validateOp), which the host tests hold together.
         * Every input dimension (aligned on the last) is the output's or 1, and every
         * output dimension other than 1 comes from some input. */
        const lpai_view *o = &out[0].view;
        uint32_t same = 1u; /* the common case first: every input in the output's shape */
        for (uint32_t k = 0; k < nin; ++k) {
            in[k].stretched = !lpai_same_shape(&in[k].view, o); /* read by lpai_execute_nary_u8 */
            same &= !in[k].stretched;
        }
        if (same) {
            return LPAI_OK;
        }
        uint32_t from_input[LPAI_MAX_RANK] = {0u};
        for (uint32_t k = 0; k < nin; ++k) {
            const lpai_view *v = &in[k].view;
            if (v->rank > o->rank) {
                return LPAI_E_SHAPE;
            }
            const uint32_t lead = o->rank - v->rank;
            for (uint32_t d = 0; d < v->rank; ++d) {
                if (v->dims[d] == o->dims[lead + d]) {
                    from_input[lead + d] = 1u;
                } else if (v->dims[d] != 1u) {
                    return LPAI_E_SHAPE;
                }
            }
        }
        for (uint32_t d = 0; d < o->rank; ++d) {
            if (!from_input[d] && o->dims[d] != 1u) {
                return LPAI_E_SHAPE;
            }
        }
        return LPAI_OK;
    }
    uint32_t ranks[LPAI_MAX_INPUTS];
    uint32_t dims[LPAI_MAX_INPUTS][LPAI_MAX_RANK];
    for (uint32_t k = 0; k < nin; ++k) {
        ranks[k] = in[k].view.rank;
        for (uint32_t d = 0; d < LPAI_MAX_RANK; ++d) {
            dims[k][d] = in[k].view.dims[d];
        }
    }
    for (uint32_t j = 0; j < nout; ++j) {
        if (!lpai_rule_matches(&rules[j], nin, ranks, (const uint32_t (*)[LPAI_MAX_RANK])dims, out[j].view.rank,
                               out[j].view.dims)) {
            return LPAI_E_SHAPE;
        }
    }
    return LPAI_OK;
}

/* The scalar types ExecuTorch's op builder sends (node_visitor.QNN_TENSOR_TYPE_MAP):
 * a Python float as QNN_DATATYPE_FLOAT_32, a Python int AND a bool as
 * QNN_DATATYPE_UINT_32 (a bool as 0 or 1). Declaring INT_32 or BOOL_8 instead, as an
 * OpDef naturally would, mismatches what arrives; a negative int fails in ExecuTorch
 * before it gets here, so the spec and the Python API refuse it. */
typedef enum { LPAI_PARAM_F32, LPAI_PARAM_U32, LPAI_PARAM_U32_BOOL } lpai_param_kind;

/* One scalar parameter of an op: its name in the OpDef (and the schema), by which the
 * kernel asks the runtime for it, and how its value is read. */
typedef struct {
    const char *name;
    lpai_param_kind kind;
} lpai_param_spec;

/* Scalar parameters, converted to float as the generated math expects (torch does
 * the same: params are float32 0-d tensors in the eager op), and, for an int or a bool,
 * as the uint32 ExecuTorch sent (`raw`, exact above 2^24; 0 or 1 for a bool; 0 for a
 * float): a custom op's math gets it as uint32_t or bool. getParamTensor looks a
 * parameter up by its NAME (the SDK's header) and gives NULL for a name the node does
 * not have, which is refused here.
 * RELIES ON the parameter's tensor carrying its value as data: how the device serves
 * a scalar parameter is not public. */
static inline lpai_status lpai_glue_param(QnnLpai_CustomOpNode_t node, const lpai_param_spec *spec, float *out,
                                          uint32_t *raw)
{
    const QnnLpaiOpPackage_GlobalInfrastructure_t *gi = &lpai_pkg_infra;
    if (!gi->getParamTensor || !spec->name) {
        return LPAI_E_TENSOR;
    }
    QnnLpai_CustomOpTensor_t t = gi->getParamTensor(node, spec->name);
    if (!t) {
        return LPAI_E_TENSOR;
    }
    const void *data = gi->getTensorData(t);
    if (!data) {
        return LPAI_E_TENSOR;
    }
    switch (spec->kind) {
    case LPAI_PARAM_F32:
        *out = lpai_load_f32(data); /* C9: no alignment promise */
        *raw = 0u;
        break;
    case LPAI_PARAM_U32:
        *raw = lpai_load_u32(data); /* C9 */
        *out = (float)*raw;
        break;
    case LPAI_PARAM_U32_BOOL:
        *raw = (lpai_load_u32(data) != 0u) ? 1u : 0u;
        *out = (float)*raw;
        break;
    }
    return LPAI_OK;
}

/* Reads inputs, outputs and parameters and checks everything an elementwise or custom
 * op needs, scale ratios included (C10), before a single byte is written. */
static inline lpai_status lpai_glue_prepare(QnnLpai_CustomOpNode_t node, lpai_io *in, uint32_t nin, lpai_io *out,
                                            uint32_t nout, const lpai_shape_rule *rules, const lpai_param_spec *kinds,
                                            float *params, uint32_t *params_u32, uint32_t nparams, lpai_requant *rq)
{
    const QnnLpaiOpPackage_GlobalInfrastructure_t *gi = &lpai_pkg_infra;
    lpai_status st;
    if (!node) {
        return LPAI_E_TENSOR;
    }
    for (uint32_t k = 0; k < nin; ++k) {
        st = lpai_glue_io(gi->getInputTensor(node, k), &in[k]);
        if (st != LPAI_OK) {
            return st;
        }
    }
    for (uint32_t j = 0; j < nout; ++j) {
        st = lpai_glue_io(gi->getOutputTensor(node, j), &out[j]);
        if (st != LPAI_OK) {
            return st;
        }
    }
    st = lpai_glue_shapes(in, nin, out, nout, rules);
    if (st != LPAI_OK) {
        return st;
    }
    for (uint32_t j = 0; j < nout; ++j) {
        st = lpai_requant_init(&rq[j], &out[j].quant);
        if (st != LPAI_OK) {
            return st;
        }
#if !defined(LPAI_MEASURE_UNCHECKED)
        for (uint32_t k = 0; k < nin; ++k) {
            if (!lpai_ratio_ok(in[k].quant.scale * rq[j].inv_scale)) {
                return LPAI_E_RATIO;
            }
        }
#endif
    }
    for (uint32_t p = 0; p < nparams; ++p) {
        st = lpai_glue_param(node, &kinds[p], &params[p], &params_u32[p]);
        if (st != LPAI_OK) {
            return st;
        }
    }
    return LPAI_OK;
}

/* ---- Registration ----------------------------------------------------------------- */

/* The layout support flag of every op of the package (spec: layout_support, placed by
 * lpai_package.h). SHAPE_NE_LAYOUT declares what the kernels do: they read every
 * tensor's layout with getTensorLayout and walk any storage order and padded strides,
 * so the backend need not repack. It has NOT run on a device yet; DEFAULT (the backend
 * assumes layout == shape and may insert transpose or repack ops) is what the pull
 * request verified on SM8850. A header without the macro (older SDKs) gets DEFAULT. */
#if LPAI_LAYOUT_SUPPORT_SHAPE_NE_LAYOUT && defined(QNN_LPAI_OP_LAYOUT_SHAPE_NE_LAYOUT)
#define LPAI_LAYOUT_FLAG QNN_LPAI_OP_LAYOUT_SHAPE_NE_LAYOUT
#else
#define LPAI_LAYOUT_FLAG QNN_LPAI_OP_LAYOUT_DEFAULT
#endif

/* C6: the layout support callback must be set in the inference build too. Leaving it
 * NULL made on-device registration fail with AEE_EBADSTATE (0x8000040D), reported on
 * the host as "Failed to register custom op package through platform". */
static inline Qnn_ErrorHandle_t lpai_layout_support(uint32_t *flag)
{
    if (!flag) {
        return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
    }
    *flag = LPAI_LAYOUT_FLAG;
    return QNN_SUCCESS;
}

/* Fills an op's registration record (one zeroed static per op) for the inference
 * side; the compiler side adds its callbacks to the same record. */
static inline QnnOpPackage_OperationInfo_t lpai_op_info_init(QnnLpaiOpPackage_OperationInfo_t *info, char *op_type,
                                                             int32_t (*execute)(QnnLpai_CustomOpNode_t), uint32_t nin,
                                                             uint32_t nout, uint32_t nparams)
{
    memset(info, 0, sizeof *info);
    info->opType = op_type;
    info->executeOp = execute;
    /* The runtime needs the counts and the layout flag as much as the compiler does. */
    info->numOfInputs = nin;
    info->numOfOutputs = nout;
    info->numOfParams = nparams;
    info->getLayoutSupportFlag = lpai_layout_support;
    return info;
}

#endif /* LPAI_GLUE_H */
