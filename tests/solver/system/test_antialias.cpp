// Anti-aliasing in the assembled RHS ([solver] anti-alias = "flux", "surf-flux" or both): a
// free stream stays one on curved meshes of every element type (with surf-flux, interfaces
// between element types and boundaries at the face rules' points), mass, momentum and energy
// are conserved, and the anti-aliased run is the same whichever provider, cache blocking or
// backend computes it (each setting takes its own kernels: a wrong row, panel or metric term
// changes the solution at O(1)). It is not the run without anti-aliasing, but close to it on a
// resolved vortex. The operators themselves are checked against PyFR's in
// tests/operators/test_antialias.cpp and test_surface_antialias.cpp; the order of accuracy in
// test_vortex.cpp.
#include <cmath>
#include <map>
#include <string>

#include "kernels/backend.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/support/backends.hpp"
#include "tests/solver/system/system_runs.hpp"
#include "tests/support/generated_mesh.hpp"

using namespace frmini;
using test::max_diff;
using test::VortexRun;

TEST_CASE("with flux anti-aliasing a free stream is preserved on curved periodic meshes") {
  auto curve2 = [](std::array<double, 3> x) {
    return std::array<double, 3>{x[0] + 0.1 * std::sin(M_PI * x[1]), x[1] + 0.1 * std::sin(M_PI * x[0]), 0};
  };
  auto curve3 = [](std::array<double, 3> x) {
    return std::array<double, 3>{x[0] + 0.08 * std::sin(M_PI * x[1]) * std::cos(M_PI * x[2]),
                                 x[1] + 0.08 * std::sin(M_PI * x[2]), x[2] + 0.08 * std::sin(M_PI * x[0])};
  };
  SECTION("quad, p = 3") { test::check_free_stream(test::make_box("quad", 4, -1, 1, {true, true, false}, 3, curve2), {}, 3, "flux"); }
  SECTION("hex, p = 2") { test::check_free_stream(test::make_box("hex", 3, -1, 1, {true, true, true}, 2, curve3), {}, 2, "flux"); }
}

TEST_CASE("with flux anti-aliasing a free stream is preserved on the curved quad/tri cylinder mesh") {
  auto mesh = test::generated_mesh("cylinder2d", true);
  REQUIRE(mesh.groups.size() == 2);
  // As without anti-aliasing: the far field at the free stream, the wall a copy of the inside.
  std::map<std::string, std::string> fs = {{"rho", "1.0"}, {"u", "0.3"}, {"v", "-0.2"}, {"w", "0.0"}, {"p", "1.0/1.4"}};
  test::check_free_stream(mesh, {{"farfield", {"char-riem-inv", fs}}, {"cylinder", {"sup-out-fn", {}}}}, 3, "flux");
}

TEST_CASE("with flux anti-aliasing a free stream is preserved on the hex/prism/tet/pyramid box") {
  auto mesh = test::generated_mesh("box-mixed3d", false);
  REQUIRE(mesh.groups.size() == 4);
  test::check_free_stream(mesh, {}, 2, "flux");
}

TEST_CASE("with anti-aliasing mass, momentum and energy are conserved on a curved mesh") {
  auto be = kernels::make_backend("cpu");
  for (std::string aa : {"flux", "flux,surf-flux"})
    for (std::string sys : {"euler", "navier-stokes"}) {
      INFO(aa << " " << sys);
      std::vector<double> t0, t1;
      VortexRun o;
      o.system = sys, o.antialias = aa, o.totals0 = &t0, o.totals1 = &t1;
      test::vortex_run(*be, o);
      for (std::size_t v = 0; v < t0.size(); ++v)
        CHECK(std::abs(t1[v] - t0[v]) <= 1e-12 * std::max(1.0, std::abs(t0[v])));
    }
}

TEST_CASE("anti-aliased runs agree between generated kernels and BLAS, and differ from plain ones") {
  auto be = kernels::make_backend("cpu");
  for (std::string sys : {"euler", "navier-stokes"}) {
    INFO(sys);
    VortexRun o;
    o.system = sys, o.antialias = "flux";
    auto gen = test::vortex_run(*be, o);
    o.matmul = "blas";
    auto blas = test::vortex_run(*be, o);
    CHECK(max_diff(gen, blas) <= 1e-10);
    // The two schemes differ by their truncation errors on this coarse mesh (6 x 6 elements
    // for a vortex of radius 1.5): well under the state's size, far above round-off (the
    // anti-aliased kernels really ran).
    o.matmul = "generated", o.antialias = "none";
    const double d = max_diff(gen, test::vortex_run(*be, o)) / test::max_abs(gen);
    CHECK(d > 1e-8);
    CHECK(d < 1e-2);
  }
}

TEST_CASE("anti-aliased runs with cache-blocked chains give the whole-range answer") {
  kernels::BackendOptions blocked, whole;
  blocked.chain_block = 8;
  whole.chain_block = -1;
  auto bb = kernels::make_backend("cpu", blocked), bw = kernels::make_backend("cpu", whole);
  test::check_same_vortex(*bb, *bw, 1e-12, "flux");
}

TEST_CASE("anti-aliased runs on the straight box read one metric row and give the per-point answer") {
  auto be = kernels::make_backend("cpu");
  for (std::string sys : {"euler", "navier-stokes"}) {
    INFO(sys);
    bool on = false, off = true;
    VortexRun o;
    o.system = sys, o.antialias = "flux", o.curved = false, o.affine = &on;
    auto a = test::vortex_run(*be, o);
    o.uniform_metrics = false, o.affine = &off;
    auto b = test::vortex_run(*be, o);
    CHECK(on);
    CHECK_FALSE(off);
    CHECK(max_diff(a, b) <= 1e-12);
  }
}

TEST_CASE("the opencl backend matches the cpu backend with flux anti-aliasing") {
  auto cpu = kernels::make_backend("cpu");
  auto ocl = test::opencl_or_fail();
  test::check_same_vortex(*cpu, *ocl, 1e-10, "flux");
}

// Surface-flux anti-aliasing, alone and with the volume's: the flux points move to the face
// rules, so the interfaces pair other points (by position), the boundaries and the geometry
// are evaluated there, and M0, M3, M6, M132 and M460 change shape.
TEST_CASE("with surface-flux anti-aliasing a free stream is preserved on curved and mixed meshes") {
  auto curve3 = [](std::array<double, 3> x) {
    return std::array<double, 3>{x[0] + 0.08 * std::sin(M_PI * x[1]) * std::cos(M_PI * x[2]),
                                 x[1] + 0.08 * std::sin(M_PI * x[2]), x[2] + 0.08 * std::sin(M_PI * x[0])};
  };
  std::map<std::string, std::string> fs = {{"rho", "1.0"}, {"u", "0.3"}, {"v", "-0.2"}, {"w", "0.0"}, {"p", "1.0/1.4"}};
  for (std::string aa : {"surf-flux", "flux,surf-flux"}) {
    INFO(aa);
    test::check_free_stream(test::make_box("hex", 3, -1, 1, {true, true, true}, 2, curve3), {}, 2, aa);
    test::check_free_stream(test::generated_mesh("cylinder2d", true),
                            {{"farfield", {"char-riem-inv", fs}}, {"cylinder", {"sup-out-fn", {}}}}, 3, aa);
    test::check_free_stream(test::generated_mesh("box-mixed3d", false), {}, 2, aa);
  }
}

TEST_CASE("surface-flux anti-aliased runs agree between providers and cache blocks, and differ from the others") {
  auto be = kernels::make_backend("cpu");
  kernels::BackendOptions blocked;
  blocked.chain_block = 8;
  auto bb = kernels::make_backend("cpu", blocked);
  for (std::string sys : {"euler", "navier-stokes"}) {
    INFO(sys);
    VortexRun o;
    o.system = sys, o.antialias = "surf-flux";
    auto gen = test::vortex_run(*be, o);
    CHECK(max_diff(gen, test::vortex_run(*bb, o)) <= 1e-12);
    o.matmul = "blas";
    CHECK(max_diff(gen, test::vortex_run(*be, o)) <= 1e-10);
    // Each of the four schemes differs from the others by truncation errors only.
    o.matmul = "generated";
    for (std::string other : {"none", "flux", "flux,surf-flux"}) {
      INFO(other);
      o.antialias = other;
      const double d = max_diff(gen, test::vortex_run(*be, o)) / test::max_abs(gen);
      CHECK(d > 1e-8);
      CHECK(d < 1e-2);
    }
  }
}

TEST_CASE("the opencl backend matches the cpu backend with flux and surface-flux anti-aliasing") {
  auto cpu = kernels::make_backend("cpu");
  auto ocl = test::opencl_or_fail();
  test::check_same_vortex(*cpu, *ocl, 1e-10, "flux,surf-flux");
}
