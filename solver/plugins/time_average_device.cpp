#include "solver/plugins/time_average_device.hpp"

#include "solver/physics/physics.hpp"

namespace frmini::solver {

using kernels::pointwise::ArgValue;

DeviceTimeAverage::DeviceTimeAverage(System& sys, std::vector<std::pair<int, int>> pairs)
    : sys_(sys), pairs_(std::move(pairs)), sum_(sys, sys.nvars()), prev_(sys, sys.nvars()) {
  if (!pairs_.empty()) sum2_ = std::make_unique<PointField>(sys, int(pairs_.size()));
  for (const auto& l : sys.layout())
    kernels_.push_back(sys.backend().pointwise(
        physics::tavg_sample(sys.config().phys, l.nupts, pairs_), sys.config().precision));
}

DeviceTimeAverage::~DeviceTimeAverage() = default;

void DeviceTimeAverage::add(double t, int reg) {
  if (nsamples_ > 0 && !(t > tprev_)) return;
  const auto& lay = sys_.layout();
  const double dt = nsamples_ == 0 ? 0.0 : t - tprev_;
  for (std::size_t g = 0; g < lay.size(); ++g) {
    if (lay[g].neles_pad == 0) continue;  // a part without elements of this type
    auto& k = *kernels_[g];
    if (reg != bound_reg_) {  // the integrators sample whichever register holds the solution
      std::vector<ArgValue> a = {ArgValue::panel(&sys_.arena(), lay[g].reg.at(std::size_t(reg)), lay[g].ld),
                                 sum_.arg(g), prev_.arg(g)};
      if (sum2_) a.push_back(sum2_->arg(g));
      a.push_back(ArgValue::value(dt));
      k.bind(a);
    }
    k.set_scalar(k.spec().args.size() - 1, dt);
    k.run(0, lay[g].neles_pad);
  }
  bound_reg_ = reg;
  if (nsamples_ == 0) t0_ = t;
  tprev_ = t;
  ++nsamples_;
  unread_ = nsamples_ > 1;
}

void DeviceTimeAverage::resume(double t0, const GroupFields& mean, const GroupFields& moments) {
  flush();  // nothing: one sample so far
  auto times = [&](GroupFields f) {
    for (auto& g : f)
      for (auto& x : g) x *= tprev_ - t0;
    return f;
  };
  total_ = times(mean);
  if (sum2_) total2_ = times(moments);
  t0_ = t0;
  nsamples_ = tprev_ > t0 ? 2 : 1;
}

void DeviceTimeAverage::flush() {
  if (!unread_) return;
  auto add_into = [](GroupFields& total, PointField& f) {
    GroupFields s = f.download();
    f.zero();
    if (total.empty()) {
      total = std::move(s);
      return;
    }
    for (std::size_t g = 0; g < s.size(); ++g)
      for (std::size_t j = 0; j < s[g].size(); ++j) total[g][j] += s[g][j];
  };
  add_into(total_, sum_);
  if (sum2_) add_into(total2_, *sum2_);
  unread_ = false;
}

GroupFields DeviceTimeAverage::scaled(const GroupFields& total) const {
  GroupFields m = total;
  const double w = 1 / (tprev_ - t0_);
  for (auto& g : m)
    for (auto& x : g) x *= w;
  return m;
}

GroupFields DeviceTimeAverage::mean() {
  if (nsamples_ <= 1) return prev_.download();
  flush();
  return scaled(total_);
}

GroupFields DeviceTimeAverage::moments() {
  if (!sum2_ || nsamples_ == 0) return {};
  if (nsamples_ > 1) {
    flush();
    return scaled(total2_);
  }
  // One sample: the products of that sample.
  const GroupFields q = prev_.download();
  const std::size_t nv = std::size_t(sys_.nvars()), np = pairs_.size();
  GroupFields m(q.size());
  for (std::size_t g = 0; g < q.size(); ++g) {
    const std::size_t nu = std::size_t(sys_.layout()[g].nupts), neles = q[g].size() / (nv * nu);
    m[g].resize(neles * np * nu);
    for (std::size_t e = 0; e < neles; ++e)
      for (std::size_t k = 0; k < np; ++k)
        for (std::size_t i = 0; i < nu; ++i)
          m[g][(e * np + k) * nu + i] = q[g][(e * nv + std::size_t(pairs_[k].first)) * nu + i] *
                                        q[g][(e * nv + std::size_t(pairs_[k].second)) * nu + i];
  }
  return m;
}

}  // namespace frmini::solver
