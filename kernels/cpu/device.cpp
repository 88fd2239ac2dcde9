#include "kernels/cpu/device.hpp"

#include <omp.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "base/error.hpp"
#include "kernels/matmul/analysis.hpp"

namespace frmini::kernels::cpu {

namespace {
std::string cpuinfo_field(const std::string& field) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, field.size(), field) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) {
        auto v = line.substr(colon + 1);
        auto b = v.find_first_not_of(" \t");
        return b == std::string::npos ? "" : v.substr(b);
      }
    }
  }
  return "";
}

// sysfs sizes look like "32768K" or "1M".
std::size_t parse_size(std::string s) {
  if (s.empty()) return 0;
  std::size_t mul = 1;
  char u = s.back();
  if (u == 'K' || u == 'k') mul = 1024, s.pop_back();
  else if (u == 'M' || u == 'm') mul = 1024 * 1024, s.pop_back();
  else if (u == 'G' || u == 'g') mul = 1024ull * 1024 * 1024, s.pop_back();
  try {
    return std::stoull(s) * mul;
  } catch (...) {
    return 0;
  }
}
}  // namespace

std::string cpu_model() {
  static const std::string m = [] {
    auto s = cpuinfo_field("model name");
    return s.empty() ? std::string("unknown cpu") : s;
  }();
  return m;
}

std::string cpu_flags_hash() {
  static const std::string h = [] {
    auto f = cpuinfo_field("flags");
    return matmul::hex64(matmul::fnv1a(f.data(), f.size()));
  }();
  return h;
}

namespace {
// Size of the data (or unified) cache at `level`, -1 = the largest level present; 0 = unknown.
std::size_t cache_bytes(int want) {
  std::size_t best = 0;
  int best_level = -1;
  for (int i = 0; i < 8; ++i) {
    std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    std::ifstream lv(dir + "level"), sz(dir + "size"), ty(dir + "type");
    if (!lv || !sz) continue;
    int level = 0;
    std::string size, type;
    lv >> level;
    sz >> size;
    ty >> type;
    if (type == "Instruction") continue;
    if (want >= 0 ? level == want : level > best_level) best_level = level, best = parse_size(size);
  }
  if (best == 0) {
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    best = want == 2 ? std::size_t(l2 > 0 ? l2 : 0)
                     : std::size_t(l3 > 0 ? l3 : (l2 > 0 ? l2 : 0));
  }
  return best;
}
}  // namespace

std::size_t llc_bytes() {
  static const std::size_t bytes = cache_bytes(-1);
  return bytes;
}

std::size_t usable_llc_bytes(int threads) {
  constexpr std::size_t per_thread = std::size_t(16) << 20;
  return std::min(llc_bytes(), per_thread * std::size_t(std::max(threads, 1)));
}

std::size_t l2_bytes() {
  static const std::size_t bytes = cache_bytes(2);
  return bytes;
}

namespace {
// Vector width of this CPU, as -march=native targets it.
std::size_t native_simd_bytes() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return 64;
  if (__builtin_cpu_supports("avx2")) return 32;
  return 16;
}
}  // namespace

namespace {
// The chosen levels: name, x86-64 level (the -march and the CPU check), vector width, libxsmm
// target, what the CPU must have, and what to use instead.
struct IsaLevel {
  const char *name, *march, *xsmm_arch;
  std::size_t simd_bytes;
  const char *needs, *instead;
};
constexpr IsaLevel isa_levels[] = {
    {"avx512", "x86-64-v4", "skx", 64, "AVX-512", "avx2, generic or native"},
    {"avx2", "x86-64-v3", "hsw", 32, "AVX2 and FMA", "generic or native"},
    {"generic", "x86-64", "generic", 16, nullptr, nullptr},  // every x86-64 CPU
};
}  // namespace

IsaTarget make_isa_target(const std::string& name) {
  __builtin_cpu_init();
  IsaTarget t;
  t.name = name;
  // With AVX-512, gcc's tuning for Intel server cores prefers 256-bit vectors (once a clock
  // speed trade on Skylake-X): each SoA block, one 512-bit vector of every variable, would be
  // done in two halves. Asked for 512 bits, the cylinder's step at p = 3 took 3.5% less on a
  // Xeon with AMX (measured on 25 Nov 2026).
  const char* wide = "-mprefer-vector-width=512";
  if (name == "native") {
    t.simd_bytes = native_simd_bytes();
    t.cflags = {"-march=native"};
    if (t.simd_bytes == 64) t.cflags.push_back(wide);
    return t;
  }
  for (const auto& l : isa_levels) {
    if (name != l.name) continue;
    // __builtin_cpu_supports takes only string literals, hence the two calls.
    const bool has = l.simd_bytes == 64   ? __builtin_cpu_supports("x86-64-v4")
                     : l.simd_bytes == 32 ? __builtin_cpu_supports("x86-64-v3")
                                          : true;
    if (!has)
      throw UserError("FRMINI_CPU_ISA=" + name + ": this CPU (" + cpu_model() + ") lacks " +
                      l.needs + " (" + l.march + "); use " + l.instead);
    t.simd_bytes = l.simd_bytes;
    // -mtune=native: the instruction set is the target's, the scheduling this machine's.
    t.cflags = {std::string("-march=") + l.march, "-mtune=native"};
    if (l.simd_bytes == 64) t.cflags.push_back(wide);
    t.xsmm_arch = l.xsmm_arch;
    return t;
  }
  throw UserError("FRMINI_CPU_ISA='" + name +
                  "' is not an instruction set (native, avx512, avx2 or generic)");
}

const IsaTarget& isa_target() {
  static const IsaTarget t = [] {
    const char* e = std::getenv("FRMINI_CPU_ISA");
    return make_isa_target(e && *e ? e : "native");
  }();
  return t;
}

std::size_t simd_bytes() { return isa_target().simd_bytes; }

int max_threads() { return omp_get_max_threads(); }

void set_flush_denormals(bool on) {
#if defined(__x86_64__) || defined(__i386__)
  constexpr unsigned ftz_daz = _MM_FLUSH_ZERO_ON | 0x0040u;  // DAZ: MXCSR bit 6
#pragma omp parallel
  _mm_setcsr(on ? (_mm_getcsr() | ftz_daz) : (_mm_getcsr() & ~ftz_daz));
#else
  (void)on;
#endif
}

}  // namespace frmini::kernels::cpu
