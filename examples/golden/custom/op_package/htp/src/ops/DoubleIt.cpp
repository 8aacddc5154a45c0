// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// DoubleIt: the HTP implementation of torch op norm_ops::double_it.
// Doubles the input.
// expr: 2 * x
// QHPI form (include/htp_kernels.h): three kernels, Float32, QUInt8 and QUInt16, on flat,
// direct tensors; the params follow the tensors as inputs, in OpDef order.
#include "htp_kernels.h"

namespace
{

constexpr uint32_t kInputs = 1u;
constexpr uint32_t kParams = 0u;
constexpr uint32_t kOutputs = 1u;

// The math, generated from the spec's expression by the view that writes the LPAI
// kernel's (qnn-op-template/hooks/view_c.py): real values in, the real result out. Always
// inlined, as the LPAI kernel's: the engine's loops get it through a constant pointer, and
// a large math (a power) was left a call per element on Hexagon otherwise.
// clang-format off
LPAI_ALWAYS_INLINE float DoubleIt_math(float in_x)
{
    return (2.0f * in_x);
}

LPAI_ALWAYS_INLINE float DoubleIt_math_v(const float *in, const float *params)
{
    (void)params;
    return DoubleIt_math(in[0]);
}
// clang-format on

// The engine (include/htp_engine.h) with the op's math.
htp_rc DoubleIt_run(const htp_view &o, const htp_view *v, const float *params)
{
    return htp_elementwise_run(o, v, kInputs, params, DoubleIt_math_v);
}

// The kernel QHPI calls, the same for the three element types: outputs, then the
// tensors and the params as inputs. One line each, however long the names (not formatted).
// clang-format off
uint32_t DoubleIt_execute(QHPI_RuntimeHandle *handle, uint32_t num_outputs, QHPI_Tensor **outputs, uint32_t num_inputs, const QHPI_Tensor *const *inputs)
{
    (void)handle;
    if (num_inputs != kInputs + kParams) {
        return htp_status(HTP_BAD_INPUT);
    }
    const float *params = nullptr;
    return htp_elementwise(num_outputs, outputs, num_inputs, inputs, kInputs, kParams, params, DoubleIt_run);
}

float DoubleIt_cost(const uint32_t num_inputs, const QHPI_Tensor *const *inputs)
{
    return htp_cost(num_inputs, inputs, kInputs, 3.0f);
}
// clang-format on

const uint32_t *const k_param_types = nullptr;

htp_op_tables g_tables;

} // namespace

// Fills QHPI's description of the op (src/qhpi_init.cpp registers it).
// clang-format off
void DoubleIt_op_info(QHPI_OpInfo_v1 *info)
{
    htp_op_info(info, &g_tables, HTP_PACKAGE_NAME "::DoubleIt", DoubleIt_execute, DoubleIt_cost, kInputs, k_param_types, kParams, kOutputs);
}
// clang-format on
