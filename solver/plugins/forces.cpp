#include "solver/plugins/forces.hpp"

#include <cmath>
#include <cstdio>
#include <map>

#include "operators/atomic_file.hpp"
#include "operators/error.hpp"
#include "solver/plugins/plugins_internal.hpp"

namespace frmini::solver {

namespace {

// The physical gradient of every variable at the solution points of element e:
// g[(j*nupts + i)*nvars + v] = d u_v / d x_j at upt i, as gradcoru computes it:
// grad_x = (1/|J|) S^T grad_xi, grad_xi from M4.
std::vector<double> upts_gradient(const System& sys, std::size_t g, int64_t e,
                                  const std::vector<double>& s) {
  const auto& ops = sys.operators()[g];
  const auto& geo = sys.geometry()[g];
  const int nd = sys.ndims(), nv = sys.nvars(), nu = ops.nupts;
  const std::size_t ne = std::size_t(geo.neles);
  std::vector<double> ref(std::size_t(nd) * nu * nv, 0.0), out(ref.size(), 0.0);
  for (int d = 0; d < nd; ++d)
    for (int i = 0; i < nu; ++i)
      for (int j = 0; j < nu; ++j) {
        const double m = ops.m4(std::size_t(d * nu + i), std::size_t(j));
        if (m == 0.0) continue;
        for (int v = 0; v < nv; ++v)
          ref[(std::size_t(d) * nu + i) * nv + v] += m * s[(std::size_t(e) * nv + v) * nu + j];
      }
  for (int i = 0; i < nu; ++i) {
    const double rj = geo.rcpdjac_upts[std::size_t(i) * ne + std::size_t(e)];
    for (int j = 0; j < nd; ++j)
      for (int d = 0; d < nd; ++d) {
        const double sm = geo.smats_upts[((std::size_t(i) * nd + d) * nd + j) * ne + std::size_t(e)];
        for (int v = 0; v < nv; ++v)
          out[(std::size_t(j) * nu + i) * nv + v] += rj * sm * ref[(std::size_t(d) * nu + i) * nv + v];
      }
  }
  return out;
}

}  // namespace

SurfaceForce surface_force(const System& sys, const std::vector<std::vector<double>>& soln,
                           const std::string& boundary) {
  const auto& ifs = sys.interfaces();
  const BoundaryInterfaces* b = nullptr;
  for (const auto& x : ifs.boundaries)
    if (x.name == boundary) b = &x;
  if (!b) throw UserError("forces: the mesh has no boundary '" + boundary + "'");
  const auto& ph = sys.config().phys;
  const int nd = sys.ndims(), nv = sys.nvars();
  SurfaceForce f{std::vector<double>(nd, 0.0), std::vector<double>(nd, 0.0)};
  std::map<std::pair<int, int64_t>, std::vector<double>> grads;  // per element, computed once
  for (std::size_t q = 0; q < b->size(); ++q) {
    const FacePoint& fp = b->left[q];
    const auto& ops = sys.operators()[std::size_t(fp.group)];
    const auto& s = soln[std::size_t(fp.group)];
    const int nu = ops.nupts;
    // u at the flux point: row fpt of M0.
    std::vector<double> u(nv, 0.0);
    for (int i = 0; i < nu; ++i) {
      const double m = ops.m0(std::size_t(fp.fpt), std::size_t(i));
      for (int v = 0; v < nv; ++v) u[v] += m * s[(std::size_t(fp.elem) * nv + v) * nu + i];
    }
    double vv = 0, vel[3] = {0, 0, 0};
    for (int d = 0; d < nd; ++d) vel[d] = u[d + 1] / u[0], vv += vel[d] * vel[d];
    const double p = (ph.gamma - 1) * (u[nv - 1] - 0.5 * u[0] * vv);
    const double wa = ops.fpts_wts[std::size_t(fp.fpt)] * b->magn[q];  // w |pnorm|
    const double* n = &b->nrm[q * std::size_t(nd)];
    for (int d = 0; d < nd; ++d) f.pressure[d] += wa * p * n[d];
    if (!ph.viscous()) continue;

    auto it = grads.find({fp.group, fp.elem});
    if (it == grads.end())
      it = grads.emplace(std::make_pair(fp.group, fp.elem),
                         upts_gradient(sys, std::size_t(fp.group), fp.elem, s)).first;
    // Conserved gradients at the flux point, then velocity gradients dv[j][i] = dv_i/dx_j.
    std::vector<double> gu(std::size_t(nd) * nv, 0.0);
    for (int i = 0; i < nu; ++i) {
      const double m = ops.m0(std::size_t(fp.fpt), std::size_t(i));
      if (m == 0.0) continue;
      for (int j = 0; j < nd; ++j)
        for (int v = 0; v < nv; ++v)
          gu[std::size_t(j) * nv + v] += m * it->second[(std::size_t(j) * nu + i) * nv + v];
    }
    double dv[3][3] = {}, divv = 0;
    for (int j = 0; j < nd; ++j) {
      for (int i = 0; i < nd; ++i)
        dv[j][i] = (gu[std::size_t(j) * nv + i + 1] - vel[i] * gu[std::size_t(j) * nv]) / u[0];
      divv += dv[j][j];
    }
    double mu = ph.mu;
    if (ph.sutherland) {
      const double cpt = ph.gamma * (u[nv - 1] / u[0] - 0.5 * vv);
      mu = ph.mu * (ph.cptref + ph.cpts) / (cpt + ph.cpts) * std::pow(cpt / ph.cptref, 1.5);
    }
    // tau_ij = mu (dv_i/dx_j + dv_j/dx_i - 2/3 delta_ij div v); F_v,i = -sum_j tau_ij n_j.
    for (int i = 0; i < nd; ++i)
      for (int j = 0; j < nd; ++j) {
        const double tau = mu * (dv[j][i] + dv[i][j]) - (i == j ? 2.0 / 3.0 * mu * divv : 0.0);
        f.viscous[i] -= wa * tau * n[j];
      }
  }
  return f;
}

namespace {

class Forces : public Plugin {
 public:
  Forces(const Case& k, std::string boundary)
      : boundary_(std::move(boundary)),
        section_("plugins.forces." + boundary_),
        nsteps_(k.cfg.integer(section_, "nsteps")),
        file_(k.cfg.str(section_, "file").empty() ? "forces-" + boundary_ + ".csv"
                                                   : k.cfg.str(section_, "file")) {
    // Checked before the run starts, so a misspelt name costs no output and no time.
    std::string names;
    for (const auto& b : k.mesh.boundaries) {
      if (b == boundary_) return;
      names += (names.empty() ? "" : ", ") + b;
    }
    throw UserError(k.cfg.filename() + ": [" + section_ + "]: the mesh has no boundary '" +
                    boundary_ + "' (its boundaries: " + (names.empty() ? "none" : names) + ")");
  }
  std::string name() const override { return "forces"; }
  void start(RunContext& ctx) override {
    static const char* ax = "xyz";
    csv_ = "step,t";
    for (int d = 0; d < ctx.sys.ndims(); ++d) csv_ += std::string(",p") + ax[d];
    for (int d = 0; d < ctx.sys.ndims(); ++d) csv_ += std::string(",v") + ax[d];
    csv_ += "\n";
    sample(ctx);  // also checks the boundary exists before the first step
  }
  void after_step(RunContext& ctx) override {
    if (ctx.intg.state().nsteps % nsteps_ == 0) sample(ctx);
  }
  void finish(RunContext&) override { write_text_atomically(file_, csv_); }

 private:
  void sample(RunContext& ctx) {
    SurfaceForce f;
    try {
      f = surface_force(ctx.sys, ctx.sys.download_solution(ctx.intg.current()), boundary_);
    } catch (const UserError& e) {
      throw UserError(ctx.kase.cfg.filename() + ": [" + section_ + "]: " + e.what());
    }
    char b[64];
    std::snprintf(b, sizeof b, "%lld,%.10g", (long long)ctx.intg.state().nsteps, ctx.intg.state().t);
    csv_ += b;
    for (const auto* v : {&f.pressure, &f.viscous})
      for (double x : *v) {
        std::snprintf(b, sizeof b, ",%.10g", x);
        csv_ += b;
      }
    csv_ += "\n";
  }
  std::string boundary_, section_;
  int64_t nsteps_;
  std::filesystem::path file_;
  std::string csv_;
};

}  // namespace

std::unique_ptr<Plugin> make_forces(const Case& k, const std::string& boundary) {
  return std::make_unique<Forces>(k, boundary);
}

}  // namespace frmini::solver
