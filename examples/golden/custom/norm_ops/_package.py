# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""The facts of this package, written once from the spec when the project is rendered.

Every other module of the package reads them from here (`from ._package import ...`), so
that the package's modules are plain Python and no value is spelled in two places.
"""

# torch.library namespace of the ops, and the import name of this package.
NAMESPACE = "norm_ops"
# The QNN op package: its library and the interface provider the QNN backend looks up.
PACKAGE_NAME = "NormOpPackage"
LIBRARY_NAME = "libQnnNormOpPackage.so"
INTERFACE_PROVIDER = "NormOpPackageInterfaceProvider"
# The island library's name is fixed by the SDK: two packages deployed to one folder collide.
ISLAND_LIBRARY_NAME = "libLpaiOpPackageIsland.so"
# The LPAI op package header, relative to $QNN_SDK_ROOT/include (the Makefile checks it too).
LPAI_SDK_HEADER = "QNN/LPAI/QnnLpaiOpPackage.h"

# The Snapdragon SoC this package is quantized and lowered for.
SOC_MODEL = "SM8850"
# LPAI hardware version per SoC (ExecuTorch's get_soc_to_lpai_hw_ver_map), and this SoC's.
LPAI_HW_VERSIONS = {"SM8850": 6, "SAR2230P": 6}
LPAI_HW_VERSION = 6
# Hexagon target of the DSP library; independent of the SoC's HTP arch and LPAI version.
OP_PACKAGE_ARCH = "v79"

# The spec's limits per op (the generated C arrays are sized by them).
MAX_INPUTS = 4
MAX_PARAMS = 8

# The backends this package is built for (spec key `backends`): the LPAI op package
# (op_package/NormOpPackage/) and the HTP one (op_package/htp/).
BACKENDS = ("lpai", "htp")
# The QNN data types each backend's OpDefs declare for every input and output, and the
# most dims of its tensors: what builder.refusal checks an op config against.
DATATYPES = {
    "lpai": ("QNN_DATATYPE_UFIXED_POINT_8", "QNN_DATATYPE_UINT_8"),
    "htp": ("QNN_DATATYPE_FLOAT_32", "QNN_DATATYPE_UFIXED_POINT_8", "QNN_DATATYPE_UFIXED_POINT_16"),
}
MAX_RANKS = {"lpai": 5, "htp": 4}
# Each backend's name in the OpDefs' <SupportedBackend>.
XML_BACKENDS = {"lpai": "LPAI", "htp": "HTP"}
# The Hexagon targets op_package/htp builds (build/hexagon-<arch>/).
HTP_ARCHS = ("v68", "v69", "v73", "v75", "v79", "v81")
