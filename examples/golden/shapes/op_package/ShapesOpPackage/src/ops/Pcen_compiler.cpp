// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// Pcen: the compiler side of torch op shape_ops::pcen. Host library only
// (the DSP build compiles *_inference.c alone).
#include "lpai_sdk.h"
#include "lpai_validate.h"

extern "C" QnnOpPackage_OperationInfo_t get_Pcen_opInfo_Inference(void);

// In OpDef order, one a line (a trailing comment keeps clang-format from packing them).
static const char *const k_param_names[] = {
    "smooth", // float
    "eps", // float
};
// The scalar types ExecuTorch's op builder sends for them.
static const Qnn_DataType_t k_param_types[] = {
    QNN_DATATYPE_FLOAT_32, // smooth
    QNN_DATATYPE_FLOAT_32, // eps
};

// The shape of each output, from the inputs (include/lpai_shapes.h): the kernel checks
// the same table. One rule a line, unformatted.
// clang-format off
static const lpai_shape_rule k_output_rules[] = {
    {LPAI_SHAPE_LIKE, 0u, 0u, 0u, {0, 0, 0, 0, 0}}, /* y: the shape of x */
    {LPAI_SHAPE_LIKE, 1u, 0u, 0u, {0, 0, 0, 0, 0}}, /* new_state: the shape of state */
};
// clang-format on

// The op type on a line of its own: the call below then has the same length for every
// spec, and clang-format the same layout.
static const char k_op_type[] = "Pcen";

static Qnn_ErrorHandle_t validate_op(Qnn_OpConfig_t cfg)
{
    const lpai_shape_rule *rules = k_output_rules;
    return lpai_validate_op(k_op_type, &cfg, rules, 2u, k_param_names, k_param_types, 2u);
}

static Qnn_ErrorHandle_t temp_buffer_size(Qnn_OpConfig_t cfg, size_t *bytes)
{
    return lpai_temp_bytes_elementwise(&cfg, bytes);
}

extern "C" QnnOpPackage_OperationInfo_t get_Pcen_opInfo_Compiler(void)
{
    const auto inference = get_Pcen_opInfo_Inference();
    return lpai_compiler_info(inference, validate_op, temp_buffer_size);
}
