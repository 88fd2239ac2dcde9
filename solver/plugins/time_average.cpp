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

Moments velocity_pressure_moments(int ndims) {
  Moments m;
  const char* axes = "uvw";
  const int p = ndims + 1;  // rho, u_1..u_ndims, p
  for (int i = 1; i <= ndims; ++i) m.pairs.push_back({i, i});
  for (int i = 1; i <= ndims; ++i)
    for (int j = i + 1; j <= ndims; ++j) m.pairs.push_back({i, j});
  for (auto [a, b] : m.pairs) m.names.push_back({axes[a - 1], axes[b - 1]});
  m.pairs.push_back({p, p});
  m.names.push_back("pp");
  return m;
}

TimeAverage::TimeAverage(int nvars, std::vector<std::size_t> nupts,
                         std::vector<std::pair<int, int>> pairs)
    : nvars_(nvars), nupts_(std::move(nupts)), pairs_(std::move(pairs)) {}

void TimeAverage::add_products(double h, const GroupFields* a, const GroupFields& b,
                               GroupFields& out) const {
  const std::size_t nv = std::size_t(nvars_), np = pairs_.size();
  for (std::size_t g = 0; g < b.size(); ++g) {
    const std::size_t nu = nupts_.at(g), neles = b[g].size() / (nv * nu);
    out[g].resize(neles * np * nu, 0.0);
    for (std::size_t e = 0; e < neles; ++e)
      for (std::size_t k = 0; k < np; ++k) {
        const double* bx = &b[g][(e * nv + std::size_t(pairs_[k].first)) * nu];
        const double* by = &b[g][(e * nv + std::size_t(pairs_[k].second)) * nu];
        double* o = &out[g][(e * np + k) * nu];
        if (!a) {
          for (std::size_t i = 0; i < nu; ++i) o[i] = bx[i] * by[i];
          continue;
        }
        const double* ax = &(*a)[g][(e * nv + std::size_t(pairs_[k].first)) * nu];
        const double* ay = &(*a)[g][(e * nv + std::size_t(pairs_[k].second)) * nu];
        for (std::size_t i = 0; i < nu; ++i)
          o[i] += h / 6 * (2 * ax[i] * ay[i] + ax[i] * by[i] + bx[i] * ay[i] + 2 * bx[i] * by[i]);
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
    if (has_moments()) {
      sum2_.assign(u.size(), {});
      add_products(0, &u, u, sum2_);  // sized, and zero: a window of no length
    }
    return;
  }
  if (!(t > tprev_)) return;
  const double h = 0.5 * (t - tprev_);
  for (std::size_t g = 0; g < u.size(); ++g)
    for (std::size_t j = 0; j < u[g].size(); ++j) sum_[g][j] += h * (prev_[g][j] + u[g][j]);
  if (has_moments()) add_products(t - tprev_, &prev_, u, sum2_);
  prev_ = u;
  tprev_ = t;
  ++nsamples_;
}

void TimeAverage::resume(double t0, double t1, const GroupFields& mean, const GroupFields& last,
                         const GroupFields& moments) {
  sum_ = mean;
  for (auto& g : sum_)
    for (auto& x : g) x *= t1 - t0;
  sum2_ = moments;
  for (auto& g : sum2_)
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

GroupFields TimeAverage::moments() const {
  if (!has_moments() || nsamples_ == 0) return {};
  GroupFields m;
  if (nsamples_ == 1) {
    m.assign(prev_.size(), {});
    add_products(0, nullptr, prev_, m);
    return m;
  }
  m = sum2_;
  const double w = 1 / (tprev_ - t0_);
  for (auto& g : m)
    for (auto& x : g) x *= w;
  return m;
}

}  // namespace frmini::solver
