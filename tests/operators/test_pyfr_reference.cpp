// Every operator equals PyFR's (tests/operators/data, written by tools/pyfr-ref-operators
// with PyFR 3.1) to 1e-12 relative to the largest entry, for every element type at orders 1-4.
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "operators/operators.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/operators/test_support.hpp"

using namespace frmini::operators;
using frmini::operators::test::read_reference;

TEST_CASE("operators equal PyFR's to 1e-12", "[operators][pyfr]") {
  for (const std::string etype : {"quad", "hex", "tri", "tet", "pri", "pyr"}) {
    for (int p = 1; p <= 4; ++p) {
      const auto ref = read_reference(std::string(FRMINI_TEST_DATA_DIR) + "/data/" + etype + "-p" +
                                      std::to_string(p) + ".txt").mats;
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
