#include "kernels/cuda/driver.hpp"

#include <mutex>
#include <stdexcept>

#include "base/error.hpp"
#include "kernels/cuda/dynlib.hpp"

namespace frmini::kernels::cuda {

namespace {

struct Loaded {
  Driver d{};
  std::string error;  // empty when usable
};

#define FRMINI_STR2(x) #x
#define FRMINI_STR(x) FRMINI_STR2(x)
// cuda.h #defines e.g. cuMemAlloc to cuMemAlloc_v2; stringifying after expansion gives the
// versioned symbol the header's prototype belongs to.
#define FRMINI_RESOLVE(field, api)                              \
  if (!resolve(h, FRMINI_STR(api), l.d.field)) {                \
    l.error = std::string("libcuda.so.1: no symbol ") + FRMINI_STR(api); \
    return l;                                                   \
  }

Loaded load() {
  Loaded l;
  std::string why;
  void* h = open_first({"libcuda.so.1", "libcuda.so"}, &why);
  if (!h) {
    l.error = why;
    return l;
  }
  FRMINI_RESOLVE(Init, cuInit)
  FRMINI_RESOLVE(DriverGetVersion, cuDriverGetVersion)
  FRMINI_RESOLVE(DeviceGetCount, cuDeviceGetCount)
  FRMINI_RESOLVE(DeviceGet, cuDeviceGet)
  FRMINI_RESOLVE(DeviceGetName, cuDeviceGetName)
  FRMINI_RESOLVE(DeviceGetAttribute, cuDeviceGetAttribute)
  FRMINI_RESOLVE(DeviceTotalMem, cuDeviceTotalMem)
  FRMINI_RESOLVE(DevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain)
  FRMINI_RESOLVE(DevicePrimaryCtxRelease, cuDevicePrimaryCtxRelease)
  FRMINI_RESOLVE(CtxSetCurrent, cuCtxSetCurrent)
  FRMINI_RESOLVE(CtxSynchronize, cuCtxSynchronize)
  FRMINI_RESOLVE(MemAlloc, cuMemAlloc)
  FRMINI_RESOLVE(MemFree, cuMemFree)
  FRMINI_RESOLVE(MemsetD8, cuMemsetD8)
  FRMINI_RESOLVE(MemcpyHtoD, cuMemcpyHtoD)
  FRMINI_RESOLVE(MemcpyDtoH, cuMemcpyDtoH)
  FRMINI_RESOLVE(MemcpyDtoD, cuMemcpyDtoD)
  FRMINI_RESOLVE(ModuleLoadData, cuModuleLoadData)
  FRMINI_RESOLVE(ModuleUnload, cuModuleUnload)
  FRMINI_RESOLVE(ModuleGetFunction, cuModuleGetFunction)
  FRMINI_RESOLVE(FuncGetAttribute, cuFuncGetAttribute)
  FRMINI_RESOLVE(LaunchKernel, cuLaunchKernel)
  FRMINI_RESOLVE(EventCreate, cuEventCreate)
  FRMINI_RESOLVE(EventDestroy, cuEventDestroy)
  FRMINI_RESOLVE(EventRecord, cuEventRecord)
  FRMINI_RESOLVE(EventSynchronize, cuEventSynchronize)
  FRMINI_RESOLVE(EventElapsedTime, cuEventElapsedTime)
  FRMINI_RESOLVE(GetErrorString, cuGetErrorString)
  FRMINI_RESOLVE(GetErrorName, cuGetErrorName)
  FRMINI_RESOLVE(StreamCreate, cuStreamCreate)
  FRMINI_RESOLVE(StreamDestroy, cuStreamDestroy)
  // Optional: without them the backend runs without graphs.
  resolve(h, FRMINI_STR(cuStreamBeginCapture), l.d.StreamBeginCapture);
  resolve(h, FRMINI_STR(cuStreamEndCapture), l.d.StreamEndCapture);
  resolve(h, FRMINI_STR(cuStreamGetCaptureInfo), l.d.StreamGetCaptureInfo);
  resolve(h, FRMINI_STR(cuGraphInstantiate), l.d.GraphInstantiate);
  resolve(h, FRMINI_STR(cuGraphLaunch), l.d.GraphLaunch);
  resolve(h, FRMINI_STR(cuGraphExecDestroy), l.d.GraphExecDestroy);
  resolve(h, FRMINI_STR(cuGraphDestroy), l.d.GraphDestroy);
  resolve(h, FRMINI_STR(cuGraphExecKernelNodeSetParams), l.d.GraphExecKernelNodeSetParams);
  CUresult e = l.d.Init(0);
  if (e != CUDA_SUCCESS) {
    const char* name = nullptr;
    l.d.GetErrorName(e, &name);
    l.error = std::string("cuInit: ") + (name ? name : "error " + std::to_string(int(e)));
    return l;
  }
  int count = 0;
  if (l.d.DeviceGetCount(&count) != CUDA_SUCCESS || count == 0) l.error = "no device";
  return l;
}

const Loaded& loaded() {
  static const Loaded l = load();
  return l;
}

}  // namespace

void Driver::check(CUresult e, const char* what) const {
  if (e == CUDA_SUCCESS) return;
  const char* name = nullptr;
  const char* msg = nullptr;
  GetErrorName(e, &name);
  GetErrorString(e, &msg);
  throw std::runtime_error(std::string("cuda: ") + what + ": " + (name ? name : "?") + ": " +
                           (msg ? msg : "?"));
}

const Driver& driver() {
  const Loaded& l = loaded();
  if (!l.error.empty()) throw UserError("cuda: no CUDA driver/GPU found (" + l.error + ")");
  return l.d;
}

bool driver_available(std::string* why) {
  const Loaded& l = loaded();
  if (why) *why = l.error;
  return l.error.empty();
}

}  // namespace frmini::kernels::cuda
