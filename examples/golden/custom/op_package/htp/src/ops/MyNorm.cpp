// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// MyNorm: the HTP implementation of torch op norm_ops::my_norm.
// Normalizes the input to zero mean and unit variance.
// kind: custom. include/htp_kernels.h dequantizes every input to float, calls the math
// you write in op_package/NormOpPackage/user/MyNorm_math.c (the file the LPAI kernel
// calls too) through MyNorm_call, and requantizes every output.
// Float32, QUInt8 and QUInt16 tensors (include/htp_kernels.h); params in OpDef order.
#include "htp_kernels.h"

extern "C" {
#include "ops/MyNorm_user.h"
}

BEGIN_PKG_OP_DEFINITION(PKG_MyNorm);

namespace
{

constexpr uint32_t kInputs = 1u;
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

} // namespace

// The implementation HTP calls: outputs first, then the inputs, then the params. One
// line each, however long the names (not formatted).
// clang-format off
template <typename TensorType>
GraphStatus MyNorm_impl(TensorType &out_out, const TensorType &in_x)
{
    const float *params = nullptr;
    const Tensor *inputs[kInputs] = {&in_x};
    const uint32_t *params_u32 = nullptr;
    Tensor *outputs[kOutputs] = {&out_out};
    return htp_custom(outputs, kOutputs, inputs, kInputs, k_output_rules, params, params_u32, MyNorm_call, "MyNorm", k_missing);
}
// clang-format on

DEF_PACKAGE_OP((MyNorm_impl<Tensor>), "MyNorm")

END_PKG_OP_DEFINITION(PKG_MyNorm);
