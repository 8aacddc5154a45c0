// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// The facts of the HTP API this package relies on, as compile-time checks: each holds for
// the template's stand-in (standin/htp_standin.h, -DHTP_STANDIN) and for Qualcomm's own
// headers (QNN SDK 2.43, include/QNN/HTP/core/; `make sdk-check` compiles this file both
// ways), so a stand-in that drifted from the SDK fails to compile here. Names, types,
// enum values and signatures of what src/ops/*.cpp and include/htp_kernels.h call.
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "htp_sdk.h"

// core/dtype_enum.h
static_assert(std::is_same<std::underlying_type<DType>::type, uint32_t>::value, "DType is a uint32_t enum");
static_assert(static_cast<uint32_t>(DType::UNKNOWN) == 0u, "DType::UNKNOWN");
static_assert(static_cast<uint32_t>(DType::QUInt8) == 1u, "DType::QUInt8");
static_assert(static_cast<uint32_t>(DType::QUInt16) == 2u, "DType::QUInt16");
static_assert(static_cast<uint32_t>(DType::QInt16) == 3u, "DType::QInt16");
static_assert(static_cast<uint32_t>(DType::Float32) == 4u, "DType::Float32");
static_assert(static_cast<uint32_t>(DType::Int32) == 5u, "DType::Int32");
static_assert(static_cast<uint32_t>(DType::QInt32) == 6u, "DType::QInt32");
static_assert(static_cast<uint32_t>(DType::QInt8) == 7u, "DType::QInt8");
static_assert(static_cast<uint32_t>(DType::Float16) == 8u, "DType::Float16");

// core/graph_status.h
static_assert(GraphStatus::Success == 0, "GraphStatus::Success");
static_assert(GraphStatus::ErrorDimensions == 2, "GraphStatus::ErrorDimensions");
static_assert(GraphStatus::ErrorPrecision == 3, "GraphStatus::ErrorPrecision");
static_assert(GraphStatus::ErrorNoSpace == 6, "GraphStatus::ErrorNoSpace");
static_assert(GraphStatus::ErrorUnsupported == 7, "GraphStatus::ErrorUnsupported");
static_assert(GraphStatus::ErrorBadInput == 10, "GraphStatus::ErrorBadInput");
static_assert(GraphStatus::ErrorFatal == -1, "GraphStatus::ErrorFatal");
static_assert(std::is_same<decltype(std::declval<const GraphStatus &>().to_int()), int>::value, "GraphStatus::to_int");
static_assert(std::is_constructible<GraphStatus, GraphStatus::GraphErrorCode>::value, "GraphStatus from a code");
static_assert(std::is_constructible<bool, GraphStatus>::value, "GraphStatus converts to bool (true on an error)");

// core/interface.h: the type and quantization of a tensor, in this order.
static_assert(std::is_same<decltype(DTypeScaleOff::dtype), DType>::value, "DTypeScaleOff::dtype");
static_assert(std::is_same<decltype(DTypeScaleOff::scale), float>::value, "DTypeScaleOff::scale");
static_assert(std::is_same<decltype(DTypeScaleOff::offset), int>::value, "DTypeScaleOff::offset");
static_assert(offsetof(DTypeScaleOff, dtype) < offsetof(DTypeScaleOff, scale) &&
                  offsetof(DTypeScaleOff, scale) < offsetof(DTypeScaleOff, offset),
              "DTypeScaleOff member order");

// core/tens/tensor_base.h: the members of Tensor the package calls, with their types.
static_assert(std::is_same<decltype(&Tensor::rank), size_t (Tensor::*)() const noexcept>::value, "Tensor::rank");
static_assert(std::is_same<decltype(&Tensor::dim), size_t (Tensor::*)(size_t) const noexcept>::value, "Tensor::dim");
static_assert(std::is_same<decltype(&Tensor::raw_data), void *(Tensor::*)() noexcept>::value, "Tensor::raw_data");
static_assert(std::is_same<decltype(&Tensor::raw_data_const), const void *(Tensor::*)() const noexcept>::value,
              "Tensor::raw_data_const");
static_assert(std::is_same<decltype(&Tensor::get_dtype_intfc), DTypeScaleOff (Tensor::*)() const noexcept>::value,
              "Tensor::get_dtype_intfc");
static_assert(std::is_same<decltype(&Tensor::get_dtype), DType (Tensor::*)() const>::value, "Tensor::get_dtype");
static_assert(std::is_same<decltype(&Tensor::interface_scale), float (Tensor::*)() const>::value,
              "Tensor::interface_scale");
static_assert(std::is_same<decltype(std::declval<const Tensor &>().interface_offset()), int>::value,
              "Tensor::interface_offset returns the zero point as int");
static_assert(std::is_convertible<decltype(std::declval<const Tensor &>()(size_t{0}, size_t{0}, size_t{0}, size_t{0})),
                                  float>::value,
              "Tensor's element accessor t(b, h, w, d) converts to float");
static_assert(std::is_abstract<Tensor>::value, "Tensor is abstract");

int main()
{
    return 0;
}
