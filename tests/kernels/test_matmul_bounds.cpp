// Every cpu matmul provider stays inside its operands: on ragged widths (n not a multiple of
// the SIMD width, nor of libxsmm's 16-column chunk) and on the column sub-ranges that the
// solver's cache-blocked chains ask for, on whatever ISA the run targets ($FRMINI_CPU_ISA;
// .ci/run runs this file a second time with the AVX2 target).
//
// Writes outside the product are caught by a canary fill of the whole buffer (padding columns,
// the rows' ends, the offset before the panel); reads and writes past the end of a panel by a
// PROT_NONE page placed right after its last element (at most 63 bytes after it: panels are
// 64-byte aligned), so an overrun faults there instead of passing unseen.
#include <algorithm>
#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <random>

#include "base/error.hpp"
#include "kernels/backends.hpp"
#include "kernels/cpu/backend.hpp"
#include "kernels/cpu/device.hpp"
#include "kernels/matmul/provider.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/kernels/matmul_harness.hpp"
#include "tests/support/temp_cache.hpp"

using namespace frmini;
using namespace frmini::test;

namespace {

// Decisions of 'auto' are timed afresh, not read from an earlier run.
struct FreshTuneCache : TempCache {
  FreshTuneCache() : TempCache("FRMINI_TUNE_CACHE", "0") {}
};

constexpr double canary = -7.25;  // exact in both precisions

// A rows x ld panel whose last element (row rows-1, column n-1) ends within 64 bytes of a
// PROT_NONE page; everything else of the buffer before that page holds the canary.
class GuardedPanel {
 public:
  GuardedPanel(Backend& be, Precision p, std::size_t rows, std::size_t ld, std::size_t n)
      : be_(be), s_(kernels::itemsize(p)), prec_(p) {
    const long ps = sysconf(_SC_PAGESIZE);
    page_ = std::size_t(ps > 0 ? ps : 4096);
    const std::size_t used = ((rows - 1) * ld + n) * s_;
    buf_ = be.alloc(used + 3 * page_ + 64);
    auto* base = static_cast<unsigned char*>(kernels::cpu::host_ptr(*buf_));
    REQUIRE(reinterpret_cast<std::uintptr_t>(base) % 64 == 0);
    const std::uintptr_t b = reinterpret_cast<std::uintptr_t>(base);
    const std::uintptr_t guard = (b + used + 64 + page_ - 1) / page_ * page_;
    const std::uintptr_t start = (guard - used) / 64 * 64;
    offset_ = (start - b) / s_;
    guard_ = reinterpret_cast<void*>(guard);
    size_ = guard - b;  // bytes before the guard page: what the checks read
    fill_canary();
    REQUIRE(mprotect(guard_, page_, PROT_NONE) == 0);
  }
  ~GuardedPanel() { mprotect(guard_, page_, PROT_READ | PROT_WRITE); }
  GuardedPanel(const GuardedPanel&) = delete;
  GuardedPanel& operator=(const GuardedPanel&) = delete;

  Buffer& buffer() { return *buf_; }
  std::size_t offset() const { return offset_; }
  std::size_t count() const { return size_ / s_; }  // elements before the guard page

  void fill_canary() { write(std::vector<double>(count(), canary)); }
  void write(const std::vector<double>& v) {
    if (prec_ == Precision::double_) {
      be_.upload(*buf_, 0, v.data(), v.size() * 8);
    } else {
      std::vector<float> f(v.begin(), v.end());
      be_.upload(*buf_, 0, f.data(), f.size() * 4);
    }
  }
  std::vector<double> read() const {
    if (prec_ == Precision::double_) {
      std::vector<double> v(count());
      be_.download(v.data(), *buf_, 0, v.size() * 8);
      return v;
    }
    std::vector<float> f(count());
    be_.download(f.data(), *buf_, 0, f.size() * 4);
    return {f.begin(), f.end()};
  }

 private:
  Backend& be_;
  std::size_t s_;
  Precision prec_;
  std::size_t page_ = 4096, offset_ = 0, size_ = 0;
  std::unique_ptr<Buffer> buf_;
  void* guard_ = nullptr;
};

// The product over columns [c0, c1) checked against a host reference, and every other element
// of C's buffer, and all of B's, checked to be as it was.
struct Case {
  Backend& be;
  Precision prec;
  const km::HostMatrix& a;
  double beta;
  std::size_t n, ld;
  GuardedPanel b, c;
  std::vector<double> bv, cv;  // initial buffers (B's values, C's canaries and start values)

  Case(Backend& be_, Precision p, const km::HostMatrix& a_, double beta_, std::size_t n_,
       std::size_t ld_)
      : be(be_), prec(p), a(a_), beta(beta_), n(n_), ld(ld_), b(be_, p, a_.cols, ld_, n_),
        c(be_, p, a_.rows, ld_, n_) {
    std::mt19937_64 rng(n * 31 + a.rows);
    std::uniform_real_distribution<double> u(-1, 1);
    auto round = [&](double x) { return prec == Precision::single ? double(float(x)) : x; };
    bv.assign(b.count(), canary);
    cv.assign(c.count(), canary);
    for (std::size_t i = 0; i < a.cols; ++i)
      for (std::size_t j = 0; j < n; ++j) bv[b.offset() + i * ld + j] = round(u(rng));
    for (std::size_t i = 0; i < a.rows; ++i)
      for (std::size_t j = 0; j < n; ++j) cv[c.offset() + i * ld + j] = round(u(rng));
    b.write(bv);
  }
  km::Problem problem() {
    km::Problem p;
    p.a = a;
    p.beta = beta;
    p.precision = prec;
    p.n = n;
    p.b = {&b.buffer(), b.offset(), ld};
    p.c = {&c.buffer(), c.offset(), ld};
    p.name = "bounds";
    return p;
  }
  void reset() { c.write(cv); }
  // Normwise relative error inside [c0, c1); +inf if anything outside changed.
  double check(std::size_t c0, std::size_t c1) const {
    if (b.read() != bv) return INFINITY;
    const auto got = c.read();
    double num = 0, den = 0;
    for (std::size_t idx = 0; idx < got.size(); ++idx) {
      const bool in_panel = idx >= c.offset() && (idx - c.offset()) / ld < a.rows;
      const std::size_t i = (idx - c.offset()) / ld, j = (idx - c.offset()) % ld;
      if (!in_panel || j < c0 || j >= c1) {
        if (got[idx] != cv[idx]) return INFINITY;
        continue;
      }
      double ref = beta * cv[idx];
      for (std::size_t q = 0; q < a.cols; ++q) ref += a(i, q) * bv[b.offset() + q * ld + j];
      num = std::max(num, std::abs(got[idx] - ref));
      den = std::max(den, std::abs(ref));
    }
    return den > 0 ? num / den : num;
  }
};

}  // namespace

TEST_CASE("matmul bounds: every cpu provider and auto stay inside their panels on ragged widths",
          "[matmul][bounds]") {
  FreshTuneCache tc;
  auto be = kernels::make_backend("cpu");
  // A random sparse 13 x 11 operator with no empty row (libxsmm declines those for beta = 0).
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(0, 1), v(-2, 2);
  km::HostMatrix a{13, 11, std::vector<double>(13 * 11, 0.0)};
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t j = 0; j < a.cols; ++j)
      if (u(rng) < 0.35 || j == i % a.cols) a(i, j) = v(rng);
  INFO("ISA target: " << kernels::cpu::isa_target().name << ", "
                      << kernels::cpu::simd_bytes() * 8 << "-bit");
  std::size_t checked = 0, xsmm_checked = 0;
  for (auto prec : {Precision::double_, Precision::single}) {
    const std::size_t soa = be->soa_width(prec);
    const double tol = prec == Precision::double_ ? 1e-12 : 1e-5;
    for (double beta : {0.0, 1.0})
      for (std::size_t n : {std::size_t(8), std::size_t(40), std::size_t(52), std::size_t(1000)}) {
        const std::size_t ld = 1040;  // a multiple of every SIMD width, wider than every n
        Case cs(*be, prec, a, beta, n, ld);
        // Column ranges as the chains give them: starts on multiples of the SIMD width, ends
        // there or at n; the whole panel; pieces covering it; a range in the middle.
        const std::size_t one = std::min(n, soa), mid = std::min(n, 3 * soa);
        std::vector<std::vector<std::pair<std::size_t, std::size_t>>> runs{
            {{0, n}}, {{0, one}, {one, mid}, {mid, n}}, {{one, std::min(n, 5 * soa)}}};
        // Every provider's every candidate, then 'auto' (which times them all on these very
        // operands: C must come back from its timing runs as it was).
        std::vector<std::shared_ptr<km::Provider>> provs = be->matmul_providers();
        provs.push_back(nullptr);
        for (const auto& prov : provs) {
          std::string why;
          std::vector<std::unique_ptr<km::Kernel>> ks;
          if (prov) {
            ks = prov->candidates(cs.problem(), &why);
          } else {
            cs.reset();
            ks.push_back(km::make_kernel(*be, "auto", cs.problem()));
            INFO("auto chose " << ks[0]->provider() << "/" << ks[0]->strategy());
            REQUIRE(cs.check(0, 0) == 0.0);  // nothing changed by tuning
          }
          const std::string pname = prov ? prov->name() : "auto";
          INFO(pname << " " << kernels::to_string(prec) << " beta=" << beta << " n=" << n
                            << (ks.empty() ? " declined: " + why : std::string()));
          if (ks.empty()) {
            CHECK(pname == "xsmm");  // only libxsmm has limits (beta, narrow n, no JIT)
            continue;
          }
          for (auto& k : ks)
            for (const auto& pieces : runs) {
              cs.reset();
              std::size_t lo = n, hi = 0;
              for (auto [c0, c1] : pieces)
                if (c1 > c0) {
                  k->run_columns(c0, c1);
                  lo = std::min(lo, c0), hi = std::max(hi, c1);
                }
              const double err = cs.check(lo, hi);
              INFO(k->strategy() << " columns [" << lo << ", " << hi << ") error " << err);
              REQUIRE(err <= tol);
              ++checked;
              xsmm_checked += pname == "xsmm";
            }
        }
      }
  }
  REQUIRE(checked > 0);
#if FRMINI_TEST_HAVE_XSMM
  // libxsmm runs (on x86-64 with AVX) unless the generic target has switched its JIT off.
  if (kernels::cpu::isa_target().name != "generic") REQUIRE(xsmm_checked > 0);
#endif
}

TEST_CASE("cpu ISA target: chosen by name, checked against the CPU, reaching the backend",
          "[cpu][isa]") {
  using kernels::cpu::make_isa_target;
  REQUIRE_THROWS_AS(make_isa_target("avx1024"), UserError);
  const auto generic = make_isa_target("generic");
  REQUIRE(generic.simd_bytes == 16);
  REQUIRE(generic.cflags.front() == "-march=x86-64");
  __builtin_cpu_init();
  for (auto [name, level, bytes] : {std::tuple{"avx2", "x86-64-v3", 32},
                                    std::tuple{"avx512", "x86-64-v4", 64}}) {
    const bool has = name == std::string("avx2") ? __builtin_cpu_supports("x86-64-v3")
                                                 : __builtin_cpu_supports("x86-64-v4");
    INFO(name << " (" << level << ") on this CPU: " << has);
    if (has) {
      const auto t = make_isa_target(name);
      REQUIRE(t.simd_bytes == std::size_t(bytes));
      REQUIRE(t.cflags.front() == std::string("-march=") + level);
    } else {
      REQUIRE_THROWS_AS(make_isa_target(name), UserError);
    }
  }
  // The run's target names itself in the report; the layout's SoA block is a 64-byte cache
  // line of each variable, or one vector where vectors are wider.
  auto be = kernels::make_backend("cpu");
  const auto& t = kernels::cpu::isa_target();
  const std::size_t block = std::max<std::size_t>(t.simd_bytes, 64);
  REQUIRE(be->soa_width(Precision::double_) == block / 8);
  REQUIRE(be->soa_width(Precision::single) == block / 4);
  if (t.name != "native")
    REQUIRE(be->device_description().find("(" + t.name + " target)") != std::string::npos);
}
