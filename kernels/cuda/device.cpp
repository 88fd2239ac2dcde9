#include "kernels/cuda/device.hpp"

#include <algorithm>

#include "base/error.hpp"

namespace frmini::kernels::cuda {

DeviceInfo open_device(const Driver& d, int index) {
  int count = 0;
  d.check(d.DeviceGetCount(&count), "cuDeviceGetCount");
  if (index < 0 || index >= count)
    throw UserError("cuda: device " + std::to_string(index) + " does not exist (" +
                    std::to_string(count) + " found)");
  DeviceInfo info;
  d.check(d.DeviceGet(&info.dev, index), "cuDeviceGet");
  char buf[256] = {};
  d.check(d.DeviceGetName(buf, sizeof buf, info.dev), "cuDeviceGetName");
  info.name = buf;
  int maj = 0, min = 0, l2 = 0;
  d.DeviceGetAttribute(&maj, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, info.dev);
  d.DeviceGetAttribute(&min, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, info.dev);
  d.DeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, info.dev);
  info.arch = maj * 10 + min;
  info.l2_bytes = std::size_t(std::max(l2, 0));
  return info;
}

}  // namespace frmini::kernels::cuda
