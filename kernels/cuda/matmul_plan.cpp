#include "kernels/cuda/matmul_plan.hpp"

#include <algorithm>

namespace frmini::kernels::cuda {

using matmul::Analysis;

namespace {

// Registers every thread needs besides its values: column index, the B and C pointers (64-bit),
// n, loop-free address arithmetic. Measured on sm_90 (ptxas -v) for the smallest operators.
constexpr int kOverheadRegs = 20;

int regs_per_value(Precision p, int width) { return int(itemsize(p) / 4) * width; }

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// Rows 0..m-1 interleaved over `g` groups (GiMMiK's partition).
std::vector<std::vector<std::size_t>> interleave(std::size_t m, std::size_t g) {
  std::vector<std::vector<std::size_t>> out(g);
  for (std::size_t j = 0; j < m; ++j) out[j % g].push_back(j);
  return out;
}

// Accumulator count that keeps a width-`w` thread under `budget` registers.
std::size_t acc_limit(Precision p, int width, int budget) {
  int r = regs_per_value(p, width);
  int l = (budget - kOverheadRegs) / r - 2;  // 2 B values in flight
  return std::size_t(std::max(l, 1));
}

int est_bstream_like(Precision p, int width, std::size_t live) {
  int r = regs_per_value(p, width);
  return r * int(live) + 2 * r + kOverheadRegs;
}

std::string suffix(int width) { return width == 2 ? "-w2" : ""; }

}  // namespace

std::size_t Strategy::grid(std::size_t n) const {
  std::size_t per = std::size_t(blockx) * std::size_t(width);
  std::size_t nb = std::max<std::size_t>(ceil_div(n, per), 1);
  return shape == Shape::mchunk ? nb * parts.size() : nb;
}

std::size_t Strategy::shared_bytes(Precision p) const {
  std::size_t v = itemsize(p) * std::size_t(width) * std::size_t(blockx);
  if (shape == Shape::msplit) return 2 * std::size_t(chunk) * v;
  if (shape == Shape::ksplit) return std::size_t(ny - 1) * std::size_t(chunk) * v;
  return 0;
}

std::size_t max_live_accumulators(const Analysis& a, const std::vector<std::size_t>& rows) {
  std::vector<long> delta(a.k + 1, 0);
  for (std::size_t j : rows) {
    if (a.afix[j] < 0) continue;
    delta[std::size_t(a.afix[j])] += 1;
    delta[std::size_t(a.alix[j]) + 1] -= 1;
  }
  long live = 0, best = 0;
  for (std::size_t x = 0; x < a.k; ++x) {
    live += delta[x];
    best = std::max(best, live);
  }
  return std::size_t(best);
}

std::vector<std::vector<std::size_t>> budget_partition(const Analysis& a, std::size_t limit) {
  // Greedy: extend the current chunk by the next row while the live count over that row's
  // column span stays within the limit.
  std::vector<std::vector<std::size_t>> parts(1);
  std::vector<std::size_t> live(a.k, 0);
  for (std::size_t j = 0; j < a.m; ++j) {
    if (a.afix[j] >= 0) {
      auto lo = std::size_t(a.afix[j]), hi = std::size_t(a.alix[j]);
      std::size_t mx = *std::max_element(live.begin() + long(lo), live.begin() + long(hi) + 1);
      if (mx + 1 > limit && !parts.back().empty()) {
        parts.emplace_back();
        std::fill(live.begin(), live.end(), 0);
      }
      for (std::size_t x = lo; x <= hi; ++x) ++live[x];
    }
    parts.back().push_back(j);
  }
  // Greedy leaves a small last chunk; equal contiguous chunks balance the CTAs' work. Use them
  // when they fit the same limit.
  std::size_t g = parts.size();
  if (g > 1) {
    std::vector<std::vector<std::size_t>> even(g);
    std::size_t per = ceil_div(a.m, g);
    for (std::size_t j = 0; j < a.m; ++j) even[j / per].push_back(j);
    bool fits = true;
    for (auto& part : even) fits = fits && max_live_accumulators(a, part) <= limit;
    if (fits) {
      even.erase(std::remove_if(even.begin(), even.end(), [](auto& v) { return v.empty(); }),
                 even.end());
      return even;
    }
  }
  return parts;
}

std::vector<Strategy> plan(const Analysis& a, Precision p, const PlanOptions& o) {
  struct Ranked {
    Strategy s;
    int rank;
  };
  std::vector<Ranked> out;
  const std::size_t ku = a.bix.size();
  std::vector<std::size_t> all_rows(a.m);
  for (std::size_t j = 0; j < a.m; ++j) all_rows[j] = j;
  const std::size_t live_all = max_live_accumulators(a, all_rows);
  const bool single = p == Precision::single;
  std::vector<int> widths{1};
  if (o.width2) widths.push_back(2);

  for (int w : widths) {
    const int r = regs_per_value(p, w);
    // The rank orders shapes of equal predicted spill status: B read once with C streamed out
    // (bstream) first, then the register-bounded variants, then GiMMiK's remaining shapes.
    const int wr = w == 2 ? 0 : 1;  // wide accesses first

    {  // bstream: one pass over the used B rows, all open accumulators in registers.
      Strategy s;
      s.shape = Shape::bstream;
      s.width = w;
      s.est_regs = est_bstream_like(p, w, live_all);
      s.name = "bstream" + suffix(w);
      out.push_back({s, 10 + wr});
    }
    {  // cstream: a dot product per C row; the compiler keeps reused B values live.
      Strategy s;
      s.shape = Shape::cstream;
      s.width = w;
      s.est_regs = r * int(ku) + 2 * r + kOverheadRegs;
      s.name = "cstream" + suffix(w);
      out.push_back({s, 40 + wr});
    }
    // Register-bounded row chunks, one CTA per chunk.
    auto chunks = budget_partition(a, acc_limit(p, w, o.reg_budget));
    if (chunks.size() > 1) {
      std::size_t worst = 0;
      for (auto& c : chunks) worst = std::max(worst, max_live_accumulators(a, c));
      Strategy s;
      s.shape = Shape::mchunk;
      s.width = w;
      s.parts = chunks;
      s.est_regs = est_bstream_like(p, w, worst);
      s.name = "bstream-mchunk" + std::to_string(chunks.size()) + suffix(w);
      s.nvrtc_flags = {"-Xptxas=--register-usage-level=0"};
      out.push_back({s, 20 + wr});
      // The same partition as msplit groups of one CTA: B staged once through shared memory.
      // CTA of 32*G threads: ptxas caps registers near 65536/threads (rounded down to its
      // allocation unit), so G <= 8 keeps the full 255 as headroom over the estimate.
      if (chunks.size() <= 8) {
        Strategy t = s;
        t.shape = Shape::msplit;
        t.blockx = 32;
        t.ny = int(chunks.size());
        t.chunk = 24;
        t.est_regs += 4;
        t.name = "bstream-rmsplit" + std::to_string(chunks.size()) + suffix(w);
        out.push_back({t, 30 + wr});
      }
    }
    // GiMMiK's fixed shapes; the w2 ones only in single precision, as GiMMiK offers them.
    if (w == 1 || single) {
      Strategy s;
      s.shape = Shape::msplit;
      s.width = w;
      s.blockx = 32;
      s.ny = 4;
      s.chunk = w == 2 ? 16 : 24;
      s.parts = interleave(a.m, 4);
      std::size_t worst = 0;
      for (auto& c : s.parts) worst = std::max(worst, max_live_accumulators(a, c));
      s.est_regs = est_bstream_like(p, w, worst) + 4;
      s.name = "bstream-msplit4" + suffix(w);
      out.push_back({s, 50 + wr});
    }
    // k-split: the smallest number of groups whose live B values fit the budget (GiMMiK's
    // fixed 2 is always offered too).
    auto ksplit = [&](int ks, int csz) {
      Strategy s;
      s.shape = Shape::ksplit;
      s.width = w;
      s.blockx = 32;
      s.ny = ks;
      std::size_t vbytes = itemsize(p) * std::size_t(w) * 32;
      std::size_t maxc = ks > 1 ? (48 * 1024) / (std::size_t(ks - 1) * vbytes) : 64;
      s.chunk = int(std::max<std::size_t>(1, std::min<std::size_t>(std::size_t(csz), maxc)));
      s.parts.resize(std::size_t(ks));
      for (std::size_t x = 0; x < ku; ++x) s.parts[x % std::size_t(ks)].push_back(a.bix[x]);
      s.est_regs =
          r * int(ceil_div(ku, std::size_t(ks)) + ceil_div(std::size_t(s.chunk), std::size_t(ks))) +
          2 * r + kOverheadRegs + 4;
      s.name = "cstream-ksplit" + std::to_string(ks) + suffix(w);
      return s;
    };
    if (w == 1 || single) out.push_back({ksplit(2, 24), 60 + wr});
    // Only up to 4 groups: every group emits a partial dot for every row, so the source (and
    // NVRTC time) grows with the split; beyond that bstream-mchunk bounds registers cheaper.
    for (int ks = 3; ks <= 4; ++ks) {
      Strategy s = ksplit(ks, 24);
      if (ksplit(ks - 1, 24).est_regs <= o.reg_budget) break;  // fewer splits already fit
      if (s.est_regs <= o.reg_budget) {
        out.push_back({s, 35 + wr});
        break;
      }
    }
  }
  // Predicted comfortably spill-free first, then predicted near sm_90's 255 ceiling (the
  // estimate is within ~20% of ptxas, so those may spill: hex p6 M0 bstream, est 252, spills
  // 8 bytes), then predicted spilling; within a tier by rank.
  auto tier = [](const Strategy& s) { return s.est_regs <= 200 ? 0 : s.est_regs <= 255 ? 1 : 2; };
  std::stable_sort(out.begin(), out.end(), [&](const Ranked& x, const Ranked& y) {
    if (tier(x.s) != tier(y.s)) return tier(x.s) < tier(y.s);
    return x.rank < y.rank;
  });
  // When some strategy is predicted to fit the budget, the ones predicted beyond sm_90's 255
  // registers are not offered: they spill for certain and only cost compile time.
  bool have_fit = false;
  for (auto& x : out) have_fit = have_fit || x.s.est_regs <= o.reg_budget;
  std::vector<Strategy> res;
  for (auto& x : out)
    if (!(have_fit && o.prune && x.s.est_regs > 255)) res.push_back(std::move(x.s));
  std::size_t cap = o.prune ? o.max_candidates(a.nnz) : 0;
  if (cap && res.size() > cap) {
    auto fits = [&](const Strategy& s) { return s.est_regs <= o.reg_budget; };
    bool kept = std::any_of(res.begin(), res.begin() + long(cap), fits);
    auto first_fit = std::find_if(res.begin() + long(cap), res.end(), fits);
    if (!kept && first_fit != res.end()) std::iter_swap(res.begin() + long(cap - 1), first_fit);
    // Also the first k-split predicted within budget: it bounds live B values rather than
    // accumulators, and dense chunks where ptxas still spills the row-bounded shapes do not
    // spill it (tet p5 M3 double: mchunk2 72 B at 254 registers, cstream-ksplit3 124, none).
    auto is_k = [&](const Strategy& s) { return s.shape == Shape::ksplit && fits(s); };
    bool have_k = std::any_of(res.begin(), res.begin() + long(cap), is_k);
    auto k = std::find_if(res.begin() + long(cap), res.end(), is_k);
    if (!have_k && k != res.end()) std::iter_swap(res.begin() + long(cap), k), ++cap;
    res.resize(cap);
  }
  return res;
}

}  // namespace frmini::kernels::cuda
