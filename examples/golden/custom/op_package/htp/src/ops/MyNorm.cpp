// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// MyNorm: the HTP implementation of torch op norm_ops::my_norm.
// Normalizes the input to zero mean and unit variance.
// kind: custom. include/htp_kernels.h dequantizes every input to float, calls the math
// you write in op_package/NormOpPackage/user/MyNorm_math.c (the file the LPAI kernel
// calls too) through MyNorm_call, and requantizes every output.
// QHPI form (include/htp_kernels.h): three kernels, Float32, QUInt8 and QUInt16, on flat,
// direct tensors; the params follow the tensors as inputs, in OpDef order.
#include "htp_kernels.h"

extern "C" {
#include "ops/MyNorm_user.h"
}

namespace
{

constexpr uint32_t kInputs = 1u;
constexpr uint32_t kParams = 0u;
constexpr uint32_t kOutputs = 1u;

// The shape of each output (lpai_shapes.h), the rules the LPAI kernel checks.
// clang-format off
const lpai_shape_rule k_output_rules[kOutputs] = {
    {LPAI_SHAPE_LIKE, 0u, 0u, 0u, {0, 0, 0, 0, 0}}, /* out: the shape of x */
};
// clang-format on

// Hands the dequantized tensors to the user's math under the spec's names: the same
// adapter as the LPAI kernel's (src/ops/MyNorm_inference.c there).
int MyNorm_call(const lpai_custom_call *c)
{
    MyNorm_args args;
    std::memset(&args, 0, sizeof args);
    args.x = c->in[0];
    args.x_shape = c->in_shape[0];
    args.out = c->out[0];
    args.out_shape = c->out_shape[0];
    args.rank = c->out_shape[0].rank;
    memcpy(args.dims, c->out_shape[0].dims, sizeof args.dims);
    args.count = c->out_shape[0].count;
    return MyNorm_compute(&args);
}

// clang-format off
const char k_missing[] = "user math not written yet: op_package/NormOpPackage/user/MyNorm_math.c";
// clang-format on

// The kernel QHPI calls, the same for the three element types: outputs, then the
// tensors and the params as inputs. One line each, however long the names (not formatted).
// clang-format off
uint32_t MyNorm_execute(QHPI_RuntimeHandle *handle, uint32_t num_outputs, QHPI_Tensor **outputs, uint32_t num_inputs, const QHPI_Tensor *const *inputs)
{
    (void)handle;
    if (num_inputs != kInputs + kParams) {
        return htp_status(HTP_BAD_INPUT);
    }
    const float *params = nullptr;
    const uint32_t *params_u32 = nullptr;
    return htp_custom(num_outputs, outputs, kOutputs, num_inputs, inputs, kInputs, kParams, k_output_rules, params, params_u32, MyNorm_call, "MyNorm", k_missing);
}

float MyNorm_cost(const uint32_t num_inputs, const QHPI_Tensor *const *inputs)
{
    return htp_cost(num_inputs, inputs, kInputs, 40.0f);
}
// clang-format on

const uint32_t *const k_param_types = nullptr;

htp_op_tables g_tables;

} // namespace

// Fills QHPI's description of the op (src/qhpi_init.cpp registers it).
// clang-format off
void MyNorm_op_info(QHPI_OpInfo_v1 *info)
{
    htp_op_info(info, &g_tables, HTP_PACKAGE_NAME "::MyNorm", MyNorm_execute, MyNorm_cost, kInputs, k_param_types, kParams, kOutputs);
}
// clang-format on
