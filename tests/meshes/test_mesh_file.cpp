// The HDF5 mesh file: a round trip keeps everything (and the UUID); partitionings are added
// without changing the UUID, keep periodic partners together; bad files are UserErrors.
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "meshes/mesh_file.hpp"
#include "meshes/partition.hpp"
#include "operators/error.hpp"
#include "strip_mesh.hpp"
#include "tests/frmini_catch.hpp"

using namespace frmini::meshes;
namespace fs = std::filesystem;

namespace {
std::string tmp(const std::string& name) {
  return (fs::temp_directory_path() / ("frmini-test-" + std::to_string(::getpid()) + "-" + name)).string();
}
}  // namespace

TEST_CASE("mesh files round-trip", "[meshes]") {
  Mesh m = build_mesh(test::strip_mesh(4, test::Ends::named_periodic));
  const std::string path = tmp("strip.h5");
  write_mesh(path, m);
  Mesh r = read_mesh(path);
  CHECK(r.uuid == m.uuid);
  CHECK(mesh_uuid(r) == m.uuid);
  CHECK(r.ndims == 2);
  CHECK(r.boundaries == m.boundaries);
  REQUIRE(r.groups.size() == 1);
  CHECK(r.groups[0].nodes == m.groups[0].nodes);
  CHECK(r.groups[0].curved == m.groups[0].curved);
  CHECK(std::memcmp(r.groups[0].faces.data(), m.groups[0].faces.data(),
                    m.groups[0].faces.size() * sizeof(FaceLink)) == 0);
  CHECK(r.transforms == m.transforms);

  add_partitioning(r, 2, "");
  add_partitioning(r, 1, "quad:2");
  write_mesh(path, r);
  Mesh p = read_mesh(path);
  CHECK(p.uuid == m.uuid);  // partitionings are not content
  REQUIRE(p.partitionings.size() == 2);
  CHECK(p.partitionings[0].nparts == 1);
  CHECK(p.partitionings[0].weights == "quad:2");
  const auto& parts = p.partitionings[1].parts[0];
  CHECK(parts[0] == parts[3]);  // periodic partners share a part
  CHECK(parts[0] != parts[1]);  // and the two parts are not empty: 0,3 | 1,2
  fs::remove(path);
}

TEST_CASE("partitioning errors", "[meshes]") {
  Mesh m = build_mesh(test::strip_mesh(4, test::Ends::named_periodic));
  CHECK_THROWS_AS(add_partitioning(m, 4, ""), frmini::UserError);  // 3 graph vertices
  CHECK_THROWS_WITH(add_partitioning(m, 2, "cube:3"), Catch::Matchers::Contains("TYPE:WEIGHT"));
  CHECK_THROWS_WITH(add_partitioning(m, 2, "quad:0"), Catch::Matchers::Contains("positive"));
}

TEST_CASE("files that are not frmini meshes are refused", "[meshes]") {
  const std::string path = tmp("bad.h5");
  { std::ofstream(path) << "not hdf5"; }
  CHECK_THROWS_WITH(read_mesh(path), Catch::Matchers::Contains("not an HDF5 file"));
  CHECK_THROWS_WITH(read_mesh(tmp("missing.h5")), Catch::Matchers::Contains("no such file"));
  fs::remove(path);
}
