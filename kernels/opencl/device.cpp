#include "kernels/opencl/device.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include "base/error.hpp"

namespace frmini::kernels::opencl {
namespace {

std::string lower(std::string s) {
  for (auto& ch : s) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

std::string platform_string(cl_platform_id p, cl_platform_info what) {
  std::size_t size = 0;
  check(clGetPlatformInfo(p, what, 0, nullptr, &size), "clGetPlatformInfo");
  std::string s(size, '\0');
  check(clGetPlatformInfo(p, what, size, s.data(), nullptr), "clGetPlatformInfo");
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::string device_string(cl_device_id d, cl_device_info what) {
  std::size_t size = 0;
  check(clGetDeviceInfo(d, what, 0, nullptr, &size), "clGetDeviceInfo");
  std::string s(size, '\0');
  check(clGetDeviceInfo(d, what, size, s.data(), nullptr), "clGetDeviceInfo");
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

template <class T>
T device_value(cl_device_id d, cl_device_info what) {
  T v{};
  check(clGetDeviceInfo(d, what, sizeof v, &v, nullptr), "clGetDeviceInfo");
  return v;
}

std::vector<cl_platform_id> platforms() {
  cl_uint n = 0;
  // The ICD loader returns CL_PLATFORM_NOT_FOUND_KHR (-1001) when no driver is installed:
  // that is "no device", not an internal error.
  if (clGetPlatformIDs(0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::vector<cl_platform_id> out(n);
  check(clGetPlatformIDs(n, out.data(), nullptr), "clGetPlatformIDs");
  return out;
}

std::vector<cl_device_id> devices(cl_platform_id p) {
  cl_uint n = 0;
  if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::vector<cl_device_id> out(n);
  check(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, n, out.data(), nullptr), "clGetDeviceIDs");
  return out;
}

DeviceInfo describe(cl_platform_id p, cl_device_id d) {
  DeviceInfo info;
  info.platform = p;
  info.device = d;
  info.platform_name = platform_string(p, CL_PLATFORM_NAME);
  info.device_name = device_string(d, CL_DEVICE_NAME);
  info.device_version = device_string(d, CL_DEVICE_VERSION);
  info.driver_version = device_string(d, CL_DRIVER_VERSION);
  info.type = device_value<cl_device_type>(d, CL_DEVICE_TYPE);
  info.is_gpu = (info.type & CL_DEVICE_TYPE_GPU) != 0;
  info.fp64 = device_value<cl_device_fp_config>(d, CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
  info.compute_units = device_value<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS);
  info.pref_width_float = std::max<cl_uint>(1, device_value<cl_uint>(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT));
  info.pref_width_double = std::max<cl_uint>(1, device_value<cl_uint>(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE));
  info.base_align_bytes = std::max<std::size_t>(1, device_value<cl_uint>(d, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8);
  info.local_mem_bytes = std::size_t(device_value<cl_ulong>(d, CL_DEVICE_LOCAL_MEM_SIZE));
  info.local_mem_is_global =
      device_value<cl_device_local_mem_type>(d, CL_DEVICE_LOCAL_MEM_TYPE) == CL_GLOBAL;
  info.max_work_group = device_value<std::size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  info.global_cache_bytes = std::size_t(device_value<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE));
  info.max_alloc_bytes = std::size_t(device_value<cl_ulong>(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE));
  info.global_mem_bytes = std::size_t(device_value<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE));
  return info;
}

}  // namespace

std::string DeviceInfo::description() const {
  return platform_name + " / " + device_name + " (driver " + driver_version + ")";
}

DeviceInfo select_device(const BackendOptions& opts) {
  const std::string no_device =
      "opencl: no OpenCL device found (install pocl-opencl-icd or a GPU driver)";
  auto all = platforms();
  if (all.empty()) throw UserError(no_device);
  if (opts.device < 0)
    throw UserError("opencl: device index " + std::to_string(opts.device) + " is negative");

  std::string names;  // for the error message when nothing matches
  bool any_device = false;
  for (auto p : all) {
    std::string name = platform_string(p, CL_PLATFORM_NAME);
    auto devs = devices(p);
    any_device = any_device || !devs.empty();
    names += (names.empty() ? "" : ", ") + ("'" + name + "'");
    if (!opts.platform.empty() && lower(name).find(lower(opts.platform)) == std::string::npos)
      continue;
    if (devs.empty()) continue;  // the default is the first platform WITH a device
    if (std::size_t(opts.device) >= devs.size())
      throw UserError("opencl: platform '" + name + "' has " + std::to_string(devs.size()) +
                      " device(s); device index " + std::to_string(opts.device) +
                      " is out of range");
    return describe(p, devs[std::size_t(opts.device)]);
  }
  if (!any_device) throw UserError(no_device);
  throw UserError("opencl: no platform with a device matches '" + opts.platform +
                  "' (platforms: " + names + ")");
}

}  // namespace frmini::kernels::opencl
