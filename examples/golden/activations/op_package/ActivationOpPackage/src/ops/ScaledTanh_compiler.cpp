// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// ScaledTanh: the compiler side of torch op act_ops::scaled_tanh. Host library only
// (the DSP build compiles *_inference.c alone).
#include "lpai_sdk.h"
#include "lpai_validate.h"

extern "C" QnnOpPackage_OperationInfo_t get_ScaledTanh_opInfo_Inference(void);

static const char *const g_ScaledTanh_param_names[] = {"gain", "shift"};
// The scalar types ExecuTorch's op builder sends for them.
static const Qnn_DataType_t g_ScaledTanh_param_types[] = {QNN_DATATYPE_FLOAT_32, QNN_DATATYPE_UINT_32};

static Qnn_ErrorHandle_t ScaledTanh_validateOp(Qnn_OpConfig_t cfg)
{
    return lpai_validate_op("ScaledTanh", &cfg, g_ScaledTanh_param_names, g_ScaledTanh_param_types, 2u);
}

static Qnn_ErrorHandle_t ScaledTanh_getTempBufferSize(Qnn_OpConfig_t cfg, size_t *bytes)
{
    return lpai_temp_bytes_elementwise(&cfg, bytes);
}

extern "C" QnnOpPackage_OperationInfo_t get_ScaledTanh_opInfo_Compiler(void)
{
    return lpai_compiler_info(get_ScaledTanh_opInfo_Inference(), ScaledTanh_validateOp,
                              ScaledTanh_getTempBufferSize);
}
