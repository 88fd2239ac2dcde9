// Test support: the backends a test can run on this machine.
#pragma once

#include <string>
#include <vector>

#include "base/error.hpp"
#include "kernels/backend.hpp"
#include "tests/frmini_catch.hpp"

namespace frmini::test {

// "cpu", and "opencl" when an OpenCL device exists (otherwise the test says it skipped it).
inline std::vector<std::string> cpu_and_opencl() {
  std::vector<std::string> names{"cpu"};
  try {
    kernels::make_backend("opencl");
    names.push_back("opencl");
  } catch (const UserError&) {
    WARN("skipped for opencl: no OpenCL device");
  }
  return names;
}

}  // namespace frmini::test
