#include "solver/plugins/expr_integrals.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "solver/physics/host.hpp"
#include "solver/plugins/plugins_internal.hpp"
#include "solver/system/gradients.hpp"

namespace frmini::solver {

namespace {
constexpr const char* kSection = "plugins.integrals";
constexpr const char* kExprs = "plugins.integrals.expressions";
const char* const kAxes[3] = {"x", "y", "z"};
const char* const kPrims[5] = {"rho", "u", "v", "w", "p"};
}  // namespace

ExpressionIntegrals::ExpressionIntegrals(const Case& k) {
  std::vector<std::string> vars = {"x", "y", "z", "t"};
  for (const char* v : kPrims) vars.push_back(v);
  for (const char* v : kPrims)
    for (const char* a : kAxes) vars.push_back(std::string("grad_") + v + "_" + a);
  const auto consts = k.cfg.constants();
  if (k.cfg.has_section(kExprs))
    for (const auto& name : k.cfg.keys(kExprs)) {
      names_.push_back(name);
      exprs_.push_back(config::Expression::parse(k.cfg.expr(kExprs, name), vars, consts,
                                                 k.cfg.where(kExprs, name)));
    }
  for (const auto& v : vars) {
    bool used = false;
    for (const auto& e : exprs_) used = used || e.uses(v);
    if (!used) continue;
    used_.push_back(v);
    grads_ = grads_ || v.rfind("grad_", 0) == 0;
  }
  corrected_ = k.cfg.str(kSection, "gradients") == "corrected";
  if (corrected_ && grads_ && !k.sys.phys.viscous())
    throw UserError(k.cfg.where(kSection, "gradients") +
                    ": corrected gradients are the LDG's, of navier-stokes only");
  if (k.cfg.has(kSection, "region")) {
    const std::string where = k.cfg.where(kSection, "region");
    auto box = parse_points(k.cfg.str(kSection, "region"), k.mesh.ndims, where);
    if (box.size() != 2) throw UserError(where + ": a box is two corners, (low), (high)");
    lo_ = box[0], hi_ = box[1];
    for (int c = 0; c < k.mesh.ndims; ++c)
      if (!(lo_[std::size_t(c)] < hi_[std::size_t(c)]))
        throw UserError(where + ": the first corner must be below the second in every coordinate");
    has_region_ = true;
  }
}

std::vector<double> ExpressionIntegrals::integrate(
    const System& sys, const std::vector<std::vector<double>>& soln, double t,
    const std::vector<std::vector<double>>& weights, const std::vector<std::vector<double>>* given) const {
  std::vector<double> out(exprs_.size(), 0.0);
  if (exprs_.empty()) return out;
  const int nd = sys.ndims(), nv = sys.nvars();
  const double gamma = sys.config().phys.gamma;
  // The variables used, in slots of `values` set point by point; the expressions bound to
  // those slots once (no name lookups per point).
  std::vector<double> values(used_.size(), 0.0);
  std::vector<config::BoundExpression> bound;
  for (const auto& e : exprs_) bound.push_back(e.bind(used_));
  auto slot = [&](const std::string& name) -> double* {
    auto it = std::find(used_.begin(), used_.end(), name);
    return it == used_.end() ? nullptr : &values[std::size_t(it - used_.begin())];
  };
  double* xs[3];
  double* prim_slot[5];
  double* grad_slot[5][3];
  for (int c = 0; c < 3; ++c) xs[c] = slot(kAxes[c]);
  for (int v = 0; v < 5; ++v) {
    prim_slot[v] = slot(kPrims[v]);
    for (int c = 0; c < 3; ++c) grad_slot[v][c] = slot(std::string("grad_") + kPrims[v] + "_" + kAxes[c]);
  }
  if (double* ts = slot("t")) *ts = t;
  // Primitive index of rho, u, v, w, p in 2D and 3D (w absent in 2D: stays 0).
  const int idx[5] = {0, 1, 2, nd == 3 ? 3 : -1, nd + 1};

  std::vector<double> q(std::size_t(nv), 0.0), dq(std::size_t(nd * nv), 0.0),
      prim(std::size_t(nv), 0.0), dprim(std::size_t(nd * nv), 0.0);
  for (std::size_t g = 0; g < soln.size(); ++g) {
    const auto& ops = sys.operators()[g];
    const auto& geo = sys.geometry()[g];
    const auto& w = weights[g];
    const int64_t ne = geo.neles;
    const int nupts = ops.nupts;
    std::vector<double> own;
    if (grads_ && !given) own = upts_gradients(ops, geo, soln[g], nv);
    const std::vector<double>& grads = given ? given->at(g) : own;
    for (int64_t e = 0; e < ne; ++e)
      for (int i = 0; i < nupts; ++i) {
        double x[3] = {0, 0, 0};
        for (int c = 0; c < nd; ++c) x[c] = geo.ploc_upts[(std::size_t(i) * nd + c) * ne + e];
        if (has_region_) {
          bool in = true;
          for (int c = 0; c < nd; ++c) in = in && x[c] >= lo_[std::size_t(c)] && x[c] <= hi_[std::size_t(c)];
          if (!in) continue;
        }
        for (int c = 0; c < nd; ++c)
          if (xs[c]) *xs[c] = x[c];
        for (int v = 0; v < nv; ++v) q[std::size_t(v)] = soln[g][(std::size_t(e) * nv + v) * nupts + i];
        if (grads_)
          for (int j = 0; j < nd; ++j)
            for (int v = 0; v < nv; ++v)
              dq[std::size_t(j * nv + v)] = grads[((std::size_t(e) * nd + j) * nv + v) * nupts + i];
        physics::conserved_to_primitive(nd, gamma, q.data(), grads_ ? dq.data() : nullptr,
                                        prim.data(), dprim.data());
        for (int v = 0; v < 5; ++v) {
          if (idx[v] < 0) continue;
          if (prim_slot[v]) *prim_slot[v] = prim[std::size_t(idx[v])];
          for (int c = 0; c < nd; ++c)
            if (grad_slot[v][c]) *grad_slot[v][c] = dprim[std::size_t(c * nv + idx[v])];
        }
        const double wj = w[std::size_t(i)] * geo.djac_upts[std::size_t(i) * ne + e];
        for (std::size_t k = 0; k < bound.size(); ++k) out[k] += wj * bound[k](values.data());
      }
  }
  return out;
}

}  // namespace frmini::solver
