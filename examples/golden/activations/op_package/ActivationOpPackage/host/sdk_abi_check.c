/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * The SDK's ABI, pinned: every size, member offset, enum and macro value and function
 * type of the QNN / LPAI op package declarations that the package, the emulator and
 * the tests use. The expected numbers are facts of Qualcomm's headers (public copies:
 * QnnCommon.h, QnnLog.h, QnnTypes.h and QnnOpPackage.h of SDK 2.43; the LPAI op
 * package headers of 2.48 and later), measured on them, not on the template's stand-in.
 *
 * It compiles against whichever declarations the build uses: the stand-in
 * (sdk_standin/lpai_sdk_standin.h, LPAI_EMU_OWN_DECLS) or the SDK's own headers
 * (QNN_SDK_ROOT). A drift in either fails the build here, before a kernel built
 * against one ABI meets a runtime speaking the other. `make host-test` and
 * `make sdk-check` build and run it. Offsets and sizes are pinned for 64-bit hosts
 * and for Hexagon (32-bit pointers); on any other target only values and types are.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if defined(LPAI_EMU_OWN_DECLS)
#include "../sdk_standin/lpai_sdk_standin.h"
#else
#include "QnnOpPackage.h"
#include "QnnTypes.h"
#include "QnnLpaiOpPackage.h"
#include "QnnLpaiOpPackageInfrastructure.h"
#endif

#if UINTPTR_MAX == UINT64_MAX
#define LPAI_ABI_PICK(lp64, hexagon) (lp64)
#elif defined(__hexagon__)
#define LPAI_ABI_PICK(lp64, hexagon) (hexagon)
#endif

/* Every fact is a static assertion that also declares one enumerator, so the facts
 * can be counted (__COUNTER__, gcc and clang). */
#define LPAI_ABI_PASTE2(a, b) a##b
#define LPAI_ABI_PASTE(a, b) LPAI_ABI_PASTE2(a, b)
#define LPAI_ABI_FACT(cond, message) \
    _Static_assert(cond, message);   \
    enum { LPAI_ABI_PASTE(lpai_abi_fact_, __COUNTER__) }
enum { lpai_abi_first = __COUNTER__ };

#if defined(LPAI_ABI_PICK)
#define LPAI_ABI_SIZE(T, lp64, hexagon) \
    LPAI_ABI_FACT(sizeof(T) == LPAI_ABI_PICK(lp64, hexagon), "ABI: sizeof(" #T ") differs from the SDK's")
#define LPAI_ABI_OFFSET(T, m, lp64, hexagon)                      \
    LPAI_ABI_FACT(offsetof(T, m) == LPAI_ABI_PICK(lp64, hexagon), \
                  "ABI: offsetof(" #T ", " #m ") differs from the SDK's")
#else
#define LPAI_ABI_SIZE(T, lp64, hexagon) _Static_assert(1, "")
#define LPAI_ABI_OFFSET(T, m, lp64, hexagon) _Static_assert(1, "")
#endif
#define LPAI_ABI_VALUE(x, v) \
    LPAI_ABI_FACT((long long)(x) == (long long)(v), "ABI: " #x " differs from the SDK's (" #v ")")
#define LPAI_ABI_TYPE(expr, type)                                       \
    LPAI_ABI_FACT(__builtin_types_compatible_p(__typeof__(expr), type), \
                  "ABI: the type of " #expr " differs from the SDK's")
/* A member's type, without an object. */
#define LPAI_ABI_MEMBER(T, m, type) LPAI_ABI_TYPE(((T *)0)->m, type)

/* ---- sizes and offsets (measured on the SDK's headers: 64-bit host, Hexagon) ---- */
/* clang-format off */
LPAI_ABI_SIZE(Qnn_Version_t, 12, 12);
LPAI_ABI_SIZE(Qnn_ApiVersion_t, 24, 24);
LPAI_ABI_OFFSET(Qnn_ApiVersion_t, coreApiVersion, 0, 0);
LPAI_ABI_OFFSET(Qnn_ApiVersion_t, backendApiVersion, 12, 12);
LPAI_ABI_SIZE(Qnn_Scalar_t, 16, 16);
LPAI_ABI_OFFSET(Qnn_Scalar_t, dataType, 0, 0);
LPAI_ABI_OFFSET(Qnn_Scalar_t, floatValue, 8, 8);
LPAI_ABI_OFFSET(Qnn_Scalar_t, uint32Value, 8, 8);
LPAI_ABI_SIZE(Qnn_ScaleOffset_t, 8, 8);
LPAI_ABI_OFFSET(Qnn_ScaleOffset_t, scale, 0, 0);
LPAI_ABI_OFFSET(Qnn_ScaleOffset_t, offset, 4, 4);
LPAI_ABI_SIZE(Qnn_QuantizeParams_t, 40, 28);
LPAI_ABI_OFFSET(Qnn_QuantizeParams_t, encodingDefinition, 0, 0);
LPAI_ABI_OFFSET(Qnn_QuantizeParams_t, quantizationEncoding, 4, 4);
LPAI_ABI_OFFSET(Qnn_QuantizeParams_t, scaleOffsetEncoding, 8, 8);
LPAI_ABI_SIZE(Qnn_ClientBuffer_t, 16, 8);
LPAI_ABI_SIZE(Qnn_TensorV1_t, 112, 68);
LPAI_ABI_OFFSET(Qnn_TensorV1_t, id, 0, 0);
LPAI_ABI_OFFSET(Qnn_TensorV1_t, name, 8, 4);
LPAI_ABI_OFFSET(Qnn_TensorV1_t, type, 16, 8);
LPAI_ABI_OFFSET(Qnn_TensorV1_t, dataFormat, 20, 12);
LPAI_ABI_OFFSET(Qnn_TensorV1_t, dataType, 24, 16);
LPAI_ABI_OFFSET(Qnn_TensorV1_t, quantizeParams, 32, 20);
LPAI_ABI_OFFSET(Qnn_TensorV1_t, rank, 72, 48);
LPAI_ABI_OFFSET(Qnn_TensorV1_t, dimensions, 80, 52);
LPAI_ABI_OFFSET(Qnn_TensorV1_t, memType, 88, 56);
LPAI_ABI_OFFSET(Qnn_TensorV1_t, clientBuf, 96, 60);
LPAI_ABI_SIZE(Qnn_TensorV2_t, 136, 88);
LPAI_ABI_OFFSET(Qnn_TensorV2_t, dataType, 24, 16);
LPAI_ABI_OFFSET(Qnn_TensorV2_t, rank, 72, 48);
LPAI_ABI_OFFSET(Qnn_TensorV2_t, dimensions, 80, 52);
LPAI_ABI_OFFSET(Qnn_TensorV2_t, clientBuf, 96, 60);
LPAI_ABI_OFFSET(Qnn_TensorV2_t, isDynamicDimensions, 112, 68);
LPAI_ABI_OFFSET(Qnn_TensorV2_t, sparseParams, 120, 72);
LPAI_ABI_OFFSET(Qnn_TensorV2_t, isProduced, 132, 84);
LPAI_ABI_SIZE(Qnn_Tensor_t, 144, 92);
LPAI_ABI_OFFSET(Qnn_Tensor_t, version, 0, 0);
LPAI_ABI_OFFSET(Qnn_Tensor_t, v1, 8, 4);
LPAI_ABI_OFFSET(Qnn_Tensor_t, v2, 8, 4);
LPAI_ABI_SIZE(Qnn_Param_t, 160, 104);
LPAI_ABI_OFFSET(Qnn_Param_t, paramType, 0, 0);
LPAI_ABI_OFFSET(Qnn_Param_t, name, 8, 4);
LPAI_ABI_OFFSET(Qnn_Param_t, scalarParam, 16, 8);
LPAI_ABI_OFFSET(Qnn_Param_t, tensorParam, 16, 8);
LPAI_ABI_SIZE(Qnn_OpConfigV1_t, 72, 36);
LPAI_ABI_OFFSET(Qnn_OpConfigV1_t, name, 0, 0);
LPAI_ABI_OFFSET(Qnn_OpConfigV1_t, packageName, 8, 4);
LPAI_ABI_OFFSET(Qnn_OpConfigV1_t, typeName, 16, 8);
LPAI_ABI_OFFSET(Qnn_OpConfigV1_t, numOfParams, 24, 12);
LPAI_ABI_OFFSET(Qnn_OpConfigV1_t, params, 32, 16);
LPAI_ABI_OFFSET(Qnn_OpConfigV1_t, numOfInputs, 40, 20);
LPAI_ABI_OFFSET(Qnn_OpConfigV1_t, inputTensors, 48, 24);
LPAI_ABI_OFFSET(Qnn_OpConfigV1_t, numOfOutputs, 56, 28);
LPAI_ABI_OFFSET(Qnn_OpConfigV1_t, outputTensors, 64, 32);
LPAI_ABI_SIZE(Qnn_OpConfig_t, 80, 40);
LPAI_ABI_OFFSET(Qnn_OpConfig_t, version, 0, 0);
LPAI_ABI_OFFSET(Qnn_OpConfig_t, v1, 8, 4);
LPAI_ABI_SIZE(QnnOpPackage_Info_t, 176, 88);
LPAI_ABI_OFFSET(QnnOpPackage_Info_t, packageName, 0, 0);
LPAI_ABI_OFFSET(QnnOpPackage_Info_t, operationNames, 8, 4);
LPAI_ABI_OFFSET(QnnOpPackage_Info_t, operationInfo, 16, 8);
LPAI_ABI_OFFSET(QnnOpPackage_Info_t, numOperations, 24, 12);
LPAI_ABI_OFFSET(QnnOpPackage_Info_t, optimizations, 32, 16);
LPAI_ABI_OFFSET(QnnOpPackage_Info_t, numOptimizations, 40, 20);
LPAI_ABI_OFFSET(QnnOpPackage_Info_t, sdkBuildId, 48, 24);
LPAI_ABI_OFFSET(QnnOpPackage_Info_t, sdkApiVersion, 56, 28);
LPAI_ABI_OFFSET(QnnOpPackage_Info_t, packageInfo, 64, 32);
LPAI_ABI_OFFSET(QnnOpPackage_Info_t, opsetVersion, 72, 36);
LPAI_ABI_OFFSET(QnnOpPackage_Info_t, reserved, 80, 40);
LPAI_ABI_SIZE(QnnOpPackage_ImplementationV1_4_t, 72, 36);
LPAI_ABI_OFFSET(QnnOpPackage_ImplementationV1_4_t, init, 0, 0);
LPAI_ABI_OFFSET(QnnOpPackage_ImplementationV1_4_t, terminate, 8, 4);
LPAI_ABI_OFFSET(QnnOpPackage_ImplementationV1_4_t, getInfo, 16, 8);
LPAI_ABI_OFFSET(QnnOpPackage_ImplementationV1_4_t, validateOpConfig, 24, 12);
LPAI_ABI_OFFSET(QnnOpPackage_ImplementationV1_4_t, createOpImpl, 32, 16);
LPAI_ABI_OFFSET(QnnOpPackage_ImplementationV1_4_t, freeOpImpl, 40, 20);
LPAI_ABI_OFFSET(QnnOpPackage_ImplementationV1_4_t, logInitialize, 48, 24);
LPAI_ABI_OFFSET(QnnOpPackage_ImplementationV1_4_t, logSetLevel, 56, 28);
LPAI_ABI_OFFSET(QnnOpPackage_ImplementationV1_4_t, logTerminate, 64, 32);
LPAI_ABI_SIZE(QnnOpPackage_Interface_t, 88, 48);
LPAI_ABI_OFFSET(QnnOpPackage_Interface_t, interfaceVersion, 0, 0);
LPAI_ABI_OFFSET(QnnOpPackage_Interface_t, v1_4, 16, 12);
LPAI_ABI_SIZE(QnnLpaiCustomOp_Version_t, 12, 12);
LPAI_ABI_SIZE(QnnLpaiOpPackage_GlobalInfrastructure_t, 136, 72);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_GlobalInfrastructure_t, version, 0, 0);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_GlobalInfrastructure_t, getNumInputTensors, 16, 12);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_GlobalInfrastructure_t, getNumOutputTensors, 24, 16);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_GlobalInfrastructure_t, getInputTensor, 32, 20);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_GlobalInfrastructure_t, getOutputTensor, 40, 24);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_GlobalInfrastructure_t, getParamTensor, 48, 28);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_GlobalInfrastructure_t, getTensorShapeRank, 56, 32);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_GlobalInfrastructure_t, getTensorLayoutRank, 64, 36);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_GlobalInfrastructure_t, getTensorShapeDimSize, 72, 40);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_GlobalInfrastructure_t, getTensorLayout, 80, 44);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_GlobalInfrastructure_t, getTensorDataType, 88, 48);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_GlobalInfrastructure_t, getTensorDataSize, 96, 52);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_GlobalInfrastructure_t, getTensorQuantType, 104, 56);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_GlobalInfrastructure_t, getPerTensorQuantParams, 112, 60);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_GlobalInfrastructure_t, getTensorData, 120, 64);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_GlobalInfrastructure_t, getTempBuffer, 128, 68);
LPAI_ABI_SIZE(QnnLpaiOpPackage_OperationInfo_t, 72, 40);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_OperationInfo_t, opType, 0, 0);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_OperationInfo_t, executeOp, 8, 4);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_OperationInfo_t, numOfInputs, 16, 8);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_OperationInfo_t, numOfOutputs, 20, 12);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_OperationInfo_t, numOfParams, 24, 16);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_OperationInfo_t, inputDatatypes, 32, 20);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_OperationInfo_t, outputDatatypes, 40, 24);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_OperationInfo_t, validateOp, 48, 28);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_OperationInfo_t, getTempBufferSize, 56, 32);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_OperationInfo_t, getLayoutSupportFlag, 64, 36);
LPAI_ABI_SIZE(QnnLpaiOpPackage_DataTypeInfo_t, 16, 8);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_DataTypeInfo_t, numOfTypes, 0, 0);
LPAI_ABI_OFFSET(QnnLpaiOpPackage_DataTypeInfo_t, DataTypes, 8, 4);
LPAI_ABI_SIZE(QnnLpaiCustomOp_Layout_t, 52, 52);
LPAI_ABI_OFFSET(QnnLpaiCustomOp_Layout_t, layoutForm, 0, 0);
LPAI_ABI_OFFSET(QnnLpaiCustomOp_Layout_t, layoutOrder, 4, 4);
LPAI_ABI_OFFSET(QnnLpaiCustomOp_Layout_t, layoutStride, 12, 12);
LPAI_ABI_OFFSET(QnnLpaiCustomOp_Layout_t, layoutDim, 32, 32);
LPAI_ABI_SIZE(QnnLpaiCustomOp_QuantScale_t, 12, 12);
LPAI_ABI_OFFSET(QnnLpaiCustomOp_QuantScale_t, type, 0, 0);
LPAI_ABI_OFFSET(QnnLpaiCustomOp_QuantScale_t, iScale, 4, 4);
LPAI_ABI_OFFSET(QnnLpaiCustomOp_QuantScale_t, fScale, 4, 4);
LPAI_ABI_SIZE(QnnLpaiCustomOp_PerTensorQuantInfo_t, 16, 16);
LPAI_ABI_OFFSET(QnnLpaiCustomOp_PerTensorQuantInfo_t, scale, 0, 0);
LPAI_ABI_OFFSET(QnnLpaiCustomOp_PerTensorQuantInfo_t, offset, 12, 12);
LPAI_ABI_SIZE(QnnLpaiCustomOp_BufferInfo_t, 16, 8);
LPAI_ABI_OFFSET(QnnLpaiCustomOp_BufferInfo_t, buffer, 0, 0);
LPAI_ABI_OFFSET(QnnLpaiCustomOp_BufferInfo_t, bufferSize, 8, 4);
/* clang-format on */

/* ---- scalar types and handles ----------------------------------------------- */
LPAI_ABI_TYPE(Qnn_ErrorHandle_t, uint64_t);
LPAI_ABI_TYPE(QnnLpai_CustomOpNode_t, void *);
LPAI_ABI_TYPE(QnnLpai_CustomOpTensor_t, void *);
LPAI_ABI_TYPE(QnnOpPackage_GlobalInfrastructure_t, QnnLpaiOpPackage_GlobalInfrastructure_t *);
LPAI_ABI_TYPE(QnnOpPackage_OperationInfo_t, QnnLpaiOpPackage_OperationInfo_t *);
LPAI_ABI_TYPE(Qnn_TensorDataFormat_t, uint32_t);
LPAI_ABI_SIZE(Qnn_DataType_t, 4, 4);
LPAI_ABI_SIZE(Qnn_ParamType_t, 4, 4);
LPAI_ABI_SIZE(QnnLog_Level_t, 4, 4);
LPAI_ABI_SIZE(QnnLpaiCustomOp_Error_t, 4, 4);
LPAI_ABI_SIZE(QnnLpaiCustomOp_DataType_t, 4, 4);
LPAI_ABI_SIZE(QnnLpaiCustomOp_LayoutForm_t, 4, 4);
LPAI_ABI_SIZE(QnnLpaiCustomOp_QuantType_t, 4, 4);
LPAI_ABI_SIZE(QnnLpaiCustomOp_ScaleType_t, 4, 4);

/* ---- macro and enum values ---------------------------------------------------- */
LPAI_ABI_VALUE(QNN_SUCCESS, 0);
LPAI_ABI_VALUE(QNN_OP_PACKAGE_NO_ERROR, 0);
LPAI_ABI_VALUE(QNN_OP_PACKAGE_ERROR_UNSUPPORTED_FEATURE, 1000);
LPAI_ABI_VALUE(QNN_OP_PACKAGE_ERROR_GENERAL, 1100);
LPAI_ABI_VALUE(QNN_OP_PACKAGE_ERROR_LIBRARY_ALREADY_INITIALIZED, 3000);
LPAI_ABI_VALUE(QNN_OP_PACKAGE_ERROR_LIBRARY_NOT_INITIALIZED, 3001);
LPAI_ABI_VALUE(QNN_OP_PACKAGE_ERROR_INVALID_HANDLE, 3002);
LPAI_ABI_VALUE(QNN_OP_PACKAGE_ERROR_INVALID_INFRASTRUCTURE, 3100);
LPAI_ABI_VALUE(QNN_OP_PACKAGE_ERROR_INVALID_INFO, 3101);
LPAI_ABI_VALUE(QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE, 3110);
LPAI_ABI_VALUE(QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT, 3200);
LPAI_ABI_VALUE(QNN_OP_PACKAGE_RESERVED_INFO_SIZE, 12);
LPAI_ABI_VALUE(QNN_LOG_LEVEL_ERROR, 1);
LPAI_ABI_VALUE(QNN_LOG_LEVEL_WARN, 2);
LPAI_ABI_VALUE(QNN_LOG_LEVEL_INFO, 3);
LPAI_ABI_VALUE(QNN_LOG_LEVEL_VERBOSE, 4);
LPAI_ABI_VALUE(QNN_LOG_LEVEL_DEBUG, 5);
LPAI_ABI_VALUE(QNN_DATATYPE_INT_8, 0x0008);
LPAI_ABI_VALUE(QNN_DATATYPE_INT_16, 0x0016);
LPAI_ABI_VALUE(QNN_DATATYPE_INT_32, 0x0032);
LPAI_ABI_VALUE(QNN_DATATYPE_UINT_8, 0x0108);
LPAI_ABI_VALUE(QNN_DATATYPE_UINT_16, 0x0116);
LPAI_ABI_VALUE(QNN_DATATYPE_UINT_32, 0x0132);
LPAI_ABI_VALUE(QNN_DATATYPE_FLOAT_16, 0x0216);
LPAI_ABI_VALUE(QNN_DATATYPE_FLOAT_32, 0x0232);
LPAI_ABI_VALUE(QNN_DATATYPE_SFIXED_POINT_8, 0x0308);
LPAI_ABI_VALUE(QNN_DATATYPE_UFIXED_POINT_8, 0x0408);
LPAI_ABI_VALUE(QNN_DATATYPE_UFIXED_POINT_16, 0x0416);
LPAI_ABI_VALUE(QNN_DATATYPE_BOOL_8, 0x0508);
LPAI_ABI_VALUE(QNN_DATATYPE_UNDEFINED, 0x7FFFFFFF);
LPAI_ABI_VALUE(QNN_PARAMTYPE_SCALAR, 0);
LPAI_ABI_VALUE(QNN_PARAMTYPE_TENSOR, 1);
LPAI_ABI_VALUE(QNN_TENSOR_VERSION_1, 1);
LPAI_ABI_VALUE(QNN_TENSOR_VERSION_2, 2);
LPAI_ABI_VALUE(QNN_OPCONFIG_VERSION_1, 1);
LPAI_ABI_VALUE(QNN_QUANTIZATION_ENCODING_SCALE_OFFSET, 0);
LPAI_ABI_VALUE(QNN_DEFINITION_DEFINED, 1);
LPAI_ABI_VALUE(QNN_TENSOR_TYPE_NATIVE, 3);
LPAI_ABI_VALUE(QNN_TENSORMEMTYPE_RAW, 0);
LPAI_ABI_VALUE(QNN_TENSOR_DATA_FORMAT_DENSE, 0);
LPAI_ABI_VALUE(QNN_LPAI_CUSTOM_OP_MAX_LAYOUT_RANK, 5);
LPAI_ABI_VALUE(LPAI_CUSTOM_OP_SUCCESS, 0);
LPAI_ABI_VALUE(LPAI_CUSTOM_OP_FAIL, 1);
LPAI_ABI_VALUE(LPAI_CUSTOM_OP_INVALID_ARGUMENT, 2);
LPAI_ABI_VALUE(LPAI_CUSTOM_OP_MEMORY, 3);
LPAI_ABI_VALUE(LPAI_CUSTOM_OP_NOT_SUPPORTED, 4);
LPAI_ABI_VALUE(LPAI_CUSTOM_OP_DATATYPE_INT_4, 1);
LPAI_ABI_VALUE(LPAI_CUSTOM_OP_DATATYPE_UINT_4, 2);
LPAI_ABI_VALUE(LPAI_CUSTOM_OP_DATATYPE_INT_8, 3);
LPAI_ABI_VALUE(LPAI_CUSTOM_OP_DATATYPE_UINT_8, 4);
LPAI_ABI_VALUE(LPAI_CUSTOM_OP_DATATYPE_INT_16, 5);
LPAI_ABI_VALUE(LPAI_CUSTOM_OP_DATATYPE_UINT_16, 6);
LPAI_ABI_VALUE(LPAI_CUSTOM_OP_DATATYPE_INT_32, 7);
LPAI_ABI_VALUE(LPAI_CUSTOM_OP_DATATYPE_UINT_32, 8);
LPAI_ABI_VALUE(LPAI_CUSTOM_OP_DATATYPE_INT_64, 9);
LPAI_ABI_VALUE(LPAI_CUSTOM_OP_DATATYPE_UINT_64, 10);
LPAI_ABI_VALUE(LPAI_CUSTOM_OP_DATATYPE_FLOAT_16, 11);
LPAI_ABI_VALUE(LPAI_CUSTOM_OP_DATATYPE_FLOAT_32, 12);
LPAI_ABI_VALUE(LPAI_CUSTOM_OP_DATATYPE_UNDEFINED, 0x7FFFFFFF);
LPAI_ABI_VALUE(QNN_LPAI_CUSTOM_OP_LAYOUT_FORM_FLAT, 1);
LPAI_ABI_VALUE(QNN_LPAI_CUSTOM_OP_LAYOUT_FORM_UNDEFINED, 0x7FFFFFFF);
LPAI_ABI_VALUE(QNN_LPAI_CUSTOM_OP_QUANT_TYPE_PER_TENSOR, 1);
LPAI_ABI_VALUE(QNN_LPAI_CUSTOM_OP_QUANT_TYPE_UNDEFINED, 0x7FFFFFFF);
LPAI_ABI_VALUE(QNN_LPAI_CUSTOM_OP_QUANT_SCALE_TYPE_INT, 1);
LPAI_ABI_VALUE(QNN_LPAI_CUSTOM_OP_QUANT_SCALE_TYPE_FLOAT, 2);
LPAI_ABI_VALUE(QNN_LPAI_CUSTOM_OP_QUANT_SCALE_TYPE_UNDEFINED, 0x7FFFFFFF);
LPAI_ABI_VALUE(QNN_LPAI_OP_LAYOUT_DEFAULT, 0);
#if defined(QNN_LPAI_OP_LAYOUT_SHAPE_NE_LAYOUT) /* newer headers only */
LPAI_ABI_VALUE(QNN_LPAI_OP_LAYOUT_SHAPE_NE_LAYOUT, 1);
#endif

/* ---- member types ------------------------------------------------------------- */
LPAI_ABI_MEMBER(Qnn_Scalar_t, dataType, Qnn_DataType_t);
LPAI_ABI_MEMBER(Qnn_Scalar_t, floatValue, float);
LPAI_ABI_MEMBER(Qnn_Scalar_t, uint32Value, uint32_t);
LPAI_ABI_MEMBER(Qnn_Scalar_t, doubleValue, double); /* sets the 8-byte alignment on Hexagon */
LPAI_ABI_MEMBER(Qnn_Scalar_t, int64Value, int64_t);
LPAI_ABI_MEMBER(Qnn_Scalar_t, stringValue, const char *);
LPAI_ABI_MEMBER(Qnn_QuantizeParams_t, bwAxisScaleOffsetEncoding, Qnn_BwAxisScaleOffset_t);
LPAI_ABI_MEMBER(Qnn_TensorV1_t, id, uint32_t);
LPAI_ABI_MEMBER(Qnn_TensorV1_t, name, const char *);
LPAI_ABI_MEMBER(Qnn_TensorV1_t, type, Qnn_TensorType_t);
LPAI_ABI_MEMBER(Qnn_TensorV1_t, dataFormat, Qnn_TensorDataFormat_t);
LPAI_ABI_MEMBER(Qnn_TensorV1_t, dataType, Qnn_DataType_t);
LPAI_ABI_MEMBER(Qnn_TensorV1_t, quantizeParams, Qnn_QuantizeParams_t);
LPAI_ABI_MEMBER(Qnn_TensorV1_t, rank, uint32_t);
LPAI_ABI_MEMBER(Qnn_TensorV1_t, dimensions, uint32_t *);
LPAI_ABI_MEMBER(Qnn_TensorV1_t, memType, Qnn_TensorMemType_t);
LPAI_ABI_MEMBER(Qnn_TensorV1_t, clientBuf, Qnn_ClientBuffer_t);
LPAI_ABI_MEMBER(Qnn_TensorV2_t, dataType, Qnn_DataType_t);
LPAI_ABI_MEMBER(Qnn_TensorV2_t, rank, uint32_t);
LPAI_ABI_MEMBER(Qnn_TensorV2_t, dimensions, uint32_t *);
LPAI_ABI_MEMBER(Qnn_TensorV2_t, isProduced, uint8_t);
LPAI_ABI_MEMBER(Qnn_Tensor_t, version, Qnn_TensorVersion_t);
LPAI_ABI_MEMBER(Qnn_Param_t, paramType, Qnn_ParamType_t);
LPAI_ABI_MEMBER(Qnn_Param_t, name, const char *);
LPAI_ABI_MEMBER(Qnn_Param_t, scalarParam, Qnn_Scalar_t);
LPAI_ABI_MEMBER(Qnn_Param_t, tensorParam, Qnn_Tensor_t);
LPAI_ABI_MEMBER(Qnn_OpConfig_t, version, Qnn_OpConfigVersion_t);
LPAI_ABI_MEMBER(Qnn_OpConfigV1_t, name, const char *);
LPAI_ABI_MEMBER(Qnn_OpConfigV1_t, packageName, const char *);
LPAI_ABI_MEMBER(Qnn_OpConfigV1_t, typeName, const char *);
LPAI_ABI_MEMBER(Qnn_OpConfigV1_t, numOfParams, uint32_t);
LPAI_ABI_MEMBER(Qnn_OpConfigV1_t, params, Qnn_Param_t *);
LPAI_ABI_MEMBER(Qnn_OpConfigV1_t, numOfInputs, uint32_t);
LPAI_ABI_MEMBER(Qnn_OpConfigV1_t, inputTensors, Qnn_Tensor_t *);
LPAI_ABI_MEMBER(Qnn_OpConfigV1_t, numOfOutputs, uint32_t);
LPAI_ABI_MEMBER(Qnn_OpConfigV1_t, outputTensors, Qnn_Tensor_t *);
LPAI_ABI_MEMBER(Qnn_Version_t, major, uint32_t);
LPAI_ABI_MEMBER(Qnn_ApiVersion_t, coreApiVersion, Qnn_Version_t);
LPAI_ABI_MEMBER(Qnn_ApiVersion_t, backendApiVersion, Qnn_Version_t);
LPAI_ABI_MEMBER(QnnOpPackage_Info_t, packageName, const char *);
LPAI_ABI_MEMBER(QnnOpPackage_Info_t, operationNames, const char **);
LPAI_ABI_MEMBER(QnnOpPackage_Info_t, operationInfo, const QnnOpPackage_OperationInfo_t *);
LPAI_ABI_MEMBER(QnnOpPackage_Info_t, numOperations, uint32_t);
LPAI_ABI_MEMBER(QnnOpPackage_Info_t, sdkApiVersion, const Qnn_ApiVersion_t *);
LPAI_ABI_MEMBER(QnnOpPackage_Info_t, reserved, size_t[12]);
LPAI_ABI_MEMBER(QnnOpPackage_Interface_t, interfaceVersion, Qnn_Version_t);
LPAI_ABI_MEMBER(QnnOpPackage_Interface_t, v1_4, QnnOpPackage_ImplementationV1_4_t);
LPAI_ABI_MEMBER(QnnLpaiOpPackage_GlobalInfrastructure_t, version, QnnLpaiCustomOp_Version_t);
LPAI_ABI_MEMBER(QnnLpaiCustomOp_Version_t, major, uint32_t);
LPAI_ABI_MEMBER(QnnLpaiCustomOp_Version_t, minor, uint32_t);
LPAI_ABI_MEMBER(QnnLpaiCustomOp_Version_t, patch, uint32_t);
LPAI_ABI_MEMBER(QnnLpaiCustomOp_Layout_t, layoutForm, QnnLpaiCustomOp_LayoutForm_t);
LPAI_ABI_MEMBER(QnnLpaiCustomOp_Layout_t, layoutOrder, uint8_t[5]);
LPAI_ABI_MEMBER(QnnLpaiCustomOp_Layout_t, layoutStride, uint32_t[5]);
LPAI_ABI_MEMBER(QnnLpaiCustomOp_Layout_t, layoutDim, uint32_t[5]);
LPAI_ABI_MEMBER(QnnLpaiCustomOp_QuantScale_t, type, QnnLpaiCustomOp_ScaleType_t);
LPAI_ABI_MEMBER(QnnLpaiCustomOp_QuantScale_t, iScale.scale, int32_t);
LPAI_ABI_MEMBER(QnnLpaiCustomOp_QuantScale_t, iScale.shift, int32_t);
LPAI_ABI_MEMBER(QnnLpaiCustomOp_QuantScale_t, fScale, float);
LPAI_ABI_MEMBER(QnnLpaiCustomOp_PerTensorQuantInfo_t, scale, QnnLpaiCustomOp_QuantScale_t);
LPAI_ABI_MEMBER(QnnLpaiCustomOp_PerTensorQuantInfo_t, offset, int32_t);
LPAI_ABI_MEMBER(QnnLpaiCustomOp_BufferInfo_t, buffer, void *);
LPAI_ABI_MEMBER(QnnLpaiCustomOp_BufferInfo_t, bufferSize, uint32_t);
LPAI_ABI_MEMBER(QnnLpaiOpPackage_DataTypeInfo_t, numOfTypes, uint32_t);
LPAI_ABI_MEMBER(QnnLpaiOpPackage_DataTypeInfo_t, DataTypes, Qnn_DataType_t *);
LPAI_ABI_MEMBER(QnnLpaiOpPackage_OperationInfo_t, opType, char *);
LPAI_ABI_MEMBER(QnnLpaiOpPackage_OperationInfo_t, numOfInputs, uint32_t);
LPAI_ABI_MEMBER(QnnLpaiOpPackage_OperationInfo_t, numOfOutputs, uint32_t);
LPAI_ABI_MEMBER(QnnLpaiOpPackage_OperationInfo_t, numOfParams, uint32_t);
LPAI_ABI_MEMBER(QnnLpaiOpPackage_OperationInfo_t, inputDatatypes, QnnLpaiOpPackage_DataTypeInfo_t *);
LPAI_ABI_MEMBER(QnnLpaiOpPackage_OperationInfo_t, outputDatatypes, QnnLpaiOpPackage_DataTypeInfo_t *);

/* ---- function types ----------------------------------------------------------- */
#define INFRA QnnLpaiOpPackage_GlobalInfrastructure_t
typedef QnnLpaiCustomOp_Error_t lpai_abi_err;
LPAI_ABI_MEMBER(INFRA, getNumInputTensors, uint32_t (*)(void *));
LPAI_ABI_MEMBER(INFRA, getNumOutputTensors, uint32_t (*)(void *));
LPAI_ABI_MEMBER(INFRA, getInputTensor, void *(*)(void *, uint32_t));
LPAI_ABI_MEMBER(INFRA, getOutputTensor, void *(*)(void *, uint32_t));
LPAI_ABI_MEMBER(INFRA, getParamTensor, void *(*)(void *, const char *));
LPAI_ABI_MEMBER(INFRA, getTensorShapeRank, lpai_abi_err (*)(void *, uint32_t *));
LPAI_ABI_MEMBER(INFRA, getTensorLayoutRank, lpai_abi_err (*)(void *, uint32_t *));
LPAI_ABI_MEMBER(INFRA, getTensorShapeDimSize, lpai_abi_err (*)(void *, uint32_t, uint32_t *));
LPAI_ABI_MEMBER(INFRA, getTensorLayout, lpai_abi_err (*)(void *, QnnLpaiCustomOp_Layout_t *));
LPAI_ABI_MEMBER(INFRA, getTensorDataType, lpai_abi_err (*)(void *, QnnLpaiCustomOp_DataType_t *));
LPAI_ABI_MEMBER(INFRA, getTensorDataSize, lpai_abi_err (*)(void *, uint32_t *));
LPAI_ABI_MEMBER(INFRA, getTensorQuantType, lpai_abi_err (*)(void *, QnnLpaiCustomOp_QuantType_t *));
LPAI_ABI_MEMBER(INFRA, getPerTensorQuantParams, lpai_abi_err (*)(void *, QnnLpaiCustomOp_PerTensorQuantInfo_t *));
LPAI_ABI_MEMBER(INFRA, getTensorData, void *(*)(void *));
LPAI_ABI_MEMBER(INFRA, getTempBuffer, lpai_abi_err (*)(void *, QnnLpaiCustomOp_BufferInfo_t *));
#define OPINFO QnnLpaiOpPackage_OperationInfo_t
LPAI_ABI_MEMBER(OPINFO, executeOp, int32_t (*)(void *));
LPAI_ABI_MEMBER(OPINFO, validateOp, Qnn_ErrorHandle_t (*)(Qnn_OpConfig_t));
LPAI_ABI_MEMBER(OPINFO, getTempBufferSize, Qnn_ErrorHandle_t (*)(Qnn_OpConfig_t, size_t *));
LPAI_ABI_MEMBER(OPINFO, getLayoutSupportFlag, Qnn_ErrorHandle_t (*)(uint32_t *));
#define IMPL QnnOpPackage_ImplementationV1_4_t
LPAI_ABI_MEMBER(IMPL, init, Qnn_ErrorHandle_t (*)(QnnLpaiOpPackage_GlobalInfrastructure_t *));
LPAI_ABI_MEMBER(IMPL, terminate, Qnn_ErrorHandle_t (*)());
LPAI_ABI_MEMBER(IMPL, getInfo, Qnn_ErrorHandle_t (*)(const QnnOpPackage_Info_t **));
LPAI_ABI_MEMBER(IMPL, validateOpConfig, Qnn_ErrorHandle_t (*)(Qnn_OpConfig_t));
LPAI_ABI_MEMBER(IMPL, freeOpImpl, Qnn_ErrorHandle_t (*)(QnnOpPackage_OpImpl_t));
LPAI_ABI_MEMBER(IMPL, logInitialize, Qnn_ErrorHandle_t (*)(QnnLog_Callback_t, QnnLog_Level_t));
LPAI_ABI_MEMBER(IMPL, logSetLevel, Qnn_ErrorHandle_t (*)(QnnLog_Level_t));
LPAI_ABI_MEMBER(IMPL, logTerminate, Qnn_ErrorHandle_t (*)(void));
LPAI_ABI_TYPE(QnnLog_Callback_t, void (*)(const char *, QnnLog_Level_t, uint64_t, va_list));
LPAI_ABI_TYPE(QnnOpPackage_InterfaceProvider_t, Qnn_ErrorHandle_t (*)(QnnOpPackage_Interface_t *));

enum { LPAI_ABI_STATIC_FACTS = __COUNTER__ - lpai_abi_first - 1 };

/* ---- the initializer macros, at run time ---------------------------------------- */
int main(void)
{
    static const QnnLpaiOpPackage_GlobalInfrastructure_t infra = QNN_LPAI_OP_PACKAGE_GLOBAL_INFRASTRUCTURE_INIT;
    static const QnnOpPackage_Info_t info = QNN_OP_PACKAGE_INFO_INIT;
    static const Qnn_Version_t v14 = QNN_OP_PACKAGE_API_VERSION_1_4_0;
    int failures = 0;
    int checked = 0;
#define RUNTIME_FACT(cond)                                        \
    do {                                                          \
        if (cond) {                                               \
            ++checked;                                            \
        } else {                                                  \
            ++failures;                                           \
            printf("ABI FAIL: %s differs from the SDK\n", #cond); \
        }                                                         \
    } while (0)
    RUNTIME_FACT(infra.version.major == 0u && infra.version.minor == 0u && infra.getTempBuffer == NULL);
    RUNTIME_FACT(info.packageName == NULL && info.numOperations == 0u && info.opsetVersion == NULL);
    RUNTIME_FACT(v14.major == 1u && v14.minor == 4u && v14.patch == 0u);
    printf("SDK ABI: %s, %d static facts and %d initializers pinned%s\n",
#if defined(LPAI_SDK_STANDIN)
           "the template's stand-in (sdk_standin/)",
#else
           "the SDK's headers",
#endif
           (int)LPAI_ABI_STATIC_FACTS, checked,
#if defined(LPAI_ABI_PICK)
           ""
#else
           " (sizes and offsets not pinned on this target)"
#endif
    );
    return failures ? 1 : 0;
}
