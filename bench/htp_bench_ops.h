// The HTP benchmark's tensors, op table and per-element baseline (bench/htp_driver.cpp;
// bench/htp.py writes one unity file per op that includes the op's source and this).
#ifndef HTP_BENCH_OPS_H
#define HTP_BENCH_OPS_H

#include <cstdint>
#include <cstring>

#include "htp_kernels.h"
#include "htp_host_tensor.h"

// The tensors are the test driver's (op_package/htp/host/htp_host_tensor.h): their
// element accessor decodes one element per virtual call, as the SDK's interface read does.
using BenchTensor = HostTensor;

using BenchBaseline = GraphStatus (*)(Tensor &out, const Tensor *const *ins, uint32_t nin, const float *params);

struct BenchOp {
    const char *name;
    uint32_t n_inputs;
    uint32_t n_params;
    float params[8];
    htp_standin::Runner run;
    BenchBaseline baseline;
};

extern const BenchOp *const kBenchOps[];
extern const size_t kBenchOpCount;

// The per-element HTP-style baseline: each element of each input through the accessor,
// the op's math, the result quantized and stored element by element at its 4-D index;
// the same rounding as the kernels, so the outputs must be equal byte for byte.
template <typename Math>
GraphStatus bench_baseline(Tensor &out, const Tensor *const *ins, uint32_t nin, const float *params, Math math)
{
    BenchTensor &o = static_cast<BenchTensor &>(out);
    const DTypeScaleOff q = out.get_dtype_intfc();
    const int qmax = q.dtype == DType::QUInt8 ? 255 : 65535;
    for (size_t b = 0; b < out.dim(0); ++b) {
        for (size_t h = 0; h < out.dim(1); ++h) {
            for (size_t w = 0; w < out.dim(2); ++w) {
                for (size_t d = 0; d < out.dim(3); ++d) {
                    float x[4];
                    for (uint32_t k = 0; k < nin; ++k) {
                        x[k] = (*ins[k])(b, h, w, d);
                    }
                    const float v = math(x, params);
                    const size_t at = o.flat(b, h, w, d);
                    if (q.dtype == DType::Float32) {
                        std::memcpy(o.data_ + 4 * at, &v, 4);
                        continue;
                    }
                    float c = v * (1.0f / q.scale);
                    const float lo = static_cast<float>(-q.offset), hi = static_cast<float>(qmax - q.offset);
                    c = (c > lo) ? c : lo;
                    c = (c < hi) ? c : hi;
                    const int code = static_cast<int>(lpai_round_half_even(c)) + q.offset;
                    if (q.dtype == DType::QUInt8) {
                        o.data_[at] = static_cast<unsigned char>(code);
                    } else {
                        const uint16_t c16 = static_cast<uint16_t>(code);
                        std::memcpy(o.data_ + 2 * at, &c16, 2);
                    }
                }
            }
        }
    }
    return GraphStatus::Success;
}

#endif // HTP_BENCH_OPS_H
