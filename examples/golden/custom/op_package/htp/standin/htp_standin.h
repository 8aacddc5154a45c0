// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// The part of QHPI (Qualcomm's HTP op interface, the SDK's include/QNN/HTP/core/qhpi.h,
// QNN SDK 2.44 and later) this package's sources use, declared by the template for the
// builds without the QNN SDK (make host-test, make hexagon-test): a stand-in, not
// Qualcomm's header. Every name, type, value, struct member order and signature below is
// the SDK's; `make sdk-check` compiles host/htp_facts.cpp against this file and against
// the SDK's own header, and the static_asserts there hold in both, so the two cannot
// drift apart unnoticed. Only what the package calls is declared. What a stand-in cannot
// show: registration in the real runtime (standin/htp_standin.cpp keeps what
// qhpi_register_ops_v1 is handed, for the test driver), the graph preparation (which
// kernel the runtime picks, its conversions to the kernels' flat tensors), timing.
#ifndef HTP_STANDIN_H
#define HTP_STANDIN_H

#include <cstdint>

#define QHPI_MAX_RANK 8

extern "C" {

// Status codes of the kernels and of registration.
enum {
    QHPI_Success = 0,
    QHPI_Unsupported = 1,
    QHPI_ErrorFatal = 2,
};
typedef uint32_t QHPI_StatusCode;

// A tensor's logical shape.
typedef struct {
    uint32_t rank;
    uint32_t dims[QHPI_MAX_RANK];
} QHPI_Shape;

// Element types, by value (the same numbers as the legacy DType).
enum {
    QHPI_QUInt8 = 1,
    QHPI_QUInt16 = 2,
    QHPI_Float32 = 4,
    QHPI_Int32 = 5,
};
typedef uint32_t QHPI_Element_Type;

// real = (code - zero_offset) * stepsize: zero_offset is the zero point.
typedef struct {
    int32_t zero_offset;
    float stepsize;
} QHPI_Quant_Parameters;

enum {
    QHPI_Layout_Flat4 = 2,
};
typedef uint32_t QHPI_Standard_Layout;

enum {
    QHPI_MemLoc_DDR_OR_TCM = 2,
};
typedef uint32_t QHPI_MemLoc;

enum {
    QHPI_Storage_Direct = 0,
};
typedef uint32_t QHPI_Storage;

// What a kernel asks of one of its tensors; the runtime converts to it.
typedef struct {
    uint32_t element_type;
    uint32_t layout;
    unsigned char storage;
    unsigned char mem_placement;
} QHPI_Tensor_Signature_v1;

typedef struct QHPI_Tensor QHPI_Tensor;
typedef struct QHPI_RuntimeHandle QHPI_RuntimeHandle;
typedef struct QHPI_Op QHPI_Op;

typedef uint32_t (*QHPI_Plugin_Function)(QHPI_RuntimeHandle *handle, uint32_t num_outputs, QHPI_Tensor **outputs,
                                         uint32_t num_inputs, const QHPI_Tensor *const *inputs);
typedef uint32_t (*QHPI_Precompute_Function)(QHPI_RuntimeHandle *handle, void *data, uint32_t num_outputs,
                                             QHPI_Tensor **outputs, uint32_t num_inputs,
                                             const QHPI_Tensor *const *inputs);
typedef uint32_t (*QHPI_Plugin_Precomputed_Function)(QHPI_RuntimeHandle *handle, const void *precomputed_data);
typedef uint32_t (*QHPI_Kernel_Predicate)(const QHPI_Op *op, const uint32_t num_inputs,
                                          const QHPI_Tensor *const *inputs);
typedef float (*QHPI_Cost_Function)(const uint32_t num_inputs, const QHPI_Tensor *const *inputs);

QHPI_Shape qhpi_tensor_shape(const QHPI_Tensor *tensor);
QHPI_Element_Type qhpi_tensor_type(const QHPI_Tensor *tensor);
QHPI_Quant_Parameters qhpi_tensor_quant_parameters(const QHPI_Tensor *tensor);
void *qhpi_tensor_raw_data(const QHPI_Tensor *tensor);

// One implementation of an op: its function and the tensors it takes.
typedef struct {
    const char *function_name;
    QHPI_Plugin_Function function;
    unsigned char resources;
    unsigned char source_destructive : 1;
    unsigned char multithreaded : 1;
    unsigned char variable_inputs : 1;
    unsigned char variable_outputs : 1;
    uint32_t min_inputs;
    QHPI_Tensor_Signature_v1 *input_signature;
    uint32_t min_outputs;
    QHPI_Tensor_Signature_v1 *output_signature;
    QHPI_Cost_Function cost_function;
    uint32_t sync_block_size;
    uint32_t precomputed_data_size;
    QHPI_Precompute_Function do_precomputation_function;
    QHPI_Plugin_Precomputed_Function function_with_precomputed_data;
    QHPI_Kernel_Predicate predicate;
} QHPI_Kernel_v1;

enum {
    QHPI_RESOURCE_HVX = 2,
};
typedef uint32_t QHPI_RESOURCE;

typedef const QHPI_Op *(*QHPI_RewriteOpFunc)(const QHPI_Op *op);
typedef QHPI_Shape (*QHPI_TileShapeRequired)(const QHPI_Op *op);
typedef QHPI_Shape (*QHPI_TileShapeLegalized)(const QHPI_Op *op, const QHPI_Shape *shape);
typedef const QHPI_Op *(*QHPI_BuildTileOfOp)(const QHPI_Op *op, const QHPI_Shape *start, const QHPI_Shape *extent);

// An op: its name ("<package>::<Op>"), its kernels, optional graph callbacks.
typedef struct {
    const char *name;
    uint32_t num_kernels;
    QHPI_Kernel_v1 *kernels;
    QHPI_RewriteOpFunc early_rewrite;
    QHPI_TileShapeRequired shape_required;
    QHPI_TileShapeLegalized shape_legalized;
    unsigned tile_output;
    QHPI_BuildTileOfOp build_tile;
    QHPI_RewriteOpFunc late_rewrite;
} QHPI_OpInfo_v1;

QHPI_StatusCode qhpi_register_ops_v1(uint32_t num_ops, QHPI_OpInfo_v1 *operators, const char *package);

} // extern "C"

#endif // HTP_STANDIN_H
