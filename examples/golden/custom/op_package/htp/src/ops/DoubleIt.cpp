// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// DoubleIt: the HTP implementation of torch op norm_ops::double_it.
// Doubles the input.
// expr: 2 * x
// Float32, QUInt8 and QUInt16 tensors (include/htp_kernels.h); params in OpDef order.
#include "htp_kernels.h"

BEGIN_PKG_OP_DEFINITION(PKG_DoubleIt);

namespace
{

constexpr uint32_t kInputs = 1u;

// The math, generated from the spec's expression by the view that writes the LPAI
// kernel's (qnn-op-template/hooks/view_c.py): real values in, the real result out.
// clang-format off
inline float DoubleIt_math(float in_x)
{
    return (2.0f * in_x);
}

float DoubleIt_math_v(const float *in, const float *params)
{
    (void)params;
    return DoubleIt_math(in[0]);
}
// clang-format on

} // namespace

// The implementation HTP calls: outputs first, then the inputs, then the params. One
// line each, however long the names (not formatted).
// clang-format off
template <typename TensorType>
GraphStatus DoubleIt_impl(TensorType &out_out, const TensorType &in_x)
{
    const float *params = nullptr;
    const Tensor *inputs[kInputs] = {&in_x};
    return htp_elementwise(out_out, inputs, kInputs, params, DoubleIt_math_v);
}
// clang-format on

DEF_PACKAGE_OP((DoubleIt_impl<Tensor>), "DoubleIt")

END_PKG_OP_DEFINITION(PKG_DoubleIt);
