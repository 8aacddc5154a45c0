/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * The one place that decides where the QNN / LPAI names come from.
 *
 * Device and simulator builds use Qualcomm's headers from $QNN_SDK_ROOT; so does
 * `make host-test` when QNN_SDK_ROOT is set. Without an SDK the build defines
 * LPAI_EMU_OWN_DECLS and gets the template's stand-in (sdk_standin/lpai_sdk_standin.h):
 * the same names and the same ABI, written by the template from the facts of public
 * copies of the headers, never copied; host/sdk_abi_check.c pins that ABI.
 */
#ifndef LPAI_SDK_H
#define LPAI_SDK_H

#if defined(LPAI_EMU_OWN_DECLS)
#include "../sdk_standin/lpai_sdk_standin.h"
#else
#include "QnnOpPackage.h"
#include "QnnTypes.h"
#include "QnnLpaiOpPackage.h"
#include "QnnLpaiOpPackageInfrastructure.h"
#endif

#include <stdio.h>

#include "lpai_conventions.h"

/* The kernels size their arrays with LPAI_MAX_RANK; a different SDK value would
 * let a deeper tensor index past them. */
#if defined(__cplusplus)
static_assert(LPAI_MAX_RANK == QNN_LPAI_CUSTOM_OP_MAX_LAYOUT_RANK, "LPAI_MAX_RANK drifted from the SDK");
#else
_Static_assert(LPAI_MAX_RANK == QNN_LPAI_CUSTOM_OP_MAX_LAYOUT_RANK, "LPAI_MAX_RANK drifted from the SDK");
#endif

/* The entry point the runtime looks up by name must stay visible when everything
 * else is built with -fvisibility=hidden (two op packages in one process must not
 * bind each other's helpers). */
#if defined(__GNUC__)
#define LPAI_EXPORT __attribute__((visibility("default")))
#else
#define LPAI_EXPORT
#endif

/* Host diagnostics on stderr. The emulator's suites silence the expected ones. */
#if defined(LPAI_HOST_EMULATOR)
#if defined(__cplusplus)
extern "C" int lpai_host_quiet;
#else
extern int lpai_host_quiet;
#endif
#define LPAI_DIAG(...)                    \
    do {                                  \
        if (!lpai_host_quiet) {           \
            fprintf(stderr, __VA_ARGS__); \
        }                                 \
    } while (0)
#else
#define LPAI_DIAG(...) fprintf(stderr, __VA_ARGS__)
#endif

#endif /* LPAI_SDK_H */
