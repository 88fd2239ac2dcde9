// A solution group ready to be sampled at reference points (no VTK: export, the offline
// sampler and the statistics commands share it).
#include "solver/export/group_solution.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "solver/system/geometry.hpp"
#include "solver/system/gradients.hpp"

namespace frmini::solver::exporter {

GroupSolution group_solution(const SolutionContext& ctx, const SolutionFile& soln,
                             std::size_t g) {
  const auto& grp = ctx.mesh.groups[g];
  auto it = std::find(soln.etypes.begin(), soln.etypes.end(), grp.etype);
  if (it == soln.etypes.end())
    throw UserError(soln.config_name + ": solution has no " + grp.etype + " elements");
  const std::size_t s = std::size_t(it - soln.etypes.begin());
  GroupSolution gs;
  gs.group = &grp;
  gs.soln = &soln.soln[s];
  gs.ndims = ctx.mesh.ndims;
  gs.nvars = soln.nvars;
  auto up = ctx.upts.find(grp.etype);
  gs.ops = operators::build_operators(grp.etype, soln.order,
                                      up == ctx.upts.end() ? "" : up->second);
  const auto& shp = soln.shapes[s];
  if (shp.size() != 3 || int64_t(shp[0]) != grp.neles || int(shp[1]) != soln.nvars ||
      int(shp[2]) != gs.ops.nupts)
    throw UserError(soln.config_name + ": solution's " + grp.etype +
                    " array does not match the mesh and order");
  const GroupGeometry geo = compute_geometry(grp, gs.ndims, gs.ops);
  gs.grads = upts_gradients(gs.ops, geo, *gs.soln, gs.nvars);
  gs.basis = std::make_unique<operators::NodalBasis>(grp.etype, soln.order, gs.ops.upts);
  return gs;
}

void sample(const GroupSolution& gs, const operators::Matrix& B, int64_t e,
            std::vector<double>& q, std::vector<double>& grad) {
  const std::size_t np = B.rows, nu = B.cols, nv = std::size_t(gs.nvars), nd = std::size_t(gs.ndims);
  q.assign(np * nv, 0.0);
  grad.assign(np * nd * nv, 0.0);
  const double* s = gs.soln->data() + std::size_t(e) * nv * nu;
  const double* g = gs.grads.data() + std::size_t(e) * nd * nv * nu;
  for (std::size_t n = 0; n < np; ++n)
    for (std::size_t u = 0; u < nu; ++u) {
      const double b = B(n, u);
      if (b == 0.0) continue;
      for (std::size_t v = 0; v < nv; ++v) q[n * nv + v] += b * s[v * nu + u];
      for (std::size_t j = 0; j < nd * nv; ++j) grad[n * nd * nv + j] += b * g[j * nu + u];
    }
}

}  // namespace frmini::solver::exporter
