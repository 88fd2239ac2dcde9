// What build_operators and surface-flux anti-aliasing (which moves the flux points) share.
#pragma once

#include "operators/operators.hpp"

namespace frmini::operators::detail {

// Sets M0, M1, M3, M4 and the operators that follow from them and ops.norm_fpts (M2, M6, M132,
// M460), each cleaned as PyFR's opmat cleans what it hands out.
void assemble(ElementOperators& ops, const Matrix& m0, const Matrix& m1, const Matrix& m3,
              const Matrix& m4);

}  // namespace frmini::operators::detail
