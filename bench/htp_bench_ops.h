// The HTP benchmark's tensors, op table and per-element baseline (bench/htp_driver.cpp;
// bench/htp.py writes one unity file per op that includes the op's source and this).
#ifndef HTP_BENCH_OPS_H
#define HTP_BENCH_OPS_H

#include <cstdint>
#include <cstring>

#include "htp_kernels.h"

// A dense row-major tensor; its element accessor decodes one element per virtual call,
// as the SDK's interface read does.
class BenchTensor final : public Tensor
{
  public:
    size_t rank() const noexcept override
    {
        return rank_;
    }
    size_t dim(size_t index) const noexcept override
    {
        return index < rank_ ? dims_[index] : 1u;
    }
    DTypeScaleOff get_dtype_intfc() const noexcept override
    {
        return intfc_;
    }
    void *raw_data() noexcept override
    {
        return data_;
    }

    size_t flat(size_t b, size_t h, size_t w, size_t d) const
    {
        return ((b * dims_[1] + h) * dims_[2] + w) * dims_[3] + d;
    }

    DTypeScaleOff intfc_ = {DType::UNKNOWN, 1.0f, 0};
    size_t rank_ = 0;
    size_t dims_[4] = {1, 1, 1, 1};
    size_t count_ = 1;
    size_t bytes_ = 0;
    unsigned char *data_ = nullptr;

  protected:
    float standin_read(const size_t *i) const override
    {
        const size_t at = flat(i[0], i[1], i[2], i[3]);
        if (intfc_.dtype == DType::Float32) {
            float x;
            std::memcpy(&x, data_ + 4 * at, 4);
            return x;
        }
        int code;
        if (intfc_.dtype == DType::QUInt8) {
            code = data_[at];
        } else {
            uint16_t c;
            std::memcpy(&c, data_ + 2 * at, 2);
            code = c;
        }
        return static_cast<float>(code - intfc_.offset) * intfc_.scale;
    }
};

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
