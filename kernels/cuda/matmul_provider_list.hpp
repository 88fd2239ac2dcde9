// The cuda backend's matmul providers, in the order 'auto' asks them, one line each:
// X(name, what it is). Each is made by `make_<name>_provider(CudaBackend&)` in its own file;
// see kernels/cpu/matmul_provider_list.hpp.
#pragma once

#define FRMINI_CUDA_MATMUL_PROVIDERS(X)                                       \
  X(generated, "kernels generated for each operator, its entries in the source") \
  X(blas, "cuBLASLt with its algorithms searched")                            \
  X(cublas, "plain cuBLAS gemm")                                              \
  X(reference, "plain loops, the correctness yardstick")
