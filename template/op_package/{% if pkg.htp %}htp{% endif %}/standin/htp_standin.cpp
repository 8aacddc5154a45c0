// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// The stand-in's side of QHPI (standin/htp_standin.h) for the test drivers: the tensor
// accessors answer from host/htp_host_tensor.h's QHPI_Tensor, and qhpi_register_ops_v1
// keeps what it is handed for the driver to find (what libQnnHtp does with it on a
// device: graph preparation, kernel choice, cannot be shown here).
#include "../host/htp_host_tensor.h"

namespace htp_standin
{

namespace
{
Registered g_ops[64];
size_t g_n_ops = 0;
} // namespace

const Registered *registered(size_t *count)
{
    *count = g_n_ops;
    return g_ops;
}

} // namespace htp_standin

// Calls that ran an op's SSE4.1 copy (include/htp_engine.h, htp_x86_sse41_chosen).
uint64_t htp_host_sse41_calls = 0;

extern "C" {

QHPI_Shape qhpi_tensor_shape(const QHPI_Tensor *tensor)
{
    return tensor->shape;
}

QHPI_Element_Type qhpi_tensor_type(const QHPI_Tensor *tensor)
{
    return tensor->type;
}

QHPI_Quant_Parameters qhpi_tensor_quant_parameters(const QHPI_Tensor *tensor)
{
    return tensor->quant;
}

void *qhpi_tensor_raw_data(const QHPI_Tensor *tensor)
{
    return tensor->data;
}

QHPI_StatusCode qhpi_register_ops_v1(uint32_t num_ops, QHPI_OpInfo_v1 *operators, const char *package)
{
    using htp_standin::g_n_ops;
    using htp_standin::g_ops;
    if (package == nullptr || (num_ops != 0u && operators == nullptr)) {
        return QHPI_ErrorFatal;
    }
    for (uint32_t k = 0; k < num_ops; ++k) {
        if (g_n_ops == sizeof g_ops / sizeof g_ops[0]) {
            return QHPI_ErrorFatal;
        }
        g_ops[g_n_ops++] = htp_standin::Registered{package, &operators[k]};
    }
    return QHPI_Success;
}

} // extern "C"
