// System::corrected_gradients: the gradient the RHS forms for the viscous flux, for plugins
// (PyFR's integrate plugin reads this one). The common solution comes from the device, made by
// the RHS's own interface and boundary kernels; the products run on the host in double, over
// the operators' non-zero entries only (tensor-product elements' M4, M6 are mostly zeros).
#include <stdexcept>

#include "solver/system/gradients.hpp"
#include "solver/system/system_impl.hpp"

namespace frmini::solver {

std::vector<std::vector<double>> System::corrected_gradients(int reg, double t,
                                                             const std::vector<std::vector<double>>& soln) {
  if (!cfg_.phys.viscous()) throw std::logic_error("corrected_gradients: Navier-Stokes only");
  common_solution_of(reg, t);
  Impl& I = *impl_;
  const int nd = ndims(), nv = nvars();
  // One-sided LDG keeps the jump u_c - u_f (zero where this side takes its own value).
  const bool one_sided = physics::ldg_one_sided(cfg_.phys) != 0;
  std::vector<std::vector<double>> out;
  for (std::size_t g = 0; g < layout_.size(); ++g) {
    const auto& l = layout_[g];
    const auto& geo = geos_[g];
    const int nu = l.nupts, nf = l.nfpts;
    std::vector<double> p(std::size_t(nf) * l.ld);
    if (cfg_.precision == kernels::Precision::double_) {
      be_.download(p.data(), *I.arena, l.comm_fpts * 8, p.size() * 8);
    } else {
      std::vector<float> f(p.size());
      be_.download(f.data(), *I.arena, l.comm_fpts * 4, f.size() * 4);
      std::copy(f.begin(), f.end(), p.begin());
    }
    const NonZeros a(one_sided ? ops_[g].m4 : ops_[g].m460), m6(ops_[g].m6);
    const std::size_t per = std::size_t(nd) * nv * nu;
    std::vector<double> grads(std::size_t(l.neles) * per);
#pragma omp parallel
    {
      std::vector<double> c(std::size_t(nv) * nf), ref(per), col(std::size_t(nd) * nu);
#pragma omp for schedule(static)
      for (int64_t e = 0; e < l.neles; ++e) {
        for (int v = 0; v < nv; ++v)
          for (int f = 0; f < nf; ++f) c[std::size_t(v) * nf + f] = p[l.at(f, v, e, nv, I.soa)];
        // ref[(d*nv + v)*nu + i]: rows d*nu + i of the operators, one variable at a time.
        const double* u = soln[g].data() + std::size_t(e) * nv * nu;
        for (int v = 0; v < nv; ++v) {
          std::fill(col.begin(), col.end(), 0.0);
          a.apply(u + std::size_t(v) * nu, col.data());
          m6.apply(c.data() + std::size_t(v) * nf, col.data());
          for (int d = 0; d < nd; ++d)
            for (int i = 0; i < nu; ++i) ref[(std::size_t(d) * nv + v) * nu + i] = col[std::size_t(d) * nu + i];
        }
        reference_to_physical(geo, nu, std::size_t(e), nv, ref.data(), grads.data() + std::size_t(e) * per);
      }
    }
    out.push_back(std::move(grads));
  }
  return out;
}

}  // namespace frmini::solver
