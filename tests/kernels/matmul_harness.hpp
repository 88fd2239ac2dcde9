// Test helpers for matmul providers: operand panels with padded leading dimensions and
// offsets, the normwise relative error against the reference provider.
#pragma once

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "kernels/matmul/provider.hpp"

namespace frmini::test {

using kernels::Backend;
using kernels::Buffer;
using kernels::Precision;
namespace km = kernels::matmul;

// B (k x n) and C (m x n) panels at element offsets ob, oc with leading dimensions ldb, ldc,
// plus a pristine copy of C so each provider starts from the same C.
struct Operands {
  Backend& be;
  Precision prec;
  std::size_t m, k, ldb, ldc, ob, oc;
  std::unique_ptr<Buffer> b, c;
  std::vector<unsigned char> c0;

  Operands(Backend& be_, Precision p, std::size_t m_, std::size_t k_, std::size_t ldb_,
           std::size_t ldc_, std::size_t ob_, std::size_t oc_, unsigned seed = 1)
      : be(be_), prec(p), m(m_), k(k_), ldb(ldb_), ldc(ldc_), ob(ob_), oc(oc_) {
    const std::size_t s = kernels::itemsize(p);
    b = be.alloc((ob + std::max<std::size_t>(k, 1) * ldb) * s);
    c = be.alloc((oc + std::max<std::size_t>(m, 1) * ldc) * s);
    fill(*b, (ob + k * ldb), seed);
    fill(*c, (oc + m * ldc), seed + 7);
    c0.resize(c->bytes());
    be.download(c0.data(), *c, 0, c0.size());
  }
  void fill(Buffer& buf, std::size_t count, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    if (prec == Precision::double_) {
      std::vector<double> h(count);
      for (auto& x : h) x = u(rng);
      be.upload(buf, 0, h.data(), count * 8);
    } else {
      std::vector<float> h(count);
      for (auto& x : h) x = float(u(rng));
      be.upload(buf, 0, h.data(), count * 4);
    }
  }
  void reset_c() { be.upload(*c, 0, c0.data(), c0.size()); }
  km::Problem problem(const km::HostMatrix& a, double alpha, double beta, std::size_t n,
                      const std::string& name = "test") const {
    km::Problem p;
    p.a = a;
    p.alpha = alpha;
    p.beta = beta;
    p.precision = prec;
    p.n = n;
    p.b = {b.get(), ob, ldb};
    p.c = {c.get(), oc, ldc};
    p.name = name;
    return p;
  }
  // The whole C buffer as doubles (padding and offsets included: kernels must not touch them).
  std::vector<double> read_c() const {
    std::vector<double> out;
    if (prec == Precision::double_) {
      out.resize(c->bytes() / 8);
      be.download(out.data(), *c, 0, c->bytes());
    } else {
      std::vector<float> h(c->bytes() / 4);
      be.download(h.data(), *c, 0, c->bytes());
      out.assign(h.begin(), h.end());
    }
    return out;
  }
};

// max |got - ref| / max |ref| over the m x n product, and whether everything outside it
// (offset, padding columns) is untouched. Returns +inf when the padding was written.
inline double product_error(const std::vector<double>& got, const std::vector<double>& ref,
                            std::size_t m, std::size_t n, std::size_t ldc, std::size_t oc) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const bool inside = i >= oc && (i - oc) / ldc < m && (i - oc) % ldc < n;
    if (!inside) {
      if (got[i] != ref[i]) return INFINITY;
      continue;
    }
    num = std::max(num, std::abs(got[i] - ref[i]));
    den = std::max(den, std::abs(ref[i]));
  }
  return den > 0 ? num / den : num;
}

}  // namespace frmini::test
