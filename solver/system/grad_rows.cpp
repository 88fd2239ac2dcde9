#include "solver/system/grad_rows.hpp"

#include <algorithm>
#include <set>

namespace frmini::solver {

GradRows plan_grad_rows(const std::vector<int>& need, int64_t soa, bool split) {
  GradRows out;
  // Each SoA block's need: the ranges are made of whole blocks.
  const int64_t nblocks = (int64_t(need.size()) + soa - 1) / soa;
  std::vector<int> block(std::size_t(nblocks), 0);
  for (std::size_t e = 0; e < need.size(); ++e)
    block[e / std::size_t(soa)] = std::max(block[e / std::size_t(soa)], need[e]);
  for (int b : block) out.all = std::max(out.all, b);
  out.most = out.all;
  if (!split) return out;
  // Rows computed, block by block, for each candidate.
  std::set<int> candidates(block.begin(), block.end());
  int64_t best = int64_t(out.all) * nblocks;
  for (int r : candidates) {
    int64_t cost = int64_t(r) * nblocks;
    for (int b : block) cost += b > r ? out.all - r : 0;
    if (cost <= best) best = cost, out.most = r;  // ties: the larger, fewer ranges
  }
  for (int64_t b = 0; b < nblocks; ++b) {
    if (block[std::size_t(b)] <= out.most) continue;
    const int64_t e0 = b * soa, e1 = std::min<int64_t>((b + 1) * soa, int64_t(need.size()));
    if (!out.extra.empty() && out.extra.back().second == e0)
      out.extra.back().second = e1;
    else
      out.extra.push_back({e0, e1});
  }
  return out;
}

}  // namespace frmini::solver
