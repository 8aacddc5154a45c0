// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// A tensor of the host and Hexagon test drivers (host/test_htp.cpp; the template's
// benchmark, qnn-op-template/bench/htp.py, uses it too): dense, row-major, of its own
// rank, answering the stand-in's accessor as the SDK's interface does (one element
// decoded per call).
#ifndef HTP_HOST_TENSOR_H
#define HTP_HOST_TENSOR_H

#include <cstddef>
#include <cstring>

#include "../standin/htp_standin.h"

constexpr size_t kHostMaxRank = 8;

class HostTensor final : public Tensor
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
    // The flat index of element (b, h, w, d): the last `rank` of the four indices (a
    // param, of rank 0, is element 0).
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

    DTypeScaleOff intfc_ = {DType::UNKNOWN, 1.0f, 0};
    size_t rank_ = 0;
    size_t dims_[kHostMaxRank] = {};
    size_t count_ = 1;
    size_t bytes_ = 0;
    unsigned char *data_ = nullptr;

  protected:
    float standin_read(const size_t *index) const override
    {
        const size_t at = flat(index[0], index[1], index[2], index[3]);
        if (intfc_.dtype == DType::Float32) {
            float x;
            std::memcpy(&x, data_ + at * 4, 4);
            return x;
        }
        const int code = intfc_.dtype == DType::QUInt8 ? data_[at] : (data_[2 * at] | data_[2 * at + 1] << 8);
        return static_cast<float>(code - intfc_.offset) * intfc_.scale;
    }
};

#endif // HTP_HOST_TENSOR_H
