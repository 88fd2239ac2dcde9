// The OpenCL C API as the opencl backend uses it: one place that fixes the API version and
// turns error codes into internal errors that name the failing call.
#pragma once

// 1.2 is the newest API every driver we meet implements (PoCL, NVIDIA, AMD, Intel); the
// backend needs nothing newer (clEnqueueFillBuffer and markers are 1.2).
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <string>

namespace frmini::kernels::opencl {

// "CL_OUT_OF_RESOURCES" for -5, "CL error -1234" for a code it does not know.
std::string error_name(cl_int err);

// Throws std::runtime_error("opencl: <what> failed: <error name>") unless err == CL_SUCCESS.
// A failing API call is a bug or a broken driver, never the user's input: an internal error.
void check(cl_int err, const char* what);

}  // namespace frmini::kernels::opencl
