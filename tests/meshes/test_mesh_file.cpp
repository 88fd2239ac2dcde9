// The HDF5 mesh file: a round trip keeps everything (and the UUID); bad files are UserErrors.
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "base/error.hpp"
#include "meshes/mesh_file.hpp"
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

  fs::remove(path);
}

TEST_CASE("files that are not frmini meshes are refused", "[meshes]") {
  const std::string path = tmp("bad.h5");
  { std::ofstream(path) << "not hdf5"; }
  CHECK_THROWS_WITH(read_mesh(path), Catch::Matchers::Contains("not an HDF5 file"));
  CHECK_THROWS_WITH(read_mesh(tmp("missing.h5")), Catch::Matchers::Contains("no such file"));
  fs::remove(path);
}
