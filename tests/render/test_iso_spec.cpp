// Parsing of --isosurface specs and --color-by choices (no VTK needed).
#include <string>

#include "base/error.hpp"
#include "solver/render/iso_spec.hpp"
#include "tests/frmini_catch.hpp"

using namespace frmini;
using namespace frmini::render;

TEST_CASE("iso_spec: field=value", "[render][iso_spec]") {
  const auto s = parse_iso_spec("qcrit=0.5");
  CHECK(s.field.array == "qcrit");
  CHECK(s.field.component == -1);
  CHECK(s.value == 0.5);
  CHECK(s.text == "qcrit=0.5");
  const auto v = parse_iso_spec("vorticity:z=-1.5e-2");
  CHECK(v.field.array == "vorticity");
  CHECK(v.field.component == 2);
  CHECK(v.value == -1.5e-2);
  CHECK(v.field.label() == "vorticity (z)");
  CHECK(parse_iso_spec("velocity:mag=3").field.component == -1);
}

TEST_CASE("iso_spec: malformed specs are one-line user errors", "[render][iso_spec]") {
  for (const char* bad : {"qcrit", "=1", "qcrit=", "qcrit=abc", "qcrit=1=2", "qcrit=0.5x",
                          "velocity:w=1", "qcrit=nan", "qcrit=1e999", ":x=1"}) {
    INFO(bad);
    try {
      parse_iso_spec(bad);
      FAIL("no error");
    } catch (const UserError& e) {
      const std::string m = e.what();
      CHECK(m.find('\n') == std::string::npos);
      CHECK(m.find(bad) != std::string::npos);
    }
  }
  CHECK_THROWS_WITH(parse_field_choice("mach:q", "--color-by 'mach:q'"),
                    "--color-by 'mach:q': component 'q' is not one of x, y, z, mag");
  CHECK(parse_field_choice("mach", "--color-by 'mach'").array == "mach");
}
