// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// The one place the HTP sources meet the SDK. With QNN_SDK_ROOT (make htp_x86,
// htp_v<NN>, htp_aarch64, sdk-check): QHPI, Qualcomm's HTP op interface
// (HTP/core/qhpi.h, QNN SDK 2.44 and later; C++ only: it uses nullptr), passed with
// -isystem so that its own warnings do not fail our -Werror. Without (make host-test,
// hexagon-test: -DHTP_STANDIN): the template's stand-in of the same declarations,
// standin/htp_standin.h.
#ifndef HTP_SDK_H
#define HTP_SDK_H

#if defined(HTP_STANDIN)
#include "../standin/htp_standin.h"
#else
#include "HTP/core/qhpi.h"
#endif

// The package's name as a string, from -DTHIS_PKG_NAME=<package> (makefiles/package.mk):
// QHPI names an op "<package>::<Op>".
#define HTP_STR2(x) #x
#define HTP_STR(x) HTP_STR2(x)
#define HTP_PACKAGE_NAME HTP_STR(THIS_PKG_NAME)

#endif // HTP_SDK_H
