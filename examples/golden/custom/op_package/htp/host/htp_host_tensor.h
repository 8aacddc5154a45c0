// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// The tensors and the op registry of the host and Hexagon test drivers (host/test_htp.cpp;
// the template's benchmark, qnn-op-template/bench/htp.py, uses them too): what the HTP
// runtime keeps behind QHPI's opaque QHPI_Tensor, here a dense row-major buffer of the
// kernel's own element type (the runtime converts to a kernel's signature before it
// calls it), and what qhpi_register_ops_v1 was handed. standin/htp_standin.cpp answers
// QHPI's accessors from these.
#ifndef HTP_HOST_TENSOR_H
#define HTP_HOST_TENSOR_H

#include <cstddef>

#include "../standin/htp_standin.h"

struct QHPI_Tensor {
    QHPI_Element_Type type;
    QHPI_Quant_Parameters quant;
    QHPI_Shape shape;
    size_t count;
    size_t bytes;
    unsigned char *data;
};

namespace htp_standin
{

// One op handed to qhpi_register_ops_v1: the package it was registered under and the
// op's description, as the package keeps it (its kernels and signatures included).
struct Registered {
    const char *package;
    const QHPI_OpInfo_v1 *op;
};

const Registered *registered(size_t *count);

} // namespace htp_standin

#endif // HTP_HOST_TENSOR_H
