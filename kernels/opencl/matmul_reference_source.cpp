// The reference provider's kernel: deliberately simple (one work-item per C element, a plain
// loop over k reading A from a buffer) so that it is obviously right. It accumulates in
// double whenever the device has doubles, so single-precision results are checked against a
// better-rounded sum.
#include <string>

#include "kernels/opencl/matmul_source.hpp"

namespace frmini::kernels::opencl {

std::string reference_source(Precision p, bool fp64) {
  const std::string t = c_type(p);
  const std::string acc = fp64 ? "double" : "float";
  std::string s;
  if (fp64) s += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  s += "__kernel void frmini_ref(int m, int n, int k, __global const " + acc + "* a, " + acc +
       " alpha, " + acc + " beta, __global const " + t + "* b, ulong boff, long ldb, __global " +
       t + "* c, ulong coff, long ldc) {\n"
       "  const int i = get_global_id(0), j = get_global_id(1);\n"
       "  if (i >= n || j >= m) return;\n"
       "  " + acc + " sum = 0;\n"
       "  for (int x = 0; x < k; ++x) sum += a[(long)j*k + x] * (" + acc + ")b[boff + x*ldb + i];\n"
       "  sum *= alpha;\n"
       // beta == 0 must not read C (it may hold anything, NaN included).
       "  if (beta != 0) sum += beta * (" + acc + ")c[coff + j*ldc + i];\n"
       "  c[coff + j*ldc + i] = (" + t + ")sum;\n"
       "}\n";
  return s;
}

}  // namespace frmini::kernels::opencl
