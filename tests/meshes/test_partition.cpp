// Partitioning with METIS: stored in the file without changing the UUID, periodic partners on
// one part, weights parsed strictly.
#include <unistd.h>

#include <filesystem>

#include "base/error.hpp"
#include "meshes/mesh_file.hpp"
#include "meshes/partition.hpp"
#include "strip_mesh.hpp"
#include "tests/frmini_catch.hpp"

using namespace frmini::meshes;
namespace fs = std::filesystem;

TEST_CASE("partitionings are stored and keep periodic partners together", "[meshes]") {
  Mesh m = build_mesh(test::strip_mesh(4, test::Ends::named_periodic));
  const std::string path =
      (fs::temp_directory_path() / ("frmini-test-" + std::to_string(::getpid()) + "-part.h5")).string();
  add_partitioning(m, 2, "");
  add_partitioning(m, 1, "quad:2");
  write_mesh(path, m);
  Mesh p = read_mesh(path);
  fs::remove(path);
  CHECK(p.uuid == m.uuid);  // partitionings are not content
  REQUIRE(p.partitionings.size() == 2);
  CHECK(p.partitionings[0].nparts == 1);
  CHECK(p.partitionings[0].weights == "quad:2");
  const auto& parts = p.partitionings[1].parts[0];
  CHECK(parts[0] == parts[3]);  // periodic partners share a part
  CHECK(parts[0] != parts[1]);  // two non-empty parts: {0, 3} and {1, 2}
  CHECK(parts[1] == parts[2]);
  add_partitioning(p, 2, "");  // the same N replaces
  CHECK(p.partitionings.size() == 2);
}

TEST_CASE("partitioning errors", "[meshes]") {
  Mesh m = build_mesh(test::strip_mesh(4, test::Ends::named_periodic));
  CHECK_THROWS_AS(add_partitioning(m, 4, ""), frmini::UserError);  // 3 graph vertices
  CHECK_THROWS_WITH(add_partitioning(m, 2, "cube:3"), Catch::Matchers::Contains("TYPE:WEIGHT"));
  CHECK_THROWS_WITH(add_partitioning(m, 2, "quad:0"), Catch::Matchers::Contains("positive"));
  // The dual graph: 4 quads in a periodic ring, partners 0 and 3 merged: a path of 3 vertices.
  DualGraph g = dual_graph(m, "quad:2");
  CHECK(g.vwgt == std::vector<int64_t>{4, 2, 2});
  CHECK(g.xadj == std::vector<int64_t>{0, 2, 4, 6});
}
