// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// The interface of op package NormOpPackage for HTP: what libQnnHtp calls after loading
// the library through NormOpPackageInterfaceProvider (QnnOpPackage.h, interface version 1.4).
// Built with the SDK only (make htp_x86, htp_v<NN>, htp_aarch64, sdk-check); the host and
// Hexagon tests call the ops' implementations directly.
//
// Each op's table is declared by the name its source defines (END_PKG_OP_DEFINITION(PKG_<Op>)):
// a name that matches no source still links, to an empty table, and the package then
// registers no op at all without a word, so the names here and in src/ops/ come from
// the same list of the spec's ops (make sdk-check also looks for every PKG_<Op>_ops_table
// defined in the library).
#include <cstring>

#include "HTP/QnnHtpCommon.h"
#include "HTP/core/constraints.h"
#include "HTP/core/op_package_feature_support.h"
#include "HTP/core/op_register_ext.h"
#include "HTP/core/optimize.h"
#include "HTP/core/simple_reg.h"
#include "HTP/core/unique_types.h"
#include "QnnOpPackage.h"
#include "QnnSdkBuildId.h"

DEFINE_UNIQ_TY()
// clang-format off
BEGIN_PKG_OPS_OPTS_LIST()
DECLARE_PKG_OPS_OPTS_LIST(PKG_MyNorm)
DECLARE_PKG_OPS_OPTS_LIST(PKG_DoubleIt)
END_PKG_OPS_OPTS_LIST()
// clang-format on

INIT_PACKAGE_OP_DEF()
INIT_PACKAGE_OPTIMIZATION_DEF()
INIT_PACKAGE_PARAM_ORDER_DEF()
INIT_PKG_CORE_INIT_FUNC()

namespace
{

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
    REGISTER_PACKAGE_PARAM_ORDERS()
    REGISTER_PACKAGE_AXIS_PARAMS()
    REGISTER_PACKAGE_PER_CHANNEL_QUANTIZED_OPS()
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
    g_info.packageName = THIS_PKG_NAME_STR;
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
        std::strcmp(config.v1.packageName, THIS_PKG_NAME_STR) != 0 || config.v1.typeName == nullptr) {
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
