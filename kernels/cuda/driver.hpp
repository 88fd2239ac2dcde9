// The CUDA driver API, opened at run time from libcuda.so.1 (never linked: the stub library
// would make the binary fail to start without a GPU). cuda.h is included for types only; the
// entry points are resolved by the names cuda.h maps them to (the "_v2" ABI versions).
#pragma once

#include <cuda.h>

#include <string>

namespace frmini::kernels::cuda {

struct Driver {
  decltype(&::cuInit) Init;
  decltype(&::cuDriverGetVersion) DriverGetVersion;
  decltype(&::cuDeviceGetCount) DeviceGetCount;
  decltype(&::cuDeviceGet) DeviceGet;
  decltype(&::cuDeviceGetName) DeviceGetName;
  decltype(&::cuDeviceGetAttribute) DeviceGetAttribute;
  decltype(&::cuDeviceTotalMem) DeviceTotalMem;
  decltype(&::cuDevicePrimaryCtxRetain) DevicePrimaryCtxRetain;
  decltype(&::cuDevicePrimaryCtxRelease) DevicePrimaryCtxRelease;
  decltype(&::cuCtxSetCurrent) CtxSetCurrent;
  decltype(&::cuCtxSynchronize) CtxSynchronize;
  decltype(&::cuMemAlloc) MemAlloc;
  decltype(&::cuMemFree) MemFree;
  decltype(&::cuMemsetD8) MemsetD8;
  decltype(&::cuMemcpyHtoD) MemcpyHtoD;
  decltype(&::cuMemcpyDtoH) MemcpyDtoH;
  decltype(&::cuMemcpyDtoD) MemcpyDtoD;
  decltype(&::cuModuleLoadData) ModuleLoadData;
  decltype(&::cuModuleUnload) ModuleUnload;
  decltype(&::cuModuleGetFunction) ModuleGetFunction;
  decltype(&::cuFuncGetAttribute) FuncGetAttribute;
  decltype(&::cuLaunchKernel) LaunchKernel;
  decltype(&::cuEventCreate) EventCreate;
  decltype(&::cuEventDestroy) EventDestroy;
  decltype(&::cuEventRecord) EventRecord;
  decltype(&::cuEventSynchronize) EventSynchronize;
  decltype(&::cuEventElapsedTime) EventElapsedTime;
  decltype(&::cuGetErrorString) GetErrorString;
  decltype(&::cuGetErrorName) GetErrorName;
  decltype(&::cuStreamCreate) StreamCreate;
  decltype(&::cuStreamDestroy) StreamDestroy;
  // CUDA graphs (step_graphs.hpp): null where the driver predates them (12.3's capture info);
  // the backend then runs without graphs.
  decltype(&::cuStreamBeginCapture) StreamBeginCapture = nullptr;
  decltype(&::cuStreamEndCapture) StreamEndCapture = nullptr;
  decltype(&::cuStreamGetCaptureInfo) StreamGetCaptureInfo = nullptr;
  decltype(&::cuGraphInstantiate) GraphInstantiate = nullptr;
  decltype(&::cuGraphLaunch) GraphLaunch = nullptr;
  decltype(&::cuGraphExecDestroy) GraphExecDestroy = nullptr;
  decltype(&::cuGraphDestroy) GraphDestroy = nullptr;
  decltype(&::cuGraphExecKernelNodeSetParams) GraphExecKernelNodeSetParams = nullptr;
  bool has_graphs() const {
    return StreamBeginCapture && StreamEndCapture && StreamGetCaptureInfo && GraphInstantiate &&
           GraphLaunch && GraphExecDestroy && GraphDestroy && GraphExecKernelNodeSetParams;
  }

  // Throws std::runtime_error "cuda: <what>: <name>: <message>" unless e is CUDA_SUCCESS.
  void check(CUresult e, const char* what) const;
};

// The driver, opened and initialised once (cuInit, at least one device). Throws UserError
// "cuda: no CUDA driver/GPU found (libcuda.so.1: ...)" when there is none.
const Driver& driver();

// True when driver() would succeed (for tests that skip without a GPU).
bool driver_available(std::string* why = nullptr);

}  // namespace frmini::kernels::cuda
