// A floating-point constant written into generated kernel source: the one way every generator
// (matmul kernels, pointwise physics, integrators, case-file expressions) spells a number, so
// that the value compiled is the value meant.
#pragma once

#include <string>

namespace frmini {

// A C/CUDA/OpenCL literal for `v` that round-trips exactly: 17 significant digits for double,
// 9 and an `f` suffix for single ("1.25", "2.0", "-3.00000003e-05f"); never an integer literal.
std::string literal(double v, bool single = false);

}  // namespace frmini
