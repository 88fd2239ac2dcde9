// libFuzzer target: an HDF5 solution file through read_solution (what `frmini restart` and
// `frmini export` read first). The input edits a valid solution file through the HDF5 API
// (fuzz_h5_edit.hpp says why; FRMINI_FUZZ_RAW=1: the input is the file). UserError is the
// expected answer to bad input.
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "base/error.hpp"
#include "solver/io/solution_file.hpp"
#include "tests/fuzz/fuzz_common.hpp"
#include "tests/fuzz/fuzz_h5_edit.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<std::string> templates = {FRMINI_FUZZ_TEMPLATES
                                                     "/solution/vortex_quad_p1.h5"};
  static const std::vector<std::string> attrs = {"format", "config", "config-name", "flags",
                                                 "mesh-uuid", "system", "order", "ndims",
                                                 "nvars", "variables"};
  static const std::vector<std::string> names = {"p1-quad", "p1-tri", "p0-quad", "p2-quad",
                                                 "p1-hex", "p1-", "stats", "soln"};
  const std::string path = frmini::fuzz::input_file(data, size, templates, attrs, names);
  try {
    (void)frmini::solver::read_solution(path);
  } catch (const frmini::UserError&) {
  }
  std::remove(path.c_str());
  return 0;
}
