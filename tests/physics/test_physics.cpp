// Physics written once in the kernel language, tested through the C rendering:
//  - the inviscid and viscous fluxes against independent host formulas (the viscous one from
//    primitive-variable gradients, the kernel's from conserved-variable gradients);
//  - every Riemann solver: consistency F(u, u) = F(u).n, conservation (swap sides and flip
//    the normal: the flux changes sign), rotational invariance, supersonic upwinding;
//  - the boundary conditions' defining properties (no mass through walls, free stream kept
//    by the far field, prescribed pressure/velocity/temperature, zero wall heat flux).
#include <array>
#include <cmath>
#include <random>

#include "solver/physics/physics.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/support/c_kernel.hpp"

using namespace frmini;
using namespace frmini::kernels::pointwise;
using Vec = std::vector<double>;

namespace {

constexpr double gam = 1.4;

struct Prim {
  double rho, p;
  std::array<double, 3> v;
};

Vec conserved(const Prim& w, int nd) {
  Vec u(nd + 2);
  double vv = 0;
  u[0] = w.rho;
  for (int i = 0; i < nd; ++i) {
    u[i + 1] = w.rho * w.v[i];
    vv += w.v[i] * w.v[i];
  }
  u[nd + 1] = w.p / (gam - 1) + 0.5 * w.rho * vv;
  return u;
}

Prim random_prim(std::mt19937& rng, double vscale = 1.0) {
  std::uniform_real_distribution<double> d(0.5, 2.0), s(-1.0, 1.0);
  return {d(rng), d(rng), {vscale * s(rng), vscale * s(rng), vscale * s(rng)}};
}

Vec random_normal(std::mt19937& rng, int nd) {
  std::normal_distribution<double> g;
  Vec n(nd);
  double l = 0;
  for (auto& x : n) {
    x = g(rng);
    l += x * x;
  }
  for (auto& x : n) x /= std::sqrt(l);
  return n;
}

// Host inviscid flux normal to n.
Vec host_normal_flux(const Vec& u, const Vec& n) {
  int nd = int(n.size());
  double rho = u[0], E = u[nd + 1], vv = 0, vn = 0;
  for (int i = 0; i < nd; ++i) {
    vv += u[i + 1] * u[i + 1] / rho;
    vn += n[i] * u[i + 1] / rho;
  }
  double p = (gam - 1) * (E - 0.5 * vv);
  Vec f(nd + 2);
  f[0] = rho * vn;
  for (int i = 0; i < nd; ++i) f[i + 1] = u[i + 1] * vn + p * n[i];
  f[nd + 1] = (E + p) * vn;
  return f;
}

physics::Options opts(int nd, const std::string& rs = "rusanov") {
  physics::Options o;
  o.ndims = nd;
  o.riemann = rs;
  o.gamma = gam;
  return o;
}

// Packs per-point vectors into a SoA array (ld = npoints) and back.
Vec soa(const std::vector<Vec>& pts) {
  std::size_t n = pts.size(), m = pts[0].size();
  Vec a(n * m);
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t k = 0; k < m; ++k) a[k * n + j] = pts[j][k];
  return a;
}
Vec point(const Vec& a, std::size_t n, std::size_t j) {
  Vec v(a.size() / n);
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = a[k * n + j];
  return v;
}

// Runs rsolve over pairs of states.
std::vector<Vec> rsolve(const physics::Options& o, const std::vector<Vec>& ul,
                        const std::vector<Vec>& ur, const std::vector<Vec>& n) {
  int nv = o.nvars(), nd = o.ndims;
  Spec s;
  s.name = "t_rsolve";
  s.space = Space::points;
  s.args = {{"ul", ArgKind::array, Intent::in, {nv}},
            {"ur", ArgKind::array, Intent::in, {nv}},
            {"n", ArgKind::array, Intent::in, {nd}},
            {"nf", ArgKind::array, Intent::out, {nv}}};
  s.functions = physics::source("euler/flux.kern") + physics::source("euler/rsolvers/" + o.riemann + ".kern");
  s.body = "rsolve(ul, ur, n, nf);";
  s.defines = physics::defines(o);
  std::vector<Vec> data = {soa(ul), soa(ur), soa(n), Vec(ul.size() * nv)};
  test::run_points(s, data, int64_t(ul.size()), "rsolve_" + o.riemann + std::to_string(nd));
  std::vector<Vec> out;
  for (std::size_t j = 0; j < ul.size(); ++j) out.push_back(point(data[3], ul.size(), j));
  return out;
}

// Runs a BC's ghost-state function; `values` are the BC's user values as C expressions.
std::vector<Vec> ghost(const std::string& type, const std::string& fn, int nd,
                       const std::map<std::string, std::string>& values,
                       const std::vector<Vec>& ul, const std::vector<Vec>& n) {
  physics::Options o = opts(nd);
  int nv = o.nvars();
  Spec s;
  s.name = "t_ghost";
  s.space = Space::points;
  s.args = {{"ul", ArgKind::array, Intent::in, {nv}},
            {"n", ArgKind::array, Intent::in, {nd}},
            {"ploc", ArgKind::array, Intent::in, {nd}},
            {"t", ArgKind::scalar, Intent::in, {}},
            {"ur", ArgKind::array, Intent::out, {nv}}};
  static const std::map<std::string, std::string> macro = {
      {"rho", "BC_RHO"}, {"u", "BC_U"}, {"v", "BC_V"}, {"w", "BC_W"}, {"p", "BC_P"}, {"cpTw", "BC_CPTW"}};
  for (const auto& name : physics::bc_values(type))
    s.functions += "#define " + macro.at(name) + " (" + values.at(name) + ")\n";
  s.functions += physics::source("bcs/common.kern") + physics::source("bcs/" + type + ".kern");
  s.body = fn + "(ul, n, ploc, t, ur);";
  s.defines = physics::defines(o);
  std::vector<Vec> ploc(ul.size(), Vec(nd, 0.25));
  std::vector<Vec> data = {soa(ul), soa(n), soa(ploc), {0.0}, Vec(ul.size() * nv)};
  test::run_points(s, data, int64_t(ul.size()), "ghost_" + type + fn + std::to_string(nd));
  std::vector<Vec> out;
  for (std::size_t j = 0; j < ul.size(); ++j) out.push_back(point(data[4], ul.size(), j));
  return out;
}

double pressure(const Vec& u, int nd) {
  double vv = 0;
  for (int i = 0; i < nd; ++i) vv += u[i + 1] * u[i + 1] / u[0];
  return (gam - 1) * (u[nd + 1] - 0.5 * vv);
}

void check_close(const Vec& a, const Vec& b, double tol) {
  REQUIRE(a.size() == b.size());
  double scale = 1;
  for (double x : b) scale = std::max(scale, std::abs(x));
  for (std::size_t k = 0; k < a.size(); ++k) CHECK(std::abs(a[k] - b[k]) <= tol * scale);
}

const std::map<std::string, std::string> freestream = {
    {"rho", "1.0"}, {"u", "0.3"}, {"v", "-0.1"}, {"w", "0.05"}, {"p", "1.0/1.4"}};

}  // namespace

TEST_CASE("Riemann solvers are consistent, conservative and rotation invariant") {
  for (std::string rs : {"rusanov", "hllc", "roe"})
    for (int nd : {2, 3}) {
      INFO(rs << " " << nd << "D");
      std::mt19937 rng(11 + nd);
      std::vector<Vec> ul, ur, n, nneg;
      const int npts = 64;
      for (int j = 0; j < npts; ++j) {
        ul.push_back(conserved(random_prim(rng), nd));
        ur.push_back(conserved(random_prim(rng), nd));
        n.push_back(random_normal(rng, nd));
        nneg.push_back(n.back());
        for (auto& x : nneg.back()) x = -x;
      }
      auto o = opts(nd, rs);
      // Consistency: equal states give the exact normal flux.
      auto same = rsolve(o, ul, ul, n);
      for (int j = 0; j < npts; ++j) check_close(same[j], host_normal_flux(ul[j], n[j]), 1e-13);
      // Conservation: F(ul, ur; n) = -F(ur, ul; -n).
      auto f = rsolve(o, ul, ur, n), g = rsolve(o, ur, ul, nneg);
      for (int j = 0; j < npts; ++j) {
        Vec mg = g[j];
        for (auto& x : mg) x = -x;
        check_close(f[j], mg, 1e-12);
      }
      if (nd == 3) {
        // Rotation: rotate states and normals by Q; mass and energy fluxes are unchanged and
        // the momentum flux rotates.
        const double c = std::cos(0.7), s = std::sin(0.7), c2 = std::cos(-1.1), s2 = std::sin(-1.1);
        double Q[3][3] = {{c * c2, -s, c * s2}, {s * c2, c, s * s2}, {-s2, 0, c2}};
        auto rot = [&](const Vec& x, int off) {
          Vec y = x;
          for (int i = 0; i < 3; ++i) {
            y[off + i] = 0;
            for (int k = 0; k < 3; ++k) y[off + i] += Q[i][k] * x[off + k];
          }
          return y;
        };
        std::vector<Vec> qul, qur, qn;
        for (int j = 0; j < npts; ++j) {
          qul.push_back(rot(ul[j], 1));
          qur.push_back(rot(ur[j], 1));
          qn.push_back(rot(n[j], 0));
        }
        auto h = rsolve(o, qul, qur, qn);
        for (int j = 0; j < npts; ++j) check_close(h[j], rot(f[j], 1), 1e-12);
      }
    }
}

TEST_CASE("HLLC and Roe upwind supersonic flow exactly") {
  for (std::string rs : {"hllc", "roe"}) {
    INFO(rs);
    std::mt19937 rng(5);
    std::vector<Vec> ul, ur, n;
    for (int j = 0; j < 16; ++j) {
      Prim a = random_prim(rng, 0.1), b = random_prim(rng, 0.1);
      a.v[0] += 4.0;  // Mach > 2 in x on both sides
      b.v[0] += 4.0;
      ul.push_back(conserved(a, 2));
      ur.push_back(conserved(b, 2));
      n.push_back({1.0, 0.0});
    }
    auto f = rsolve(opts(2, rs), ul, ur, n);
    for (int j = 0; j < 16; ++j) check_close(f[j], host_normal_flux(ul[j], n[j]), 1e-12);
  }
}

TEST_CASE("walls let no mass through and keep the thermodynamic state") {
  std::mt19937 rng(3);
  std::vector<Vec> ul, n;
  for (int j = 0; j < 32; ++j) {
    ul.push_back(conserved(random_prim(rng), 3));
    n.push_back(random_normal(rng, 3));
  }
  for (std::string type : {"slp-adia-wall", "no-slp-adia-wall"}) {
    INFO(type);
    auto ur = ghost(type, "bc_rsolve_state", 3, {}, ul, n);
    for (std::string rs : {"rusanov", "hllc", "roe"}) {
      auto f = rsolve(opts(3, rs), ul, ur, n);
      for (int j = 0; j < 32; ++j) {
        CHECK(std::abs(f[j][0]) < 1e-13);
        CHECK(std::abs(f[j][4]) < 1e-12);  // no energy through an adiabatic wall (inviscid)
      }
    }
    for (int j = 0; j < 32; ++j) CHECK(pressure(ur[j], 3) == Approx(pressure(ul[j], 3)));
  }
  // The isothermal wall's ghost averages to the wall velocity and wall temperature.
  std::map<std::string, std::string> w = {{"u", "0.1"}, {"v", "0.0"}, {"w", "-0.2"}, {"cpTw", "2.5"}};
  auto ur = ghost("no-slp-isot-wall", "bc_rsolve_state", 3, w, ul, n);
  auto uc = ghost("no-slp-isot-wall", "bc_ldg_state", 3, w, ul, n);
  for (int j = 0; j < 32; ++j) {
    CHECK((ul[j][1] + ur[j][1]) / (2 * ul[j][0]) == Approx(0.1));
    CHECK(std::abs((ul[j][2] + ur[j][2]) / (2 * ul[j][0])) < 1e-14);
    CHECK(uc[j][3] / uc[j][0] == Approx(-0.2));
    double cvT = pressure(uc[j], 3) / ((gam - 1) * uc[j][0]);
    CHECK(cvT * gam == Approx(2.5));  // c_p T = gamma c_v T
  }
}

TEST_CASE("the far field keeps a free stream and upwinds supersonic flow") {
  std::mt19937 rng(9);
  std::vector<Vec> fs, n;
  Prim f{1.0, 1.0 / 1.4, {0.3, -0.1, 0.05}};
  for (int j = 0; j < 16; ++j) {
    fs.push_back(conserved(f, 3));
    n.push_back(random_normal(rng, 3));
  }
  auto ur = ghost("char-riem-inv", "bc_rsolve_state", 3, freestream, fs, n);
  for (int j = 0; j < 16; ++j) check_close(ur[j], fs[j], 1e-13);
  // Supersonic outflow (Mach 3 along n): the ghost is the interior state.
  std::vector<Vec> out;
  std::map<std::string, std::string> sup = {{"rho", "1.0"}, {"u", "3.0"}, {"v", "0.0"}, {"w", "0.0"}, {"p", "1.0/1.4"}};
  std::vector<Vec> nx(16, Vec{1.0, 0.0, 0.0});
  for (int j = 0; j < 16; ++j) {
    Prim a = random_prim(rng, 0.1);
    a.v[0] = 3.0 + 0.1 * j;
    a.rho = 1.0;
    a.p = 1.0 / 1.4;
    out.push_back(conserved(a, 3));
  }
  auto go = ghost("char-riem-inv", "bc_rsolve_state", 3, sup, out, nx);
  for (int j = 0; j < 16; ++j) check_close(go[j], out[j], 1e-12);
  // Supersonic inflow through the same boundary (flow against n): the ghost is the free stream.
  std::vector<Vec> nin(16, Vec{-1.0, 0.0, 0.0}), in(16, conserved({1.0, 1.0 / 1.4, {3.0, 0, 0}}, 3));
  auto gi = ghost("char-riem-inv", "bc_rsolve_state", 3, sup, in, nin);
  for (int j = 0; j < 16; ++j) check_close(gi[j], in[j], 1e-12);
  // Subsonic in- and outflow of random states against the textbook construction, written here
  // on the host: Riemann invariants, then the upwind side's entropy p/rho^gamma and tangential
  // velocity (the kernel forms rho_b from c_b/c_s instead of from the entropy).
  std::vector<Vec> sub, nsub;
  for (int j = 0; j < 32; ++j) {
    sub.push_back(conserved(random_prim(rng, 0.3), 3));
    nsub.push_back(random_normal(rng, 3));
  }
  auto gs = ghost("char-riem-inv", "bc_rsolve_state", 3, freestream, sub, nsub);
  const Vec ue = conserved({1.0, 1.0 / 1.4, {0.3, -0.1, 0.05}}, 3);
  int inflows = 0;
  for (int j = 0; j < 32; ++j) {
    const Vec& ul = sub[j];
    const Vec& nn = nsub[j];
    auto normal_v = [&](const Vec& u) { return (nn[0] * u[1] + nn[1] * u[2] + nn[2] * u[3]) / u[0]; };
    auto sound = [&](const Vec& u) { return std::sqrt(gam * pressure(u, 3) / u[0]); };
    const double vi = normal_v(ul), ve = normal_v(ue), ci = sound(ul), ce = sound(ue);
    const double re = ve - 2 * ce / (gam - 1), ri = vi + 2 * ci / (gam - 1);
    const double vb = (re + ri) / 2, cb = (gam - 1) * (ri - re) / 4;
    const Vec& us = vi < 0 ? ue : ul;
    inflows += vi < 0;
    const double entropy = pressure(us, 3) / std::pow(us[0], gam);
    const double rhob = std::pow(cb * cb / (gam * entropy), 1 / (gam - 1)), pb = rhob * cb * cb / gam;
    const double vs = normal_v(us);
    Vec want(5);
    double vv = 0;
    want[0] = rhob;
    for (int i = 0; i < 3; ++i) {
      const double v = us[i + 1] / us[0] + (vb - vs) * nn[i];
      want[i + 1] = rhob * v;
      vv += v * v;
    }
    want[4] = pb / (gam - 1) + 0.5 * rhob * vv;
    check_close(gs[j], want, 1e-12);
  }
  CHECK(inflows > 4);  // both branches seen
  CHECK(inflows < 28);
}

TEST_CASE("subsonic in- and outflow prescribe what they should") {
  std::mt19937 rng(4);
  std::vector<Vec> ul, n;
  for (int j = 0; j < 16; ++j) {
    ul.push_back(conserved(random_prim(rng), 2));
    n.push_back(random_normal(rng, 2));
  }
  auto out = ghost("sub-out-fp", "bc_rsolve_state", 2, {{"p", "0.75 + 0*x*t"}}, ul, n);
  auto in = ghost("sub-in-frv", "bc_rsolve_state", 2, {{"rho", "1.2"}, {"u", "0.4"}, {"v", "y"}, {"w", "0"}}, ul, n);
  for (int j = 0; j < 16; ++j) {
    CHECK(pressure(out[j], 2) == Approx(0.75));
    CHECK(out[j][0] == ul[j][0]);
    CHECK(in[j][0] == Approx(1.2));
    CHECK(in[j][1] / in[j][0] == Approx(0.4));
    CHECK(in[j][2] / in[j][0] == Approx(0.25));  // y = 0.25 at the test location
    CHECK(pressure(in[j], 2) == Approx(pressure(ul[j], 2)));
  }
}

TEST_CASE("the viscous flux matches the stress tensor and Fourier's law") {
  const int nd = 3, nv = 5;
  physics::Options o = opts(nd);
  o.system = "navier-stokes";
  o.mu = 0.013;
  o.pr = 0.71;
  Spec s;
  s.name = "t_visc";
  s.space = Space::points;
  s.args = {{"u", ArgKind::array, Intent::in, {nv}},
            {"g", ArgKind::array, Intent::in, {nd, nv}},
            {"f", ArgKind::array, Intent::out, {nd, nv}}};
  s.functions = physics::source("navier_stokes/flux.kern");
  s.body = "for (int j = 0; j < NDIMS; j++) for (int k = 0; k < NVARS; k++) f[j][k] = 0.0;\n"
           "viscous_flux_add(u, g, f);";
  s.defines = physics::defines(o);

  std::mt19937 rng(21);
  std::uniform_real_distribution<double> d(-1, 1);
  const int npts = 20;
  std::vector<Vec> us, gs, want;
  for (int j = 0; j < npts; ++j) {
    Prim w = random_prim(rng);
    // Primitive gradients: drho[j], dv[j][i] = dv_i/dx_j, dp[j].
    double drho[3], dp[3], dv[3][3];
    for (int a = 0; a < 3; ++a) {
      drho[a] = d(rng);
      dp[a] = d(rng);
      for (int b = 0; b < 3; ++b) dv[a][b] = d(rng);
    }
    Vec u = conserved(w, nd), g(nd * nv);
    double vv = w.v[0] * w.v[0] + w.v[1] * w.v[1] + w.v[2] * w.v[2];
    for (int a = 0; a < 3; ++a) {  // chain rule to conserved-variable gradients
      g[a * nv + 0] = drho[a];
      double vdv = 0;
      for (int i = 0; i < 3; ++i) {
        g[a * nv + i + 1] = w.v[i] * drho[a] + w.rho * dv[a][i];
        vdv += w.v[i] * dv[a][i];
      }
      g[a * nv + 4] = dp[a] / (gam - 1) + 0.5 * vv * drho[a] + w.rho * vdv;
    }
    double div = dv[0][0] + dv[1][1] + dv[2][2];
    Vec f(nd * nv, 0.0);
    for (int a = 0; a < 3; ++a) {
      double work = 0;
      for (int i = 0; i < 3; ++i) {
        double tau = o.mu * (dv[a][i] + dv[i][a]) - (i == a ? 2.0 / 3.0 * o.mu * div : 0.0);
        f[a * nv + i + 1] = -tau;
        work += w.v[i] * tau;
      }
      // c_v T = p/((gamma-1) rho); kappa grad T = mu gamma/Pr grad(c_v T)
      double dcvt = (dp[a] - w.p / w.rho * drho[a]) / ((gam - 1) * w.rho);
      f[a * nv + 4] = -(work + o.mu * gam / o.pr * dcvt);
    }
    us.push_back(u);
    gs.push_back(g);
    want.push_back(f);
  }
  std::vector<Vec> data = {soa(us), soa(gs), Vec(npts * nd * nv)};
  test::run_points(s, data, npts, "visc");
  for (int j = 0; j < npts; ++j) check_close(point(data[2], npts, j), want[j], 1e-12);

  // The interfaces' normal form, n.F_v built without the tensor, against n . (the above).
  Spec sn = s;
  sn.name = "t_viscn";
  sn.args = {{"u", ArgKind::array, Intent::in, {nv}},
             {"g", ArgKind::array, Intent::in, {nd, nv}},
             {"n", ArgKind::array, Intent::in, {nd}},
             {"fn", ArgKind::array, Intent::out, {nv}}};
  sn.body = "for (int k = 0; k < NVARS; k++) fn[k] = 0.0;\nviscous_normal_flux_add(u, g, n, fn);";
  std::vector<Vec> ns, wantn;
  for (int j = 0; j < npts; ++j) {
    ns.push_back(random_normal(rng, nd));
    Vec fn(nv, 0.0);
    for (int k = 0; k < nv; ++k)
      for (int a = 0; a < nd; ++a) fn[k] += ns[j][a] * want[j][a * nv + k];
    wantn.push_back(fn);
  }
  std::vector<Vec> datan = {soa(us), soa(gs), soa(ns), Vec(npts * nv)};
  test::run_points(sn, datan, npts, "viscn");
  for (int j = 0; j < npts; ++j) check_close(point(datan[3], npts, j), wantn[j], 1e-12);
}

TEST_CASE("gradcoru_tflux gives gradcoru's gradient and then tflux's flux") {
  // The joined element kernel against the two it joins, run one after the other, at random
  // states, reference gradients and (curved: per point) metric terms; as points kernels of
  // arrays, the bodies unchanged.
  auto as_points = [](Spec s) {
    s.space = Space::points;
    for (auto& a : s.args) a.kind = ArgKind::array, a.uniform = false;
    s.defines.erase("NPTS");
    return s;
  };
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> d(-1, 1);
  for (int nd : {2, 3}) {
    const int nv = nd + 2, npts = 24;
    physics::Options o = opts(nd);
    o.system = "navier-stokes";
    o.mu = 0.02;
    std::vector<Vec> us, gs, sm, rj;
    for (int j = 0; j < npts; ++j) {
      us.push_back(conserved(random_prim(rng), nd));
      Vec g(std::size_t(nd * nv)), m(std::size_t(nd * nd));
      for (auto& x : g) x = d(rng);
      for (int a = 0; a < nd; ++a)
        for (int b = 0; b < nd; ++b) m[std::size_t(a * nd + b)] = (a == b ? 1.5 : 0.0) + 0.3 * d(rng);
      gs.push_back(g);
      sm.push_back(m);
      rj.push_back({0.8 + 0.2 * d(rng)});
    }
    // gradcoru (grad, smats, rcpdjac), then tflux (u, smats, f = the gradient).
    std::vector<Vec> two = {soa(gs), soa(sm), soa(rj)};
    test::run_points(as_points(physics::gradcoru(o, 1)), two, npts, "gradcoru");
    std::vector<Vec> flux = {soa(us), soa(sm), two[0]};
    test::run_points(as_points(physics::tflux(o, 1)), flux, npts, "tflux");
    // The joined kernel (u, smats, rcpdjac, grad, f).
    std::vector<Vec> one = {soa(us), soa(sm), soa(rj), soa(gs), Vec(std::size_t(npts * nd * nv))};
    test::run_points(as_points(physics::gradcoru_tflux(o, 1)), one, npts, "gradcoru_tflux");
    for (int j = 0; j < npts; ++j) {
      INFO(nd << "D, point " << j);
      check_close(point(one[3], npts, j), point(two[0], npts, j), 1e-14);
      check_close(point(one[4], npts, j), point(flux[2], npts, j), 1e-14);
    }
  }
}

TEST_CASE("the adiabatic wall's ghost gradient carries no heat flux") {
  const int nd = 3, nv = 5;
  physics::Options o = opts(nd);
  Spec s;
  s.name = "t_adia";
  s.space = Space::points;
  s.args = {{"ul", ArgKind::array, Intent::in, {nv}},
            {"n", ArgKind::array, Intent::in, {nd}},
            {"gl", ArgKind::array, Intent::in, {nd, nv}},
            {"tn", ArgKind::array, Intent::out, {2}}};
  s.functions = physics::source("bcs/common.kern") + physics::source("bcs/no-slp-adia-wall.kern");
  // Normal c_v dT/dn of a gradient, with the state's velocity: before and after.
  s.body = R"(
    fpdtype_t gr[NDIMS][NVARS];
    bc_ldg_grad_state(ul, n, gl, gr);
    for (int w = 0; w < 2; w++) {
      fpdtype_t s = 0.0;
      for (int j = 0; j < NDIMS; j++) {
        fpdtype_t c = (w ? gr[j][NVARS-1] : gl[j][NVARS-1])/ul[0]
                    - ul[NVARS-1]/(ul[0]*ul[0])*(w ? gr[j][0] : gl[j][0]);
        for (int i = 0; i < NDIMS; i++) {
          fpdtype_t vi = ul[i+1]/ul[0];
          c -= vi*((w ? gr[j][i+1] : gl[j][i+1]) - vi*(w ? gr[j][0] : gl[j][0]))/ul[0];
        }
        s += n[j]*c;
      }
      tn[w] = s;
    })";
  s.defines = physics::defines(o);
  std::mt19937 rng(8);
  std::uniform_real_distribution<double> d(-1, 1);
  const int npts = 16;
  std::vector<Vec> ul, n, gl;
  for (int j = 0; j < npts; ++j) {
    ul.push_back(conserved(random_prim(rng), nd));
    n.push_back(random_normal(rng, nd));
    Vec g(nd * nv);
    for (auto& x : g) x = d(rng);
    gl.push_back(g);
  }
  std::vector<Vec> data = {soa(ul), soa(n), soa(gl), Vec(npts * 2)};
  test::run_points(s, data, npts, "adia");
  for (int j = 0; j < npts; ++j) {
    Vec tn = point(data[3], npts, j);
    CHECK(std::abs(tn[0]) > 1e-6);  // the interior gradient does carry heat...
    CHECK(std::abs(tn[1]) < 1e-13); // ...the ghost's does not
  }
}

TEST_CASE("every physics kernel renders to C that compiles without warnings") {
  // Compile-only: the numerics are tested above; this catches a BC or system combination
  // whose source does not build (-Wall -Wextra -Werror) before any backend sees it.
  int serial = 0;
  auto build = [&](const Spec& s) {
    std::string src = render(s, c_dialect(), kernels::Precision::double_, 8);
    CHECK_NOTHROW(test::compile_c(src, s.name, "spec" + std::to_string(serial++)));
    std::string fsrc = render(s, c_dialect(), kernels::Precision::single, 16);
    CHECK_NOTHROW(test::compile_c(fsrc, s.name, "spec" + std::to_string(serial++)));
  };
  const std::map<std::string, std::string> values = {
      {"rho", "1.0"}, {"u", "0.2*sin(y)"}, {"v", "0.0"}, {"w", "0.0"}, {"p", "17.857"}, {"cpTw", "1.5*t + 1"}};
  for (std::string sys : {"euler", "navier-stokes"})
    for (int nd : {2, 3}) {
      physics::Options o = opts(nd);
      o.system = sys;
      o.mu = 1e-3;
      build(physics::tflux(o, 8));
      build(physics::negdivconf(o, 8));
      for (const auto& rs : physics::riemann_solvers()) {
        o.riemann = rs.name;
        build(physics::intcflux(o));
      }
      if (sys == "navier-stokes") {
        build(physics::gradcoru(o, 8));
        build(physics::gradcoru_tflux(o, 8));
        build(physics::intconu(o));
      }
      if (nd == 3)
        for (const auto& bc : physics::bc_types()) {
          INFO(sys << " " << bc.name);
          build(physics::bccflux(o, bc.name, values));
          if (sys == "navier-stokes") build(physics::bcconu(o, bc.name, values));
        }
    }
  physics::Options s = opts(3);
  s.system = "navier-stokes";
  s.sutherland = true;
  s.cptref = 300.0;
  s.cpts = 110.0;
  build(physics::tflux(s, 8));
}

TEST_CASE("the far field's power 1/(gamma - 1) is pow's by products or by pow") {
  // gamma = 1.4 and 5/3 take products and a square root (2/(gamma - 1) = 5, 3), 1.3 takes pow.
  for (double g : {1.4, 5.0 / 3.0, 1.3}) {
    INFO("gamma = " << g);
    physics::Options o = opts(3);
    o.gamma = g;
    Spec s;
    s.name = "t_pow_inv_gm1";
    s.space = Space::points;
    s.args = {{"r", ArgKind::array, Intent::in, {1}}, {"y", ArgKind::array, Intent::out, {1}}};
    s.functions = physics::source("bcs/common.kern");
    s.body = "y[0] = pow_inv_gm1(r[0]);";
    s.defines = physics::defines(o);
    CHECK(s.defines.count("INV_GM1_HALVES") == (g == 1.3 ? 0u : 1u));
    Vec r = {0.0, 1e-3, 0.37, 1.0, 2.5, 17.0};
    std::vector<Vec> data = {r, Vec(r.size())};
    test::run_points(s, data, int64_t(r.size()), "pow_inv_gm1_" + std::to_string(g));
    for (std::size_t j = 0; j < r.size(); ++j)
      CHECK(data[1][j] == Approx(std::pow(r[j], 1 / (g - 1))).epsilon(1e-13).margin(1e-300));
  }
}

TEST_CASE("the Riemann solvers and boundary conditions are read from their kernel files") {
  // The names are the files', the help and inputs their "//! " lines (solver/physics/README.md).
  std::vector<std::string> rs, bcs;
  for (const auto& r : physics::riemann_solvers()) {
    rs.push_back(r.name);
    CHECK_FALSE(r.help.empty());
    CHECK(r.block_vectors == (r.name != "hllc"));  // HLLC branches on the wave speeds
  }
  CHECK(rs == std::vector<std::string>{"hllc", "roe", "rusanov"});
  for (const auto& t : physics::bc_types()) {
    bcs.push_back(t.name);
    CHECK_FALSE(t.help.empty());
  }
  CHECK(bcs == std::vector<std::string>{"char-riem-inv", "no-slp-adia-wall", "no-slp-isot-wall",
                                        "slp-adia-wall", "sub-in-frv", "sub-out-fp", "sup-in-fa",
                                        "sup-out-fn"});
  CHECK(physics::bc_values("char-riem-inv") == std::vector<std::string>{"rho", "u", "v", "w", "p"});
  CHECK(physics::bc_values("sub-in-frv") == std::vector<std::string>{"rho", "u", "v", "w"});
  CHECK(physics::bc_values("sub-out-fp") == std::vector<std::string>{"p"});
  CHECK(physics::bc_values("sup-out-fn").empty());
  const auto& isot = physics::bc_type("no-slp-isot-wall").values;
  REQUIRE(isot.size() == 4);
  CHECK(isot[0].name == "u");
  CHECK(isot[0].optional);  // a wall at rest by default
  CHECK(isot[3].name == "cpTw");
  CHECK_FALSE(isot[3].optional);
  CHECK_THROWS_AS(physics::bc_type("nope"), std::logic_error);
  CHECK_THROWS_AS(physics::riemann_solver("nope"), std::logic_error);
}
