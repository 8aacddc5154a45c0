// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// QHPI's entry point of op package NormOpPackage: after loading the library (and
// calling NormOpPackageInterfaceProvider, src/NormOpPackageInterface.cpp), the HTP runtime
// calls qhpi_init, which registers every op's kernels (src/ops/<Op>.cpp) with
// qhpi_register_ops_v1 and returns the package's name. The host and Hexagon test drivers
// call it as the runtime does (host/test_htp.cpp).
#include "htp_sdk.h"

// One line an op, whatever the names' lengths.
// clang-format off
void MyNorm_op_info(QHPI_OpInfo_v1 *info);
void DoubleIt_op_info(QHPI_OpInfo_v1 *info);

namespace
{

void (*const g_fill[])(QHPI_OpInfo_v1 *) = {
    MyNorm_op_info,
    DoubleIt_op_info,
};
// clang-format on

QHPI_OpInfo_v1 g_ops[sizeof g_fill / sizeof g_fill[0]];

} // namespace

extern "C" const char *qhpi_init()
{
    const uint32_t n = sizeof g_fill / sizeof g_fill[0];
    for (uint32_t k = 0; k < n; ++k) {
        g_fill[k](&g_ops[k]);
    }
    (void)qhpi_register_ops_v1(n, g_ops, HTP_PACKAGE_NAME);
    return HTP_PACKAGE_NAME;
}
