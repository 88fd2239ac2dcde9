// Malformed HDF5 mesh and solution files: a valid file is written, then one fault is injected
// with the HDF5 C API (a dataset of the wrong type or shape, a string attribute where a number
// belongs, an array attribute, a dataset cut short, the file cut at half its size). Every one
// must be a UserError (exit 2 from the CLI) whose message names the file and the dataset or
// attribute; none may crash or be read as if nothing were wrong. docs/reliability-fuzzing.md
// tabulates them.
#include <hdf5.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "base/error.hpp"
#include "meshes/h5util.hpp"
#include "meshes/mesh_file.hpp"
#include "solver/io/solution_file.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/meshes/strip_mesh.hpp"

using namespace frmini;
namespace fs = std::filesystem;
namespace h5 = meshes::h5;
using Catch::Matchers::Contains;

namespace {

std::string tmp(const std::string& name) {
  return (fs::temp_directory_path() / ("frmini-malformed-" + std::to_string(::getpid()) + "-" + name))
      .string();
}

// Opens `path` read-write and hands the root group to `edit`.
void edit(const std::string& path, const std::function<void(hid_t)>& f) {
  h5::silence_errors();
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  REQUIRE(file >= 0);
  f(file);
  H5Fclose(file);
}

// Replaces dataset `name` by one of `dims` holding `type` values (all `fill`).
void replace_dataset(hid_t root, const std::string& name, hid_t type, std::vector<hsize_t> dims,
                     double fill = 0) {
  REQUIRE(H5Ldelete(root, name.c_str(), H5P_DEFAULT) >= 0);
  size_t n = 1;
  for (auto d : dims) n *= d;
  h5::Handle space(H5Screate_simple(int(dims.size()), dims.data(), nullptr), H5Sclose);
  h5::Handle ds(H5Dcreate2(root, name.c_str(), type, space.id(), H5P_DEFAULT, H5P_DEFAULT,
                           H5P_DEFAULT), H5Dclose);
  REQUIRE(ds.valid());
  if (n == 0) return;
  if (H5Tget_class(type) == H5T_FLOAT) {
    const std::vector<double> values(n, fill);
    REQUIRE(H5Dwrite(ds.id(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0);
  } else {
    const std::vector<int32_t> values(n, int32_t(fill));  // fill is a small whole number here
    REQUIRE(H5Dwrite(ds.id(), H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0);
  }
}

void replace_attr_with_int(hid_t loc, const std::string& name, int64_t v) {
  REQUIRE(H5Adelete(loc, name.c_str()) >= 0);
  h5::write_attr(loc, name, v, "test");
}

void replace_attr_with_string(hid_t loc, const std::string& name) {
  REQUIRE(H5Adelete(loc, name.c_str()) >= 0);
  h5::write_attr(loc, name, std::string("three"), "test");
}

void replace_attr_with_array(hid_t loc, const std::string& name) {
  REQUIRE(H5Adelete(loc, name.c_str()) >= 0);
  hsize_t n = 4;
  h5::Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose);
  h5::Handle a(H5Acreate2(loc, name.c_str(), H5T_STD_I64LE, space.id(), H5P_DEFAULT, H5P_DEFAULT),
               H5Aclose);
  int64_t v[4] = {2, 2, 2, 2};
  H5Awrite(a.id(), H5T_NATIVE_INT64, v);
}

void truncate_half(const std::string& path) { fs::resize_file(path, fs::file_size(path) / 2); }

// Cuts the file halfway through the data of dataset `name`, which must be the last thing in
// the file, and rewrites the superblock's end-of-file address to match: HDF5 then opens the
// file (one cut anywhere else fails at open, "truncated file") and only reading that dataset
// can notice.
void truncate_inside(const std::string& path, const std::string& name) {
  haddr_t at = HADDR_UNDEF;
  hsize_t size = 0;
  {
    h5::silence_errors();
    h5::Handle f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    REQUIRE(f.valid());
    h5::Handle ds(H5Dopen2(f.id(), name.c_str(), H5P_DEFAULT), H5Dclose);
    REQUIRE(ds.valid());
    at = H5Dget_offset(ds.id());
    size = H5Dget_storage_size(ds.id());
  }
  REQUIRE(at != HADDR_UNDEF);
  REQUIRE(at + size == fs::file_size(path));
  const uint64_t eof = at + size / 2;
  fs::resize_file(path, eof);
  std::fstream io(path, std::ios::in | std::ios::out | std::ios::binary);
  char version = -1;
  io.seekg(8);
  io.read(&version, 1);
  REQUIRE(version == 0);  // superblock version 0: the end-of-file address is at byte 40
  char le[8];
  for (int i = 0; i < 8; ++i) le[i] = char((eof >> (8 * i)) & 0xff);
  io.seekp(40);
  io.write(le, 8);
  REQUIRE(io.good());
}

std::string mesh_file(const std::string& name) {
  const std::string path = tmp(name);
  meshes::write_mesh(path, meshes::build_mesh(meshes::test::strip_mesh(3, meshes::test::Ends::boundaries)));
  return path;
}

std::string solution_file(const std::string& name) {
  const std::string path = tmp(name);
  solver::SolutionFile s;
  s.config_text = "[solver]\norder = 1\n";
  s.config_name = "case.toml";
  s.mesh_uuid = "uuid";
  s.system = "euler";
  s.order = 1;
  s.ndims = 2;
  s.nvars = 4;
  s.etypes = {"quad"};
  s.shapes = {{3, 4, 4}};
  s.soln = {std::vector<double>(3 * 4 * 4, 1.0)};
  solver::write_solution(path, s);
  return path;
}

}  // namespace

TEST_CASE("malformed mesh files are refused naming the file and dataset", "[meshes][malformed]") {
  struct Fault {
    const char* name;
    std::function<void(hid_t)> inject;
    const char* expect;
  };
  const Fault faults[] = {
      {"nodes-int", [](hid_t r) { replace_dataset(r, "eles/quad/nodes", H5T_STD_I32LE, {3, 4, 2}); },
       "dataset /eles/quad/nodes holds integer values, expected float"},
      {"faces-float", [](hid_t r) { replace_dataset(r, "eles/quad/faces", H5T_IEEE_F64LE, {3, 4, 5}); },
       "dataset /eles/quad/faces holds float values, expected integer"},
      {"nodes-rank", [](hid_t r) { replace_dataset(r, "eles/quad/nodes", H5T_IEEE_F64LE, {24}); },
       "dataset /eles/quad/nodes has the wrong shape"},
      {"faces-count", [](hid_t r) { replace_dataset(r, "eles/quad/faces", H5T_STD_I32LE, {2, 4, 5}); },
       "dataset /eles/quad/faces has the wrong shape"},
      {"curved-count", [](hid_t r) { replace_dataset(r, "eles/quad/curved", H5T_STD_U8LE, {7}); },
       "dataset /eles/quad/curved has the wrong shape"},
      {"ndims-string", [](hid_t r) { replace_attr_with_string(r, "ndims"); },
       "attribute ndims holds a string, expected an integer"},
      {"version-array", [](hid_t r) { replace_attr_with_array(r, "version"); },
       "attribute version holds 4 values, expected one"},
      {"nodes-missing", [](hid_t r) { H5Ldelete(r, "eles/quad/nodes", H5P_DEFAULT); },
       "no dataset /eles/quad/nodes"},
      {"transforms-shape",
       [](hid_t r) { replace_dataset(r, "periodic/transforms", H5T_IEEE_F64LE, {3, 3}); },
       "dataset /periodic/transforms has the wrong shape"},
      {"ndims-5", [](hid_t r) { replace_attr_with_int(r, "ndims", 5); }, "attribute ndims = 5"},
      {"ndims-wraps", [](hid_t r) { replace_attr_with_int(r, "ndims", (int64_t(1) << 32) + 2); },
       "attribute ndims = 4294967298"},
  };
  for (const auto& f : faults) {
    DYNAMIC_SECTION(f.name) {
      const std::string path = mesh_file(std::string(f.name) + ".h5");
      edit(path, f.inject);
      CHECK_THROWS_AS(meshes::read_mesh(path), UserError);
      CHECK_THROWS_WITH(meshes::read_mesh(path), Contains(path) && Contains(f.expect));
      fs::remove(path);
    }
  }
  SECTION("truncated") {
    const std::string path = mesh_file("truncated.h5");
    truncate_half(path);
    CHECK_THROWS_WITH(meshes::read_mesh(path), Contains(path) && Contains("truncated file"));
    fs::remove(path);
  }
  SECTION("dataset truncated") {
    // A larger nodes array than the original, so that its data is written at the file's end.
    const std::string path = mesh_file("dataset-truncated.h5");
    edit(path, [](hid_t r) { replace_dataset(r, "eles/quad/nodes", H5T_IEEE_F64LE, {300, 4, 2}, 1); });
    truncate_inside(path, "eles/quad/nodes");
    CHECK_THROWS_WITH(meshes::read_mesh(path),
                      Contains(path) && Contains("dataset /eles/quad/nodes is truncated"));
    fs::remove(path);
  }
}

TEST_CASE("malformed solution files are refused naming the file and dataset", "[solver][malformed]") {
  struct Fault {
    const char* name;
    std::function<void(hid_t)> inject;
    const char* expect;
  };
  const Fault faults[] = {
      {"soln-int", [](hid_t r) { replace_dataset(r, "soln/p1-quad", H5T_STD_I32LE, {3, 4, 4}); },
       "dataset /soln/p1-quad holds integer values, expected float"},
      {"soln-rank", [](hid_t r) { replace_dataset(r, "soln/p1-quad", H5T_IEEE_F64LE, {3, 16}); },
       "dataset /soln/p1-quad has the wrong shape"},
      {"soln-nvars", [](hid_t r) { replace_dataset(r, "soln/p1-quad", H5T_IEEE_F64LE, {3, 5, 4}); },
       "dataset /soln/p1-quad has the wrong shape"},
      {"stats-short", [](hid_t r) { replace_dataset(r, "stats", H5T_IEEE_F64LE, {3}); },
       "dataset /stats has the wrong shape"},
      {"stats-int", [](hid_t r) { replace_dataset(r, "stats", H5T_STD_I32LE, {5}); },
       "dataset /stats holds integer values, expected float"},
      {"order-string", [](hid_t r) { replace_attr_with_string(r, "order"); },
       "attribute order holds a string, expected an integer"},
      {"nvars-array", [](hid_t r) { replace_attr_with_array(r, "nvars"); },
       "attribute nvars holds 4 values, expected one"},
      {"stats-missing", [](hid_t r) { H5Ldelete(r, "stats", H5P_DEFAULT); }, "no dataset /stats"},
      {"stats-nan", [](hid_t r) { replace_dataset(r, "stats", H5T_IEEE_F64LE, {5}, std::nan("")); },
       "dataset /stats holds a step count that is not a whole number"},
      {"soln-nupts", [](hid_t r) { replace_dataset(r, "soln/p1-quad", H5T_IEEE_F64LE, {3, 4, 9}); },
       "dataset /soln/p1-quad has the wrong shape (expected (neles, nvars = 4, nupts = 4))"},
      {"soln-etype",
       [](hid_t r) {
         H5Ldelete(r, "soln/p1-quad", H5P_DEFAULT);
         std::vector<double> v(3 * 4 * 8);
         h5::write_doubles(r, "soln/p1-hex", {3, 4, 8}, v.data(), "test");
       },
       "dataset /soln/p1-hex names no 2D element type"},
      {"order-99", [](hid_t r) { replace_attr_with_int(r, "order", 99); },
       "attribute order = 99 is out of range"},
  };
  for (const auto& f : faults) {
    DYNAMIC_SECTION(f.name) {
      const std::string path = solution_file(std::string(f.name) + ".h5");
      edit(path, f.inject);
      CHECK_THROWS_AS(solver::read_solution(path), UserError);
      CHECK_THROWS_WITH(solver::read_solution(path), Contains(path) && Contains(f.expect));
      fs::remove(path);
    }
  }
  SECTION("truncated") {
    const std::string path = solution_file("truncated.h5");
    truncate_half(path);
    CHECK_THROWS_WITH(solver::read_solution(path), Contains(path) && Contains("truncated file"));
    fs::remove(path);
  }
  SECTION("dataset truncated") {
    const std::string path = solution_file("dataset-truncated.h5");
    edit(path, [](hid_t r) { replace_dataset(r, "soln/p1-quad", H5T_IEEE_F64LE, {300, 4, 4}, 1); });
    truncate_inside(path, "soln/p1-quad");
    CHECK_THROWS_WITH(solver::read_solution(path),
                      Contains(path) && Contains("dataset /soln/p1-quad is truncated"));
    fs::remove(path);
  }
}
