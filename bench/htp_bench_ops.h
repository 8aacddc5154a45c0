// The HTP benchmark's tensors, op table and per-element baseline (bench/htp_driver.cpp;
// bench/htp.py writes one unity file per op that includes the op's source and this).
//
// Both sides read the same buffers. The kernel is the package's engine
// (include/htp_engine.h, htp_elementwise_run) on htp_views, as the op's own file calls
// it; the baseline reads each input element through a per-element accessor (a virtual
// call that decodes one element at its 4-D index, as the SDK's element read t(b, h, w, d)
// does), runs the op's math, and quantizes and stores each result at its index.
#ifndef HTP_BENCH_OPS_H
#define HTP_BENCH_OPS_H

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "htp_engine.h"

// A dense row-major tensor over an htp_view's buffer, read one element per call as the
// SDK's accessor t(b, h, w, d) reads one (and as the template's host tensor of the HTP
// tests answers it, op_package/htp/host/): a virtual call that finds the element's
// flat index from the last `rank` of the four indices and decodes it.
class BenchReader
{
  public:
    virtual size_t dim(size_t index) const = 0;
    float operator()(size_t b, size_t h, size_t w, size_t d) const
    {
        const size_t index[4] = {b, h, w, d};
        return read(index);
    }

  protected:
    ~BenchReader() = default;
    virtual float read(const size_t *index) const = 0;
};

class BenchTensor final : public BenchReader
{
  public:
    size_t dim(size_t index) const override
    {
        return index < rank_ ? dims_[index] : 1u;
    }
    size_t flat(size_t b, size_t h, size_t w, size_t d) const
    {
        const size_t index[4] = {b, h, w, d};
        size_t at = 0;
        const size_t r = rank_ < 4 ? rank_ : 4;
        for (size_t k = 0; k < r; ++k) {
            at = at * dims_[rank_ - r + k] + index[4 - r + k];
        }
        return at;
    }
    htp_view view_ = {};
    size_t rank_ = 4;
    size_t dims_[4] = {1, 1, 1, 1};
    size_t count_ = 1;
    size_t bytes_ = 0;
    unsigned char *data_ = nullptr;

  protected:
    float read(const size_t *index) const override
    {
        const size_t at = flat(index[0], index[1], index[2], index[3]);
        const unsigned char *p = static_cast<const unsigned char *>(view_.in);
        if (view_.elem == HTP_F32) {
            float x;
            std::memcpy(&x, p + at * 4, 4);
            return x;
        }
        const int code = view_.elem == HTP_U8 ? p[at] : (p[2 * at] | p[2 * at + 1] << 8);
        return static_cast<float>(code - view_.offset) * view_.scale;
    }
};

using BenchKernel = htp_rc (*)(const htp_view &o, const htp_view *v, uint32_t nin, const float *params);
using BenchBaseline = htp_rc (*)(BenchTensor &out, const BenchReader *const *ins, uint32_t nin, const float *params);

struct BenchOp {
    const char *name;
    uint32_t n_inputs;
    uint32_t n_params;
    float params[8];
    BenchKernel kernel;
    BenchBaseline baseline;
};

extern const BenchOp *const kBenchOps[];
extern const size_t kBenchOpCount;

// The per-element baseline: each element of each input through the accessor, the op's
// math, the result quantized (a division per element) and stored at its 4-D index; the
// same rounding as the kernels, so the outputs must be equal byte for byte.
template <typename Math>
htp_rc bench_baseline(BenchTensor &out, const BenchReader *const *ins, uint32_t nin, const float *params, Math math)
{
    const htp_view &q = out.view_;
    const BenchReader &shape = out;
    for (size_t b = 0; b < shape.dim(0); ++b) {
        for (size_t h = 0; h < shape.dim(1); ++h) {
            for (size_t w = 0; w < shape.dim(2); ++w) {
                for (size_t d = 0; d < shape.dim(3); ++d) {
                    float x[4];
                    for (uint32_t k = 0; k < nin; ++k) {
                        x[k] = (*ins[k])(b, h, w, d);
                    }
                    const float v = math(x, params);
                    const size_t at = out.flat(b, h, w, d);
                    if (q.elem == HTP_F32) {
                        std::memcpy(out.data_ + 4 * at, &v, 4);
                        continue;
                    }
                    float c = v * (1.0f / q.scale);
                    const float lo = static_cast<float>(-q.offset), hi = static_cast<float>(q.qmax - q.offset);
                    c = (c > lo) ? c : lo;
                    c = (c < hi) ? c : hi;
                    const int code = static_cast<int>(lpai_round_half_even(c)) + q.offset;
                    if (q.elem == HTP_U8) {
                        out.data_[at] = static_cast<unsigned char>(code);
                    } else {
                        const uint16_t c16 = static_cast<uint16_t>(code);
                        std::memcpy(out.data_ + 2 * at, &c16, 2);
                    }
                }
            }
        }
    }
    return HTP_OK;
}

#endif // HTP_BENCH_OPS_H
