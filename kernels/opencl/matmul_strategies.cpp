#include "kernels/opencl/matmul_strategies.hpp"

#include <algorithm>

namespace frmini::kernels::opencl {
namespace {

// Unrolled shapes emit ~40 bytes of source per non-zero; beyond this, driver compile times run
// into many minutes (PoCL: ~30 s at 7,000 non-zeros, ~130 s at 20,000 on 2 cores).
constexpr std::size_t max_unrolled_nnz = 60000;
// rowloop holds A (used columns) as a literal table; beyond this it is megabytes of source.
constexpr std::size_t max_table = 512 * 1024;
// On CPU drivers an unrolled kernel past this many non-zeros compiles for tens of seconds, so
// only one such candidate is offered (or rowloop alone for dense operators).
constexpr std::size_t cpu_quick_nnz = 3000;

bool fits(const matmul::Analysis& a, const Strategy& s, const DeviceInfo& dev, Precision p) {
  return local_bytes(a, s, p) <= dev.local_mem_bytes && s.group_size() <= dev.max_work_group;
}

bool unrollable(const matmul::Analysis& a) { return a.nnz <= max_unrolled_nnz; }
bool tabulable(const matmul::Analysis& a) { return a.m * a.bix.size() <= max_table; }
// Dense over the columns it uses: rowloop's dense dot products waste little.
bool dense(const matmul::Analysis& a) {
  return a.nnz > 0 && 2 * a.nnz >= a.m * a.bix.size();
}

// Work-items along n per group. PoCL-like CPU drivers run a work-group as a loop over its
// work-items, vectorised across them: 128 gives long vector loops while B's rows for the group
// (k x 128 x 8 bytes) stay in L2. GPUs: 64 (two warps / one wavefront) as GiMMiK's OpenCL.
int blockx(const DeviceInfo& dev) { return dev.is_gpu ? 64 : 128; }

}  // namespace

std::vector<Strategy> all_strategies(const matmul::Analysis& a, const DeviceInfo& dev,
                                     Precision p) {
  const int x = blockx(dev);
  std::vector<Strategy> out;
  if (unrollable(a))
    out = {
        {Shape::cstream, 1, x, 1, 0},  {Shape::bstream, 1, x, 1, 0},
        {Shape::msplit, 1, x, 4, 16},  {Shape::ksplit, 1, x, 2, 32},
        {Shape::cstream, 2, x, 1, 0},  {Shape::bstream, 2, x, 1, 0},
    };
  if (tabulable(a)) {
    out.push_back({Shape::rowloop, 1, x, 1, 4});
    out.push_back({Shape::rowloop, 1, x, 1, 8});
  }
  std::erase_if(out, [&](const Strategy& s) { return !fits(a, s, dev, p); });
  return out;
}

std::vector<Strategy> generated_strategies(const matmul::Analysis& a, const DeviceInfo& dev,
                                           Precision p, std::string* why_not) {
  auto fail = [&](const std::string& why) {
    if (why_not) *why_not = why;
    return std::vector<Strategy>{};
  };
  if (p == Precision::double_ && !dev.fp64) return fail("the device has no double precision");
  if (!unrollable(a) && !(tabulable(a) && dense(a)))
    return fail(std::to_string(a.nnz) + " non-zeros in " + std::to_string(a.m) + "x" +
                std::to_string(a.k) + ": the generated source would be too large to compile " +
                "in reasonable time (limits: " + std::to_string(max_unrolled_nnz) +
                " non-zeros unrolled, " + std::to_string(max_table) + " table entries)");
  const int x = blockx(dev);
  const Strategy cstream{Shape::cstream, 1, x, 1, 0}, bstream{Shape::bstream, 1, x, 1, 0};
  const Strategy msplit{Shape::msplit, 1, x, 4, 16}, ksplit{Shape::ksplit, 1, x, 2, 32};
  const Strategy row4{Shape::rowloop, 1, x, 1, 4};
  std::vector<Strategy> out;
  if (!dev.is_gpu) {
    // Measured on PoCL 3.1 (docs/performance.md): the split shapes lose 2-5x to cstream and
    // bstream (barriers make PoCL spill every live value to per-work-item context memory), and
    // width 2 gains nothing because PoCL already vectorises across work-items.
    // rowloop with 4 or 8 rows per iteration measured alike; 4 builds faster.
    if (a.nnz <= cpu_quick_nnz) {
      out = {cstream, bstream};
      if (dense(a) && tabulable(a)) out.push_back(row4);
    } else if (dense(a) && tabulable(a)) {
      out = {row4};
    } else {
      out = {cstream};
    }
  } else {
    if (unrollable(a)) out = {cstream, bstream, msplit, ksplit};
    if (unrollable(a) && p == Precision::single) {
      out.push_back({Shape::cstream, 2, x, 1, 0});
      out.push_back({Shape::msplit, 2, x, 4, 16});
    }
    if (dense(a) && tabulable(a)) out.push_back(row4);
  }
  std::erase_if(out, [&](const Strategy& s) { return !fits(a, s, dev, p); });
  if (out.empty()) return fail("no strategy fits the device's local memory and work-group size");
  return out;
}

}  // namespace frmini::kernels::opencl
