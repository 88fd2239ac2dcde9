#include "kernels/cuda/matmul_lt_plan.hpp"

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "kernels/cache.hpp"
#include "kernels/matmul/analysis.hpp"

namespace frmini::kernels::cuda {

LtLayouts lt_layouts(std::size_t m, std::size_t n, std::size_t k, std::size_t lda,
                     std::size_t ldb, std::size_t ldc) {
  LtLayouts l;
  l.m = n, l.n = m, l.k = k;
  l.a = {n, k, std::int64_t(ldb)};
  l.b = {k, m, std::int64_t(lda)};
  l.c = {n, m, std::int64_t(ldc)};
  return l;
}

std::uint32_t lt_alignment(std::uint64_t address) {
  std::uint32_t a = 256;
  while (a > 1 && address % a) a /= 2;
  return a;
}

std::string lt_key_text(const LtKey& k) {
  std::ostringstream s;
  s << "cublaslt-v1|" << k.device << "|sm_" << k.arch << "|lt " << k.version << "|"
    << to_string(k.precision) << "|m" << k.m << " n" << k.n << " k" << k.k << "|ld " << k.lda
    << " " << k.ldb << " " << k.ldc << "|NN|beta" << (k.beta_zero ? "0" : "x") << "|align "
    << k.align_a << " " << k.align_b << " " << k.align_c << "|cand " << k.candidates;
  return s.str();
}

std::string lt_cache_name(const LtKey& key) {
  std::string text = lt_key_text(key);
  return "cublaslt/" + matmul::hex64(matmul::fnv1a(text.data(), text.size()));
}

namespace {
bool cache_on() {
  const char* e = std::getenv("FRMINI_TUNE_CACHE");
  return !(e && std::string(e) == "0");
}
}  // namespace

void lt_cache_store(const LtKey& key, const LtAlgoBytes& algo, double seconds) {
  if (!cache_on()) return;
  std::ostringstream s;
  s << lt_key_text(key) << "\n";
  for (auto w : algo) {
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(w));
    s << buf << " ";
  }
  s << "\n" << seconds << "\n";
  cache_write(lt_cache_name(key), s.str());
}

std::optional<LtAlgoBytes> lt_cache_lookup(const LtKey& key) {
  if (!cache_on()) return std::nullopt;
  auto hit = cache_read(lt_cache_name(key));
  if (!hit) return std::nullopt;
  std::istringstream s(*hit);
  std::string text;
  if (!std::getline(s, text) || text != lt_key_text(key)) return std::nullopt;
  LtAlgoBytes algo{};
  for (auto& w : algo) {
    std::string h;
    if (!(s >> h) || h.size() != 16) return std::nullopt;
    w = std::strtoull(h.c_str(), nullptr, 16);
  }
  return algo;
}

}  // namespace frmini::kernels::cuda
