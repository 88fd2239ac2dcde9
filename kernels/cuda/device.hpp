// Choosing a CUDA device and reading the properties the backend and the kernel generator need:
// its name, compute capability (the NVRTC target) and L2 size (the matmul tuner's DRAM sets).
#pragma once

#include <cuda.h>

#include <cstddef>
#include <string>

#include "kernels/cuda/driver.hpp"

namespace frmini::kernels::cuda {

struct DeviceInfo {
  CUdevice dev = 0;
  std::string name;
  int arch = 0;  // 90 for sm_90
  std::size_t l2_bytes = 0;
};

// Device `index` of the driver's; a UserError naming how many there are if it does not exist.
DeviceInfo open_device(const Driver& d, int index);

}  // namespace frmini::kernels::cuda
