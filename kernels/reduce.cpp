#include "kernels/reduce.hpp"


namespace frmini::kernels {

std::string reduce_source(const pointwise::Dialect& d, Precision p) {
  const bool dbl = p == Precision::double_;
  std::string s = d.reduce_macros(p);
  s += std::string("typedef ") + (dbl ? "double" : "float") + " fp;\n";
  s += "#define LOCAL " + std::to_string(reduce_group_size) + "\n";
  s += R"K(
// op 0: sum; op 1: largest |x|; a NaN, once seen, is kept (comparisons with NaN are false).
RKERNEL frmini_reduce(GMEM const fp* x, ulong off, ulong n, int op, GMEM fp* part) {
  SMEM fp s[LOCAL];
  const ulong l = LID, g = GID, ng = NGROUPS;
  const ulong chunk = (n + ng - 1) / ng, b = g * chunk, e = n < b + chunk ? n : b + chunk;
  fp acc = 0;
  for (ulong i = b + l; i < e; i += LOCAL) {
    fp v = x[off + i];
    if (op == 0) acc += v;
    else { v = fabs(v); if (acc == acc && !(v <= acc)) acc = v; }
  }
  s[l] = acc;
  BARRIER;
  for (ulong w = LOCAL / 2; w > 0; w >>= 1) {
    if (l < w) {
      const fp a = s[l], c = s[l + w];
      s[l] = op == 0 ? a + c : ((a != a || c <= a) ? a : c);
    }
    BARRIER;
  }
  if (l == 0) part[g] = s[0];
}
)K";
  return s;
}

}  // namespace frmini::kernels
