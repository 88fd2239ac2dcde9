#include "solver/plugins/forces_device.hpp"

#include <map>

#include "base/error.hpp"
#include "solver/physics/physics.hpp"
#include "solver/system/gradients.hpp"

namespace frmini::solver {

using kernels::pointwise::ArgValue;

namespace {

// Uploads host values in the run's precision.
std::unique_ptr<kernels::Buffer> upload(kernels::Backend& be, const std::vector<double>& v,
                                        kernels::Precision p) {
  const std::size_t item = p == kernels::Precision::double_ ? 8 : 4;
  auto b = be.alloc(std::max<std::size_t>(v.size(), 1) * item);
  if (item == 8) {
    be.upload(*b, 0, v.data(), v.size() * 8);
  } else {
    const std::vector<float> f(v.begin(), v.end());
    be.upload(*b, 0, f.data(), f.size() * 4);
  }
  return b;
}

// Element e's physical gradient operator at its solution points: the gradients of the
// nodal basis functions, [ndims][nupts (basis)][nupts (point)], from upts_gradient applied to
// the identity (nupts "variables", each one basis function), so it is the host's gradient.
std::vector<double> gradient_operator(const System& sys, int g, int64_t e) {
  const auto& ops = sys.operators()[std::size_t(g)];
  const std::size_t nu = std::size_t(ops.nupts);
  std::vector<double> id(nu * nu, 0.0), out(std::size_t(sys.ndims()) * nu * nu);
  for (std::size_t i = 0; i < nu; ++i) id[i * nu + i] = 1.0;
  upts_gradient(ops, sys.geometry()[std::size_t(g)], id.data(), std::size_t(e), int(nu), out.data());
  return out;
}

}  // namespace

DeviceSurfaceForce::DeviceSurfaceForce(System& sys, const std::string& boundary) : sys_(sys) {
  for (const auto& b : sys.interfaces().boundaries)
    if (b.name == boundary) bnd_ = &b;
  if (!bnd_) throw UserError("forces: the mesh has no boundary '" + boundary + "'");
  std::map<int, std::vector<std::size_t>> by_group;
  for (std::size_t q = 0; q < bnd_->size(); ++q) by_group[bnd_->left[q].group].push_back(q);
  for (const auto& [g, pts] : by_group) make_part(g, pts);
  npts_ = bnd_->size();
}

DeviceSurfaceForce::~DeviceSurfaceForce() = default;

void DeviceSurfaceForce::make_part(int group, const std::vector<std::size_t>& points) {
  auto& be = sys_.backend();
  const auto prec = sys_.config().precision;
  const auto& ops = sys_.operators()[std::size_t(group)];
  const auto& l = sys_.layout()[std::size_t(group)];
  const int nd = sys_.ndims(), nv = sys_.nvars(), nu = ops.nupts;
  const bool viscous = sys_.config().phys.viscous();
  const std::size_t soa = sys_.soa_width();
  Part p;
  p.n = points.size();
  p.ld = int64_t((p.n + soa - 1) / soa * soa);
  const std::size_t ld = std::size_t(p.ld);
  // Index tables: per point the offset of its element's (upt 0, variable 0) from a register's
  // start, then the panel's row stride (one upt to the next), as the view reads them.
  std::vector<int64_t> idx(2 * ld, 0);
  std::vector<double> m0(std::size_t(nu) * ld, 0.0), wn(std::size_t(nd) * ld, 0.0), gop;
  if (viscous) gop.assign(std::size_t(nd) * std::size_t(nu) * ld, 0.0);
  const std::size_t base = l.reg[0] - sys_.register_offset(0);
  std::map<int64_t, std::vector<double>> grad_ops;  // per element, made once
  for (std::size_t j = 0; j < p.n; ++j) {
    const std::size_t q = points[j];
    const FacePoint& fp = bnd_->left[q];
    idx[j] = int64_t(base + l.at(0, 0, fp.elem, nv, soa));
    idx[ld + j] = l.ld;
    for (int i = 0; i < nu; ++i) m0[std::size_t(i) * ld + j] = ops.m0(std::size_t(fp.fpt), std::size_t(i));
    const double wa = ops.fpts_wts[std::size_t(fp.fpt)] * bnd_->magn[q];
    for (int d = 0; d < nd; ++d) wn[std::size_t(d) * ld + j] = wa * bnd_->nrm[q * std::size_t(nd) + std::size_t(d)];
    if (!viscous) continue;
    auto it = grad_ops.find(fp.elem);
    if (it == grad_ops.end()) it = grad_ops.emplace(fp.elem, gradient_operator(sys_, group, fp.elem)).first;
    // Row fpt of M0 applied to the gradient at the solution points: gop[d][v] =
    // sum_i M0[fpt][i] dphi_v/dx_d(upt i).
    for (int d = 0; d < nd; ++d)
      for (int v = 0; v < nu; ++v) {
        double s = 0;
        for (int i = 0; i < nu; ++i)
          s += ops.m0(std::size_t(fp.fpt), std::size_t(i)) *
               it->second[(std::size_t(d) * std::size_t(nu) + std::size_t(v)) * std::size_t(nu) + std::size_t(i)];
        gop[(std::size_t(d) * std::size_t(nu) + std::size_t(v)) * ld + j] = s;
      }
  }
  p.idx = be.alloc(idx.size() * sizeof(int64_t));
  be.upload(*p.idx, 0, idx.data(), idx.size() * sizeof(int64_t));
  p.m0 = upload(be, m0, prec);
  p.wn = upload(be, wn, prec);
  if (viscous) p.gop = upload(be, gop, prec);
  p.fo = be.alloc(std::size_t(2 * nd) * ld * (prec == kernels::Precision::double_ ? 8 : 4));
  p.kernel = be.pointwise(physics::wall_force(sys_.config().phys, nu), prec);
  parts_.push_back(std::move(p));
}

SurfaceForce DeviceSurfaceForce::compute(int reg) {
  auto& be = sys_.backend();
  const int nd = sys_.ndims();
  const auto prec = sys_.config().precision;
  SurfaceForce f{std::vector<double>(std::size_t(nd), 0.0), std::vector<double>(std::size_t(nd), 0.0)};
  for (auto& p : parts_) {
    if (reg != bound_reg_) {  // the integrators' current register moves around
      ArgValue u = ArgValue::view(&sys_.arena(), p.idx.get(), 0, p.idx.get(), std::size_t(p.ld));
      u.offset = sys_.register_offset(reg);
      std::map<std::string, ArgValue> a = {{"ue", u},
                                           {"m0", ArgValue::panel(p.m0.get(), 0, p.ld)},
                                           {"wn", ArgValue::panel(p.wn.get(), 0, p.ld)},
                                           {"fo", ArgValue::panel(p.fo.get(), 0, p.ld)}};
      if (p.gop) a["gop"] = ArgValue::panel(p.gop.get(), 0, p.ld);
      p.kernel->bind(kernels::pointwise::in_spec_order(p.kernel->spec(), a));
    }
    p.kernel->run(0, int64_t(p.n));
    for (int c = 0; c < 2 * nd; ++c) {
      const double s = be.reduce(*p.fo, std::size_t(c) * std::size_t(p.ld), p.n, prec,
                                 kernels::Backend::Reduction::sum);
      (c < nd ? f.pressure[std::size_t(c)] : f.viscous[std::size_t(c - nd)]) += s;
    }
  }
  bound_reg_ = reg;
  if (!sys_.config().phys.viscous())
    for (auto& x : f.viscous) x = 0.0;
  return f;
}

}  // namespace frmini::solver
