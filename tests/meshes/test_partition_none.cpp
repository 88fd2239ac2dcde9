// Built without METIS: one part still works, more than one says so.
#include "base/error.hpp"
#include "meshes/partition.hpp"
#include "strip_mesh.hpp"
#include "tests/frmini_catch.hpp"

using namespace frmini::meshes;

TEST_CASE("partitioning without METIS", "[meshes]") {
  Mesh m = build_mesh(test::strip_mesh(4, test::Ends::boundaries));
  add_partitioning(m, 1, "");
  CHECK(m.partitionings.size() == 1);
  CHECK_THROWS_WITH(add_partitioning(m, 2, ""), Catch::Matchers::Contains("built without METIS"));
}
