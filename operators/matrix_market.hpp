// Matrix Market text (coordinate real general, 1-based): how operators leave frmini for
// other tools (`frmini operators --mtx`) and how benchmarks can read them back.
#pragma once

#include <string>

#include "operators/linalg.hpp"

namespace frmini::operators {

// Every exact non-zero, full precision (%.17g), row-major order. `comment` (one line, may be
// empty) follows the banner as a '%' line.
std::string to_matrix_market(const Matrix& m, const std::string& comment = "");

// Parses coordinate real/integer general files. Throws UserError naming `what` (a file name)
// on malformed input.
Matrix from_matrix_market(const std::string& text, const std::string& what = "matrix");

}  // namespace frmini::operators
