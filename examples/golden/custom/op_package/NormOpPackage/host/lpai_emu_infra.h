/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * Host emulator, part 2 of 3: the LPAI infrastructure table the kernels call
 * (getInputTensor, getTensorLayout, getPerTensorQuantParams, ...), served from the
 * emulated node of lpai_emu_node.h as the device serves it, INT_8 for unsigned
 * tensors included. Included once, by lpai_emu.c.
 */
#ifndef LPAI_EMU_INFRA_H
#define LPAI_EMU_INFRA_H

#include "lpai_sdk.h"
#include "lpai_emu_node.h"

/* ---- the infrastructure the kernels call ---------------------------------------- */
/* Handles are pointers to the emulator's own structs; the casts go through void *
 * so the same code also builds against the SDK's handle types. */
static struct LpaiEmuTensor *T(QnnLpai_CustomOpTensor_t t)
{
    return (struct LpaiEmuTensor *)(void *)t;
}

static struct LpaiEmuNode *N(QnnLpai_CustomOpNode_t node)
{
    return (struct LpaiEmuNode *)(void *)node;
}

static QnnLpai_CustomOpTensor_t H(struct LpaiEmuTensor *t)
{
    return (QnnLpai_CustomOpTensor_t)(void *)t;
}

static uint32_t emu_num_inputs(QnnLpai_CustomOpNode_t node)
{
    return node ? N(node)->n_in : 0u;
}

static uint32_t emu_num_outputs(QnnLpai_CustomOpNode_t node)
{
    return node ? N(node)->n_out : 0u;
}

static QnnLpai_CustomOpTensor_t emu_input(QnnLpai_CustomOpNode_t node, uint32_t i)
{
    return (node && i < N(node)->n_in) ? H(&N(node)->in[i]) : NULL;
}

static QnnLpai_CustomOpTensor_t emu_output(QnnLpai_CustomOpNode_t node, uint32_t i)
{
    return (node && i < N(node)->n_out) ? H(&N(node)->out[i]) : NULL;
}

/* By name, as the SDK declares it: NULL for a name the node does not have. */
static QnnLpai_CustomOpTensor_t emu_param(QnnLpai_CustomOpNode_t node, const char *name)
{
    if (!node || !name || N(node)->drop_params) {
        return NULL;
    }
    for (uint32_t i = 0; i < N(node)->n_param; ++i) {
        if (strcmp(N(node)->param[i].name, name) == 0) {
            return H(&N(node)->param[i]);
        }
    }
    return NULL;
}

static QnnLpaiCustomOp_Error_t emu_shape_rank(QnnLpai_CustomOpTensor_t t, uint32_t *rank)
{
    if (!t || !rank) {
        return LPAI_CUSTOM_OP_INVALID_ARGUMENT;
    }
    *rank = T(t)->d.rank;
    return LPAI_CUSTOM_OP_SUCCESS;
}

static QnnLpaiCustomOp_Error_t emu_layout_rank(QnnLpai_CustomOpTensor_t t, uint32_t *rank)
{
    if (!t || !rank) {
        return LPAI_CUSTOM_OP_INVALID_ARGUMENT;
    }
    *rank = T(t)->d.layout_rank ? T(t)->d.layout_rank : T(t)->d.rank;
    return LPAI_CUSTOM_OP_SUCCESS;
}

static QnnLpaiCustomOp_Error_t emu_dim(QnnLpai_CustomOpTensor_t t, uint32_t i, uint32_t *size)
{
    if (!t || !size || i >= T(t)->d.rank) {
        return LPAI_CUSTOM_OP_INVALID_ARGUMENT;
    }
    *size = T(t)->d.dims[i];
    return LPAI_CUSTOM_OP_SUCCESS;
}

static QnnLpaiCustomOp_Error_t emu_layout(QnnLpai_CustomOpTensor_t t, QnnLpaiCustomOp_Layout_t *l)
{
    if (!t || !l) {
        return LPAI_CUSTOM_OP_INVALID_ARGUMENT;
    }
    const lpai_emu_desc *d = &T(t)->d;
    memset(l, 0, sizeof *l);
    l->layoutForm =
        d->layout_form == 0 ? QNN_LPAI_CUSTOM_OP_LAYOUT_FORM_FLAT : (QnnLpaiCustomOp_LayoutForm_t)d->layout_form;
    for (uint32_t i = 0; i < d->rank && i < QNN_LPAI_CUSTOM_OP_MAX_LAYOUT_RANK; ++i) {
        l->layoutOrder[i] = d->order[i];
        l->layoutStride[i] = d->stride[i];
        l->layoutDim[i] = d->order[i] < d->rank ? d->dims[d->order[i]] : 0u;
    }
    return LPAI_CUSTOM_OP_SUCCESS;
}

/* C4: the device reports INT_8 for unsigned 8-bit tensors; so does the emulator. */
static QnnLpaiCustomOp_Error_t emu_type(QnnLpai_CustomOpTensor_t t, QnnLpaiCustomOp_DataType_t *type)
{
    if (!t || !type) {
        return LPAI_CUSTOM_OP_INVALID_ARGUMENT;
    }
    const lpai_emu_desc *d = &T(t)->d;
    if (d->report_type >= 0) {
        *type = (QnnLpaiCustomOp_DataType_t)d->report_type;
    } else if (d->bits == 8u) {
        *type = LPAI_CUSTOM_OP_DATATYPE_INT_8;
    } else if (d->bits == 16u) {
        *type = LPAI_CUSTOM_OP_DATATYPE_INT_16;
    } else {
        *type = LPAI_CUSTOM_OP_DATATYPE_INT_32;
    }
    return LPAI_CUSTOM_OP_SUCCESS;
}

/* The element size in BITS, as the SDK's header says (not bytes). */
static QnnLpaiCustomOp_Error_t emu_data_size(QnnLpai_CustomOpTensor_t t, uint32_t *bits)
{
    if (!t || !bits) {
        return LPAI_CUSTOM_OP_INVALID_ARGUMENT;
    }
    *bits = T(t)->d.bits;
    return LPAI_CUSTOM_OP_SUCCESS;
}

static QnnLpaiCustomOp_Error_t emu_quant_type(QnnLpai_CustomOpTensor_t t, QnnLpaiCustomOp_QuantType_t *type)
{
    if (!t || !type) {
        return LPAI_CUSTOM_OP_INVALID_ARGUMENT;
    }
    *type = QNN_LPAI_CUSTOM_OP_QUANT_TYPE_PER_TENSOR;
    return LPAI_CUSTOM_OP_SUCCESS;
}

static QnnLpaiCustomOp_Error_t emu_quant(QnnLpai_CustomOpTensor_t t, QnnLpaiCustomOp_PerTensorQuantInfo_t *q)
{
    if (!t || !q) {
        return LPAI_CUSTOM_OP_INVALID_ARGUMENT;
    }
    const lpai_emu_desc *d = &T(t)->d;
    memset(q, 0, sizeof *q);
    q->offset = d->zero_point - 128;
    int32_t iscale = 0;
    switch (d->scale_form) {
    case LPAI_EMU_SCALE_FLOAT:
        q->scale.type = QNN_LPAI_CUSTOM_OP_QUANT_SCALE_TYPE_FLOAT;
        q->scale.fScale = d->scale;
        break;
    case LPAI_EMU_SCALE_INT:
        if (lpai_emu_int_scale(d->scale, d->shift, &iscale) != 0) {
            return LPAI_CUSTOM_OP_FAIL;
        }
        q->scale.type = QNN_LPAI_CUSTOM_OP_QUANT_SCALE_TYPE_INT;
        q->scale.iScale.scale = iscale;
        q->scale.iScale.shift = d->shift;
        break;
    default:
        /* The union holds a perfectly usable integer scale: a kernel that reads
         * UNDEFINED as INT would run and look right. It has to refuse. */
        q->scale.type = QNN_LPAI_CUSTOM_OP_QUANT_SCALE_TYPE_UNDEFINED;
        q->scale.iScale.scale = 538976288;
        q->scale.iScale.shift = 37;
        break;
    }
    return LPAI_CUSTOM_OP_SUCCESS;
}

static void *emu_data(QnnLpai_CustomOpTensor_t t)
{
    if (!t) {
        return NULL;
    }
    struct LpaiEmuTensor *x = T(t);
    return x->buf ? (void *)x->buf : (void *)(x->param_storage + 1);
}

/* The scratch with its size; fails (LPAI_CUSTOM_OP_MEMORY) when there is none. */
static QnnLpaiCustomOp_Error_t emu_temp(QnnLpai_CustomOpNode_t node, QnnLpaiCustomOp_BufferInfo_t *info)
{
    if (!node || !info) {
        return LPAI_CUSTOM_OP_INVALID_ARGUMENT;
    }
    N(node)->temp_called = 1;
    info->buffer = NULL;
    info->bufferSize = 0u;
    if (N(node)->drop_params || !N(node)->temp) {
        return LPAI_CUSTOM_OP_MEMORY;
    }
    info->buffer = N(node)->temp;
    info->bufferSize = (uint32_t)N(node)->temp_bytes; /* at most EMU_TEMP_MAX */
    return LPAI_CUSTOM_OP_SUCCESS;
}

/* The version the runtime reports is not in any public copy: 0.0.0, what the SDK's
 * initializer macro gives. */
static QnnLpaiOpPackage_GlobalInfrastructure_t g_infra = {
    .version = {0u, 0u, 0u},
    .getNumInputTensors = emu_num_inputs,
    .getNumOutputTensors = emu_num_outputs,
    .getInputTensor = emu_input,
    .getOutputTensor = emu_output,
    .getParamTensor = emu_param,
    .getTensorShapeRank = emu_shape_rank,
    .getTensorLayoutRank = emu_layout_rank,
    .getTensorShapeDimSize = emu_dim,
    .getTensorLayout = emu_layout,
    .getTensorDataType = emu_type,
    .getTensorDataSize = emu_data_size,
    .getTensorQuantType = emu_quant_type,
    .getPerTensorQuantParams = emu_quant,
    .getTensorData = emu_data,
    .getTempBuffer = emu_temp,
};

#endif /* LPAI_EMU_INFRA_H */
