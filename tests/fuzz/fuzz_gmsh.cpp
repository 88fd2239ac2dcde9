// libFuzzer target: a .msh file through frmini's importer (its envelope check, then the Gmsh
// SDK's parser, then frmini's reading of the model: node maps, groups, periodic entities) and
// the face matching of build_mesh. UserError is the expected answer to bad input.
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "meshes/connectivity.hpp"
#include "meshes/gmsh_import.hpp"
#include "operators/error.hpp"
#include "tests/fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto path = frmini::fuzz::write_temp(data, size, ".msh");
  try {
    auto mesh = frmini::meshes::build_mesh(frmini::meshes::read_gmsh(path));
    frmini::meshes::check_jacobians(mesh, path);
  } catch (const frmini::UserError&) {
  }
  std::remove(path.c_str());
  return 0;
}
