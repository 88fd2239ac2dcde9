// Choosing an OpenCL device and reading the properties the backend and the kernel generator
// need (vector widths, local memory, cache size, fp64).
#pragma once

#include <cstddef>
#include <string>

#include "kernels/backend.hpp"
#include "kernels/opencl/driver.hpp"

namespace frmini::kernels::opencl {

struct DeviceInfo {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  std::string platform_name, device_name, device_version, driver_version;
  cl_device_type type = 0;
  bool is_gpu = false;
  bool fp64 = false;
  cl_uint compute_units = 1;
  cl_uint pref_width_float = 1, pref_width_double = 1;  // CL_DEVICE_PREFERRED_VECTOR_WIDTH_*
  std::size_t base_align_bytes = 128;                   // CL_DEVICE_MEM_BASE_ADDR_ALIGN / 8
  std::size_t local_mem_bytes = 0;
  bool local_mem_is_global = false;                     // CL_GLOBAL local memory (CPUs)
  std::size_t max_work_group = 1;
  std::size_t global_cache_bytes = 0;                   // the last-level cache the device reports
  std::size_t max_alloc_bytes = 0;
  std::size_t global_mem_bytes = 0;

  // "PoCL / pthread-skylake-avx512-AMD EPYC (driver 3.1+debian)": reports and cache keys.
  std::string description() const;
};

// The platform whose name contains opts.platform (case-insensitive; "" = the first platform
// that has a device), and its device number opts.device. Throws UserError when there is no
// OpenCL device at all, no platform matches, or the index is out of range.
DeviceInfo select_device(const BackendOptions& opts);

}  // namespace frmini::kernels::opencl
