// The opencl backend's matmul providers, in the order 'auto' asks them, one line each:
// X(name, what it is). Each is made by `make_<name>_provider(OpenCLBackend&)` in its own file
// (null where this build lacks its library); see kernels/cpu/matmul_provider_list.hpp.
#pragma once

#define FRMINI_OPENCL_MATMUL_PROVIDERS(X)                                     \
  X(generated, "kernels generated for each operator, its entries in the source") \
  X(blas, "CLBlast")                                                          \
  X(reference, "plain loops, the correctness yardstick")
