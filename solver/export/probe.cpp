// The offline sampler: points located once, each group's solution and gradients built only for
// the groups that hold a point, values converted to primitive variables point by point.
#include "solver/export/probe.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "base/error.hpp"
#include "solver/export/group_solution.hpp"
#include "solver/physics/host.hpp"
#include "solver/system/locate.hpp"

namespace frmini::solver::exporter {

namespace {

constexpr const char* kAxes[3] = {"x", "y", "z"};

std::string fmt_point(const std::array<double, 3>& p, int nd) {
  char b[96];
  if (nd == 2) std::snprintf(b, sizeof b, "(%g, %g)", p[0], p[1]);
  else std::snprintf(b, sizeof b, "(%g, %g, %g)", p[0], p[1], p[2]);
  return b;
}

// The mesh's extent along `axis`, from its element nodes.
std::pair<double, double> extent(const meshes::Mesh& mesh, int axis) {
  double lo = 1e300, hi = -1e300;
  const std::size_t nd = std::size_t(mesh.ndims);
  for (const auto& g : mesh.groups)
    for (std::size_t i = std::size_t(axis); i < g.nodes.size(); i += nd) {
      lo = std::min(lo, g.nodes[i]);
      hi = std::max(hi, g.nodes[i]);
    }
  return {lo, hi};
}

// Every point the evaluation visits: `copies` per requested point, consecutive.
std::vector<std::array<double, 3>> expand(const meshes::Mesh& mesh, const ProbeOptions& o,
                                          int copies) {
  if (o.average_axis < 0) return o.points;
  const auto [lo, hi] = extent(mesh, o.average_axis);
  std::vector<std::array<double, 3>> out;
  out.reserve(o.points.size() * std::size_t(copies));
  for (const auto& p : o.points)
    for (int k = 0; k < copies; ++k) {
      auto q = p;
      q[std::size_t(o.average_axis)] = lo + (k + 0.5) * (hi - lo) / copies;
      out.push_back(q);
    }
  return out;
}

// The point's coordinates, the primitive variables, their gradients if asked, and a time
// average's moments (uu, uv, ..., pp: no gradients) if the file holds them.
std::vector<std::string> columns(int nd, const ProbeOptions& o, const SolutionFile& soln) {
  std::vector<std::string> vars{"rho", "u", "v", "w", "p"};
  if (nd == 2) vars.erase(vars.begin() + 3);
  std::vector<std::string> cols;
  for (int c = 0; c < nd; ++c)
    if (c != o.average_axis) cols.push_back(kAxes[c]);
  cols.insert(cols.end(), vars.begin(), vars.end());
  if (o.gradients)
    for (const auto& v : vars)
      for (int c = 0; c < nd; ++c) cols.push_back("grad_" + v + "_" + kAxes[c]);
  cols.insert(cols.end(), soln.moment_names.begin(), soln.moment_names.end());
  return cols;
}

// The moments as a file of their own, so that they are sampled as any field is.
SolutionFile moments_as_fields(const SolutionFile& soln) {
  SolutionFile m;
  m.config_name = soln.config_name;
  m.order = soln.order;
  m.ndims = soln.ndims;
  m.nvars = int(soln.moment_names.size());
  m.variables = soln.variables;
  m.etypes = soln.etypes;
  m.soln = soln.moments;
  for (const auto& sh : soln.shapes) m.shapes.push_back({sh[0], soln.moment_names.size(), sh[2]});
  return m;
}

}  // namespace

ProbePoints locate_probe(const SolutionContext& ctx, const ProbeOptions& o, const std::string& where) {
  const int nd = ctx.mesh.ndims;
  if (o.average_axis >= nd)
    throw UserError(where + ": cannot average along " + kAxes[o.average_axis] + " in a " +
                    std::to_string(nd) + "D mesh");
  if (o.average_axis >= 0 && o.average_n < 1)
    throw UserError(where + ": averaging needs at least one sample along the axis");
  ProbePoints at;
  at.copies = o.average_axis >= 0 ? o.average_n : 1;
  const auto pts = expand(ctx.mesh, o, at.copies);
  at.loc = locate_points(ctx.mesh, pts);
  for (std::size_t i = 0; i < pts.size(); ++i)
    if (at.loc[i].group < 0)
      throw UserError(where + ": point " + std::to_string(i / std::size_t(at.copies)) + " " +
                      fmt_point(pts[i], nd) + " lies in no element of the mesh");
  return at;
}

ProbeTable probe(const SolutionContext& ctx, const SolutionFile& soln, const ProbeOptions& o,
                 const std::string& where) {
  return probe(ctx, soln, o, locate_probe(ctx, o, where));
}

ProbeTable probe(const SolutionContext& ctx, const SolutionFile& soln, const ProbeOptions& o,
                 const ProbePoints& at) {
  const int nd = ctx.mesh.ndims, nv = soln.nvars;
  if (nv != nd + 2)
    throw UserError(soln.config_name + ": frmini sample reads flow solutions (" +
                    std::to_string(nd + 2) + " variables), this file has " + std::to_string(nv));
  const int copies = at.copies;
  const auto& loc = at.loc;
  std::map<int, GroupSolution> groups, mgroups;  // built once, for the groups that hold a point
  const SolutionFile mom = moments_as_fields(soln);
  const std::size_t nm = soln.moment_names.size();
  for (const auto& l : loc)
    if (!groups.count(l.group)) {
      groups.emplace(l.group, group_solution(ctx, soln, std::size_t(l.group)));
      if (nm) mgroups.emplace(l.group, group_solution(ctx, mom, std::size_t(l.group)));
    }

  const bool conserved = soln.variables == "conserved";
  ProbeTable tab;
  tab.t = soln.state.t;
  tab.columns = columns(nd, o, soln);
  const std::size_t nvals0 = std::size_t(nv) * (o.gradients ? std::size_t(nd + 1) : 1);
  const std::size_t nvals = nvals0 + nm;
  std::vector<double> q, grad, prim(std::size_t(nv), 0.0), dprim(std::size_t(nd * nv), 0.0);
  for (std::size_t p = 0; p < o.points.size(); ++p) {
    std::vector<double> sum(nvals, 0.0);
    for (int k = 0; k < copies; ++k) {
      const Location& l = loc[p * std::size_t(copies) + std::size_t(k)];
      const GroupSolution& gs = groups.at(l.group);
      operators::Matrix xi(1, std::size_t(nd));
      for (int c = 0; c < nd; ++c) xi(0, std::size_t(c)) = l.xi[std::size_t(c)];
      sample(gs, gs.basis->at(xi), l.elem, q, grad);  // grad: [c][v]
      if (conserved) {
        physics::conserved_to_primitive(nd, ctx.phys.gamma, q.data(), grad.data(), prim.data(),
                                        dprim.data());
      } else {
        prim = q;
        dprim = grad;
      }
      for (int v = 0; v < nv; ++v) sum[std::size_t(v)] += prim[std::size_t(v)];
      if (o.gradients)  // columns variable by variable, then axis
        for (int v = 0; v < nv; ++v)
          for (int c = 0; c < nd; ++c)
            sum[std::size_t(nv + v * nd + c)] += dprim[std::size_t(c * nv + v)];
      if (nm) {
        const GroupSolution& ms = mgroups.at(l.group);
        sample(ms, ms.basis->at(xi), l.elem, q, grad);
        for (std::size_t m = 0; m < nm; ++m) sum[nvals0 + m] += q[m];
      }
    }
    std::vector<double> row;
    for (int c = 0; c < nd; ++c)
      if (c != o.average_axis) row.push_back(o.points[p][std::size_t(c)]);
    for (double s : sum) row.push_back(s / copies);
    tab.rows.push_back(std::move(row));
  }
  return tab;
}

}  // namespace frmini::solver::exporter
