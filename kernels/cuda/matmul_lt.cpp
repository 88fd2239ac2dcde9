// The cuda `blas` provider: cuBLASLt (opened at run time, libcublasLt.so.13) with an algorithm
// search, as PyFR's cuda backend does. Per operator shape and precision the heuristic's
// candidates (up to kLtCandidates) are timed on the real operands — D written to a scratch
// panel so C stays untouched for beta != 0 — and the fastest kept; the decision is cached on
// disk (matmul_lt_plan.hpp) by device, compute capability, cuBLASLt version and shape. The
// row-major to column-major mapping is lt_layouts()'s. Plain cuBLAS is the `cublas` provider.
#include <cublasLt.h>  // types and enums only

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>

#include "kernels/cuda/backend.hpp"
#include "kernels/matmul/auto_tune.hpp"
#include "kernels/cuda/dynlib.hpp"
#include "kernels/cuda/matmul_lt_plan.hpp"
#include "kernels/cuda/matmul_providers.hpp"

namespace frmini::kernels::cuda {

namespace {

using matmul::Kernel;
using matmul::Problem;

constexpr int kLtCandidates = 16;                     // heuristic candidates timed
constexpr std::size_t kLtWorkspace = 32u << 20;       // cuBLAS's recommendation on Hopper
// The search times candidates as the tuner does, with its defaults (matmul/auto_tune.hpp).
const matmul::TuneOptions kTune{};

struct LtLib {
  decltype(&::cublasLtGetVersion) version = nullptr;
  decltype(&::cublasLtCreate) create = nullptr;
  decltype(&::cublasLtDestroy) destroy = nullptr;
  decltype(&::cublasLtMatmulDescCreate) desc_create = nullptr;
  decltype(&::cublasLtMatmulDescDestroy) desc_destroy = nullptr;
  decltype(&::cublasLtMatrixLayoutCreate) layout_create = nullptr;
  decltype(&::cublasLtMatrixLayoutDestroy) layout_destroy = nullptr;
  decltype(&::cublasLtMatmulPreferenceCreate) pref_create = nullptr;
  decltype(&::cublasLtMatmulPreferenceDestroy) pref_destroy = nullptr;
  decltype(&::cublasLtMatmulPreferenceSetAttribute) pref_set = nullptr;
  decltype(&::cublasLtMatmulAlgoGetHeuristic) heuristic = nullptr;
  decltype(&::cublasLtMatmulAlgoConfigGetAttribute) algo_get = nullptr;
  decltype(&::cublasLtMatmul) matmul = nullptr;
  std::string error;

  explicit LtLib(const std::vector<std::string>& names) {
    void* h = open_first(names, nullptr);
    if (!h) {
      error = names.front() + " not found (searched LD_LIBRARY_PATH, $FRMINI_CUDA_ROOT, "
              "$CUDA_HOME, /usr/local/cuda)";
      return;
    }
    if (!resolve(h, "cublasLtGetVersion", version) || !resolve(h, "cublasLtCreate", create) ||
        !resolve(h, "cublasLtDestroy", destroy) ||
        !resolve(h, "cublasLtMatmulDescCreate", desc_create) ||
        !resolve(h, "cublasLtMatmulDescDestroy", desc_destroy) ||
        !resolve(h, "cublasLtMatrixLayoutCreate", layout_create) ||
        !resolve(h, "cublasLtMatrixLayoutDestroy", layout_destroy) ||
        !resolve(h, "cublasLtMatmulPreferenceCreate", pref_create) ||
        !resolve(h, "cublasLtMatmulPreferenceDestroy", pref_destroy) ||
        !resolve(h, "cublasLtMatmulPreferenceSetAttribute", pref_set) ||
        !resolve(h, "cublasLtMatmulAlgoGetHeuristic", heuristic) ||
        !resolve(h, "cublasLtMatmulAlgoConfigGetAttribute", algo_get) ||
        !resolve(h, "cublasLtMatmul", matmul))
      error = "libcublasLt: missing matmul symbols";
  }
};

void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cuda: ") + what + " failed (status " +
                             std::to_string(int(s)) + ")");
}

cudaDataType_t data_type(Precision p) { return p == Precision::single ? CUDA_R_32F : CUDA_R_64F; }

// One column range's descriptors: matmul desc and the three layouts (D shares C's).
class LtPlan {
 public:
  LtPlan(const LtLib& lib, const LtLayouts& l, Precision prec) : lib_(lib) {
    auto t = data_type(prec);
    auto compute = prec == Precision::single ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_64F;
    check(lib.desc_create(&desc, compute, t), "cublasLtMatmulDescCreate");
    check(lib.layout_create(&a, t, l.a.rows, l.a.cols, l.a.ld), "cublasLtMatrixLayoutCreate");
    check(lib.layout_create(&b, t, l.b.rows, l.b.cols, l.b.ld), "cublasLtMatrixLayoutCreate");
    check(lib.layout_create(&c, t, l.c.rows, l.c.cols, l.c.ld), "cublasLtMatrixLayoutCreate");
  }
  ~LtPlan() {
    if (c) lib_.layout_destroy(c);
    if (b) lib_.layout_destroy(b);
    if (a) lib_.layout_destroy(a);
    if (desc) lib_.desc_destroy(desc);
  }
  LtPlan(const LtPlan&) = delete;
  LtPlan& operator=(const LtPlan&) = delete;

  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  cublasLtMatmulAlgo_t algo{};

 private:
  const LtLib& lib_;
};

// State shared by every kernel of one backend: the library, a handle, one workspace.
struct LtShared {
  CudaBackend& be;
  std::unique_ptr<LtLib> lib;
  cublasLtHandle_t handle = nullptr;
  std::unique_ptr<Buffer> workspace;
  explicit LtShared(CudaBackend& b) : be(b) {}
  ~LtShared() {
    if (handle) lib->destroy(handle);
  }
};

// The heuristic's candidates for `plan` with operands aligned as in `key`.
std::vector<cublasLtMatmulHeuristicResult_t> heuristic(LtShared& s, LtPlan& plan,
                                                       const LtKey& key, int count) {
  const LtLib& lib = *s.lib;
  cublasLtMatmulPreference_t pref = nullptr;
  check(lib.pref_create(&pref), "cublasLtMatmulPreferenceCreate");
  std::size_t ws = kLtWorkspace;
  lib.pref_set(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws);
  // cuBLASLt's A is our B, its B our A (lt_layouts).
  lib.pref_set(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, &key.align_b, 4);
  lib.pref_set(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, &key.align_a, 4);
  lib.pref_set(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, &key.align_c, 4);
  lib.pref_set(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, &key.align_c, 4);
  std::vector<cublasLtMatmulHeuristicResult_t> res(static_cast<std::size_t>(count));
  int got = 0;
  cublasStatus_t st = lib.heuristic(s.handle, plan.desc, plan.a, plan.b, plan.c, plan.c, pref,
                                    count, res.data(), &got);
  lib.pref_destroy(pref);
  if (st != CUBLAS_STATUS_SUCCESS) got = 0;
  res.resize(std::size_t(got));
  std::erase_if(res, [](const auto& r) {
    return r.state != CUBLAS_STATUS_SUCCESS || r.workspaceSize > kLtWorkspace;
  });
  return res;
}

LtAlgoBytes bytes_of(const cublasLtMatmulAlgo_t& a) {
  static_assert(sizeof(LtAlgoBytes) == sizeof(cublasLtMatmulAlgo_t));
  LtAlgoBytes out;
  std::memcpy(out.data(), &a, sizeof a);
  return out;
}

// "cublaslt-a<algo id>-t<tile>-s<stages>-k<split-k>": the algorithm's configuration.
std::string describe(const LtLib& lib, const cublasLtMatmulAlgo_t& a) {
  auto get = [&](cublasLtMatmulAlgoConfigAttributes_t attr) {
    std::int32_t v = 0;
    std::size_t written = 0;
    lib.algo_get(&a, attr, &v, sizeof v, &written);
    return std::to_string(v);
  };
  return "cublaslt-a" + get(CUBLASLT_ALGO_CONFIG_ID) + "-t" + get(CUBLASLT_ALGO_CONFIG_TILE_ID) +
         "-s" + get(CUBLASLT_ALGO_CONFIG_STAGES_ID) + "-k" +
         get(CUBLASLT_ALGO_CONFIG_SPLITK_NUM);
}

class LtKernel : public Kernel {
 public:
  LtKernel(LtShared& s, const Problem& p, std::string* why_not);
  bool ok() const { return ok_; }

  void run() override { run_columns(0, p_.n); }
  void run_columns(std::size_t begin, std::size_t end) override;
  std::string provider() const override { return "blas"; }
  std::string strategy() const override { return strategy_; }

 private:
  LtKey key_for(std::size_t begin, std::size_t end) const;
  void enqueue(LtPlan& plan, std::size_t begin, CUdeviceptr d) const;
  bool search(LtPlan& plan, const LtKey& key);

  LtShared& s_;
  Problem p_;
  std::size_t size_;
  std::unique_ptr<Buffer> a_;
  std::unique_ptr<LtPlan> full_;
  // Sub-ranges (run_columns) get the heuristic's first choice for their own shape.
  std::map<std::pair<std::size_t, std::size_t>, std::unique_ptr<LtPlan>> parts_;
  std::string strategy_;
  bool ok_ = false;
};

LtKernel::LtKernel(LtShared& s, const Problem& p, std::string* why_not)
    : s_(s), p_(p), size_(itemsize(p.precision)) {
  std::size_t mk = p.m() * p.k();
  a_ = s.be.alloc(std::max<std::size_t>(mk, 1) * size_);
  if (p.precision == Precision::single) {
    std::vector<float> f(p.a.data.begin(), p.a.data.end());
    s.be.upload(*a_, 0, f.data(), mk * size_);
  } else {
    s.be.upload(*a_, 0, p.a.data.data(), mk * size_);
  }
  p_.a.data.clear();  // the host copy is no longer needed
  if (p_.n == 0) {    // nothing to run, nothing to search
    ok_ = true, strategy_ = "cublaslt-empty";
    return;
  }
  LtKey key = key_for(0, p_.n);
  full_ = std::make_unique<LtPlan>(*s.lib, lt_layouts(p_.m(), p_.n, p_.k(), key.lda, key.ldb,
                                                      key.ldc), p_.precision);
  ok_ = search(*full_, key);
  if (!ok_ && why_not) *why_not = "cuBLASLt offers no algorithm for this product";
}

LtKey LtKernel::key_for(std::size_t begin, std::size_t end) const {
  LtKey k;
  k.device = s_.be.device_name();
  k.arch = s_.be.arch();
  k.version = s_.lib->version();
  k.precision = p_.precision;
  k.m = p_.m(), k.n = end - begin, k.k = p_.k();
  k.lda = std::max<std::size_t>(p_.k(), 1), k.ldb = p_.b.ld, k.ldc = p_.c.ld;
  k.beta_zero = p_.beta == 0.0;
  k.align_a = lt_alignment(CudaBackend::ptr(*a_));
  k.align_b = lt_alignment(CudaBackend::ptr(*p_.b.buf) + (p_.b.offset + begin) * size_);
  k.align_c = lt_alignment(CudaBackend::ptr(*p_.c.buf) + (p_.c.offset + begin) * size_);
  k.candidates = kLtCandidates;
  return k;
}

void LtKernel::enqueue(LtPlan& plan, std::size_t begin, CUdeviceptr d) const {
  CUdeviceptr b = CudaBackend::ptr(*p_.b.buf) + (p_.b.offset + begin) * size_;
  CUdeviceptr c = CudaBackend::ptr(*p_.c.buf) + (p_.c.offset + begin) * size_;
  const float fa = float(p_.alpha), fb = float(p_.beta);
  const double da = p_.alpha, db = p_.beta;
  const bool sp = p_.precision == Precision::single;
  const CUdeviceptr a = CudaBackend::ptr(*a_), w = CudaBackend::ptr(*s_.workspace);
  // Everything the call reads, by value (the algorithm too: the search changes the plan's
  // between calls), since it may run later, inside a graph's capture. The plan's descriptors
  // live as long as the kernel.
  const cublasLtMatmulAlgo_t algo = plan.algo;
  const LtAlgoBytes ab = bytes_of(algo);
  std::string key = "cublaslt";
  char h[64];
  for (auto x : {CUdeviceptr(reinterpret_cast<std::uintptr_t>(&plan)), a, b, c, d, w}) {
    std::snprintf(h, sizeof h, " %llx", (unsigned long long)x);
    key += h;
  }
  std::snprintf(h, sizeof h, " %c %.17g %.17g ", sp ? 's' : 'd', da, db);
  key += h;
  for (std::uint64_t x : ab) {
    std::snprintf(h, sizeof h, "%016llx", (unsigned long long)x);
    key += h;
  }
  const LtShared* s = &s_;
  const LtPlan* pl = &plan;
  s_.be.library(std::move(key), [=] {
    auto dev = [](CUdeviceptr x) { return reinterpret_cast<void*>(x); };
    check(s->lib->matmul(s->handle, pl->desc, sp ? static_cast<const void*>(&fa) : &da, dev(b),
                         pl->a, dev(a), pl->b, sp ? static_cast<const void*>(&fb) : &db, dev(c),
                         pl->c, dev(d ? d : c), pl->c, &algo, dev(w), kLtWorkspace, s->be.stream()),
          "cublasLtMatmul");
  });
}

// Times the heuristic's candidates round-robin (as the tuner does), each keeping its fastest
// run; a later one displaces the incumbent only when kTune.ifac faster. A cached decision is used
// when it is still among the candidates.
bool LtKernel::search(LtPlan& plan, const LtKey& key) {
  auto cands = heuristic(s_, plan, key, kLtCandidates);
  if (cands.empty()) return false;
  if (auto hit = lt_cache_lookup(key))
    for (const auto& c : cands)
      if (bytes_of(c.algo) == *hit) {
        plan.algo = c.algo, strategy_ = describe(*s_.lib, c.algo);
        return true;
      }
  // D goes to a scratch panel with C's alignment, so C keeps its values for beta != 0.
  std::size_t extent = ((p_.m() - 1) * p_.c.ld + p_.n) * size_;
  std::size_t shift = CudaBackend::ptr(*p_.c.buf) % 256 + (p_.c.offset * size_) % 256;
  auto scratch = s_.be.alloc(extent + 512);
  CUdeviceptr d = CudaBackend::ptr(*scratch) + shift % 256;
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> t(cands.size(), inf);
  for (int r = 0; r < kTune.nrep; ++r)
    for (std::size_t i = 0; i < cands.size(); ++i) {
      if (t[i] == inf && r > 0) continue;  // failed to run in the first round
      plan.algo = cands[i].algo;
      try {
        double s = s_.be.time_runs([&] { enqueue(plan, 0, d); }, r ? 0 : kTune.warmup, 1).front();
        t[i] = std::min(t[i], s);
      } catch (const std::runtime_error&) {
        t[i] = inf;  // an algorithm that fails here is simply not a contender
      }
    }
  std::size_t best = cands.size();
  for (std::size_t i = 0; i < cands.size(); ++i)
    if (t[i] < inf && (best == cands.size() || t[i] < kTune.ifac * t[best])) best = i;
  if (best == cands.size()) return false;
  plan.algo = cands[best].algo;
  strategy_ = describe(*s_.lib, plan.algo);
  lt_cache_store(key, bytes_of(plan.algo), t[best]);
  if (s_.be.verbose())
    std::fprintf(stderr, "frmini: cuBLASLt %s: %zu candidates, %s %.3g ms\n", p_.name.c_str(),
                 cands.size(), strategy_.c_str(), t[best] * 1e3);
  return true;
}

void LtKernel::run_columns(std::size_t begin, std::size_t end) {
  if (end <= begin) return;
  if (begin == 0 && end == p_.n) return enqueue(*full_, 0, 0);
  auto& plan = parts_[{begin, end}];
  if (!plan) {
    LtKey key = key_for(begin, end);
    auto fresh = std::make_unique<LtPlan>(
        *s_.lib, lt_layouts(key.m, key.n, key.k, key.lda, key.ldb, key.ldc), p_.precision);
    auto cands = heuristic(s_, *fresh, key, 1);
    if (cands.empty()) throw std::runtime_error("cuda: cuBLASLt has no algorithm for " + p_.name);
    fresh->algo = cands.front().algo;
    plan = std::move(fresh);
  }
  enqueue(*plan, begin, 0);
}

class LtProvider : public matmul::Provider {
 public:
  explicit LtProvider(CudaBackend& be) : s_(be) {}
  std::string name() const override { return "blas"; }

  std::vector<std::unique_ptr<Kernel>> candidates(const Problem& p,
                                                  std::string* why_not) override {
    std::vector<std::unique_ptr<Kernel>> out;
    std::call_once(once_, [&] { open(); });
    if (!error_.empty()) {
      if (why_not) *why_not = "cuBLASLt not available (" + error_ + ")";
      return out;
    }
    if (p.m() == 0 || p.k() == 0) {
      if (why_not) *why_not = "an empty operator";
      return out;
    }
    auto k = std::make_unique<LtKernel>(s_, p, why_not);
    if (k->ok()) out.push_back(std::move(k));
    return out;
  }

 private:
  void open() {
    s_.lib = std::make_unique<LtLib>(toolkit_candidates("libcublasLt.so", "13"));
    error_ = s_.lib->error;
    if (!error_.empty()) return;
    if (s_.lib->create(&s_.handle) != CUBLAS_STATUS_SUCCESS) {
      s_.handle = nullptr, error_ = "cublasLtCreate failed";
      return;
    }
    s_.workspace = s_.be.alloc(kLtWorkspace);
  }

  LtShared s_;
  std::once_flag once_;
  std::string error_;
};

}  // namespace

std::shared_ptr<matmul::Provider> make_blas_provider(CudaBackend& be) {
  return std::make_shared<LtProvider>(be);
}

std::string cublaslt_unavailable(const std::vector<std::string>& names, std::size_t* version) {
  LtLib lib(names);
  if (lib.error.empty() && version) *version = lib.version();
  return lib.error;
}

}  // namespace frmini::kernels::cuda
