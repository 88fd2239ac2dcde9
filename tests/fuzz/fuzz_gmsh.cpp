// libFuzzer target: a .msh file through frmini's importer (its envelope check, then the Gmsh
// SDK's parser, then frmini's reading of the model: node maps, groups, periodic entities) and
// the face matching of build_mesh. UserError is the expected answer to bad input.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "base/error.hpp"
#include "meshes/connectivity.hpp"
#include "meshes/gmsh_import.hpp"
#include "tests/fuzz/fuzz_common.hpp"

namespace {

// Gmsh 4.8 adds its executable's folder to PATH and PYTHONPATH each time it initialises (once
// per input here), and glibc keeps every value a variable has had: the strings grew by 34 bytes
// an input and their sum quadratically, past libFuzzer's 2 GB limit after about 35,000 inputs
// (an "out-of-memory" that no single input reproduces). Each input starts from the values the
// process began with; glibc then reuses the strings it already holds.
class RestoreEnv {
 public:
  explicit RestoreEnv(const char* name) : name_(name) {
    if (const char* v = std::getenv(name)) value_ = v;
  }
  void operator()() const {
    if (value_) setenv(name_, value_->c_str(), 1);
    else unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> value_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const RestoreEnv path("PATH"), pythonpath("PYTHONPATH");
  const auto file = frmini::fuzz::write_temp(data, size, ".msh");
  try {
    auto mesh = frmini::meshes::build_mesh(frmini::meshes::read_gmsh(file));
    frmini::meshes::check_jacobians(mesh, file);
  } catch (const frmini::UserError&) {
  }
  std::remove(file.c_str());
  path();
  pythonpath();
  return 0;
}
