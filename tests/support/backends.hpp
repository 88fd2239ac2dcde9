// Test support: the backends a test can run on this machine.
#pragma once

#include <memory>
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

// The opencl backend, for tests that require it (CI installs PoCL): a missing device fails the
// test with the reason, never passes it unseen.
inline std::unique_ptr<kernels::Backend> opencl_or_fail() {
  try {
    return kernels::make_backend("opencl");
  } catch (const UserError& e) {
    FAIL("no OpenCL device (install pocl-opencl-icd): " << e.what());
  }
  return nullptr;
}

}  // namespace frmini::test
