// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// The facts of QHPI (HTP/core/qhpi.h) this package relies on, as compile-time checks:
// each holds for the template's stand-in (standin/htp_standin.h, -DHTP_STANDIN) and for
// Qualcomm's own header (QNN SDK 2.44 and later; `make sdk-check` compiles this file both
// ways), so a stand-in that drifted from the SDK fails to compile here. Names, types,
// values, struct member order and signatures of what src/ and include/htp_kernels.h use.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "htp_sdk.h"

#define HTP_SAME(a, b) std::is_same<a, b>::value
#define HTP_MEMBER(T, m, type) static_assert(HTP_SAME(decltype(T::m), type), #T "::" #m " is " #type)
#define HTP_BEFORE(T, a, b) static_assert(offsetof(T, a) < offsetof(T, b), #T " member order: " #a " before " #b)

// Status codes.
static_assert(QHPI_Success == 0, "QHPI_Success");
static_assert(QHPI_Unsupported == 1, "QHPI_Unsupported");
static_assert(QHPI_ErrorFatal == 2, "QHPI_ErrorFatal");
static_assert(HTP_SAME(QHPI_StatusCode, uint32_t), "QHPI_StatusCode is uint32_t");

// Element types, layouts, storage, placement, resources.
static_assert(QHPI_QUInt8 == 1, "QHPI_QUInt8");
static_assert(QHPI_QUInt16 == 2, "QHPI_QUInt16");
static_assert(QHPI_Float32 == 4, "QHPI_Float32");
static_assert(QHPI_Int32 == 5, "QHPI_Int32");
static_assert(HTP_SAME(QHPI_Element_Type, uint32_t), "QHPI_Element_Type is uint32_t");
static_assert(QHPI_Layout_Flat4 == 2, "QHPI_Layout_Flat4");
static_assert(HTP_SAME(QHPI_Standard_Layout, uint32_t), "QHPI_Standard_Layout is uint32_t");
static_assert(QHPI_Storage_Direct == 0, "QHPI_Storage_Direct");
static_assert(QHPI_MemLoc_DDR_OR_TCM == 2, "QHPI_MemLoc_DDR_OR_TCM");
static_assert(QHPI_RESOURCE_HVX == 2, "QHPI_RESOURCE_HVX");
static_assert(QHPI_MAX_RANK == 8, "QHPI_MAX_RANK");

// QHPI_Shape
HTP_MEMBER(QHPI_Shape, rank, uint32_t);
HTP_MEMBER(QHPI_Shape, dims, uint32_t[QHPI_MAX_RANK]);
HTP_BEFORE(QHPI_Shape, rank, dims);
static_assert(sizeof(QHPI_Shape) == 4 * (1 + QHPI_MAX_RANK), "QHPI_Shape size");

// QHPI_Quant_Parameters: the zero point first, then the step.
HTP_MEMBER(QHPI_Quant_Parameters, zero_offset, int32_t);
HTP_MEMBER(QHPI_Quant_Parameters, stepsize, float);
HTP_BEFORE(QHPI_Quant_Parameters, zero_offset, stepsize);

// QHPI_Tensor_Signature_v1
HTP_MEMBER(QHPI_Tensor_Signature_v1, element_type, uint32_t);
HTP_MEMBER(QHPI_Tensor_Signature_v1, layout, uint32_t);
HTP_MEMBER(QHPI_Tensor_Signature_v1, storage, unsigned char);
HTP_MEMBER(QHPI_Tensor_Signature_v1, mem_placement, unsigned char);
HTP_BEFORE(QHPI_Tensor_Signature_v1, element_type, layout);
HTP_BEFORE(QHPI_Tensor_Signature_v1, layout, storage);
HTP_BEFORE(QHPI_Tensor_Signature_v1, storage, mem_placement);
static_assert(sizeof(QHPI_Tensor_Signature_v1) == 12, "QHPI_Tensor_Signature_v1 size");

// The function types.
static_assert(HTP_SAME(QHPI_Plugin_Function, uint32_t (*)(QHPI_RuntimeHandle *, uint32_t, QHPI_Tensor **, uint32_t,
                                                          const QHPI_Tensor *const *)),
              "QHPI_Plugin_Function");
static_assert(HTP_SAME(QHPI_Cost_Function, float (*)(const uint32_t, const QHPI_Tensor *const *)),
              "QHPI_Cost_Function");
static_assert(HTP_SAME(QHPI_Precompute_Function, uint32_t (*)(QHPI_RuntimeHandle *, void *, uint32_t, QHPI_Tensor **,
                                                              uint32_t, const QHPI_Tensor *const *)),
              "QHPI_Precompute_Function");
static_assert(HTP_SAME(QHPI_Plugin_Precomputed_Function, uint32_t (*)(QHPI_RuntimeHandle *, const void *)),
              "QHPI_Plugin_Precomputed_Function");
static_assert(HTP_SAME(QHPI_Kernel_Predicate,
                       uint32_t (*)(const QHPI_Op *, const uint32_t, const QHPI_Tensor *const *)),
              "QHPI_Kernel_Predicate");
static_assert(HTP_SAME(QHPI_RewriteOpFunc, const QHPI_Op *(*)(const QHPI_Op *)), "QHPI_RewriteOpFunc");
static_assert(HTP_SAME(QHPI_TileShapeRequired, QHPI_Shape (*)(const QHPI_Op *)), "QHPI_TileShapeRequired");
static_assert(HTP_SAME(QHPI_TileShapeLegalized, QHPI_Shape (*)(const QHPI_Op *, const QHPI_Shape *)),
              "QHPI_TileShapeLegalized");
static_assert(HTP_SAME(QHPI_BuildTileOfOp, const QHPI_Op *(*)(const QHPI_Op *, const QHPI_Shape *, const QHPI_Shape *)),
              "QHPI_BuildTileOfOp");

// The accessors and the registration.
static_assert(HTP_SAME(decltype(&qhpi_tensor_shape), QHPI_Shape (*)(const QHPI_Tensor *)), "qhpi_tensor_shape");
static_assert(HTP_SAME(decltype(&qhpi_tensor_type), QHPI_Element_Type (*)(const QHPI_Tensor *)), "qhpi_tensor_type");
static_assert(HTP_SAME(decltype(&qhpi_tensor_quant_parameters), QHPI_Quant_Parameters (*)(const QHPI_Tensor *)),
              "qhpi_tensor_quant_parameters");
static_assert(HTP_SAME(decltype(&qhpi_tensor_raw_data), void *(*)(const QHPI_Tensor *)), "qhpi_tensor_raw_data");
static_assert(HTP_SAME(decltype(&qhpi_register_ops_v1), QHPI_StatusCode (*)(uint32_t, QHPI_OpInfo_v1 *, const char *)),
              "qhpi_register_ops_v1");

// QHPI_Kernel_v1: every member, in order (the four one-bit flags after `resources`).
HTP_MEMBER(QHPI_Kernel_v1, function_name, const char *);
HTP_MEMBER(QHPI_Kernel_v1, function, QHPI_Plugin_Function);
HTP_MEMBER(QHPI_Kernel_v1, resources, unsigned char);
HTP_MEMBER(QHPI_Kernel_v1, min_inputs, uint32_t);
HTP_MEMBER(QHPI_Kernel_v1, input_signature, QHPI_Tensor_Signature_v1 *);
HTP_MEMBER(QHPI_Kernel_v1, min_outputs, uint32_t);
HTP_MEMBER(QHPI_Kernel_v1, output_signature, QHPI_Tensor_Signature_v1 *);
HTP_MEMBER(QHPI_Kernel_v1, cost_function, QHPI_Cost_Function);
HTP_MEMBER(QHPI_Kernel_v1, sync_block_size, uint32_t);
HTP_MEMBER(QHPI_Kernel_v1, precomputed_data_size, uint32_t);
HTP_MEMBER(QHPI_Kernel_v1, do_precomputation_function, QHPI_Precompute_Function);
HTP_MEMBER(QHPI_Kernel_v1, function_with_precomputed_data, QHPI_Plugin_Precomputed_Function);
HTP_MEMBER(QHPI_Kernel_v1, predicate, QHPI_Kernel_Predicate);
HTP_BEFORE(QHPI_Kernel_v1, function_name, function);
HTP_BEFORE(QHPI_Kernel_v1, function, resources);
HTP_BEFORE(QHPI_Kernel_v1, resources, min_inputs);
HTP_BEFORE(QHPI_Kernel_v1, min_inputs, input_signature);
HTP_BEFORE(QHPI_Kernel_v1, input_signature, min_outputs);
HTP_BEFORE(QHPI_Kernel_v1, min_outputs, output_signature);
HTP_BEFORE(QHPI_Kernel_v1, output_signature, cost_function);
HTP_BEFORE(QHPI_Kernel_v1, cost_function, sync_block_size);
HTP_BEFORE(QHPI_Kernel_v1, sync_block_size, precomputed_data_size);
HTP_BEFORE(QHPI_Kernel_v1, precomputed_data_size, do_precomputation_function);
HTP_BEFORE(QHPI_Kernel_v1, do_precomputation_function, function_with_precomputed_data);
HTP_BEFORE(QHPI_Kernel_v1, function_with_precomputed_data, predicate);
// The flags share one byte right after `resources` (min_inputs then starts at 4 on every target).
static_assert(offsetof(QHPI_Kernel_v1, resources) + 2 <= offsetof(QHPI_Kernel_v1, min_inputs),
              "QHPI_Kernel_v1: the flags' byte follows resources");

// QHPI_OpInfo_v1: every member, in order.
HTP_MEMBER(QHPI_OpInfo_v1, name, const char *);
HTP_MEMBER(QHPI_OpInfo_v1, num_kernels, uint32_t);
HTP_MEMBER(QHPI_OpInfo_v1, kernels, QHPI_Kernel_v1 *);
HTP_MEMBER(QHPI_OpInfo_v1, early_rewrite, QHPI_RewriteOpFunc);
HTP_MEMBER(QHPI_OpInfo_v1, shape_required, QHPI_TileShapeRequired);
HTP_MEMBER(QHPI_OpInfo_v1, shape_legalized, QHPI_TileShapeLegalized);
HTP_MEMBER(QHPI_OpInfo_v1, tile_output, unsigned);
HTP_MEMBER(QHPI_OpInfo_v1, build_tile, QHPI_BuildTileOfOp);
HTP_MEMBER(QHPI_OpInfo_v1, late_rewrite, QHPI_RewriteOpFunc);
HTP_BEFORE(QHPI_OpInfo_v1, name, num_kernels);
HTP_BEFORE(QHPI_OpInfo_v1, num_kernels, kernels);
HTP_BEFORE(QHPI_OpInfo_v1, kernels, early_rewrite);
HTP_BEFORE(QHPI_OpInfo_v1, early_rewrite, shape_required);
HTP_BEFORE(QHPI_OpInfo_v1, shape_required, shape_legalized);
HTP_BEFORE(QHPI_OpInfo_v1, shape_legalized, tile_output);
HTP_BEFORE(QHPI_OpInfo_v1, tile_output, build_tile);
HTP_BEFORE(QHPI_OpInfo_v1, build_tile, late_rewrite);

int main()
{
    return 0;
}
