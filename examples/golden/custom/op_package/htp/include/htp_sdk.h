// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// The one place the HTP sources meet the SDK. With QNN_SDK_ROOT (make htp_x86,
// htp_v<NN>, htp_aarch64, sdk-check): Qualcomm's HTP core headers, passed with -isystem
// so that their own warnings do not fail our -Werror. Without (make host-test,
// hexagon-test: -DHTP_STANDIN): the template's stand-in of the same declarations,
// standin/htp_standin.h.
#ifndef HTP_SDK_H
#define HTP_SDK_H

#if defined(HTP_STANDIN)
#include "../standin/htp_standin.h"
#else
#include "HTP/core/constraints.h"
#include "HTP/core/op_package_feature_support.h"
#include "HTP/core/op_register_ext.h"
#include "HTP/core/optimize.h"
#include "HTP/core/simple_reg.h"
#include "QnnOpPackage.h"
#endif

#endif // HTP_SDK_H
