// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// AddScaled: the compiler side of torch op act_ops::add_scaled. Host library only
// (the DSP build compiles *_inference.c alone).
#include "lpai_sdk.h"
#include "lpai_validate.h"

extern "C" QnnOpPackage_OperationInfo_t get_AddScaled_opInfo_Inference(void);

static const char *const g_AddScaled_param_names[] = {"alpha"};
// The scalar types ExecuTorch's op builder sends for them.
static const Qnn_DataType_t g_AddScaled_param_types[] = {QNN_DATATYPE_FLOAT_32};

static Qnn_ErrorHandle_t AddScaled_validateOp(Qnn_OpConfig_t cfg)
{
    return lpai_validate_op("AddScaled", &cfg, g_AddScaled_param_names, g_AddScaled_param_types, 1u);
}

static Qnn_ErrorHandle_t AddScaled_getTempBufferSize(Qnn_OpConfig_t cfg, size_t *bytes)
{
    return lpai_temp_bytes_elementwise(&cfg, bytes);
}

extern "C" QnnOpPackage_OperationInfo_t get_AddScaled_opInfo_Compiler(void)
{
    return lpai_compiler_info(get_AddScaled_opInfo_Inference(), AddScaled_validateOp,
                              AddScaled_getTempBufferSize);
}
