// libFuzzer target: an HDF5 mesh file through read_mesh, then the Jacobian check that
// `frmini mesh-info` runs. The input edits a valid mesh file through the HDF5 API
// (fuzz_h5_edit.hpp says why; FRMINI_FUZZ_RAW=1: the input is the file). UserError is the
// expected answer to bad input; HDF5's own error printing is switched off by the reader.
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "base/error.hpp"
#include "meshes/connectivity.hpp"
#include "meshes/mesh_file.hpp"
#include "tests/fuzz/fuzz_common.hpp"
#include "tests/fuzz/fuzz_h5_edit.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<std::string> templates = {FRMINI_FUZZ_TEMPLATES "/mesh/box_quad.h5",
                                                     FRMINI_FUZZ_TEMPLATES "/mesh/box_hex.h5"};
  static const std::vector<std::string> attrs = {"format", "version", "creator", "ndims",
                                                 "mesh_uuid", "etypes", "boundaries", "order",
                                                 "nparts", "weights"};
  static const std::vector<std::string> names = {"nodes", "curved", "faces", "quad", "hex",
                                                 "tri", "transforms", "pairs", "wall"};
  const std::string path = frmini::fuzz::input_file(data, size, templates, attrs, names);
  try {
    auto mesh = frmini::meshes::read_mesh(path);
    frmini::meshes::check_jacobians(mesh, path);
  } catch (const frmini::UserError&) {
  }
  std::remove(path.c_str());
  return 0;
}
