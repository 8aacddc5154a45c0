// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// The interface of op package NormOpPackage for HTP: what libQnnHtp calls after loading
// the library through NormOpPackageInterfaceProvider (QnnOpPackage.h, interface version 1.4).
// The ops themselves are QHPI's: the runtime then calls qhpi_init (src/qhpi_init.cpp),
// which registers them with qhpi_register_ops_v1; nothing here registers an op.
// Built with the SDK only (make htp_x86, htp_v<NN>, htp_aarch64, sdk-check); the host and
// Hexagon tests call qhpi_init and the ops' kernels directly.
#include <cstring>

#include "HTP/QnnHtpCommon.h"
#include "QnnOpPackage.h"
#include "QnnSdkBuildId.h"
#include "htp_sdk.h"

namespace
{

const char k_package[] = HTP_PACKAGE_NAME;

// One line an op, whatever the names' lengths.
// clang-format off
const char *g_op_names[] = {
    "MyNorm",
    "DoubleIt",
};
// The number of inputs (tensors), outputs and params of each op, for validateOpConfig.
struct OpCounts {
    const char *name;
    uint32_t inputs, outputs, params;
};
const OpCounts g_counts[] = {
    {"MyNorm", 1u, 1u, 0u},
    {"DoubleIt", 1u, 1u, 0u},
};
// clang-format on
Qnn_ApiVersion_t g_api_version = QNN_HTP_API_VERSION_INIT;
QnnOpPackage_Info_t g_info = QNN_OP_PACKAGE_INFO_INIT;
bool g_initialized = false;

Qnn_ErrorHandle_t package_init(QnnOpPackage_GlobalInfrastructure_t infrastructure)
{
    (void)infrastructure;
    if (g_initialized) {
        return QNN_OP_PACKAGE_ERROR_LIBRARY_ALREADY_INITIALIZED;
    }
    g_initialized = true;
    return QNN_SUCCESS;
}

Qnn_ErrorHandle_t package_get_info(const QnnOpPackage_Info_t **info)
{
    if (!g_initialized) {
        return QNN_OP_PACKAGE_ERROR_LIBRARY_NOT_INITIALIZED;
    }
    if (info == nullptr) {
        return QNN_OP_PACKAGE_ERROR_INVALID_INFO;
    }
    g_info = QNN_OP_PACKAGE_INFO_INIT;
    g_info.packageName = k_package;
    g_info.operationNames = g_op_names;
    g_info.numOperations = sizeof g_op_names / sizeof g_op_names[0];
    g_info.sdkBuildId = QNN_SDK_BUILD_ID;
    g_info.sdkApiVersion = &g_api_version;
    *info = &g_info;
    return QNN_SUCCESS;
}

Qnn_ErrorHandle_t package_validate(Qnn_OpConfig_t config)
{
    if (config.version != QNN_OPCONFIG_VERSION_1 || config.v1.packageName == nullptr ||
        std::strcmp(config.v1.packageName, k_package) != 0 || config.v1.typeName == nullptr) {
        return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
    }
    for (const OpCounts &op : g_counts) {
        if (std::strcmp(config.v1.typeName, op.name) == 0) {
            const bool ok = config.v1.numOfInputs == op.inputs && config.v1.numOfOutputs == op.outputs &&
                            config.v1.numOfParams == op.params;
            return ok ? QNN_SUCCESS : QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
        }
    }
    return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
}

Qnn_ErrorHandle_t package_log_initialize(QnnLog_Callback_t callback, QnnLog_Level_t level)
{
    (void)callback;
    (void)level;
    return QNN_SUCCESS;
}

Qnn_ErrorHandle_t package_log_set_level(QnnLog_Level_t level)
{
    (void)level;
    return QNN_SUCCESS;
}

Qnn_ErrorHandle_t package_log_terminate()
{
    return QNN_SUCCESS;
}

Qnn_ErrorHandle_t package_terminate()
{
    g_initialized = false;
    return QNN_SUCCESS;
}

} // namespace

extern "C" Qnn_ErrorHandle_t NormOpPackageInterfaceProvider(QnnOpPackage_Interface_t *interface)
{
    if (interface == nullptr) {
        return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
    }
    interface->interfaceVersion = {1, 4, 0};
    interface->v1_4.init = package_init;
    interface->v1_4.terminate = package_terminate;
    interface->v1_4.getInfo = package_get_info;
    interface->v1_4.validateOpConfig = package_validate;
    // HTP creates the ops itself from the registered implementations.
    interface->v1_4.createOpImpl = nullptr;
    interface->v1_4.freeOpImpl = nullptr;
    interface->v1_4.logInitialize = package_log_initialize;
    interface->v1_4.logSetLevel = package_log_set_level;
    interface->v1_4.logTerminate = package_log_terminate;
    return QNN_SUCCESS;
}
