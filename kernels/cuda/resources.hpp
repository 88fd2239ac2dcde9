// Per-kernel resource usage of a compiled cubin, read from ptxas's verbose report (NVRTC with
// -Xptxas=-v puts it in the program log, the same text `nvcc -cubin -Xptxas -v` prints).
// Spill bytes are what the matmul generator is judged on without a GPU (docs/performance-gpu.md).
#pragma once

#include <map>
#include <string>

namespace frmini::kernels::cuda {

struct Resources {
  int registers = -1;     // -1: not reported
  int spill_stores = 0;   // bytes per thread
  int spill_loads = 0;
  int stack_frame = 0;    // local memory per thread, bytes
  int shared = 0;         // static shared memory per CTA, bytes
  bool spills() const { return spill_stores > 0 || spill_loads > 0; }
};

// Kernel name -> resources, for every entry function the log reports.
std::map<std::string, Resources> parse_ptxas_log(const std::string& log);

}  // namespace frmini::kernels::cuda
