# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
#
# The facts of the HTP op package for Make: the only makefile of op_package/htp rendered
# from the spec (qnn-op-template/hooks/model.py); the Makefile and makefiles/*.mk read these.

PACKAGE_NAME   := NormOpPackage
LIBRARY_NAME   := libQnnNormOpPackage.so
# The LPAI package of the same spec: its include/ (the shared math, shapes and rounding)
# and its user/ (the custom ops' math, one file for both backends).
LPAI_DIR       := ../NormOpPackage
# The Hexagon targets, each built from its own objects.
HTP_ARCHS      := v68 v69 v73 v75 v79 v81
# The entry point libQnnHtp looks up first (src/NormOpPackageInterface.cpp); QHPI's,
# qhpi_init, registers the ops (src/qhpi_init.cpp).
INTERFACE_PROVIDER := NormOpPackageInterfaceProvider
