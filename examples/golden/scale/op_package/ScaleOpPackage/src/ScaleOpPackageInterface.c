/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * Package interface of ScaleOpPackage (QNN op package API v1.4): the runtime loads
 * libQnnScaleOpPackage.so, calls ScaleOpPackageInterfaceProvider and registers these ops:
 *   ExampleCustomOp  <- torch op my_ops::mul3
 * LPAI_INFERENCE_ONLY (DSP and island builds) leaves out the compiler side and
 * validateOpConfig; the host library has both.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lpai_sdk.h"
#include "lpai_glue.h"
#include "lpai_package.h"

#define OP_COUNT 1u

QnnOpPackage_OperationInfo_t get_ExampleCustomOp_opInfo_Inference(void);
#if !defined(LPAI_INFERENCE_ONLY)
QnnOpPackage_OperationInfo_t get_ExampleCustomOp_opInfo_Compiler(void);
#endif

static char g_package_name[] = LPAI_PACKAGE_NAME;
static const char *g_op_names[OP_COUNT] = {
    "ExampleCustomOp", /* 0 */
};
static QnnOpPackage_OperationInfo_t g_op_infos[OP_COUNT];
static QnnOpPackage_Info_t g_package_info = QNN_OP_PACKAGE_INFO_INIT;
static bool g_initialized = false;

/* Read by every kernel through lpai_glue.h; hidden by -fvisibility=hidden. */
QnnLpaiOpPackage_GlobalInfrastructure_t lpai_pkg_infra;

#if defined(LPAI_HOST_DIAGNOSTICS)
const char *lpai_host_last_reject = NULL;
uint64_t lpai_host_last_scratch = 0u;
#endif
#if defined(LPAI_HOST_EMULATOR)
int lpai_host_use_reference = 0;
int lpai_host_quiet = 0;
const char *lpai_host_last_path = NULL;
int lpai_host_last_tiled = 0;
int lpai_host_last_hvx = 0;
int lpai_host_force_sse2 = 0;
int lpai_host_last_sse41 = 0;
uint64_t lpai_host_values = 0u;
#endif

static Qnn_ErrorHandle_t pkg_init(QnnOpPackage_GlobalInfrastructure_t infrastructure)
{
    if (g_initialized) {
        return QNN_OP_PACKAGE_ERROR_LIBRARY_ALREADY_INITIALIZED;
    }
    /* The compiler side may pass no infrastructure; the kernels need it to run. */
    memset(&lpai_pkg_infra, 0, sizeof lpai_pkg_infra);
    if (infrastructure) {
        lpai_pkg_infra = *infrastructure;
    }
#if defined(LPAI_INFERENCE_ONLY)
    g_op_infos[0] = get_ExampleCustomOp_opInfo_Inference();
#else
    g_op_infos[0] = get_ExampleCustomOp_opInfo_Compiler();
#endif
    g_initialized = true;
    return QNN_OP_PACKAGE_NO_ERROR;
}

static Qnn_ErrorHandle_t pkg_terminate(void)
{
    if (!g_initialized) {
        return QNN_OP_PACKAGE_ERROR_LIBRARY_NOT_INITIALIZED;
    }
    /* The infos are pointers to structs owned by the op files: clear the pointers. */
    for (uint32_t i = 0; i < OP_COUNT; ++i) {
        g_op_infos[i] = NULL;
    }
    memset(&lpai_pkg_infra, 0, sizeof lpai_pkg_infra);
    g_initialized = false;
    return QNN_OP_PACKAGE_NO_ERROR;
}

static Qnn_ErrorHandle_t pkg_get_info(const QnnOpPackage_Info_t **info)
{
    if (!g_initialized) {
        return QNN_OP_PACKAGE_ERROR_LIBRARY_NOT_INITIALIZED;
    }
    if (!info) {
        return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
    }
    g_package_info.packageName = g_package_name;
    g_package_info.operationNames = g_op_names;
    g_package_info.operationInfo = g_op_infos;
    g_package_info.numOperations = OP_COUNT;
    *info = &g_package_info;
    return QNN_OP_PACKAGE_NO_ERROR;
}

#if !defined(LPAI_INFERENCE_ONLY)
static bool type_listed(Qnn_DataType_t type, const QnnLpaiOpPackage_DataTypeInfo_t *list)
{
    for (uint32_t j = 0; j < list->numOfTypes; ++j) {
        if (list->DataTypes[j] == type) {
            return true;
        }
    }
    return false;
}

/* Every refusal names the check on stderr: the partitioner itself only reports that
 * the node is not supported and falls back to the CPU. */
static Qnn_ErrorHandle_t pkg_validate_op_config(Qnn_OpConfig_t cfg)
{
    if (!g_initialized) {
        LPAI_DIAG(LPAI_PACKAGE_NAME ": validateOpConfig before init\n");
        return QNN_OP_PACKAGE_ERROR_LIBRARY_NOT_INITIALIZED;
    }
    if (!cfg.v1.packageName || strcmp(cfg.v1.packageName, g_package_name) != 0) {
        LPAI_DIAG(LPAI_PACKAGE_NAME ": node is for package \"%s\"\n",
                  cfg.v1.packageName ? cfg.v1.packageName : "(null)");
        return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
    }
    QnnOpPackage_OperationInfo_t op = NULL;
    for (uint32_t i = 0; i < OP_COUNT && cfg.v1.typeName; ++i) {
        if (strcmp(cfg.v1.typeName, g_op_names[i]) == 0) {
            op = g_op_infos[i];
        }
    }
    if (!op) {
        LPAI_DIAG(LPAI_PACKAGE_NAME ": unknown op type \"%s\"\n", cfg.v1.typeName ? cfg.v1.typeName : "(null)");
        return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
    }
    const char *name = cfg.v1.typeName;
    if (cfg.v1.numOfInputs != op->numOfInputs || cfg.v1.numOfOutputs != op->numOfOutputs) {
        LPAI_DIAG("%s: expected %u inputs and %u outputs, got %u and %u\n", name, op->numOfInputs, op->numOfOutputs,
                  cfg.v1.numOfInputs, cfg.v1.numOfOutputs);
        return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
    }
    if (cfg.v1.numOfParams != op->numOfParams) {
        LPAI_DIAG("%s: expected %u parameters, got %u\n", name, op->numOfParams, cfg.v1.numOfParams);
        return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
    }
    for (uint32_t i = 0; i < cfg.v1.numOfInputs; ++i) {
        if (!type_listed(cfg.v1.inputTensors[i].v1.dataType, &op->inputDatatypes[i])) {
            LPAI_DIAG("%s: input %u has data type 0x%x, not one of the declared ones\n", name, i,
                      (unsigned)cfg.v1.inputTensors[i].v1.dataType);
            return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
        }
    }
    for (uint32_t j = 0; j < cfg.v1.numOfOutputs; ++j) {
        if (!type_listed(cfg.v1.outputTensors[j].v1.dataType, &op->outputDatatypes[j])) {
            LPAI_DIAG("%s: output %u has data type 0x%x, not one of the declared ones\n", name, j,
                      (unsigned)cfg.v1.outputTensors[j].v1.dataType);
            return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
        }
    }
    return op->validateOp ? op->validateOp(cfg) : QNN_OP_PACKAGE_NO_ERROR;
}
#endif

/* Diagnostics go to stderr (host) or nowhere (DSP); the QNN log callback is not kept. */
static Qnn_ErrorHandle_t pkg_log_initialize(QnnLog_Callback_t callback, QnnLog_Level_t level)
{
    (void)callback;
    (void)level;
    return QNN_OP_PACKAGE_NO_ERROR;
}

static Qnn_ErrorHandle_t pkg_log_set_level(QnnLog_Level_t level)
{
    (void)level;
    return QNN_OP_PACKAGE_NO_ERROR;
}

static Qnn_ErrorHandle_t pkg_log_terminate(void)
{
    return QNN_OP_PACKAGE_NO_ERROR;
}

/* The runtime looks this function up by name (LPAI_PACKAGE_INTERFACE_PROVIDER, lpai_package.h). */
LPAI_EXPORT Qnn_ErrorHandle_t LPAI_PACKAGE_INTERFACE_PROVIDER(QnnOpPackage_Interface_t *interface);

LPAI_EXPORT Qnn_ErrorHandle_t LPAI_PACKAGE_INTERFACE_PROVIDER(QnnOpPackage_Interface_t *interface)
{
    if (!interface) {
        return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
    }
    memset(interface, 0, sizeof *interface);
    interface->interfaceVersion = (Qnn_Version_t)QNN_OP_PACKAGE_API_VERSION_1_4_0;
    interface->v1_4.init = pkg_init;
    interface->v1_4.terminate = pkg_terminate;
    interface->v1_4.getInfo = pkg_get_info;
#if defined(LPAI_INFERENCE_ONLY)
    interface->v1_4.validateOpConfig = NULL; /* the DSP never validates */
#else
    interface->v1_4.validateOpConfig = pkg_validate_op_config;
#endif
    interface->v1_4.createOpImpl = NULL;
    interface->v1_4.freeOpImpl = NULL;
    interface->v1_4.logInitialize = pkg_log_initialize;
    interface->v1_4.logSetLevel = pkg_log_set_level;
    interface->v1_4.logTerminate = pkg_log_terminate;
    return QNN_OP_PACKAGE_NO_ERROR;
}
