// The assembled RHS on the cpu backend: a uniform flow is an exact steady solution on curved
// meshes (free-stream preservation) for Euler and Navier-Stokes, with every matmul provider.
#include <cmath>
#include <filesystem>

#include <unistd.h>

#include "base/error.hpp"
#include "kernels/backend.hpp"
#include "meshes/connectivity.hpp"
#include "meshes/generators.hpp"
#include "meshes/gmsh_import.hpp"
#include "solver/system/system.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/support/backends.hpp"
#include "tests/support/box_mesh.hpp"
#include "tests/support/generated_mesh.hpp"
#include "tests/solver/system/system_runs.hpp"

using namespace frmini;
using test::check_free_stream;
using test::check_same_vortex;
using test::max_abs;
using test::max_diff;
using test::uniform;
using test::vortex_run;
using test::VortexRun;


TEST_CASE("a free stream is preserved on curved periodic meshes") {
  auto be = kernels::make_backend("cpu");
  auto curve2 = [](std::array<double, 3> x) {
    return std::array<double, 3>{x[0] + 0.1 * std::sin(M_PI * x[1]), x[1] + 0.1 * std::sin(M_PI * x[0]), 0};
  };
  auto curve3 = [](std::array<double, 3> x) {
    return std::array<double, 3>{x[0] + 0.08 * std::sin(M_PI * x[1]) * std::cos(M_PI * x[2]),
                                 x[1] + 0.08 * std::sin(M_PI * x[2]),
                                 x[2] + 0.08 * std::sin(M_PI * x[0])};
  };
  for (std::string sys : {"euler", "navier-stokes"})
    for (std::string et : {"quad", "hex"})
      for (std::string mm : {"generated", "blas"}) {
        INFO(sys << " " << et << " " << mm);
        meshes::Mesh mesh = et == "quad" ? test::make_box("quad", 4, -1, 1, {true, true, false}, 3, curve2)
                                         : test::make_box("hex", 3, -1, 1, {true, true, true}, 2, curve3);
        solver::SystemConfig cfg;
        cfg.phys.system = sys;
        cfg.phys.ndims = mesh.ndims;
        cfg.phys.mu = 0.01;
        cfg.order = 3;
        cfg.matmul = mm;
        cfg.nregs = 2;
        solver::System s(*be, mesh, cfg);
        s.upload_solution(0, uniform(s, {1.0, 0.3, -0.2, 0.1, 1.0 / 1.4}));
        s.rhs(0.0, 0, 1);
        auto r = s.download_solution(1);
        CHECK(max_abs(r) < 1e-11);
        // And the solution itself came back unchanged through the AoSoA layout.
        auto u = s.download_solution(0);
        CHECK(std::abs(u[0][0] - 1.0) < 1e-15);
      }
}


TEST_CASE("mass, momentum and energy are conserved to round-off on a periodic curved mesh") {
  auto be = kernels::make_backend("cpu");
  for (std::string sys : {"euler", "navier-stokes"}) {
    INFO(sys);
    std::vector<double> t0, t1;
    VortexRun o;
    o.system = sys, o.totals0 = &t0, o.totals1 = &t1;
    vortex_run(*be, o);
    for (std::size_t v = 0; v < t0.size(); ++v)
      CHECK(std::abs(t1[v] - t0[v]) <= 1e-12 * std::max(1.0, std::abs(t0[v])));
  }
}

TEST_CASE("generated kernels and BLAS give the same solution after 20 steps") {
  auto be = kernels::make_backend("cpu");
  VortexRun blas;
  blas.matmul = "blas";
  auto a = vortex_run(*be, {}), b = vortex_run(*be, blas);
  CHECK(max_diff(a, b) <= 1e-10);
}

TEST_CASE("LDG at beta = +-1/2 (one side's gradients read) matches the two-sided kernels") {
  // beta = +-1/2 takes the one-sided interface kernels and the copied common solution; a beta
  // 1e-12 away takes the general ones, whose answer differs by O(1e-12) only.
  auto be = kernels::make_backend("cpu");
  for (double beta : {0.5, -0.5}) {
    INFO("beta " << beta);
    VortexRun o;
    o.system = "navier-stokes", o.ldg_beta = beta;
    auto a = vortex_run(*be, o);
    o.ldg_beta = beta * (1 - 1e-12);
    auto b = vortex_run(*be, o);
    CHECK(max_diff(a, b) <= 1e-9);
    CHECK(max_diff(a, b) > 0);  // the two really took different kernels
  }
}

TEST_CASE("affine elements read one point's metric terms and give the per-point answer") {
  // A straight box: the metric terms are the same at every point of an element, so tflux,
  // gradcoru and negdivconf read the first point's row; forced off, they read every point's.
  // A wrong row or component read on either path changes the solution at O(1).
  auto be = kernels::make_backend("cpu");
  for (std::string sys : {"euler", "navier-stokes"}) {
    INFO(sys);
    bool on = false, off = true, curved = true;
    VortexRun o;
    o.system = sys, o.curved = false, o.affine = &on;
    auto a = vortex_run(*be, o);
    o.uniform_metrics = false, o.affine = &off;
    auto b = vortex_run(*be, o);
    o.steps = 1, o.curved = true, o.uniform_metrics = true, o.affine = &curved;
    vortex_run(*be, o);
    CHECK(on);
    CHECK_FALSE(off);
    CHECK_FALSE(curved);  // curved elements are never taken for affine ones
    CHECK(max_diff(a, b) <= 1e-12);
  }
}

TEST_CASE("a straight hex box far from the origin is affine at every order and a bent one is not") {
  // The curl form's products x dx/dxi grow with |x|: from absolute coordinates, cubes 1.6
  // wide a thousand units out rounded at about 1e-8 of their metric terms and were taken
  // for curved (every point then reads its own terms). A bend of 1e-7 stays curved from
  // p = 2; at p = 1 the metrics are of degree 1 and the same at every point, so affine.
  auto be = kernels::make_backend("cpu");
  auto run = [&](int order, double bend) {
    auto map = [bend](std::array<double, 3> x) {
      return std::array<double, 3>{x[0] + bend * std::sin(x[1]), x[1], x[2]};
    };
    auto mesh = test::make_box("hex", 4, 1000, 1000 + 2 * M_PI, {true, true, true}, bend ? 2 : 1,
                               bend ? test::PointMap(map) : test::PointMap());
    solver::SystemConfig cfg;
    cfg.phys.system = "navier-stokes";
    cfg.phys.ndims = 3;
    cfg.phys.mu = 0.01;
    cfg.order = order;
    cfg.nregs = 2;
    solver::System sys(*be, mesh, cfg);
    return sys.uniform_metrics(0);
  };
  for (int p = 1; p <= 4; ++p) {
    INFO("p = " << p);
    CHECK(run(p, 0));
    if (p > 1) CHECK_FALSE(run(p, 1e-7));
  }
}

TEST_CASE("cache-blocked kernel chains give the solution of whole-range kernels") {
  // 36 elements in 5 SoA blocks of 8: blocks of 8 elements make five blocks per chain,
  // against every kernel over the whole range.
  kernels::BackendOptions blocked, whole;
  blocked.chain_block = 8;
  whole.chain_block = -1;
  auto bb = kernels::make_backend("cpu", blocked), bw = kernels::make_backend("cpu", whole);
  REQUIRE(bb->chain_block(1, 8) == 8);
  REQUIRE(bw->chain_block(1, 8) == 0);
  check_same_vortex(*bb, *bw, 1e-12);
}

TEST_CASE("the embedded-pair error norm on the device equals its host computation") {
  const auto names = test::cpu_and_opencl();
  auto mesh = test::make_box("quad", 5, 0.0, 1.0, {true, true, false}, 1);  // 25 of 32 padded
  for (const auto& name : names)
    for (auto prec : {kernels::Precision::double_, kernels::Precision::single}) {
      INFO(name << (prec == kernels::Precision::double_ ? " double" : " single"));
      auto be = kernels::make_backend(name);
      solver::SystemConfig cfg;
      cfg.phys.system = "euler";
      cfg.phys.ndims = 2;
      cfg.order = 2;
      cfg.precision = prec;
      cfg.nregs = 3;
      solver::System sys(*be, mesh, cfg);
      // Registers: 0 = cur, 1 = prev, 2 = err, smooth and of mixed signs.
      std::vector<std::vector<std::vector<double>>> r(3);
      for (int k = 0; k < 3; ++k) {
        for (const auto& l : sys.layout()) {
          std::vector<double> v(std::size_t(l.neles) * 4 * l.nupts);
          for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = k == 2 ? 1e-4 * std::sin(0.37 * double(i)) : 1 + 0.5 * std::cos(0.11 * double(i + k));
          r[k].push_back(v);
        }
        sys.upload_solution(k, r[k]);
      }
      const double atol = 1e-5, rtol = 1e-4;
      double sum = 0, mx = 0;
      std::size_t n = 0;
      for (std::size_t g = 0; g < r[0].size(); ++g)
        for (std::size_t i = 0; i < r[0][g].size(); ++i) {
          double e = r[2][g][i] / (atol + rtol * std::max(std::abs(r[0][g][i]), std::abs(r[1][g][i])));
          sum += e * e, mx = std::max(mx, std::abs(e)), ++n;
        }
      const double tol = prec == kernels::Precision::double_ ? 1e-12 : 1e-5;
      const double want_l2 = std::sqrt(sum / double(n));
      CHECK(std::abs(sys.error_norm(0, 1, 2, atol, rtol, true) - want_l2) <= tol * want_l2);
      sys.upload_solution(2, r[2]);  // error_norm overwrites the error register
      CHECK(std::abs(sys.error_norm(0, 1, 2, atol, rtol, false) - mx) <= tol * mx);
      // A NaN anywhere rejects the step.
      r[0][0][7] = std::nan("");
      sys.upload_solution(0, r[0]);
      sys.upload_solution(2, r[2]);
      CHECK(std::isinf(sys.error_norm(0, 1, 2, atol, rtol, true)));
      sys.upload_solution(2, r[2]);
      CHECK(std::isinf(sys.error_norm(0, 1, 2, atol, rtol, false)));
    }
}

TEST_CASE("the opencl backend matches the cpu backend after 20 steps (Euler and NS)") {
  auto cpu = kernels::make_backend("cpu");
  auto ocl = test::opencl_or_fail();
  check_same_vortex(*cpu, *ocl, 1e-10);
}

TEST_CASE("a free stream is preserved on the mixed quad/tri curved cylinder mesh") {
  auto mesh = test::generated_mesh("cylinder2d", true);
  REQUIRE(mesh.groups.size() == 2);  // quad and tri
  // The far field keeps the free stream; a slip wall sees none of the flow pass through it, so
  // only the far field can be exact here: use the free stream there and on the wall a
  // supersonic-outflow copy (the interior state), which is exact for a uniform flow.
  std::map<std::string, std::string> fs = {{"rho", "1.0"}, {"u", "0.3"}, {"v", "-0.2"}, {"w", "0.0"}, {"p", "1.0/1.4"}};
  check_free_stream(mesh, {{"farfield", {"char-riem-inv", fs}}, {"cylinder", {"sup-out-fn", {}}}}, 3);
}

TEST_CASE("a free stream is preserved on the hex/prism/tet/pyramid box") {
  auto mesh = test::generated_mesh("box-mixed3d", false);
  CHECK(mesh.groups.size() == 4);
  check_free_stream(mesh, {}, 2);
}

TEST_CASE("cache-blocked chains with their scratch panel agree with whole-range kernels on four element types") {
  // Four groups of different nupts share one per-thread scratch panel for the flux and
  // gradient at the solution points (sized for the largest); blocks of 8 elements, on every
  // thread, against each kernel once over its whole range with whole panels.
  auto mesh = test::generated_mesh("box-mixed3d", false);
  REQUIRE(mesh.groups.size() == 4);
  kernels::BackendOptions blocked, whole;
  blocked.chain_block = 8;
  whole.chain_block = -1;
  auto bb = kernels::make_backend("cpu", blocked), bw = kernels::make_backend("cpu", whole);
  for (std::string sys : {"euler", "navier-stokes"}) {
    INFO(sys);
    std::vector<std::vector<std::vector<double>>> out;
    for (auto* be : {bb.get(), bw.get()}) {
      solver::SystemConfig cfg;
      cfg.phys.system = sys;
      cfg.phys.ndims = 3;
      cfg.phys.mu = 0.01;
      cfg.order = 2;
      cfg.matmul = "generated";
      cfg.nregs = 2;
      solver::System s(*be, mesh, cfg);
      auto u = uniform(s, {1.0, 0.3, -0.2, 0.1, 1.0 / 1.4});
      for (auto& g : u)  // a state with gradients everywhere
        for (std::size_t i = 0; i < g.size(); ++i) g[i] *= 1 + 0.05 * std::sin(0.37 * double(i));
      s.upload_solution(0, u);
      s.rhs(0.0, 0, 1);
      out.push_back(s.download_solution(1));
    }
    double scale = 0;
    for (const auto& g : out[1])
      for (double x : g) scale = std::max(scale, std::abs(x));
    REQUIRE(scale > 1e-3);
    CHECK(max_diff(out[0], out[1]) <= 1e-12 * scale);
  }
}

TEST_CASE("register kernels run inside the RHS give the values of running them after it") {
  // (And a next input prepared at the flux points by the RHS before it gives the RHS of one
  // computed afresh.)
  // Four element groups (padded SoA blocks, gaps between their registers) in blocks of 8
  // elements on cpu, and on opencl: rhs(t, in, out, then) against rhs(t, in, out) followed
  // by the same kernels over whole registers, for a fresh result register and in place, with
  // updates that read the derivative, the solution and each other's results.
  auto mesh = test::generated_mesh("box-mixed3d", false);
  REQUIRE(mesh.groups.size() == 4);
  kernels::BackendOptions blocked;
  blocked.chain_block = 8;
  std::vector<std::unique_ptr<kernels::Backend>> backends;
  backends.push_back(kernels::make_backend("cpu", blocked));
  for (const auto& name : test::cpu_and_opencl())
    if (name != "cpu") backends.push_back(kernels::make_backend(name));
  using solver::System;
  for (auto& be : backends) {
    INFO(be->name());
    std::vector<std::vector<std::vector<double>>> out[2];
    for (int fused = 0; fused < 2; ++fused) {
      solver::SystemConfig cfg;
      cfg.phys.system = "navier-stokes";
      cfg.phys.ndims = 3;
      cfg.phys.mu = 0.01;
      cfg.order = 2;
      cfg.matmul = "generated";
      cfg.nregs = 3;
      System s(*be, mesh, cfg);
      for (int r = 0; r < 3; ++r) {
        auto u = uniform(s, {1.0, 0.3, -0.2, 0.1, 1.0 / 1.4});
        for (auto& g : u)
          for (std::size_t i = 0; i < g.size(); ++i) g[i] *= 1 + 0.05 * std::sin(0.37 * double(i) + r);
        s.upload_solution(r, u);
      }
      // out = f(0); 2 = 0.5 r0 + 0.25 f + 2 = r2 ... then 1 = 3 f - r2 (r2's new values).
      const std::vector<System::RegisterKernel> first{System::axnpby_kernel(2, {{0.5, 0}, {0.25, 1}, {2.0, 2}}),
                                                      System::axnpby_kernel(1, {{3.0, 1}, {-1.0, 2}})};
      // In place: 2 = f(2); 0 = r0 + 0.1 f; 2 = 0.5 f + r0 (r0's new values); a kernel of its
      // own spec as the integrators write them.
      kernels::pointwise::Spec spec;
      spec.name = "swap_mix";
      spec.space = kernels::pointwise::Space::points;
      spec.args = {{"a", kernels::pointwise::ArgKind::array, kernels::pointwise::Intent::inout, {1}},
                   {"b", kernels::pointwise::ArgKind::array, kernels::pointwise::Intent::inout, {1}},
                   {"c", kernels::pointwise::ArgKind::scalar, kernels::pointwise::Intent::in, {}}};
      spec.body = "const fpdtype_t x = a[0];\na[0] = x + c*b[0];\nb[0] = 0.5*b[0] + a[0];";
      const std::vector<System::RegisterKernel> second{{spec, {0, 2}, {0.1}}};
      if (fused) {
        // The first pass also prepares register 2 at the flux points for the second.
        s.rhs(0.0, 0, 1, first, 2);
        s.rhs(0.0, 2, 2, second);
      } else {
        s.rhs(0.0, 0, 1);
        for (const auto& k : first) s.run_on_registers(k);
        s.rhs(0.0, 2, 2);
        for (const auto& k : second) s.run_on_registers(k);
      }
      for (int r = 0; r < 3; ++r) out[fused].push_back(s.download_solution(r));
    }
    for (int r = 0; r < 3; ++r) {
      INFO("register " << r);
      const double scale = max_abs(out[0][r]);
      REQUIRE(scale > 1e-3);
      CHECK(max_diff(out[0][r], out[1][r]) <= 1e-13 * scale);
    }
  }
}

TEST_CASE("gradient rows that only boundary elements need are computed on their blocks alone") {
  // The mixed quad/tri cylinder: its wall and far-field faces are not the faces whose rows
  // every element computes (grad_rows.hpp), so cache blocks split each group's gradient (and
  // common-solution) rows; whole-range kernels compute every needed row for every element.
  // The two RHS agree, Navier-Stokes at two LDG betas. Blocks of 24 elements (three SoA
  // blocks), so that the elements needing more rows start inside a block too, where the
  // product finds them in the block's scratch window.
  auto mesh = test::generated_mesh("cylinder2d", true);
  std::map<std::string, std::string> fs = {{"rho", "1.0"}, {"u", "0.3"}, {"v", "-0.2"}, {"w", "0.0"}, {"p", "1.0/1.4"}};
  kernels::BackendOptions blocked, whole;
  blocked.chain_block = 24;
  whole.chain_block = -1;
  auto bb = kernels::make_backend("cpu", blocked), bw = kernels::make_backend("cpu", whole);
  REQUIRE(bb->chain_block(1, 8) == 24);
  for (double beta : {0.5, -0.5}) {
    INFO("ldg beta " << beta);
    std::vector<std::vector<std::vector<double>>> out;
    bool split = false;
    for (auto* be : {bb.get(), bw.get()}) {
      solver::SystemConfig cfg;
      cfg.phys.system = "navier-stokes";
      cfg.phys.ndims = 2;
      cfg.phys.mu = 0.01;
      cfg.phys.ldg_beta = beta;
      cfg.order = 3;
      cfg.matmul = "generated";
      cfg.nregs = 2;
      cfg.bcs = {{"farfield", {"char-riem-inv", fs}}, {"cylinder", {"no-slp-adia-wall", {}}}};
      solver::System s(*be, mesh, cfg);
      auto u = uniform(s, {1.0, 0.3, -0.2, 1.0 / 1.4});
      for (auto& g : u)
        for (std::size_t i = 0; i < g.size(); ++i) g[i] *= 1 + 0.05 * std::sin(0.37 * double(i));
      s.upload_solution(0, u);
      s.rhs(0.0, 0, 1);
      out.push_back(s.download_solution(1));
      // A product of rows [a, b), a > 0 ("...-rowsA-B"): the rows were split.
      if (be == bb.get())
        for (const auto& c : s.matmul_choices()) {
          const auto at = c.first.find("-rows");
          split = split || (at != std::string::npos && c.first.find('-', at + 5) != std::string::npos);
        }
    }
    // beta = 1/2 reads the left sides' gradients, which are the same faces almost everywhere;
    // at -1/2 the right sides' are read and every face is needed somewhere.
    if (beta > 0) CHECK(split);
    const double scale = max_abs(out[1]);
    REQUIRE(scale > 1e-3);
    CHECK(max_diff(out[0], out[1]) <= 1e-12 * scale);
  }
}
