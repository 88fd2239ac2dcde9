// Built without VTK: isosurfaces and pictures say so in one line (option parsing still works,
// test_iso_spec.cpp).
#include <string>

#include "base/error.hpp"
#include "solver/render/display.hpp"
#include "solver/render/isosurface.hpp"
#include "solver/render/picture.hpp"
#include "tests/frmini_catch.hpp"

using namespace frmini;
using namespace frmini::render;

TEST_CASE("render without VTK: a one-line 'built without VTK' error", "[render]") {
  CHECK_THROWS_WITH(ensure_display(),
                    "pictures: frmini was built without VTK (install libvtk9-dev)");
  CHECK(!own_xvfb_running());
}
