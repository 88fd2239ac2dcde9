// NVRTC, opened at run time: CUDA C++ source -> cubin for one architecture, with the resource
// report of every kernel, cached on disk. Usable without a GPU or a driver (the compile-only
// tests and `frmini cuda-resources` rely on that); the backend passes its device's arch.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "kernels/cuda/resources.hpp"

namespace frmini::kernels::cuda {

struct CompileResult {
  std::string cubin;                            // ELF image for cuModuleLoadData
  std::string log;                              // NVRTC log (ptxas -v report included)
  std::map<std::string, Resources> resources;   // per kernel
  bool from_cache = false;
};

class Compiler {
 public:
  // Opens NVRTC; throws UserError "cuda: NVRTC not found (...)" when it cannot.
  static Compiler& instance();

  std::string version() const;  // "13.0"

  // `arch` is the compute capability as major*10+minor (90 for sm_90). Compilation errors are
  // internal errors (std::runtime_error) carrying the log. Thread-safe (NVRTC programs are
  // independent), so callers may compile candidates in parallel.
  CompileResult compile_cubin(const std::string& source, int arch,
                              const std::vector<std::string>& flags = {},
                              bool use_cache = true) const;

  Compiler(const Compiler&) = delete;
  Compiler& operator=(const Compiler&) = delete;

 private:
  Compiler();
  struct Api;
  Api* api_;  // resolved once, lives for the process (the library is never closed)
  int major_ = 0, minor_ = 0;
};

}  // namespace frmini::kernels::cuda
