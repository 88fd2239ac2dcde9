// Every operator equals PyFR's (tests/operators/data, written by tools/pyfr-ref-operators
// with PyFR 3.1) to 1e-12 relative to the largest entry, for every element type at orders 1-4.
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "operators/operators.hpp"
#include "tests/frmini_catch.hpp"

using namespace frmini::operators;

namespace {

std::map<std::string, Matrix> read_reference(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::map<std::string, Matrix> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("matrix ", 0) != 0) continue;
    std::istringstream head(line.substr(7));
    std::string name;
    std::size_t rows = 0, cols = 0;
    head >> name >> rows >> cols;
    Matrix m(rows, cols);
    for (std::size_t i = 0; i < rows; ++i) {
      REQUIRE(std::getline(in, line));
      std::istringstream row(line);
      for (std::size_t j = 0; j < cols; ++j) REQUIRE(row >> m(i, j));
    }
    out[name] = m;
  }
  return out;
}

}  // namespace

TEST_CASE("operators equal PyFR's to 1e-12", "[operators][pyfr]") {
  for (const std::string etype : {"quad", "hex", "tri", "tet", "pri", "pyr"}) {
    for (int p = 1; p <= 4; ++p) {
      const auto ref = read_reference(std::string(FRMINI_TEST_DATA_DIR) + "/data/" + etype + "-p" +
                                      std::to_string(p) + ".txt");
      REQUIRE(ref.size() == 8);
      const ElementOperators ops = build_operators(etype, p);
      for (const auto& [name, r] : ref) {
        INFO(etype << " p" << p << " " << name);
        const Matrix& m = get(ops, name);
        REQUIRE(m.rows == r.rows);
        REQUIRE(m.cols == r.cols);
        const double tol = 1e-12 * std::max(1.0, max_abs(r));
        double err = 0.0;
        for (std::size_t k = 0; k < m.data.size(); ++k)
          err = std::max(err, std::abs(m.data[k] - r.data[k]));
        CHECK(err <= tol);
      }
    }
  }
}
