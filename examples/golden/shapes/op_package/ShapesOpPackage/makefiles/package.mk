# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
#
# The facts of this op package for Make: the only makefile the template renders from
# the spec (its model, qnn-op-template/hooks/spec.py); the Makefile and makefiles/*.mk are plain files
# that read these.
#
# DSP_ARCH is the op package's own Hexagon target (spec: op_package_arch); it is not the
# SoC's HTP arch nor its LPAI hardware version and is never derived from them.

PACKAGE_NAME        := ShapesOpPackage
LIBRARY_NAME        := libQnnShapesOpPackage.so
DSP_ARCH            := v79
# Fixed by the LPAI runtime: two packages deployed to one folder collide on it.
ISLAND_LIBRARY_NAME := libLpaiOpPackageIsland.so
# Present in a QNN SDK with LPAI custom ops (>= 2.48), relative to QNN_SDK_ROOT.
LPAI_SDK_HEADER     := QNN/LPAI/QnnLpaiOpPackage.h
