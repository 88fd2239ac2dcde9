// The time average accumulated on the device (DeviceTimeAverage, physics::tavg_sample)
// against the host's (TimeAverage on the downloaded solution): the same means and moments to
// round-off on cpu and opencl, in both precisions, on every element type, whichever register
// holds the solution at a sample, with reads between samples and across a resumed window.
#include <cmath>

#include "kernels/backend.hpp"
#include "solver/plugins/time_average.hpp"
#include "solver/plugins/time_average_device.hpp"
#include "solver/system/system.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/support/backends.hpp"
#include "tests/support/generated_mesh.hpp"

using namespace frmini;

namespace {

// A valid state at time t, different at every (group, element, variable, point) and not
// linear in time, so the trapezoid and the products' integrals both show.
solver::GroupFields state(const solver::System& sys, double t) {
  solver::GroupFields s;
  const int nv = sys.nvars();
  for (std::size_t g = 0; g < sys.layout().size(); ++g) {
    const auto& l = sys.layout()[g];
    std::vector<double> v(std::size_t(l.neles) * nv * l.nupts);
    for (std::size_t i = 0; i < v.size(); ++i) {
      const int var = int((i / std::size_t(l.nupts)) % std::size_t(nv));
      const double w = std::sin(0.37 * double(i) + double(g) + 2.1 * t + 0.5 * t * t);
      v[i] = var == 0 ? 1.0 + 0.2 * w : var == nv - 1 ? 3.0 + 0.5 * w : 0.3 * w;
    }
    s.push_back(v);
  }
  return s;
}

solver::GroupFields primitive(const solver::System& sys, solver::GroupFields u) {
  std::vector<std::size_t> nupts;
  for (const auto& l : sys.layout()) nupts.push_back(std::size_t(l.nupts));
  solver::conserved_to_primitive(u, sys.ndims(), nupts, sys.config().phys.gamma);
  return u;
}

double max_rel_diff(const solver::GroupFields& a, const solver::GroupFields& b) {
  REQUIRE(a.size() == b.size());
  double d = 0;
  for (std::size_t g = 0; g < a.size(); ++g) {
    REQUIRE(a[g].size() == b[g].size());
    for (std::size_t j = 0; j < a[g].size(); ++j)
      d = std::max(d, std::abs(a[g][j] - b[g][j]) / std::max(1.0, std::abs(b[g][j])));
  }
  return d;
}

solver::SystemConfig config(const meshes::Mesh& mesh, kernels::Precision prec) {
  solver::SystemConfig cfg;
  cfg.phys.system = "euler";
  cfg.phys.ndims = mesh.ndims;
  cfg.order = 2;
  cfg.precision = prec;
  cfg.nregs = 3;
  if (mesh.ndims == 2) {
    const std::map<std::string, std::string> fs = {
        {"rho", "1.0"}, {"u", "0.3"}, {"v", "0.0"}, {"w", "0.0"}, {"p", "1.0"}};
    cfg.bcs["farfield"] = {"char-riem-inv", fs};
    cfg.bcs["cylinder"] = {"slp-adia-wall", {}};
  }
  return cfg;
}

}  // namespace

TEST_CASE("tavg on the device equals the host's average on every backend, type and precision") {
  const std::vector<double> ts = {0.5, 0.52, 0.61, 0.62, 0.9, 1.3, 1.31};
  for (const auto& [name, mixed] : {std::pair<std::string, bool>{"box-mixed3d", false}, {"cylinder2d", true}})
    for (const auto& bname : test::cpu_and_opencl())
      for (auto prec : {kernels::Precision::double_, kernels::Precision::single}) {
        const bool dbl = prec == kernels::Precision::double_;
        INFO(name << " on " << bname << (dbl ? " double" : " single"));
        // Observed: double agrees to 1e-15, single to 2e-7 (its sums are in float between reads).
        const double tol = dbl ? 1e-13 : 2e-6;
        const auto& mesh = test::generated_mesh(name, mixed);
        auto be = kernels::make_backend(bname);
        solver::System sys(*be, mesh, config(mesh, prec));
        const auto mom = solver::velocity_pressure_moments(sys.ndims());
        std::vector<std::size_t> nupts;
        for (const auto& l : sys.layout()) nupts.push_back(std::size_t(l.nupts));
        solver::TimeAverage host(sys.nvars(), nupts, mom.pairs), host_means(sys.nvars(), nupts, {});
        solver::DeviceTimeAverage dev(sys, mom.pairs), dev_means(sys, {});
        for (std::size_t k = 0; k < ts.size(); ++k) {
          const int reg = int(k % 3);  // the integrator's current register moves around
          sys.upload_solution(reg, state(sys, ts[k]));
          const auto q = primitive(sys, sys.download_solution(reg));  // as the device holds it
          host.add(ts[k], q);
          host_means.add(ts[k], q);
          dev.add(ts[k], reg);
          dev_means.add(ts[k], reg);
          if (k == 0) {  // one sample: that sample, and its products
            CHECK(max_rel_diff(dev.mean(), q) <= tol);
            CHECK(max_rel_diff(dev.moments(), host.moments()) <= tol);
          }
          if (k == 3) {  // a read between samples (a file written) leaves the window going on
            CHECK(max_rel_diff(dev.mean(), host.mean()) <= tol);
            CHECK(max_rel_diff(dev.moments(), host.moments()) <= tol);
          }
        }
        dev.add(ts.back(), 0);  // a repeated time is ignored
        CHECK(dev.tfirst() == ts.front());
        CHECK(dev.tlast() == ts.back());
        CHECK(max_rel_diff(dev.mean(), host.mean()) <= tol);
        CHECK(max_rel_diff(dev.moments(), host.moments()) <= tol);
        CHECK(max_rel_diff(dev_means.mean(), host.mean()) <= tol);
        CHECK(dev_means.moments().empty());
        // The window is not a plain average of the samples (the check above can fail).
        CHECK(max_rel_diff(dev.mean(), primitive(sys, state(sys, ts.back()))) > 1e3 * tol);

        // A restart at ts[3]: one sample there, then the earlier window's means; the rest as
        // before gives the whole window's.
        solver::TimeAverage first(sys.nvars(), nupts, mom.pairs);
        for (std::size_t k = 0; k <= 3; ++k) {
          sys.upload_solution(0, state(sys, ts[k]));
          first.add(ts[k], primitive(sys, sys.download_solution(0)));
        }
        solver::DeviceTimeAverage resumed(sys, mom.pairs);
        resumed.add(ts[3], 0);
        resumed.resume(ts[0], first.mean(), first.moments());
        for (std::size_t k = 4; k < ts.size(); ++k) {
          sys.upload_solution(1, state(sys, ts[k]));
          resumed.add(ts[k], 1);
        }
        CHECK(resumed.tfirst() == ts.front());
        CHECK(max_rel_diff(resumed.mean(), host.mean()) <= tol);
        CHECK(max_rel_diff(resumed.moments(), host.moments()) <= tol);
      }
}
