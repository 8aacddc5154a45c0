/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * The facts of this op package, in one place: the only header the template renders
 * from the spec. Every other header and source of the package is a plain file that
 * reads its names and limits from here (the template's model, qnn-op-template/hooks/spec.py, is their
 * single source; a value never appears twice).
 *
 * SDK-free and free of includes: the host emulator and the benchmark read it too.
 */
#ifndef LPAI_PACKAGE_H
#define LPAI_PACKAGE_H

/* The QNN op package name (spec: package_name), as the graph names it. */
#define LPAI_PACKAGE_NAME "ActivationOpPackage"

/* The function the runtime looks up in the library; a macro so that plain files
 * (the host emulator) can declare and call it. */
#define LPAI_PACKAGE_INTERFACE_PROVIDER ActivationOpPackageInterfaceProvider

/* The library files: the package's own, and the island library whose name the LPAI
 * runtime fixes (two packages in one folder collide on it). */
#define LPAI_PACKAGE_LIBRARY_NAME "libQnnActivationOpPackage.so"
#define LPAI_PACKAGE_ISLAND_LIBRARY_NAME "libLpaiOpPackageIsland.so"

/* The spec's limits per op: the C arrays are sized by them. */
#define LPAI_MAX_INPUTS 4u
#define LPAI_MAX_OUTPUTS 4u
#define LPAI_MAX_PARAMS 8u

/* The longest row (last dimension, in elements) a `rowwise: true` custom op accepts:
 * the kernel dequantizes one row of every input and output into a buffer on its own
 * stack instead of asking the runtime for scratch (getTempBuffer, whose limits on
 * the device are not public). The buffer holds (inputs + outputs) x LPAI_ROW_MAX
 * floats: 2 KiB for one input and one output, 8 KiB at the spec's limits. A longer
 * row is refused at run time, with this name in the reason. */
#define LPAI_ROW_MAX 256u

/* The layout support every op declares (spec: layout_support): 1 for
 * QNN_LPAI_OP_LAYOUT_SHAPE_NE_LAYOUT, the kernels walk any layout and the backend
 * need not repack (never run on a device yet); 0 for QNN_LPAI_OP_LAYOUT_DEFAULT, what
 * the pull request verified on SM8850 (the backend may insert repacks). An SDK header
 * without SHAPE_NE_LAYOUT gets DEFAULT either way (include/lpai_glue.h). */
#define LPAI_LAYOUT_SUPPORT_SHAPE_NE_LAYOUT 1

#endif /* LPAI_PACKAGE_H */
