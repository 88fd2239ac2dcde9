// The time-average plugin: its accumulator against exact time means, the primitive variables
// against their definition, and whole runs — a steady state averages to itself, and an
// unsteady run's mean file equals the trapezoidal mean of the solutions written at every step.
#include <cmath>
#include <filesystem>

#include "solver/io/solution_file.hpp"
#include "solver/plugins/time_average.hpp"
#include "solver/run/runner.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/support/vortex_case.hpp"

using namespace frmini;

TEST_CASE("tavg: the accumulator's mean of a field linear in time is exact") {
  // u(t) = a + b t at uneven times: the time mean over [t0, t1] is a + b (t0 + t1) / 2; a
  // plain average of the samples would be pulled towards the crowded end.
  solver::TimeAverage acc;
  const double a = 2, b = -3;
  const std::vector<double> ts = {1.0, 1.1, 1.15, 1.6, 3.0};
  for (double t : ts) acc.add(t, {{a + b * t, 5.0}, {a * t}});
  acc.add(3.0, {{100.0, 100.0}, {100.0}});  // a repeated time is ignored
  auto m = acc.mean();
  CHECK(std::abs(m[0][0] - (a + b * 2.0)) < 1e-14);
  CHECK(std::abs(m[0][1] - 5.0) < 1e-14);
  CHECK(std::abs(m[1][0] - a * 2.0) < 1e-14);
  CHECK(acc.tfirst() == 1.0);
  CHECK(acc.tlast() == 3.0);

  solver::TimeAverage one;
  one.add(0.5, {{7.0}});
  CHECK(one.mean()[0][0] == 7.0);
}

TEST_CASE("tavg: the moments of fields linear in time: exact means, variances and covariance") {
  // One 2D group of one element with two points; variables rho, u, v, p (ndims = 2). On two
  // points u = a + b t and v = c + d t (second point: other coefficients), p = e t. Over
  // [t0, t1], with T = t1 - t0 and tm = (t0 + t1)/2: <u> = a + b tm, var u = b^2 T^2/12,
  // cov(u, v) = b d T^2/12, whatever the spacing of the samples.
  const auto mom = solver::velocity_pressure_moments(2);
  REQUIRE(mom.names == std::vector<std::string>{"uu", "vv", "uv", "pp"});
  solver::TimeAverage acc(4, {2}, mom.pairs);
  const double a[2] = {0.3, -1.0}, b[2] = {2.0, 0.5}, c[2] = {1.0, 4.0}, d[2] = {-3.0, 1.5}, e = 0.7;
  const std::vector<double> ts = {1.0, 1.05, 1.4, 1.45, 2.2, 3.0};
  auto field = [&](double t) {
    std::vector<double> f(8);
    for (int i = 0; i < 2; ++i) {
      f[0 * 2 + i] = 1.0;
      f[1 * 2 + i] = a[i] + b[i] * t;
      f[2 * 2 + i] = c[i] + d[i] * t;
      f[3 * 2 + i] = e * t;
    }
    return solver::GroupFields{f};
  };
  acc.add(ts[0], field(ts[0]));
  auto one = acc.moments();  // one sample: the products of that sample
  REQUIRE(one.size() == 1);
  REQUIRE(one[0].size() == 8);
  CHECK(std::abs(one[0][0] - std::pow(a[0] + b[0], 2)) < 1e-14);
  for (std::size_t k = 1; k < ts.size(); ++k) acc.add(ts[k], field(ts[k]));
  const auto m = acc.mean(), q = acc.moments();
  const double T = 2.0, tm = 2.0;
  for (int i = 0; i < 2; ++i) {
    const double mu = a[i] + b[i] * tm, mv = c[i] + d[i] * tm, mp = e * tm;
    CHECK(std::abs(m[0][2 + i] - mu) < 1e-13);
    CHECK(std::abs(q[0][0 * 2 + i] - mu * mu - b[i] * b[i] * T * T / 12) < 1e-12);  // uu
    CHECK(std::abs(q[0][1 * 2 + i] - mv * mv - d[i] * d[i] * T * T / 12) < 1e-12);  // vv
    CHECK(std::abs(q[0][2 * 2 + i] - mu * mv - b[i] * d[i] * T * T / 12) < 1e-12);  // uv
    CHECK(std::abs(q[0][3 * 2 + i] - mp * mp - e * e * T * T / 12) < 1e-12);        // pp
  }
  // Resumed from its mean and moments at t = 1.45 (the samples before), the same window.
  solver::TimeAverage first(4, {2}, mom.pairs), second(4, {2}, mom.pairs);
  for (std::size_t k = 0; k < 4; ++k) first.add(ts[k], field(ts[k]));
  second.add(ts[3], field(ts[3]));
  second.resume(ts[0], ts[3], first.mean(), field(ts[3]), first.moments());
  for (std::size_t k = 4; k < ts.size(); ++k) second.add(ts[k], field(ts[k]));
  const auto q2 = second.moments();
  for (std::size_t j = 0; j < q[0].size(); ++j) CHECK(std::abs(q2[0][j] - q[0][j]) < 1e-13);
  CHECK(solver::velocity_pressure_moments(3).names ==
        std::vector<std::string>{"uu", "vv", "ww", "uv", "uw", "vw", "pp"});
}

TEST_CASE("tavg: conserved to primitive") {
  // One 3D element of two points: rho, rho u, rho v, rho w, E per point.
  const double g = 1.4, rho = 1.3, u = 0.2, v = -0.5, w = 0.7, p = 2.5;
  const double e = p / (g - 1) + 0.5 * rho * (u * u + v * v + w * w);
  solver::GroupFields s = {{rho, rho, rho * u, rho * u, rho * v, rho * v, rho * w, rho * w, e, e}};
  solver::conserved_to_primitive(s, 3, {2}, g);
  const std::vector<double> want = {rho, rho, u, u, v, v, w, w, p, p};
  for (std::size_t i = 0; i < want.size(); ++i) CHECK(std::abs(s[0][i] - want[i]) < 1e-14);
}

namespace {

namespace fs = std::filesystem;

fs::path run_in_temp(std::string text, long steps) {
  const auto dir = fs::temp_directory_path() / ("frmini-test-tavg-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (std::size_t p; (p = text.find("@DIR@")) != std::string::npos;) text.replace(p, 5, dir.string());
  auto k = solver::load_case_text(text, "tavg-test.toml");
  solver::RunOptions o;
  o.max_steps = steps;
  o.quiet = true;
  solver::run_case(k, o);
  return dir;
}

// The vortex (tests/support/vortex_case.hpp) with the writer and the time average.
const std::string vortex_case = test::vortex_case_text() + R"toml(
[plugins.writer]
dt-out = 0.05
basedir = "@DIR@"
basename = "s-{n}"
[plugins.tavg]
nsteps = 1
tstart = 0.1
dt-out = 0.2
basedir = "@DIR@"
basename = "m-{n}"
moments = true
)toml";

}  // namespace

TEST_CASE("tavg: the mean file is the trapezoidal mean of the solutions over [tstart, t]") {
  auto dir = run_in_temp(vortex_case, 7);  // t = 0.35: outputs at 0.3 and (the end) 0.35
  auto m0 = solver::read_solution((dir / "m-0.h5").string());
  auto m1 = solver::read_solution((dir / "m-1.h5").string());
  CHECK(m0.variables == "primitive-mean");
  CHECK(std::abs(m0.state.t - 0.3) < 1e-12);
  CHECK(std::abs(m1.state.t - 0.35) < 1e-12);
  // The writer's files s-2 .. s-7 are the solutions at t = 0.1 .. 0.35.
  std::vector<solver::GroupFields> prim;
  for (int n = 2; n <= 7; ++n) {
    auto s = solver::read_solution((dir / ("s-" + std::to_string(n) + ".h5")).string());
    solver::conserved_to_primitive(s.soln, 2, {s.shapes[0][2]}, 1.4);
    prim.push_back(s.soln);
  }
  // Equal steps: trapezoid weights 1/2, 1, ..., 1, 1/2 over (n - 1) intervals.
  auto mean = [&](std::size_t n, std::size_t j) {
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += (i == 0 || i == n - 1 ? 0.5 : 1.0) * prim[i][0][j];
    return sum / double(n - 1);
  };
  double err0 = 0, err1 = 0, change = 0;
  for (std::size_t j = 0; j < prim[0][0].size(); ++j) {
    err0 = std::max(err0, std::abs(m0.soln[0][j] - mean(5, j)));
    err1 = std::max(err1, std::abs(m1.soln[0][j] - mean(6, j)));
    change = std::max(change, std::abs(prim[5][0][j] - prim[0][0][j]));
  }
  CHECK(err0 < 1e-13);
  CHECK(err1 < 1e-13);
  // The second moments: the integral of the product of the linear pieces between samples,
  // h (2 a0 b0 + a0 b1 + a1 b0 + 2 a1 b1) / 6, here for uu (variable 1 times itself) and uv.
  REQUIRE(m1.moment_names == std::vector<std::string>{"uu", "vv", "uv", "pp"});
  const std::size_t nu = m1.shapes[0][2];
  auto product_mean = [&](std::size_t e, std::size_t i, int x, int y) {
    auto at = [&](std::size_t k, int v) { return prim[k][0][(e * 4 + std::size_t(v)) * nu + i]; };
    double sum = 0;
    for (std::size_t k = 0; k + 1 < 6; ++k)
      sum += (2 * at(k, x) * at(k, y) + at(k, x) * at(k + 1, y) + at(k + 1, x) * at(k, y) +
              2 * at(k + 1, x) * at(k + 1, y)) / 6;
    return sum / 5.0;
  };
  double errm = 0, var = 0, negative = 0;
  for (std::size_t e = 0; e < m1.shapes[0][0]; ++e)
    for (std::size_t i = 0; i < nu; ++i) {
      const double uu = m1.moments[0][(e * 4 + 0) * nu + i], uv = m1.moments[0][(e * 4 + 2) * nu + i];
      errm = std::max({errm, std::abs(uu - product_mean(e, i, 1, 1)), std::abs(uv - product_mean(e, i, 1, 2))});
      const double u = m1.soln[0][(e * 4 + 1) * nu + i];
      var = std::max(var, uu - u * u);
      negative = std::min(negative, uu - u * u);  // >= 0: the mean of the square of a linear interpolant
    }
  CHECK(errm < 1e-13);
  CHECK(negative > -1e-14);
  CHECK(var > 1e-8);  // u varied over the window: a variance the test could get wrong
  CHECK(change > 1e-3);  // the flow did change: the test could tell a wrong weighting
  CHECK_THROWS(solver::read_solution((dir / "m-2.h5").string()));
  fs::remove_all(dir);
}

TEST_CASE("tavg: the mean of a steady state is the state") {
  std::string text = vortex_case;
  // Uniform flow (rho 1.2, u 0.3, v -0.1, p 2) is steady on the periodic box.
  auto cut = text.find("[ics]"), end = text.find("[plugins.writer]");
  text.replace(cut, end - cut, "[ics]\nrho = 1.2\nu = 0.3\nv = -0.1\np = 2.0\n");
  auto dir = run_in_temp(text, 5);
  auto m = solver::read_solution((dir / "m-0.h5").string());
  const std::size_t nu = m.shapes[0][2];
  const double want[4] = {1.2, 0.3, -0.1, 2.0};
  double err = 0;
  for (std::size_t e = 0; e < m.shapes[0][0]; ++e)
    for (std::size_t v = 0; v < 4; ++v)
      for (std::size_t i = 0; i < nu; ++i)
        err = std::max(err, std::abs(m.soln[0][(e * 4 + v) * nu + i] - want[v]));
  CHECK(err < 1e-12);
  fs::remove_all(dir);
}
