# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
"""Writes an x86 stand-in for the Hexagon tools' `hexagon_protos.h` (make htp_x86, sdk-check).

The SDK's HTP headers include `hexagon_protos.h` on every target (core/intrinsics.h);
on x86 the Hexagon SDK takes it from its tools' HVX emulation, and clang's own copy
declares the vector types only for Hexagon. This package's kernels call no HVX
intrinsic, so declarations are enough: the vector types, and one declaration per `Q6_*`
name the SDK's headers mention, its return type read from the name (Q6_V...: a vector,
Q6_W...: a pair, Q6_Q...: a predicate, Q6_R...: an int, Q6_P...: a 64-bit int).

    python3 hexagon_protos.py <QNN_SDK_ROOT>/include/QNN/HTP/core > hexagon_protos.h
"""

import re
import sys
from pathlib import Path

RETURNS = {"V": "HVX_Vector", "W": "HVX_VectorPair", "Q": "HVX_VectorPred", "R": "int", "P": "long long"}


def main(core: Path) -> str:
    found = set()
    for header in sorted(core.rglob("*.h")):
        found |= {m.group(0) for m in re.finditer(r"\bQ6_[A-Z][A-Za-z0-9]*_\w+", header.read_text(errors="replace"))}
    lines = [
        "// Written by standin/x86/hexagon_protos.py (qnn-op-template): declarations only.",
        "#ifndef HTP_X86_HEXAGON_PROTOS_H",
        "#define HTP_X86_HEXAGON_PROTOS_H",
        "#include <stdint.h>",
        "typedef union { uint8_t ub[128]; int32_t w[32]; float sf[32]; int64_t d[16]; } HVX_Vector;",
        "typedef struct { HVX_Vector v[2]; } HVX_VectorPair;",
        "typedef HVX_Vector HVX_VectorPred;",
        "#ifdef __cplusplus",
        'extern "C" {',
        "#endif",
    ]
    lines += [f"{RETURNS.get(name[3], 'void')} {name}(...);" for name in sorted(found)]
    lines += ["#ifdef __cplusplus", "}", "#endif", "#endif"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(main(Path(sys.argv[1])))
