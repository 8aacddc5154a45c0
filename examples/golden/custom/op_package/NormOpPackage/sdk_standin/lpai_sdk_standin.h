/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * The template's stand-in for Qualcomm's QNN / LPAI op package declarations, used when
 * no SDK is present (LPAI_EMU_OWN_DECLS: the host emulator, the C suite, the benchmark).
 * With QNN_SDK_ROOT set, the SDK's own headers replace it (include/lpai_sdk.h).
 *
 * The same ABI as the SDK: every struct member in its order and type, every enum and
 * macro value, every function-pointer signature that the package, the emulator and
 * the tests use. Written by the template from the facts of public copies of the
 * headers (QnnCommon.h, QnnLog.h, QnnTypes.h and QnnOpPackage.h of QNN SDK 2.43;
 * QnnLpaiOpPackage.h and QnnLpaiOpPackageInfrastructure.h as shipped from 2.48); their
 * text is not copied. host/sdk_abi_check.c pins the facts (sizes, offsets, values,
 * function types) and compiles against this file and against an SDK alike, so any
 * drift fails the build. Only the declarations the package needs are here.
 *
 * NOT IN ANY PUBLIC COPY, marked below where it matters: nothing the package calls.
 * What the runtime does behind the calls (whether scalar params arrive as tensors with
 * data, how the backend repacks under QNN_LPAI_OP_LAYOUT_DEFAULT) is not declared by
 * any header either; see the op package's README.
 */
#ifndef LPAI_SDK_STANDIN_H
#define LPAI_SDK_STANDIN_H

#if defined(__cplusplus)
#include <climits>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#else
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#endif

/* Tells a file which declarations it was built against (host/sdk_abi_check.c). */
#define LPAI_SDK_STANDIN 1

#if defined(__cplusplus)
extern "C" {
#endif

/* ==== QnnCommon.h ================================================================ */
#define QNN_API

typedef uint64_t Qnn_ErrorHandle_t;
typedef void *Qnn_Handle_t;
typedef Qnn_Handle_t Qnn_ContextHandle_t;
typedef Qnn_Handle_t Qnn_GraphHandle_t;
typedef Qnn_Handle_t Qnn_LogHandle_t;
typedef Qnn_Handle_t Qnn_MemHandle_t;

#define QNN_SUCCESS 0
#define QNN_MIN_ERROR_COMMON 1000
#define QNN_MAX_ERROR_COMMON 1999
#define QNN_MIN_ERROR_OP_PACKAGE 3000
#define QNN_MAX_ERROR_OP_PACKAGE 3999
#define QNN_MIN_ERROR_LOG 11000
#define QNN_MAX_ERROR_LOG 11999

/* The low 16 bits of a handle are the error code. */
#define QNN_GET_ERROR_CODE(errorHandle) ((errorHandle) & 0xFFFF)

typedef enum {
    QNN_COMMON_MIN_ERROR = QNN_MIN_ERROR_COMMON,
    QNN_COMMON_ERROR_NOT_SUPPORTED = QNN_MIN_ERROR_COMMON + 0,
    QNN_COMMON_ERROR_MEM_ALLOC = QNN_MIN_ERROR_COMMON + 2,
    QNN_COMMON_ERROR_SYSTEM = QNN_MIN_ERROR_COMMON + 3,
    QNN_COMMON_ERROR_INVALID_ARGUMENT = QNN_MIN_ERROR_COMMON + 4,
    QNN_COMMON_ERROR_GENERAL = QNN_MIN_ERROR_COMMON + 100,
    QNN_COMMON_MAX_ERROR = QNN_MAX_ERROR_COMMON,
    QNN_COMMON_ERROR_UNDEFINED = 0x7FFFFFFF
} QnnCommon_Error_t;

/* ==== QnnLog.h =================================================================== */
typedef enum {
    QNN_LOG_LEVEL_ERROR = 1,
    QNN_LOG_LEVEL_WARN = 2,
    QNN_LOG_LEVEL_INFO = 3,
    QNN_LOG_LEVEL_VERBOSE = 4,
    QNN_LOG_LEVEL_DEBUG = 5,
    QNN_LOG_LEVEL_MAX = 0x7fffffff
} QnnLog_Level_t;

/* The arguments arrive as a va_list, not as `...`. */
typedef void (*QnnLog_Callback_t)(const char *fmt, QnnLog_Level_t level, uint64_t timestamp, va_list args);

/* ==== QnnTypes.h ================================================================= */
/* The low byte holds the width in BCD (0x08, 0x16, 0x32, 0x64): C7 compares widths. */
typedef enum {
    QNN_DATATYPE_INT_8 = 0x0008,
    QNN_DATATYPE_INT_16 = 0x0016,
    QNN_DATATYPE_INT_32 = 0x0032,
    QNN_DATATYPE_INT_64 = 0x0064,
    QNN_DATATYPE_UINT_8 = 0x0108,
    QNN_DATATYPE_UINT_16 = 0x0116,
    QNN_DATATYPE_UINT_32 = 0x0132,
    QNN_DATATYPE_UINT_64 = 0x0164,
    QNN_DATATYPE_FLOAT_16 = 0x0216,
    QNN_DATATYPE_BFLOAT_16 = 0x0226,
    QNN_DATATYPE_FLOAT_32 = 0x0232,
    QNN_DATATYPE_FLOAT_64 = 0x0264,
    QNN_DATATYPE_SFIXED_POINT_4 = 0x0304,
    QNN_DATATYPE_SFIXED_POINT_8 = 0x0308,
    QNN_DATATYPE_SFIXED_POINT_16 = 0x0316,
    QNN_DATATYPE_SFIXED_POINT_32 = 0x0332,
    QNN_DATATYPE_UFIXED_POINT_4 = 0x0404,
    QNN_DATATYPE_UFIXED_POINT_8 = 0x0408,
    QNN_DATATYPE_UFIXED_POINT_16 = 0x0416,
    QNN_DATATYPE_UFIXED_POINT_32 = 0x0432,
    QNN_DATATYPE_BOOL_8 = 0x0508,
    QNN_DATATYPE_STRING = 0x0608,
    QNN_DATATYPE_UNDEFINED = 0x7FFFFFFF
} Qnn_DataType_t;

typedef enum {
    QNN_TENSOR_TYPE_APP_WRITE = 0,
    QNN_TENSOR_TYPE_APP_READ = 1,
    QNN_TENSOR_TYPE_APP_READWRITE = 2,
    QNN_TENSOR_TYPE_NATIVE = 3,
    QNN_TENSOR_TYPE_STATIC = 4,
    QNN_TENSOR_TYPE_NULL = 5,
    QNN_TENSOR_TYPE_UNDEFINED = 0x7FFFFFFF
} Qnn_TensorType_t;

/* UNDEFINED is 0xFFFFFFFF here, unlike the other enums' 0x7FFFFFFF. */
typedef enum {
    QNN_PARAMTYPE_SCALAR = 0,
    QNN_PARAMTYPE_TENSOR = 1,
    QNN_PARAMTYPE_UNDEFINED = 0xFFFFFFFF
} Qnn_ParamType_t;

typedef enum {
    QNN_DEFINITION_IMPL_GENERATED = 0,
    QNN_DEFINITION_DEFINED = 1,
    QNN_DEFINITION_UNDEFINED = 0x7FFFFFFF
} Qnn_Definition_t;

typedef struct {
    uint32_t major;
    uint32_t minor;
    uint32_t patch;
} Qnn_Version_t;

/* Two versions, core API and backend API: not three numbers. */
typedef struct {
    Qnn_Version_t coreApiVersion;
    Qnn_Version_t backendApiVersion;
} Qnn_ApiVersion_t;

/* A scalar param: 8-byte aligned and 16 bytes wide on 64-bit hosts (double, 64-bit
 * integers and a string pointer share the union). */
typedef struct {
    Qnn_DataType_t dataType;
    union {
        float floatValue;
        double doubleValue;
        uint64_t uint64Value;
        int64_t int64Value;
        uint32_t uint32Value;
        int32_t int32Value;
        uint16_t uint16Value;
        int16_t int16Value;
        uint8_t uint8Value;
        int8_t int8Value;
        uint8_t bool8Value;
        int16_t bfloat16Value;
        const char *stringValue;
    };
} Qnn_Scalar_t;

typedef enum {
    QNN_QUANTIZATION_ENCODING_SCALE_OFFSET = 0,
    QNN_QUANTIZATION_ENCODING_AXIS_SCALE_OFFSET = 1,
    QNN_QUANTIZATION_ENCODING_BW_SCALE_OFFSET = 2,
    QNN_QUANTIZATION_ENCODING_BW_AXIS_SCALE_OFFSET = 3,
    QNN_QUANTIZATION_ENCODING_BLOCK = 4,
    QNN_QUANTIZATION_ENCODING_BLOCKWISE_EXPANSION = 5,
    QNN_QUANTIZATION_ENCODING_VECTOR = 6,
    QNN_QUANTIZATION_ENCODING_FLOAT_BLOCK = 7,
    QNN_QUANTIZATION_ENCODING_BW_AXIS_SCALE_OFFSET_MAPPED = 8,
    QNN_QUANTIZATION_ENCODING_BW_BLOCK_MAPPED = 9,
    QNN_QUANTIZATION_ENCODING_BW_BLOCKWISE_EXPANSION_MAPPED = 10,
    QNN_QUANTIZATION_ENCODING_BW_FLOAT_BLOCK = 11,
    QNN_QUANTIZATION_ENCODING_UNDEFINED = 0x7FFFFFFF
} Qnn_QuantizationEncoding_t;

typedef enum {
    QNN_QUANTIZATION_ENCODING_MAPPING_STANDARD_SYMMETRIC = 0,
    QNN_QUANTIZATION_ENCODING_MAPPING_ASYMMETRIC_PLUS_ONE = 1,
    QNN_QUANTIZATION_ENCODING_MAPPING_LINEAR_SYMMETRIC_EXCLUDE_ZERO = 2,
    QNN_QUANTIZATION_ENCODING_MAPPING_UNDEFINED = 0x7FFFFFFF
} Qnn_QuantizationEncodingMapping_t;

/* float = (quantized + offset) * scale: QNN's sign of the offset, not LPAI's. */
typedef struct {
    float scale;
    int32_t offset;
} Qnn_ScaleOffset_t;

typedef struct {
    uint32_t bitwidth;
    float scale;
    int32_t offset;
} Qnn_BwScaleOffset_t;

typedef struct {
    int32_t axis;
    uint32_t numScaleOffsets;
    Qnn_ScaleOffset_t *scaleOffset;
} Qnn_AxisScaleOffset_t;

/* The widest member of the quantize-params union (32 bytes on 64-bit hosts). */
typedef struct {
    uint32_t bitwidth;
    int32_t axis;
    uint32_t numElements;
    float *scales;
    int32_t *offsets;
} Qnn_BwAxisScaleOffset_t;

typedef struct {
    uint32_t bitwidth;
    int32_t axis;
    Qnn_QuantizationEncodingMapping_t mapping;
    uint32_t numElements;
    float *scales;
    int32_t *offsets;
} Qnn_BwAxisScaleOffsetMapped_t;

typedef struct {
    uint32_t *blockSize;
    Qnn_ScaleOffset_t *scaleOffset;
} Qnn_BlockEncoding_t;

typedef struct {
    uint32_t bitwidth;
    Qnn_QuantizationEncodingMapping_t mapping;
    uint32_t *blockSize;
    Qnn_ScaleOffset_t *scaleOffset;
} Qnn_BwBlockMapped_t;

typedef enum {
    QNN_BLOCKWISE_EXPANSION_BITWIDTH_SCALE_STORAGE_8 = 0,
    QNN_BLOCKWISE_EXPANSION_BITWIDTH_SCALE_STORAGE_16 = 1,
    QNN_BLOCKWISE_EXPANSION_BITWIDTH_SCALE_STORAGE_UNDEFINED = 0x7FFFFFFF
} Qnn_BlockwiseExpansionBlockScaleStorageType_t;

typedef struct {
    int32_t axis;
    Qnn_ScaleOffset_t *scaleOffsets;
    uint32_t numBlocksPerAxis;
    uint32_t blockScaleBitwidth;
    Qnn_BlockwiseExpansionBlockScaleStorageType_t blockScaleStorageType;
    union {
        uint8_t *blocksScale8;
        uint16_t *blocksScale16;
    };
} Qnn_BlockwiseExpansion_t;

typedef struct {
    uint32_t bitwidth;
    Qnn_QuantizationEncodingMapping_t mapping;
    int32_t axis;
    Qnn_ScaleOffset_t *scaleOffsets;
    uint32_t numBlocksPerAxis;
    uint32_t blockScaleBitwidth;
    Qnn_BlockwiseExpansionBlockScaleStorageType_t blockScaleStorageType;
    union {
        uint8_t *blocksScale8;
        uint16_t *blocksScale16;
    };
} Qnn_BwBlockwiseExpansionMapped_t;

typedef struct {
    Qnn_BwAxisScaleOffset_t bwAxisScaleOffset;
    uint32_t rowsPerBlock;
    uint32_t columnsPerBlock;
    uint8_t vectorDimension;
    uint8_t vectorStride;
    uint8_t indexBitwidth;
} Qnn_VectorEncoding_t;

typedef struct {
    float scale;
    float offset;
} Qnn_FloatScaleOffset_t;

typedef struct {
    uint32_t *blockSize;
    Qnn_FloatScaleOffset_t *floatScaleOffset;
} Qnn_FloatBlockEncoding_t;

typedef struct {
    uint32_t bitwidth;
    uint32_t *blockSize;
    Qnn_FloatScaleOffset_t *floatScaleOffset;
} Qnn_BwFloatBlockEncoding_t;

typedef struct {
    Qnn_Definition_t encodingDefinition;
    Qnn_QuantizationEncoding_t quantizationEncoding;
    union {
        Qnn_ScaleOffset_t scaleOffsetEncoding;
        Qnn_AxisScaleOffset_t axisScaleOffsetEncoding;
        Qnn_BwScaleOffset_t bwScaleOffsetEncoding;
        Qnn_BwAxisScaleOffset_t bwAxisScaleOffsetEncoding;
        Qnn_BlockEncoding_t blockEncoding;
        Qnn_BlockwiseExpansion_t *blockwiseExpansion;
        Qnn_VectorEncoding_t *vectorEncoding;
        Qnn_FloatBlockEncoding_t floatBlockEncoding;
        Qnn_BwAxisScaleOffsetMapped_t *bwAxisScaleOffsetMappedEncoding;
        Qnn_BwBlockMapped_t *bwBlockMappedEncoding;
        Qnn_BwBlockwiseExpansionMapped_t *bwBlockwiseExpansionMappedEncoding;
        Qnn_BwFloatBlockEncoding_t bwFloatBlockEncoding;
    };
} Qnn_QuantizeParams_t;

typedef uint32_t Qnn_TensorDataFormat_t;
#define QNN_TENSOR_DATA_FORMAT_DENSE 0
#define QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER QNN_TENSOR_DATA_FORMAT_DENSE

typedef enum {
    QNN_TENSORMEMTYPE_RAW = 0,
    QNN_TENSORMEMTYPE_MEMHANDLE = 1,
    QNN_TENSORMEMTYPE_RETRIEVE_RAW = 2,
    QNN_TENSORMEMTYPE_UNDEFINED = 0x7FFFFFFF
} Qnn_TensorMemType_t;

typedef struct {
    void *data;
    uint32_t dataSize;
} Qnn_ClientBuffer_t;

typedef Qnn_ErrorHandle_t (*Qnn_GetTensorRawDataFn_t)(Qnn_ContextHandle_t context, Qnn_GraphHandle_t graph, uint64_t id,
                                                      Qnn_ClientBuffer_t *clientBuf);
typedef Qnn_ErrorHandle_t (*Qnn_FreeTensorRawDataFn_t)(Qnn_ContextHandle_t context, Qnn_GraphHandle_t graph,
                                                       uint64_t id);

typedef struct {
    Qnn_GetTensorRawDataFn_t getTensorData;
    Qnn_FreeTensorRawDataFn_t freeTensorData;
} Qnn_TensorRetrieveRaw_t;

/* Ten members. */
typedef struct {
    uint32_t id;
    const char *name;
    Qnn_TensorType_t type;
    Qnn_TensorDataFormat_t dataFormat;
    Qnn_DataType_t dataType;
    Qnn_QuantizeParams_t quantizeParams;
    uint32_t rank;
    uint32_t *dimensions;
    Qnn_TensorMemType_t memType;
    union {
        Qnn_ClientBuffer_t clientBuf;
        Qnn_MemHandle_t memHandle;
    };
} Qnn_TensorV1_t;

typedef enum { QNN_SPARSE_LAYOUT_HYBRID_COO = 0, QNN_SPARSE_LAYOUT_UNDEFINED = 0x7FFFFFFF } Qnn_SparseLayoutType_t;

typedef struct {
    uint32_t numSpecifiedElements;
    uint32_t numSparseDimensions;
} Qnn_SparseLayoutHybridCoo_t;

typedef struct {
    Qnn_SparseLayoutType_t type;
    union {
        Qnn_SparseLayoutHybridCoo_t hybridCoo;
    };
} Qnn_SparseParams_t;

/* The ten members of v1 (one more in the buffer union), then three. It is the larger
 * of the two, so it sets sizeof(Qnn_Tensor_t): the stride of every tensor array of a
 * Qnn_OpConfig_t. */
typedef struct {
    uint32_t id;
    const char *name;
    Qnn_TensorType_t type;
    Qnn_TensorDataFormat_t dataFormat;
    Qnn_DataType_t dataType;
    Qnn_QuantizeParams_t quantizeParams;
    uint32_t rank;
    uint32_t *dimensions;
    Qnn_TensorMemType_t memType;
    union {
        Qnn_ClientBuffer_t clientBuf;
        Qnn_MemHandle_t memHandle;
        Qnn_TensorRetrieveRaw_t *retrieveRaw;
    };
    uint8_t *isDynamicDimensions;
    Qnn_SparseParams_t sparseParams;
    uint8_t isProduced;
} Qnn_TensorV2_t;

typedef enum {
    QNN_TENSOR_VERSION_1 = 1,
    QNN_TENSOR_VERSION_2 = 2,
    QNN_TENSOR_VERSION_UNDEFINED = 0x7FFFFFFF
} Qnn_TensorVersion_t;

typedef struct {
    Qnn_TensorVersion_t version;
    union {
        Qnn_TensorV1_t v1;
        Qnn_TensorV2_t v2;
    };
} Qnn_Tensor_t;

typedef struct {
    Qnn_ParamType_t paramType;
    const char *name;
    union {
        Qnn_Scalar_t scalarParam;
        Qnn_Tensor_t tensorParam;
    };
} Qnn_Param_t;

typedef struct {
    const char *name;
    const char *packageName;
    const char *typeName;
    uint32_t numOfParams;
    Qnn_Param_t *params;
    uint32_t numOfInputs;
    Qnn_Tensor_t *inputTensors;
    uint32_t numOfOutputs;
    Qnn_Tensor_t *outputTensors;
} Qnn_OpConfigV1_t;

typedef enum { QNN_OPCONFIG_VERSION_1 = 1, QNN_OPCONFIG_VERSION_UNDEFINED = 0x7FFFFFFF } Qnn_OpConfigVersion_t;

/* Passed BY VALUE to validateOpConfig, validateOp and getTempBufferSize. */
typedef struct {
    Qnn_OpConfigVersion_t version;
    union {
        Qnn_OpConfigV1_t v1;
    };
} Qnn_OpConfig_t;

/* ==== QnnOpPackage.h ============================================================= */
#define QNN_OP_PACKAGE_RESERVED_INFO_SIZE 12

typedef Qnn_Handle_t Qnn_OpPackageHandle_t;
/* Pointers to structs each backend defines: LPAI defines the infrastructure and the
 * operation info below. */
typedef struct _QnnOpPackage_GlobalInfrastructure_t *QnnOpPackage_GlobalInfrastructure_t;
typedef struct _QnnOpPackage_GraphInfrastructure_t *QnnOpPackage_GraphInfrastructure_t;
typedef struct _QnnOpPackage_OpImpl_t *QnnOpPackage_OpImpl_t;
typedef struct _QnnOpPackage_Node_t *QnnOpPackage_Node_t;
typedef struct _QnnOpPackage_Optimization_t *QnnOpPackage_Optimization_t;
typedef struct _QnnOpPackage_OperationInfo_t *QnnOpPackage_OperationInfo_t;
typedef struct _QnnOpPackage_PackageInfo_t QnnOpPackage_PackageInfo_t;

/* Enumerators, not macros: the op package codes are in the 3000s; GENERAL is the
 * common 1100. */
typedef enum {
    QNN_OP_PACKAGE_MIN_ERROR = QNN_MIN_ERROR_OP_PACKAGE,
    QNN_OP_PACKAGE_NO_ERROR = QNN_SUCCESS,
    QNN_OP_PACKAGE_ERROR_UNSUPPORTED_FEATURE = QNN_COMMON_ERROR_NOT_SUPPORTED,
    QNN_OP_PACKAGE_ERROR_LIBRARY_ALREADY_INITIALIZED = QNN_MIN_ERROR_OP_PACKAGE + 0,
    QNN_OP_PACKAGE_ERROR_LIBRARY_NOT_INITIALIZED = QNN_MIN_ERROR_OP_PACKAGE + 1,
    QNN_OP_PACKAGE_ERROR_INVALID_HANDLE = QNN_MIN_ERROR_OP_PACKAGE + 2,
    QNN_OP_PACKAGE_ERROR_INVALID_INFRASTRUCTURE = QNN_MIN_ERROR_OP_PACKAGE + 100,
    QNN_OP_PACKAGE_ERROR_INVALID_INFO = QNN_MIN_ERROR_OP_PACKAGE + 101,
    QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE = QNN_MIN_ERROR_OP_PACKAGE + 110,
    QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT = QNN_MIN_ERROR_OP_PACKAGE + 200,
    QNN_OP_PACKAGE_ERROR_GENERAL = QNN_COMMON_ERROR_GENERAL,
    QNN_OP_PACKAGE_MAX_ERROR = QNN_MAX_ERROR_OP_PACKAGE,
    QNN_OP_PACKAGE_ERROR_UNDEFINED = 0x7FFFFFFF
} QnnOpPackage_Error_t;

typedef struct {
    const char *packageName;
    const char **operationNames;
    const QnnOpPackage_OperationInfo_t *operationInfo;
    uint32_t numOperations;
    const QnnOpPackage_Optimization_t *optimizations;
    uint32_t numOptimizations;
    const char *sdkBuildId;
    const Qnn_ApiVersion_t *sdkApiVersion;
    const QnnOpPackage_PackageInfo_t *packageInfo;
    const Qnn_Version_t *opsetVersion;
    size_t reserved[QNN_OP_PACKAGE_RESERVED_INFO_SIZE];
} QnnOpPackage_Info_t;

/* clang-format off */
#define QNN_OP_PACKAGE_INFO_INIT {NULL, NULL, NULL, 0u, NULL, 0u, NULL, NULL, NULL, NULL, {0u}}
/* clang-format on */

typedef Qnn_ErrorHandle_t (*QnnOpPackage_InitFn_t)(QnnOpPackage_GlobalInfrastructure_t infrastructure);
/* An empty parameter list, as the SDK writes it (in C: parameters unspecified). */
typedef Qnn_ErrorHandle_t (*QnnOpPackage_TerminateFn_t)();
typedef Qnn_ErrorHandle_t (*QnnOpPackage_GetInfoFn_t)(const QnnOpPackage_Info_t **info);
typedef Qnn_ErrorHandle_t (*QnnOpPackage_ValidateOpConfigFn_t)(Qnn_OpConfig_t opConfig);
typedef Qnn_ErrorHandle_t (*QnnOpPackage_CreateOpImplFn_t)(QnnOpPackage_GraphInfrastructure_t graphInfrastructure,
                                                           QnnOpPackage_Node_t node, QnnOpPackage_OpImpl_t *opImpl);
typedef Qnn_ErrorHandle_t (*QnnOpPackage_FreeOpImplFn_t)(QnnOpPackage_OpImpl_t opImpl);
typedef Qnn_ErrorHandle_t (*QnnOpPackage_LogInitializeFn_t)(QnnLog_Callback_t callback, QnnLog_Level_t maxLogLevel);
typedef Qnn_ErrorHandle_t (*QnnOpPackage_LogSetLevelFn_t)(QnnLog_Level_t maxLogLevel);
typedef Qnn_ErrorHandle_t (*QnnOpPackage_LogTerminateFn_t)(void);

typedef Qnn_ErrorHandle_t (*QnnOpPackage_CreateFn_t)(QnnOpPackage_GlobalInfrastructure_t infrastructure,
                                                     QnnLog_Callback_t callback, QnnLog_Level_t maxLogLevel,
                                                     Qnn_OpPackageHandle_t *opPackage);
typedef Qnn_ErrorHandle_t (*QnnOpPackage_ValidateOpConfigHandleFn_t)(Qnn_OpPackageHandle_t opPackage,
                                                                     Qnn_OpConfig_t opConfig);
typedef Qnn_ErrorHandle_t (*QnnOpPackage_CreateOpImplHandleFn_t)(Qnn_OpPackageHandle_t opPackage,
                                                                 QnnOpPackage_GraphInfrastructure_t graphInfrastructure,
                                                                 QnnOpPackage_Node_t node,
                                                                 QnnOpPackage_OpImpl_t *opImpl);
typedef Qnn_ErrorHandle_t (*QnnOpPackage_FreeOpImplHandleFn_t)(Qnn_OpPackageHandle_t opPackage,
                                                               QnnOpPackage_OpImpl_t opImpl);
typedef Qnn_ErrorHandle_t (*QnnOpPackage_LogSetLevelHandleFn_t)(Qnn_OpPackageHandle_t opPackage,
                                                                QnnLog_Level_t maxLogLevel);
typedef Qnn_ErrorHandle_t (*QnnOpPackage_FreeFn_t)(Qnn_OpPackageHandle_t opPackage);

/* clang-format off */
#define QNN_OP_PACKAGE_API_VERSION_1_4_0 {1u, 4u, 0u}
#define QNN_OP_PACKAGE_API_VERSION_2_0_0 {2u, 0u, 0u}
/* clang-format on */

typedef struct {
    QnnOpPackage_InitFn_t init;
    QnnOpPackage_TerminateFn_t terminate;
    QnnOpPackage_GetInfoFn_t getInfo;
    QnnOpPackage_ValidateOpConfigFn_t validateOpConfig;
    QnnOpPackage_CreateOpImplFn_t createOpImpl;
    QnnOpPackage_FreeOpImplFn_t freeOpImpl;
    QnnOpPackage_LogInitializeFn_t logInitialize;
    QnnOpPackage_LogSetLevelFn_t logSetLevel;
    QnnOpPackage_LogTerminateFn_t logTerminate;
} QnnOpPackage_ImplementationV1_4_t;

typedef struct {
    QnnOpPackage_CreateFn_t create;
    QnnOpPackage_GetInfoFn_t getInfo;
    QnnOpPackage_ValidateOpConfigHandleFn_t validateOpConfig;
    QnnOpPackage_CreateOpImplHandleFn_t createOpImpl;
    QnnOpPackage_FreeOpImplHandleFn_t freeOpImpl;
    QnnOpPackage_LogSetLevelHandleFn_t logSetLevel;
    QnnOpPackage_FreeFn_t free;
} QnnOpPackage_ImplementationV2_0_t;

typedef struct {
    Qnn_Version_t interfaceVersion;
    union {
        QnnOpPackage_ImplementationV1_4_t v1_4;
        QnnOpPackage_ImplementationV2_0_t v2_0;
    };
} QnnOpPackage_Interface_t;

typedef Qnn_ErrorHandle_t (*QnnOpPackage_InterfaceProvider_t)(QnnOpPackage_Interface_t *interface);

/* ==== QnnLpaiOpPackageInfrastructure.h =========================================== */
#define QNN_LPAI_CUSTOM_OP_MAX_LAYOUT_RANK 5

/* Opaque: the emulator's node and tensor structs travel through void *. */
typedef void *QnnLpai_CustomOpNode_t;
typedef void *QnnLpai_CustomOpTensor_t;

typedef struct QnnLpaiCustomOp_Version {
    uint32_t major;
    uint32_t minor;
    uint32_t patch;
} QnnLpaiCustomOp_Version_t;

typedef enum QnnLpaiCustomOp_Error {
    LPAI_CUSTOM_OP_SUCCESS = 0,
    LPAI_CUSTOM_OP_FAIL = 1,
    LPAI_CUSTOM_OP_INVALID_ARGUMENT = 2,
    LPAI_CUSTOM_OP_MEMORY = 3,
    LPAI_CUSTOM_OP_NOT_SUPPORTED = 4,
    LPAI_CUSTOM_OP_MAX = 0x7FFFFFFF
} QnnLpaiCustomOp_Error_t;

/* Signed before unsigned at each width, from 1: not the QNN_DATATYPE_* values. */
typedef enum QnnLpaiCustomOp_DataType {
    LPAI_CUSTOM_OP_DATATYPE_INT_4 = 1,
    LPAI_CUSTOM_OP_DATATYPE_UINT_4 = 2,
    LPAI_CUSTOM_OP_DATATYPE_INT_8 = 3,
    LPAI_CUSTOM_OP_DATATYPE_UINT_8 = 4,
    LPAI_CUSTOM_OP_DATATYPE_INT_16 = 5,
    LPAI_CUSTOM_OP_DATATYPE_UINT_16 = 6,
    LPAI_CUSTOM_OP_DATATYPE_INT_32 = 7,
    LPAI_CUSTOM_OP_DATATYPE_UINT_32 = 8,
    LPAI_CUSTOM_OP_DATATYPE_INT_64 = 9,
    LPAI_CUSTOM_OP_DATATYPE_UINT_64 = 10,
    LPAI_CUSTOM_OP_DATATYPE_FLOAT_16 = 11,
    LPAI_CUSTOM_OP_DATATYPE_FLOAT_32 = 12,
    LPAI_CUSTOM_OP_DATATYPE_UNDEFINED = 0x7FFFFFFF
} QnnLpaiCustomOp_DataType_t;

/* FLAT is 1 (0 is no form at all). */
typedef enum QnnLpaiCustomOp_LayoutForm {
    QNN_LPAI_CUSTOM_OP_LAYOUT_FORM_FLAT = 1,
    QNN_LPAI_CUSTOM_OP_LAYOUT_FORM_UNDEFINED = 0x7FFFFFFF
} QnnLpaiCustomOp_LayoutForm_t;

/* layoutOrder holds logical-shape indices from the slowest to the fastest moving
 * dimension; layoutStride (bytes) and layoutDim are aligned with layoutOrder, not
 * with the logical shape. */
typedef struct QnnLpaiCustomOp_Layout {
    QnnLpaiCustomOp_LayoutForm_t layoutForm;
    uint8_t layoutOrder[QNN_LPAI_CUSTOM_OP_MAX_LAYOUT_RANK];
    uint32_t layoutStride[QNN_LPAI_CUSTOM_OP_MAX_LAYOUT_RANK];
    uint32_t layoutDim[QNN_LPAI_CUSTOM_OP_MAX_LAYOUT_RANK];
} QnnLpaiCustomOp_Layout_t;

typedef enum QnnLpaiCustomOp_QuantType {
    QNN_LPAI_CUSTOM_OP_QUANT_TYPE_PER_TENSOR = 1,
    QNN_LPAI_CUSTOM_OP_QUANT_TYPE_UNDEFINED = 0x7FFFFFFF
} QnnLpaiCustomOp_QuantType_t;

typedef enum QnnLpaiCustomOp_ScaleType {
    QNN_LPAI_CUSTOM_OP_QUANT_SCALE_TYPE_INT = 1,
    QNN_LPAI_CUSTOM_OP_QUANT_SCALE_TYPE_FLOAT = 2,
    QNN_LPAI_CUSTOM_OP_QUANT_SCALE_TYPE_UNDEFINED = 0x7FFFFFFF
} QnnLpaiCustomOp_ScaleType_t;

/* scale = scale / 2^shift; shift may exceed 31 (C1). */
typedef struct QnnLpaiCustomOp_IntScale {
    int32_t scale;
    int32_t shift;
} QnnLpaiCustomOp_IntScale_t;

typedef struct QnnLpaiCustomOp_QuantScale {
    QnnLpaiCustomOp_ScaleType_t type;
    union {
        QnnLpaiCustomOp_IntScale_t iScale;
        float fScale;
    };
} QnnLpaiCustomOp_QuantScale_t;

/* value = scale * (stored - offset) (C2). */
typedef struct QnnLpaiCustomOp_PerTensorQuantInfo {
    QnnLpaiCustomOp_QuantScale_t scale;
    int32_t offset;
} QnnLpaiCustomOp_PerTensorQuantInfo_t;

/* The scratch of one node, with its size in bytes. */
typedef struct QnnLpaiCustomOp_BufferInfo {
    void *buffer;
    uint32_t bufferSize;
} QnnLpaiCustomOp_BufferInfo_t;

typedef uint32_t (*QnnLpaiCustomOp_GetNumInputTensors_t)(QnnLpai_CustomOpNode_t node);
typedef uint32_t (*QnnLpaiCustomOp_GetNumOutputTensors_t)(QnnLpai_CustomOpNode_t node);
typedef QnnLpai_CustomOpTensor_t (*QnnLpaiCustomOp_GetInputTensor_t)(QnnLpai_CustomOpNode_t node, uint32_t index);
typedef QnnLpai_CustomOpTensor_t (*QnnLpaiCustomOp_GetOutputTensor_t)(QnnLpai_CustomOpNode_t node, uint32_t index);
/* By NAME (NUL-terminated), not by index; NULL for an unknown name. */
typedef QnnLpai_CustomOpTensor_t (*QnnLpaiCustomOp_GetParamTensor_t)(QnnLpai_CustomOpNode_t node, const char *name);
/* Fills buffer and size of the scratch sized at compilation by getTempBufferSize. */
typedef QnnLpaiCustomOp_Error_t (*QnnLpaiCustomOp_GetTempBuffer_t)(QnnLpai_CustomOpNode_t node,
                                                                   QnnLpaiCustomOp_BufferInfo_t *bufferParams);
typedef QnnLpaiCustomOp_Error_t (*QnnLpaiCustomOp_GetTensorShapeRank_t)(QnnLpai_CustomOpTensor_t tensor,
                                                                        uint32_t *rank);
typedef QnnLpaiCustomOp_Error_t (*QnnLpaiCustomOp_GetTensorLayoutRank_t)(QnnLpai_CustomOpTensor_t tensor,
                                                                         uint32_t *rank);
typedef QnnLpaiCustomOp_Error_t (*QnnLpaiCustomOp_GetTensorShapeDimSize_t)(QnnLpai_CustomOpTensor_t tensor,
                                                                           uint32_t index, uint32_t *size);
typedef QnnLpaiCustomOp_Error_t (*QnnLpaiCustomOp_GetTensorLayout_t)(QnnLpai_CustomOpTensor_t tensor,
                                                                     QnnLpaiCustomOp_Layout_t *layout);
typedef QnnLpaiCustomOp_Error_t (*QnnLpaiCustomOp_GetTensorDataType_t)(QnnLpai_CustomOpTensor_t tensor,
                                                                       QnnLpaiCustomOp_DataType_t *dataType);
/* The element size in BITS. */
typedef QnnLpaiCustomOp_Error_t (*QnnLpaiCustomOp_GetTensorDataSize_t)(QnnLpai_CustomOpTensor_t tensor, uint32_t *size);
typedef QnnLpaiCustomOp_Error_t (*QnnLpaiCustomOp_GetTensorQuantType_t)(QnnLpai_CustomOpTensor_t tensor,
                                                                        QnnLpaiCustomOp_QuantType_t *quantType);
typedef QnnLpaiCustomOp_Error_t (*QnnLpaiCustomOp_GetPerTensorQuantParams_t)(
    QnnLpai_CustomOpTensor_t tensor, QnnLpaiCustomOp_PerTensorQuantInfo_t *quantParams);
typedef void *(*QnnLpaiCustomOp_GetTensorData_t)(QnnLpai_CustomOpTensor_t tensor);

/* A version first, then the fifteen calls in this order. */
typedef struct _QnnOpPackage_GlobalInfrastructure_t {
    QnnLpaiCustomOp_Version_t version;
    QnnLpaiCustomOp_GetNumInputTensors_t getNumInputTensors;
    QnnLpaiCustomOp_GetNumOutputTensors_t getNumOutputTensors;
    QnnLpaiCustomOp_GetInputTensor_t getInputTensor;
    QnnLpaiCustomOp_GetOutputTensor_t getOutputTensor;
    QnnLpaiCustomOp_GetParamTensor_t getParamTensor;
    QnnLpaiCustomOp_GetTensorShapeRank_t getTensorShapeRank;
    QnnLpaiCustomOp_GetTensorLayoutRank_t getTensorLayoutRank;
    QnnLpaiCustomOp_GetTensorShapeDimSize_t getTensorShapeDimSize;
    QnnLpaiCustomOp_GetTensorLayout_t getTensorLayout;
    QnnLpaiCustomOp_GetTensorDataType_t getTensorDataType;
    QnnLpaiCustomOp_GetTensorDataSize_t getTensorDataSize;
    QnnLpaiCustomOp_GetTensorQuantType_t getTensorQuantType;
    QnnLpaiCustomOp_GetPerTensorQuantParams_t getPerTensorQuantParams;
    QnnLpaiCustomOp_GetTensorData_t getTensorData;
    QnnLpaiCustomOp_GetTempBuffer_t getTempBuffer;
} QnnLpaiOpPackage_GlobalInfrastructure_t;

/* clang-format off */
#define QNN_LPAI_OP_PACKAGE_GLOBAL_INFRASTRUCTURE_INIT \
    {{0u, 0u, 0u}, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL}
/* clang-format on */

/* ==== QnnLpaiOpPackage.h ========================================================= */
typedef int32_t (*LpaiCustomOp_Execute_Fn)(QnnLpai_CustomOpNode_t);

typedef struct {
    uint32_t numOfTypes;
    Qnn_DataType_t *DataTypes;
} QnnLpaiOpPackage_DataTypeInfo_t;

typedef Qnn_ErrorHandle_t (*QnnLpaiOpPackage_Validate_Fn)(Qnn_OpConfig_t);
typedef Qnn_ErrorHandle_t (*QnnLpaiOpPackage_GetTempBufferSize_Fn)(Qnn_OpConfig_t, size_t *);

/* The backend assumes memory layout == logical shape and may insert transpose or
 * repack ops to make it so. */
#define QNN_LPAI_OP_LAYOUT_DEFAULT (0u)
/* The kernel reads every layout with getTensorLayout and tolerates padded strides and
 * other storage orders. Only newer copies of the header define it; the package builds
 * without it (include/lpai_glue.h). */
#define QNN_LPAI_OP_LAYOUT_SHAPE_NE_LAYOUT (1u << 0)

typedef Qnn_ErrorHandle_t (*QnnLpaiOpPackage_GetLayoutSupportFlag_Fn)(uint32_t *layoutFlag);

/* opType is `char *`, not const. */
typedef struct _QnnOpPackage_OperationInfo_t {
    char *opType;
    LpaiCustomOp_Execute_Fn executeOp;
    uint32_t numOfInputs;
    uint32_t numOfOutputs;
    uint32_t numOfParams;
    QnnLpaiOpPackage_DataTypeInfo_t *inputDatatypes;
    QnnLpaiOpPackage_DataTypeInfo_t *outputDatatypes;
    QnnLpaiOpPackage_Validate_Fn validateOp;
    QnnLpaiOpPackage_GetTempBufferSize_Fn getTempBufferSize;
    QnnLpaiOpPackage_GetLayoutSupportFlag_Fn getLayoutSupportFlag;
} QnnLpaiOpPackage_OperationInfo_t;

#if defined(__cplusplus)
}
#endif

#endif /* LPAI_SDK_STANDIN_H */
