#include "solver/plugins/time_average.hpp"
#include "solver/physics/host.hpp"

namespace frmini::solver {

void conserved_to_primitive(GroupFields& s, int ndims, const std::vector<std::size_t>& nupts,
                            double gamma) {
  const std::size_t nv = std::size_t(ndims) + 2;
  for (std::size_t g = 0; g < s.size(); ++g) {
    const std::size_t nu = nupts[g], neles = s[g].size() / (nv * nu);
    for (std::size_t e = 0; e < neles; ++e)
      for (std::size_t i = 0; i < nu; ++i) {
        auto at = [&](std::size_t v) -> double& { return s[g][(e * nv + v) * nu + i]; };
        const double rho = at(0);
        const double p = physics::pressure(ndims, gamma, [&](int v) { return at(std::size_t(v)); });
        for (std::size_t d = 1; d <= std::size_t(ndims); ++d) at(d) /= rho;
        at(nv - 1) = p;
      }
  }
}

void TimeAverage::add(double t, const GroupFields& u) {
  if (nsamples_ == 0) {
    sum_ = u;
    for (auto& g : sum_)
      for (auto& x : g) x = 0;
    prev_ = u;
    t0_ = tprev_ = t;
    nsamples_ = 1;
    return;
  }
  if (!(t > tprev_)) return;
  const double h = 0.5 * (t - tprev_);
  for (std::size_t g = 0; g < u.size(); ++g)
    for (std::size_t j = 0; j < u[g].size(); ++j) sum_[g][j] += h * (prev_[g][j] + u[g][j]);
  prev_ = u;
  tprev_ = t;
  ++nsamples_;
}

void TimeAverage::resume(double t0, double t1, const GroupFields& mean, const GroupFields& last) {
  sum_ = mean;
  for (auto& g : sum_)
    for (auto& x : g) x *= t1 - t0;
  prev_ = last;
  t0_ = t0;
  tprev_ = t1;
  nsamples_ = t1 > t0 ? 2 : 1;
}

GroupFields TimeAverage::mean() const {
  if (nsamples_ <= 1) return prev_;
  GroupFields m = sum_;
  const double w = 1 / (tprev_ - t0_);
  for (auto& g : m)
    for (auto& x : g) x *= w;
  return m;
}

}  // namespace frmini::solver
