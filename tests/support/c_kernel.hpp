// Test support: compiles a pointwise kernel rendered as C with the system compiler (warnings
// are errors), loads it, and runs `points` kernels over host arrays. Unit tests of kernel
// sources use it before (and independently of) any backend.
#pragma once

#include <dlfcn.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/pointwise/render.hpp"
#include "tests/support/scratch_dir.hpp"

namespace frmini::test {

union CArg {
  void* p;
  int64_t i;
  double d;
};
using CFn = void (*)(int64_t, int64_t, const CArg*);

inline CFn compile_c(const std::string& src, const std::string& name, const std::string& stem) {
  namespace fs = std::filesystem;
  const fs::path dir = scratch_dir("frmini-ck");
  // dlopen returns the already-loaded library for a path it has seen: every build gets a
  // fresh name.
  static int serial = 0;
  const std::string base = stem + "-" + std::to_string(serial++);
  auto c = dir / (base + ".c"), so = dir / (base + ".so"), log = dir / (base + ".log");
  std::ofstream(c) << src;
  std::string cmd = "cc -std=c99 -O2 -Wall -Wextra -Werror -fopenmp -shared -fPIC -o " +
                    so.string() + " " + c.string() + " >" + log.string() + " 2>&1";
  if (std::system(cmd.c_str()) != 0) {
    std::ifstream l(log);
    std::string text((std::istreambuf_iterator<char>(l)), std::istreambuf_iterator<char>());
    throw std::runtime_error("compiling " + c.string() + " failed:\n" + text);
  }
  void* h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) throw std::runtime_error(dlerror());
  auto fn = reinterpret_cast<CFn>(dlsym(h, name.c_str()));
  if (!fn) throw std::runtime_error("no symbol " + name);
  return fn;
}

// Runs a double-precision `points` kernel whose args are all arrays or scalars over n points.
// `data[k]` holds arg k: for arrays, shape-product x n values (SoA, ld = n); for scalars,
// one value. Output arrays are written back into `data`.
inline void run_points(const kernels::pointwise::Spec& spec, std::vector<std::vector<double>>& data,
                       int64_t n, const std::string& stem) {
  using namespace kernels::pointwise;
  std::string src = render(spec, c_dialect(), kernels::Precision::double_, 8);
  CFn fn = compile_c(src, spec.name, stem);
  std::vector<CArg> a;
  for (const auto& sl : slots(spec)) {
    CArg x{};
    switch (sl.type) {
      case SlotType::fp_buffer: x.p = data[sl.arg].data(); break;
      case SlotType::int64: x.i = n; break;
      case SlotType::fp_scalar: x.d = data[sl.arg][0]; break;
      case SlotType::idx_buffer: throw std::logic_error("run_points: views need an arena");
    }
    a.push_back(x);
  }
  fn(0, n, a.data());
}

}  // namespace frmini::test
