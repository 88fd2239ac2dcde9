// Matmul providers on small and awkward operators, make_kernel and the auto tuner.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "base/error.hpp"
#include "base/literal.hpp"
#include "kernels/cpu/backend.hpp"
#include "kernels/cpu/device.hpp"
#include "kernels/cpu/matmul_kernel.hpp"
#include "kernels/cpu/matmul_source.hpp"
#include "kernels/matmul/analysis.hpp"
#include "kernels/matmul/auto_tune.hpp"
#include "operators/operators.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/kernels/matmul_harness.hpp"
#include "tests/kernels/sweep.hpp"
#include "tests/support/temp_cache.hpp"

using namespace frmini;
using namespace frmini::test;

namespace {
// Generated C must compile without warnings.
struct StrictCache : TempCache {
  StrictCache() : TempCache("FRMINI_CFLAGS", "-Werror") {}
};

km::HostMatrix matrix(std::size_t r, std::size_t c, std::vector<double> v) {
  return km::HostMatrix{r, c, std::move(v)};
}

km::HostMatrix random_sparse(std::size_t r, std::size_t c, double density, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1), v(-2, 2);
  km::HostMatrix a{r, c, std::vector<double>(r * c, 0.0)};
  for (auto& x : a.data)
    if (u(rng) < density) x = v(rng);
  return a;
}
}  // namespace

TEST_CASE("matmul: awkward operators, all providers, both precisions, beta 0/1/0.5", "[matmul]") {
  StrictCache tc;
  auto be = kernels::make_backend("cpu");
  std::vector<std::pair<std::string, km::HostMatrix>> cases = {
      {"zero3x5", matrix(3, 5, std::vector<double>(15, 0.0))},
      {"one1x1", matrix(1, 1, {-1.5})},
      {"zero-row-col", matrix(3, 3, {1, 0, 2, 0, 0, 0, 3, 0, 4})},
      {"single-nnz", matrix(2, 7, {0, 0, 0, 0, 0, 0, 1e-3, 0, 0, 0, 0, 0, 0, 0})},
      {"sparse40x30", random_sparse(40, 30, 0.1, 1)},
      {"dense20x24", random_sparse(20, 24, 1.0, 2)},
      {"long-rows", random_sparse(5, 200, 0.6, 3)},
  };
  for (auto& [name, a] : cases)
    for (auto prec : {kernels::Precision::double_, kernels::Precision::single})
      for (double beta : {0.0, 1.0, 0.5}) {
        auto st = sweep_operator(*be, a, name, prec, beta);
        REQUIRE(st.checked > 0);
      }
}

TEST_CASE("matmul: real operators quad p1-p3 (all providers)", "[matmul]") {
  StrictCache tc;
  auto be = kernels::make_backend("cpu");
  for (int order = 1; order <= 3; ++order) {
    auto ops = operators::build_operators("quad", order);
    for (const auto& op : operators::solver_operator_names()) {
      const auto& m = operators::get(ops, op);
      km::HostMatrix a{m.rows, m.cols, m.data};
      for (auto prec : {kernels::Precision::double_, kernels::Precision::single})
        for (double beta : {0.0, 1.0, 0.5})
          sweep_operator(*be, a, "quad-p" + std::to_string(order) + "-" + op, prec, beta);
    }
  }
}

TEST_CASE("matmul: alpha is folded in; unaligned leading dimensions and offsets", "[matmul]") {
  StrictCache tc;
  auto be = kernels::make_backend("cpu");
  auto a = random_sparse(17, 23, 0.3, 4);
  for (auto prec : {kernels::Precision::double_, kernels::Precision::single}) {
    const std::size_t n = 45, ld = 50;  // ld not a multiple of the SIMD width
    Operands ops(*be, prec, a.rows, a.cols, ld + 1, ld, 3, 5);
    auto p = ops.problem(a, -2.5, 0.5, n);
    ops.reset_c();
    km::make_kernel(*be, "reference", p)->run();
    auto ref = ops.read_c();
    for (const std::string prov : {"generated", "blas"}) {
      ops.reset_c();
      auto k = km::make_kernel(*be, prov, p);
      ops.reset_c();
      k->run();
      INFO(prov << " " << k->strategy());
      REQUIRE(product_error(ops.read_c(), ref, a.rows, n, ld, 5) <=
              (prec == kernels::Precision::double_ ? 1e-12 : 1e-5));
    }
    // libxsmm cannot take this layout: it declines with a reason, as a user error.
    try {
      km::make_kernel(*be, "xsmm", p);
      FAIL("xsmm accepted beta 0.5");
    } catch (const UserError& e) {
      REQUIRE(std::string(e.what()).find("beta") != std::string::npos);
    }
  }
  REQUIRE_THROWS_AS(km::make_kernel(*be, "nosuch", Operands(*be, kernels::Precision::double_, 2,
                                                            2, 8, 8, 0, 0).problem(a, 1, 0, 8)),
                    UserError);
}

namespace {
// A provider whose kernel is correct (it delegates) but slow: auto must not choose it.
class SlowProvider : public km::Provider {
 public:
  SlowProvider(std::shared_ptr<km::Provider> inner, std::string name, int sleep_us)
      : inner_(std::move(inner)), name_(std::move(name)), sleep_us_(sleep_us) {}
  std::string name() const override { return name_; }
  std::vector<std::unique_ptr<km::Kernel>> candidates(const km::Problem& p, std::string* why) override {
    std::vector<std::unique_ptr<km::Kernel>> out;
    auto ks = inner_->candidates(p, why);
    std::shared_ptr<km::Kernel> k(std::move(ks.at(0)));
    int us = sleep_us_;
    out.push_back(std::make_unique<kernels::cpu::CpuKernel>(
        name_, "slow", p, [k, us](std::size_t b, std::size_t e, std::ptrdiff_t, std::ptrdiff_t) {
          std::this_thread::sleep_for(std::chrono::microseconds(us));
          k->run_columns(b, e);
        }));
    return out;
  }

 private:
  std::shared_ptr<km::Provider> inner_;
  std::string name_;
  int sleep_us_;
};
}  // namespace

TEST_CASE("auto: restores C, never picks a slow candidate, decides deterministically", "[matmul][auto]") {
  StrictCache tc;
  setenv("FRMINI_TUNE_CACHE", "0", 1);
  auto be = kernels::make_backend("cpu");
  auto provs = be->matmul_providers();
  std::shared_ptr<km::Provider> blas;
  for (auto& p : provs)
    if (p->name() == "blas") blas = p;
  REQUIRE(blas);
  auto a = random_sparse(30, 30, 0.2, 5);
  Operands ops(*be, kernels::Precision::double_, 30, 30, 1024, 1024, 0, 0);
  auto p = ops.problem(a, 1.0, 1.0, 1000, "auto-test");
  const auto before = ops.read_c();

  // The slow candidate is the incumbent (asked first): it must still lose.
  auto slow = std::make_shared<SlowProvider>(blas, "slowblas", 20000);
  km::clear_tuning_log();
  auto k = km::tune(*be, {slow, blas}, p, "auto");
  REQUIRE(k->provider() == "blas");
  REQUIRE(ops.read_c() == before);  // beta = 1 timing runs accumulated into C: restored

  // Two equally fast candidates: the incumbent keeps its place (5% hysteresis), every time.
  auto same = std::make_shared<SlowProvider>(blas, "sameblas", 0);
  for (int i = 0; i < 3; ++i) {
    auto k2 = km::tune(*be, {same, slow}, p, "auto");
    REQUIRE(k2->provider() == "sameblas");
  }
  auto log = km::tuning_log();
  REQUIRE(log.size() == 4);
  REQUIRE(log[0].provider == "blas");
  REQUIRE(log[0].timings.size() == 2);

  // The real auto: a decision, recorded, C restored, and cached on disk for the next run.
  unsetenv("FRMINI_TUNE_CACHE");
  auto ka = km::make_kernel(*be, "auto", p);
  REQUIRE(ops.read_c() == before);
  REQUIRE(ka->provider() != "reference");
  auto kb = km::make_kernel(*be, "auto", p);
  REQUIRE(kb->provider() == ka->provider());
  REQUIRE(kb->strategy() == ka->strategy());
  REQUIRE(km::tuning_log().back().from_cache);
}

TEST_CASE("generated: literal embedding round-trips, strategies named", "[matmul]") {
  REQUIRE(frmini::literal(0.1) == "0.10000000000000001");
  REQUIRE(frmini::literal(2.0) == "2.0");
  REQUIRE(frmini::literal(0.1, true).back() == 'f');
}

TEST_CASE("generated (cpu): look-ahead kernels for whole panels, with coefficient registers",
          "[matmul]") {
  StrictCache tc;
  auto be = kernels::make_backend("cpu");
  std::shared_ptr<km::Provider> gen;
  for (auto& p : be->matmul_providers())
    if (p->name() == "generated") gen = p;
  REQUIRE(gen);
  // Few distinct magnitudes (so they are held in registers), both signs, rows that start with a
  // negative term, one long row (split partial sums), one empty row.
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> pick(0, 5);
  std::uniform_real_distribution<double> u(0, 1);
  const double vals[] = {0.5, -0.5, 1.25, -1.25, -3.0, 3.0};
  km::HostMatrix a{40, 30, std::vector<double>(40 * 30, 0.0)};
  for (std::size_t i = 0; i < a.data.size(); ++i)
    if (u(rng) < 0.3 || i / 30 == 7) a.data[i] = vals[pick(rng)];
  for (std::size_t j = 0; j < 30; ++j) a.data[11 * 30 + j] = 0.0;
  for (auto prec : {kernels::Precision::double_, kernels::Precision::single})
    for (double beta : {0.0, 1.0, 0.5}) {
      auto st = sweep_operator(*be, a, "few-values", prec, beta);
      REQUIRE(st.checked > 0);
    }
  // Offered for whole panels, not inside cache-blocked chains (B is already in cache there).
  Operands ops(*be, kernels::Precision::double_, a.rows, a.cols, 1024, 1024, 0, 0);
  auto names = [&](std::size_t block) {
    auto p = ops.problem(a, 1.0, 0.0, 1000);
    p.block = block;
    std::string all;
    for (auto& k : gen->candidates(p)) all += k->strategy() + " ";
    return all;
  };
  REQUIRE(names(0).find("-la") != std::string::npos);
  REQUIRE(names(64).find("-la") == std::string::npos);
}

TEST_CASE("generated (cpu): look-ahead prefetches beyond a 32-bit displacement fall back",
          "[matmul]") {
  // The look-ahead prefetch takes its byte displacement as an instruction immediate, which
  // x86-64 limits to 32 bits; rows further apart than that must use the other form. Such a
  // panel needs gigabytes, so this checks the source and that it compiles (-Werror), for every
  // vector width the generator targets: compile-only, with that ISA's -march after the
  // machine's, so it runs on any x86-64 machine whatever its own ISA.
  StrictCache tc;
  kernels::cpu::CpuBackend be(kernels::BackendOptions{});
  auto a = matrix(2, 3, {1.5, 0, -2, 0, 3, 0});
  auto an = km::analyse(a, 1.0);
  const std::pair<std::size_t, const char*> isas[] = {
      {64, "-march=x86-64-v4"}, {32, "-march=x86-64-v3"}, {16, "-march=x86-64"}};
  for (const auto& [simd, march] : isas)
    for (double beta : {0.0, 1.0}) {
      kernels::cpu::CodegenInput in;
      in.an = &an;
      in.beta = beta;
      in.simd_bytes = simd;
      in.ldb = std::size_t(1) << 28;  // row 2 of B: 2^29 doubles = 4 GiB past b
      in.ldc = std::size_t(1) << 29;  // row 1 of C: 4 GiB past c
      kernels::cpu::CStrategy la{kernels::cpu::CStrategy::cstream, 1, 1};
      la.lookahead = true;
      const auto src = kernels::cpu::generate_c(in, {la});
      INFO(march << " beta " << beta);
      // Row 0, one step (one vector of doubles) ahead; rows 4 GiB away, one step ahead.
      const std::string step = std::to_string(simd);
      REQUIRE(src.find("PFB(" + step + ");") != std::string::npos);
      REQUIRE(src.find("PFBX(536870912);") != std::string::npos);
      if (beta == 1.0) {
        REQUIRE(src.find("PFC(" + step + ");") != std::string::npos);
        REQUIRE(src.find("PFCX(536870912);") != std::string::npos);
      }
      REQUIRE(be.compile_c(src, {march})->symbol(kernels::cpu::mm_symbol(0)) != nullptr);
      // Under an -march without the width's streaming-store intrinsic the source still
      // compiles (plain stores): nothing in it assumes an ISA the compiler does not target.
      REQUIRE(be.compile_c(src, {"-march=x86-64"})->symbol(kernels::cpu::mm_symbol(0)) !=
              nullptr);
    }
}

TEST_CASE("generated (cpu): a chain's output larger than the cache is streamed, and correct",
          "[matmul]") {
  // hex p3 M0 with C larger than the usable last-level cache, run block by block as a chain runs it:
  // when nothing in the chain reads C, only streaming-store candidates are offered, and each
  // gives the reference provider's product.
  StrictCache tc;
  auto be = kernels::make_backend("cpu");
  std::shared_ptr<km::Provider> gen, ref;
  for (auto& p : be->matmul_providers()) {
    if (p->name() == "generated") gen = p;
    if (p->name() == "reference") ref = p;
  }
  REQUIRE((gen && ref));
  const auto m0 = operators::get(operators::build_operators("hex", 3, ""), "M0");
  const auto a = matrix(m0.rows, m0.cols, m0.data);
  const std::size_t block = 640;
  const std::size_t llc = kernels::cpu::usable_llc_bytes(kernels::cpu::max_threads());
  if (llc == 0) {  // nothing is streamed where the cache size is unknown
    FRMINI_SKIP("the last-level cache size is unknown here");
  }
  const std::size_t n = (llc / (a.rows * 8) + block) / block * block + block / 2;  // ragged end
  Operands ops(*be, kernels::Precision::double_, a.rows, a.cols, n, n, 0, 0);
  auto p = ops.problem(a, 1.0, 0.0, n);
  p.block = block;
  p.c_leaves_chain = true;
  auto want = [&] {
    ops.reset_c();
    ref->candidates(p).front()->run();
    be->synchronize();
    return ops.read_c();
  }();
  auto ks = gen->candidates(p);
  REQUIRE(!ks.empty());
  for (auto& k : ks) {
    INFO(k->strategy());
    CHECK(k->strategy().find("-nt") != std::string::npos);
    ops.reset_c();
    be->run_chain(int64_t(n), int64_t(block),
                  {[&k](int64_t b, int64_t e) { k->run_columns(std::size_t(b), std::size_t(e)); }});
    be->synchronize();
    CHECK(product_error(ops.read_c(), want, a.rows, n, n, 0) < 1e-13);
  }
  // Read again in the chain: plain stores only.
  p.c_leaves_chain = false;
  for (auto& k : gen->candidates(p)) CHECK(k->strategy().find("-nt") == std::string::npos);

  // C alone smaller than the cache, but not with the k rows of every column the chain read to
  // make B (Taylor-Green p = 3 single: C 31.5 MB, the cache 32 MiB): streamed all the same.
  // And a C that fits with them is not.
  auto streamed = [&](std::size_t cols) {
    Operands o(*be, kernels::Precision::double_, a.rows, a.cols, cols, cols, 0, 0);
    auto q = o.problem(a, 1.0, 0.0, cols);
    q.block = block;
    q.c_leaves_chain = true;
    auto cs = gen->candidates(q);
    REQUIRE(!cs.empty());
    bool all = true, none = true;
    for (auto& k : cs) (k->strategy().find("-nt") != std::string::npos ? none : all) = false;
    REQUIRE((all || none));
    return all;
  };
  const std::size_t under = (llc / (a.rows * 8) - block) / block * block;     // C < llc
  const std::size_t fits = (llc / ((a.rows + a.cols) * 8) - block) / block * block;  // C + B rows < llc
  REQUIRE(under * (a.rows + a.cols) * 8 > llc);
  CHECK(streamed(under));
  CHECK_FALSE(streamed(fits));
}

TEST_CASE("cpu: cache blocks and streaming stores count at most 16 MiB of cache a thread",
          "[matmul]") {
  // A VM's sysfs reports its host's whole L3 (480 MiB on a 2-vCPU Intel Xeon); sized from
  // that, a chain's blocks held 31 MB and its outputs were never streamed, which made the
  // chains slower than no chains at all (Taylor-Green hex p3: 0.53 s a step against 0.35).
  const std::size_t llc = kernels::cpu::llc_bytes(), mib = std::size_t(1) << 20;
  for (int t : {1, 2, 64}) CHECK(kernels::cpu::usable_llc_bytes(t) == std::min(llc, 16 * mib * std::size_t(t)));
  auto be = kernels::make_backend("cpu");
  const int threads = be->chain_slots();
  // hex p3 Navier-Stokes, double: what one element's longest chain touches (solver/system).
  const std::size_t unit = 37120;
  const int64_t block = be->chain_block(unit, 8);
  const std::size_t l2 = kernels::cpu::l2_bytes() ? kernels::cpu::l2_bytes() : mib;
  const std::size_t most = std::max(l2 / 2, 16 * mib / 8);
  INFO("block " << block << " elements, " << threads << " threads");
  CHECK(block >= 8);
  CHECK(block % 8 == 0);
  CHECK(std::size_t(block) * unit <= std::max(most, 8 * unit));
}
