/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * The host emulator's own declarations of the QNN / LPAI op package names.
 *
 * Written from public facts only (the names in the ExecuTorch pull request, the way
 * its example calls them, and the QNN documentation); Qualcomm's headers are not
 * public and are never copied. Numeric values are the emulator's own except where a
 * convention depends on them (the low byte of Qnn_DataType_t holds the width in BCD,
 * which the width-only comparison of C7 relies on).
 *
 * Signatures marked GUESSED are not visible in public code; the kernels use
 * getParamTensor and getTempBuffer with these shapes, so a build against the real
 * SDK is what confirms them (see the README of the op package).
 */
#ifndef LPAI_EMU_DECLS_H
#define LPAI_EMU_DECLS_H

#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* ---- QNN core ------------------------------------------------------------------ */
typedef uint64_t Qnn_ErrorHandle_t;

#define QNN_SUCCESS 0u
#define QNN_OP_PACKAGE_NO_ERROR 0u
#define QNN_OP_PACKAGE_ERROR_LIBRARY_ALREADY_INITIALIZED 30001u
#define QNN_OP_PACKAGE_ERROR_LIBRARY_NOT_INITIALIZED 30002u
#define QNN_OP_PACKAGE_ERROR_INVALID_HANDLE 30003u
#define QNN_OP_PACKAGE_ERROR_INVALID_INFRASTRUCTURE 30004u
#define QNN_OP_PACKAGE_ERROR_INVALID_INFO 30005u
#define QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE 30006u
#define QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT 30007u
#define QNN_OP_PACKAGE_ERROR_GENERAL 30008u

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
    QNN_DATATYPE_FLOAT_32 = 0x0232,
    QNN_DATATYPE_SFIXED_POINT_8 = 0x0308,
    QNN_DATATYPE_SFIXED_POINT_16 = 0x0316,
    QNN_DATATYPE_SFIXED_POINT_32 = 0x0332,
    QNN_DATATYPE_UFIXED_POINT_8 = 0x0408,
    QNN_DATATYPE_UFIXED_POINT_16 = 0x0416,
    QNN_DATATYPE_UFIXED_POINT_32 = 0x0432,
    QNN_DATATYPE_BOOL_8 = 0x0508,
    QNN_DATATYPE_UNDEFINED = 0x7FFFFFFF
} Qnn_DataType_t;

/* Only the members the op package reads; the real structs have more. */
typedef struct {
    const char *name;
    Qnn_DataType_t dataType;
    uint32_t rank;
    uint32_t *dimensions;
} Qnn_TensorV1_t;

typedef struct {
    uint32_t version;
    union {
        Qnn_TensorV1_t v1;
    };
} Qnn_Tensor_t;

/* Values as ExecuTorch's PyQnnManagerAdaptor reports them (QNN_PARAMTYPE_SCALAR = 0). */
typedef enum {
    QNN_PARAMTYPE_SCALAR = 0,
    QNN_PARAMTYPE_TENSOR = 1,
    QNN_PARAMTYPE_UNDEFINED = 0x7FFFFFFF
} Qnn_ParamType_t;

typedef struct {
    Qnn_DataType_t dataType;
    union {
        float floatValue;
        uint32_t uint32Value;
        int32_t int32Value;
        uint8_t bool8Value;
    };
} Qnn_Scalar_t;

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

typedef struct {
    uint32_t version;
    union {
        Qnn_OpConfigV1_t v1;
    };
} Qnn_OpConfig_t;

typedef struct {
    uint32_t major, minor, patch;
} Qnn_ApiVersion_t;
typedef Qnn_ApiVersion_t Qnn_Version_t;

typedef enum { QNN_LOG_LEVEL_ERROR = 1, QNN_LOG_LEVEL_VERBOSE = 5 } QnnLog_Level_t;
typedef void (*QnnLog_Callback_t)(const char *fmt, QnnLog_Level_t level, uint64_t timestamp, ...);

/* ---- LPAI custom op kernel interface ------------------------------------------- */
typedef struct LpaiEmuNode *QnnLpai_CustomOpNode_t;
typedef struct LpaiEmuTensor *QnnLpai_CustomOpTensor_t;

typedef enum {
    LPAI_CUSTOM_OP_SUCCESS = 0,
    LPAI_CUSTOM_OP_FAIL = 1,
    LPAI_CUSTOM_OP_INVALID_ARGUMENT = 2,
    LPAI_CUSTOM_OP_MEMORY = 3,
    LPAI_CUSTOM_OP_NOT_SUPPORTED = 4
} QnnLpaiCustomOp_Error_t;

typedef enum {
    LPAI_CUSTOM_OP_DATATYPE_INT_4 = 0,
    LPAI_CUSTOM_OP_DATATYPE_INT_8,
    LPAI_CUSTOM_OP_DATATYPE_INT_16,
    LPAI_CUSTOM_OP_DATATYPE_INT_32,
    LPAI_CUSTOM_OP_DATATYPE_INT_64,
    LPAI_CUSTOM_OP_DATATYPE_UINT_4,
    LPAI_CUSTOM_OP_DATATYPE_UINT_8,
    LPAI_CUSTOM_OP_DATATYPE_UINT_16,
    LPAI_CUSTOM_OP_DATATYPE_UINT_32,
    LPAI_CUSTOM_OP_DATATYPE_UINT_64,
    LPAI_CUSTOM_OP_DATATYPE_FLOAT_16,
    LPAI_CUSTOM_OP_DATATYPE_FLOAT_32,
    LPAI_CUSTOM_OP_DATATYPE_UNDEFINED
} QnnLpaiCustomOp_DataType_t;

#define QNN_LPAI_CUSTOM_OP_MAX_LAYOUT_RANK 5

typedef enum { QNN_LPAI_CUSTOM_OP_LAYOUT_FORM_FLAT = 0, LPAI_EMU_LAYOUT_FORM_OTHER = 1 } QnnLpaiCustomOp_LayoutForm_t;

typedef struct {
    QnnLpaiCustomOp_LayoutForm_t layoutForm;
    uint8_t layoutOrder[QNN_LPAI_CUSTOM_OP_MAX_LAYOUT_RANK];
    uint32_t layoutStride[QNN_LPAI_CUSTOM_OP_MAX_LAYOUT_RANK];
    uint32_t layoutDim[QNN_LPAI_CUSTOM_OP_MAX_LAYOUT_RANK];
} QnnLpaiCustomOp_Layout_t;

typedef enum {
    QNN_LPAI_CUSTOM_OP_QUANT_SCALE_TYPE_INT = 0,
    QNN_LPAI_CUSTOM_OP_QUANT_SCALE_TYPE_FLOAT = 1,
    QNN_LPAI_CUSTOM_OP_QUANT_SCALE_TYPE_UNDEFINED = 2
} QnnLpaiCustomOp_QuantScaleType_t;

typedef struct {
    QnnLpaiCustomOp_QuantScaleType_t type;
    union {
        struct {
            int32_t scale;
            int32_t shift;
        } iScale;
        float fScale;
    };
} QnnLpaiCustomOp_QuantScale_t;

typedef struct {
    QnnLpaiCustomOp_QuantScale_t scale;
    int32_t offset;
} QnnLpaiCustomOp_PerTensorQuantInfo_t;

typedef enum { LPAI_EMU_QUANT_PER_TENSOR = 0, LPAI_EMU_QUANT_NONE = 1 } QnnLpaiCustomOp_QuantType_t;

typedef struct {
    uint32_t (*getNumInputTensors)(QnnLpai_CustomOpNode_t node);   /* GUESSED, unused */
    uint32_t (*getNumOutputTensors)(QnnLpai_CustomOpNode_t node);  /* GUESSED, unused */
    QnnLpai_CustomOpTensor_t (*getInputTensor)(QnnLpai_CustomOpNode_t node, uint32_t index);
    QnnLpai_CustomOpTensor_t (*getOutputTensor)(QnnLpai_CustomOpNode_t node, uint32_t index);
    QnnLpai_CustomOpTensor_t (*getParamTensor)(QnnLpai_CustomOpNode_t node, uint32_t index); /* GUESSED */
    QnnLpaiCustomOp_Error_t (*getTensorShapeRank)(QnnLpai_CustomOpTensor_t tensor, uint32_t *rank);
    QnnLpaiCustomOp_Error_t (*getTensorLayoutRank)(QnnLpai_CustomOpTensor_t tensor, uint32_t *rank);
    QnnLpaiCustomOp_Error_t (*getTensorShapeDimSize)(QnnLpai_CustomOpTensor_t tensor, uint32_t index, uint32_t *size);
    QnnLpaiCustomOp_Error_t (*getTensorLayout)(QnnLpai_CustomOpTensor_t tensor, QnnLpaiCustomOp_Layout_t *layout);
    QnnLpaiCustomOp_Error_t (*getTensorDataType)(QnnLpai_CustomOpTensor_t tensor, QnnLpaiCustomOp_DataType_t *type);
    QnnLpaiCustomOp_Error_t (*getTensorDataSize)(QnnLpai_CustomOpTensor_t tensor,
                                                 uint32_t *bytes); /* GUESSED, unused */
    QnnLpaiCustomOp_Error_t (*getTensorQuantType)(QnnLpai_CustomOpTensor_t tensor,
                                                  QnnLpaiCustomOp_QuantType_t *type); /* GUESSED, unused */
    QnnLpaiCustomOp_Error_t (*getPerTensorQuantParams)(QnnLpai_CustomOpTensor_t tensor,
                                                       QnnLpaiCustomOp_PerTensorQuantInfo_t *quant);
    void *(*getTensorData)(QnnLpai_CustomOpTensor_t tensor);
    void *(*getTempBuffer)(QnnLpai_CustomOpNode_t node); /* GUESSED */
} QnnLpaiOpPackage_GlobalInfrastructure_t;

typedef QnnLpaiOpPackage_GlobalInfrastructure_t *QnnOpPackage_GlobalInfrastructure_t;

typedef struct {
    uint32_t numOfTypes;
    Qnn_DataType_t *DataTypes;
} QnnLpaiOpPackage_DataTypeInfo_t;

#define QNN_LPAI_OP_LAYOUT_DEFAULT 0u

typedef struct {
    const char *opType;
    int32_t (*executeOp)(QnnLpai_CustomOpNode_t node);
    uint32_t numOfInputs;
    uint32_t numOfOutputs;
    uint32_t numOfParams;
    QnnLpaiOpPackage_DataTypeInfo_t *inputDatatypes;
    QnnLpaiOpPackage_DataTypeInfo_t *outputDatatypes;
    Qnn_ErrorHandle_t (*validateOp)(Qnn_OpConfig_t opConfig);
    Qnn_ErrorHandle_t (*getTempBufferSize)(Qnn_OpConfig_t opConfig, size_t *bytes);
    Qnn_ErrorHandle_t (*getLayoutSupportFlag)(uint32_t *flag);
} QnnLpaiOpPackage_OperationInfo_t;

typedef QnnLpaiOpPackage_OperationInfo_t *QnnOpPackage_OperationInfo_t;

/* ---- QNN op package interface, v1.4 ---------------------------------------------- */
typedef struct {
    const char *packageName;
    const char **operationNames;
    QnnOpPackage_OperationInfo_t *operationInfo;
    uint32_t numOperations;
} QnnOpPackage_Info_t;

#define QNN_OP_PACKAGE_INFO_INIT {NULL, NULL, NULL, 0u}

#define QNN_OP_PACKAGE_API_VERSION_1_4_0 {1u, 4u, 0u}

typedef struct {
    Qnn_ErrorHandle_t (*init)(QnnOpPackage_GlobalInfrastructure_t infrastructure);
    Qnn_ErrorHandle_t (*terminate)(void);
    Qnn_ErrorHandle_t (*getInfo)(const QnnOpPackage_Info_t **info);
    Qnn_ErrorHandle_t (*validateOpConfig)(Qnn_OpConfig_t opConfig);
    void *createOpImpl; /* not used by LPAI packages */
    void *freeOpImpl;   /* not used by LPAI packages */
    Qnn_ErrorHandle_t (*logInitialize)(QnnLog_Callback_t callback, QnnLog_Level_t maxLogLevel);
    Qnn_ErrorHandle_t (*logSetLevel)(QnnLog_Level_t maxLogLevel);
    Qnn_ErrorHandle_t (*logTerminate)(void);
} QnnOpPackage_ImplementationV1_4_t;

typedef struct {
    Qnn_Version_t interfaceVersion;
    union {
        QnnOpPackage_ImplementationV1_4_t v1_4;
    };
} QnnOpPackage_Interface_t;

#if defined(__cplusplus)
}
#endif

#endif /* LPAI_EMU_DECLS_H */
