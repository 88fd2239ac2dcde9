// PyFR's `@clean` (pyfr/nputil.py), reproduced exactly: flush |a| < tol to 0, then coalesce
// magnitudes that agree to tol (relative; 0.1·tol absolute) onto their median, keeping signs.
// PyFR applies it to the orthonormal basis, the inverse Vandermonde, the nodal basis and its
// gradient, the correction field and every operator it hands out; frmini applies it at the
// same places so its matrices equal PyFR's to round-off, with the same exact zeros and ±1.
#pragma once

#include <vector>

namespace frmini::operators {

void clean(std::vector<double>& values, double tol = 1e-10);

}  // namespace frmini::operators
