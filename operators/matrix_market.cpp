#include "operators/matrix_market.hpp"

#include <cstdio>
#include <sstream>

#include "base/error.hpp"

namespace frmini::operators {

std::string to_matrix_market(const Matrix& m, const std::string& comment) {
  std::size_t nz = 0;
  for (double v : m.data) nz += v != 0.0;
  std::ostringstream s;
  s << "%%MatrixMarket matrix coordinate real general\n";
  if (!comment.empty()) s << "% " << comment << "\n";
  s << m.rows << " " << m.cols << " " << nz << "\n";
  char buf[40];
  for (std::size_t i = 0; i < m.rows; ++i)
    for (std::size_t j = 0; j < m.cols; ++j)
      if (m(i, j) != 0.0) {
        std::snprintf(buf, sizeof buf, "%.17g", m(i, j));
        s << i + 1 << " " << j + 1 << " " << buf << "\n";
      }
  return s.str();
}

Matrix from_matrix_market(const std::string& text, const std::string& what) {
  std::istringstream in(text);
  std::string line;
  auto bad = [&](const std::string& why) {
    return UserError(what + ": not a Matrix Market coordinate matrix (" + why + ")");
  };
  if (!std::getline(in, line) || line.rfind("%%MatrixMarket matrix coordinate", 0) != 0)
    throw bad("missing '%%MatrixMarket matrix coordinate' banner");
  if (line.find("general") == std::string::npos || line.find("complex") != std::string::npos ||
      line.find("pattern") != std::string::npos)
    throw bad("only real general matrices are supported");
  do {
    if (!std::getline(in, line)) throw bad("missing size line");
  } while (line.empty() || line[0] == '%');
  std::istringstream head(line);
  long rows = -1, cols = -1, nz = -1;
  if (!(head >> rows >> cols >> nz) || rows < 0 || cols < 0 || nz < 0) throw bad("bad size line");
  Matrix m(rows, cols);
  for (long k = 0; k < nz; ++k) {
    long i = 0, j = 0;
    double v = 0.0;
    if (!(in >> i >> j >> v)) throw bad("expected " + std::to_string(nz) + " entries");
    if (i < 1 || i > rows || j < 1 || j > cols) throw bad("entry out of range");
    m(i - 1, j - 1) = v;
  }
  return m;
}

}  // namespace frmini::operators
