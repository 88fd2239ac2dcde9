// The cpu backend's matmul providers, in the order 'auto' asks them, one line each:
// X(name, what it is). Each is made by `make_<name>_provider(CpuBackend&)` in its own file
// (null where this build lacks its library); the case file's [backend] matmul takes its
// choices and help from these lists (kernels/backends.cpp, kernels/matmul/catalogue.cpp). Macros only: the config
// layer reads it in builds without this backend's libraries.
#pragma once

#define FRMINI_CPU_MATMUL_PROVIDERS(X)                                        \
  X(generated, "kernels generated for each operator, its entries in the source") \
  X(blas, "OpenBLAS")                                                         \
  X(xsmm, "libxsmm's JIT kernels")                                            \
  X(reference, "plain loops, the correctness yardstick")
