// Force coefficients and their statistics against exact answers: the Strouhal number, mean
// and rms of synthetic signals whose values are known, and Cd of a linear pressure field
// p = P0 + c x around the cylinder, whose force is exactly -c times the cylinder's area
// (volume in 3D) along x, whatever P0.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "solver/plugins/force_stats.hpp"
#include "solver/run/runner.hpp"
#include "tests/frmini_catch.hpp"

using namespace frmini;

namespace {

// Cl = 0.1 + A sin(2 pi f t) + a decaying transient, Cd = 1.2 + 0.05 sin(4 pi f t) + transient,
// sampled at uneven times (as the PI controller's steps are).
struct Signal {
  std::vector<double> t, cd, cl;
};
Signal signal(double f, double tend, double amp) {
  Signal s;
  double t = 0;
  for (int i = 0; t <= tend; ++i) {
    const double tr = 3 * std::exp(-t / 2);
    s.t.push_back(t);
    s.cl.push_back(0.1 + amp * std::sin(2 * M_PI * f * t) + tr);
    s.cd.push_back(1.2 + 0.05 * std::sin(4 * M_PI * f * t) + tr);
    t += 0.004 * (1 + 0.5 * std::sin(0.37 * i));  // steps between 0.002 and 0.006
  }
  return s;
}

}  // namespace

TEST_CASE("force_stats: St, mean Cd and rms Cl of a sine after a transient") {
  const double f = 0.2, d = 0.5, u = 2.0, amp = 0.7;
  auto s = signal(f, 79, amp);
  solver::ForceStatsOptions o;
  o.lref = d, o.uref = u;
  o.tstart = 30;  // the transient is e^-15 by then
  auto r = solver::force_stats(s.t, s.cd, s.cl, o);
  REQUIRE(r.cycles_found);
  // Upward crossings at multiples of 1/f = 5; the one at 30 needs Cl below the mean first
  // inside the window, so 35, 40, ..., 75: 8 whole cycles.
  CHECK(r.ncycles == 8);
  CHECK(std::abs(r.strouhal - f * d / u) < 1e-5);
  CHECK(std::abs(r.mean_cd - 1.2) < 1e-5);
  CHECK(std::abs(r.mean_cl - 0.1) < 1e-5);
  CHECK(std::abs(r.rms_cl - amp / std::sqrt(2.0)) < 1e-5);
  CHECK(r.note.empty());

  // With the default (the first half discarded) the answer is the same.
  o.tstart = -1e308;
  auto h = solver::force_stats(s.t, s.cd, s.cl, o);
  CHECK(std::abs(h.strouhal - f * d / u) < 1e-5);
  CHECK(std::abs(h.rms_cl - amp / std::sqrt(2.0)) < 1e-5);

  // Including the transient biases the mean: the estimator must not.
  o.tstart = 0;
  auto w = solver::force_stats(s.t, s.cd, s.cl, o);
  CHECK(std::abs(w.mean_cd - 1.2) > 1e-3);
}

TEST_CASE("force_stats: fewer than three whole cycles give no Strouhal number") {
  auto s = signal(0.2, 30, 0.7);
  solver::ForceStatsOptions o;
  o.tstart = 16;  // 14 time units: crossings at 20, 25 (and 30 at the very end, maybe)
  auto r = solver::force_stats(s.t, s.cd, s.cl, o);
  CHECK_FALSE(r.cycles_found);
  CHECK(r.strouhal == 0);
  CHECK(r.note.find("not enough cycles") == 0);
  CHECK(std::abs(r.t0 - 16) < 1e-12);
  CHECK_THROWS(solver::force_stats({0, 1}, {0}, {0, 1}, o));
}

TEST_CASE("force_stats: noise near the mean does not count as crossings") {
  auto s = signal(0.25, 60, 1.0);
  for (std::size_t i = 0; i < s.cl.size(); ++i) s.cl[i] += 0.02 * ((i % 2) ? 1 : -1);
  solver::ForceStatsOptions o;
  o.tstart = 20;
  auto r = solver::force_stats(s.t, s.cd, s.cl, o);
  REQUIRE(r.cycles_found);
  CHECK(std::abs(r.strouhal - 0.25) < 2e-3);
}

namespace {

// Runs `case_text` for no steps (the forces plugin samples the initial state) and returns the
// forces CSV's last row as name -> value, and the summary CSV's text.
std::map<std::string, double> forces_at_start(const std::string& case_text, std::string& summary) {
  namespace fs = std::filesystem;
  const auto dir = fs::temp_directory_path() / ("frmini-test-forces-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string text = case_text;
  for (std::size_t p; (p = text.find("@DIR@")) != std::string::npos;) text.replace(p, 5, dir.string());
  auto k = solver::load_case_text(text, "forces-test.toml");
  solver::RunOptions o;
  o.max_steps = 0;
  o.quiet = true;
  solver::run_case(k, o);
  std::ifstream in(dir / "f.csv");
  std::string head, row, line;
  std::getline(in, head);
  while (std::getline(in, line)) row = line;
  std::map<std::string, double> out;
  std::stringstream hs(head), rs(row);
  for (std::string h, v; std::getline(hs, h, ',') && std::getline(rs, v, ',');) out[h] = std::stod(v);
  std::ifstream sin(dir / "f-summary.csv");
  summary.assign(std::istreambuf_iterator<char>(sin), {});
  fs::remove_all(dir);
  return out;
}

const char* linear_pressure_case = R"(
[constants]
Uinf = 1.0
c = 0.3
[mesh]
generator = "@GEN@"
[mesh.options]
scale = 0.25
[solver]
system = "euler"
order = 2
[time]
dt = 1e-4
tend = 1.0
[ics]
rho = 1.0
u = 0.0
v = 0.0
w = 0.0
p = "10 + c*x"
[bcs.farfield]
type = "char-riem-inv"
rho = 1.0
u = 1.0
v = 0.0
w = 0.0
p = 10.0
[bcs.cylinder]
type = "slp-adia-wall"
[plugins.forces.cylinder]
file = "@DIR@/f.csv"
)";

std::string with_generator(const std::string& gen) {
  std::string t = linear_pressure_case;
  t.replace(t.find("@GEN@"), 5, gen);
  return t;
}

}  // namespace

// The fluid pushes the body with -(integral of grad p over its volume) = -c V e_x; with
// q = 1/2 (Uinf = 1, rho = 1) and S = D x span, Cd = -c (pi/4) span / (span / 2) = -c pi / 2.
// p is quadratic on the quadratic elements (order 2 holds it exactly), so what is left is the
// quadratic mesh's circle and the flux-point quadrature (measured: 2e-5 in Cd at scale 0.25):
// 1e-4 is far below a wrong area, sign or q (factors of 2, pi, -1).
TEST_CASE("forces plugin: Cd of a linear pressure field around the 2D cylinder is -c pi/2") {
  std::string summary;
  auto r = forces_at_start(with_generator("cylinder2d"), summary);
  CHECK(std::abs(r.at("cd") - (-0.3 * M_PI / 2)) < 1e-4);
  CHECK(std::abs(r.at("cl")) < 1e-10);
  CHECK(std::abs(r.at("px") - (-0.3 * M_PI / 4)) < 1e-4);
  CHECK(r.at("vx") == 0);
  CHECK(summary.find("ref_pressure,ref_area,ref_length") != std::string::npos);
  // q = rho U^2 / 2 = 0.5, S = D = 1 (the frontal area per unit span).
  CHECK(summary.find(",0.5,1,1,") != std::string::npos);
}

TEST_CASE("forces plugin: Cd and Cz on the 3D cylinder, S = D x span = pi") {
  std::string summary;
  auto r = forces_at_start(with_generator("cylinder3d"), summary);
  CHECK(std::abs(r.at("cd") - (-0.3 * M_PI / 2)) < 1e-4);
  CHECK(std::abs(r.at("px") - (-0.3 * M_PI * M_PI / 4)) < 3e-4);
  CHECK(summary.find(",0.5,3.141592654,1,") != std::string::npos);  // S = D x span = pi
  CHECK(std::abs(r.at("cl")) < 1e-10);
  CHECK(std::abs(r.at("cz")) < 1e-10);
}
