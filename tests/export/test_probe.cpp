// The offline sampler (frmini sample): values and gradients of fields the elements represent
// exactly, on every element type, on affine and on curved (cylinder) meshes, conserved and
// primitive-mean files, and the average over a periodic direction; its errors.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <numbers>

#include "base/error.hpp"
#include "frmini_config.hpp"
#include "meshes/connectivity.hpp"
#include "meshes/generators.hpp"
#include "meshes/gmsh_import.hpp"
#include "solver/export/probe.hpp"
#include "tests/export/export_fields.hpp"
#include "tests/export/export_meshes.hpp"
#include "tests/frmini_catch.hpp"

using namespace frmini;
namespace ex = frmini::solver::exporter;
namespace fs = std::filesystem;

namespace {

// A point of element `shift` at reference coordinates xi, through the test map.
std::array<double, 3> at(const test::AffineMap& m, const std::array<double, 3>& shift,
                         const std::array<double, 3>& xi) {
  return m({xi[0] + shift[0], xi[1] + shift[1], xi[2] + shift[2]});
}

// Reference points strictly inside each element type.
std::vector<std::array<double, 3>> inner_points(const std::string& etype) {
  if (etype == "tri") return {{-0.6, -0.5, 0}, {-0.2, -0.7, 0}, {0.1, -0.3, 0}};
  if (etype == "tet") return {{-0.6, -0.5, -0.7}, {-0.2, -0.6, -0.4}, {-0.9, -0.1, -0.3}};
  if (etype == "pri") return {{-0.6, -0.5, 0.3}, {0.1, -0.4, -0.8}, {-0.3, 0.0, 0.9}};
  if (etype == "quad") return {{0.3, -0.7, 0}, {-0.9, 0.95, 0}, {0.0, 0.0, 0}};
  return {{0.3, -0.7, 0.2}, {-0.9, 0.95, -0.4}, {0.0, 0.0, 0.99}};
}

double column(const ex::ProbeTable& t, std::size_t row, const std::string& name) {
  for (std::size_t c = 0; c < t.columns.size(); ++c)
    if (t.columns[c] == name) return t.rows[row][c];
  FAIL("no column " << name);
  return 0;
}

}  // namespace

TEST_CASE("sample: a polynomial field of the solution's degree and its gradient, exact", "[sample]") {
  for (const std::string etype : {"quad", "tri", "hex", "tet", "pri"}) {
    for (const bool mean : {false, true}) {
      SECTION(etype + (mean ? " primitive-mean" : " conserved")) {
        test::AffineMap m;
        const ex::SolutionContext ctx = test::single_type_mesh(etype, &m);
        const int nd = ctx.mesh.ndims;
        for (int p : {1, 2, 3}) {
          // Conserved files: rho is the polynomial, u and p constant, so every primitive value
          // is exact; a primitive-mean file holds u = the polynomial itself.
          const auto s = test::make_solution(ctx.mesh, p, [&](double x, double y, double z) {
            const double f = test::poly(x, y, z, p);
            return std::array<double, 5>{mean ? 1.5 : f, mean ? f : 0.4, -0.2, 0.1, 2.0};
          }, mean);
          ex::ProbeOptions o;
          o.gradients = true;
          for (const std::array<double, 3> shift : {std::array<double, 3>{0, 0, 0}, {2, 0, 0}})
            for (const auto& xi : inner_points(etype)) o.points.push_back(at(m, shift, xi));
          const ex::ProbeTable t = ex::probe(ctx, s, o, "test");
          REQUIRE(t.rows.size() == o.points.size());
          for (std::size_t i = 0; i < o.points.size(); ++i) {
            const auto& x = o.points[i];
            const double h = 1e-6;  // the polynomial's gradient by central differences
            double g[3];
            for (int c = 0; c < 3; ++c) {
              auto a = x, b = x;
              a[std::size_t(c)] += h;
              b[std::size_t(c)] -= h;
              g[c] = (test::poly(a[0], a[1], a[2], p) - test::poly(b[0], b[1], b[2], p)) / (2 * h);
            }
            const std::string var = mean ? "u" : "rho";
            INFO(etype << " p = " << p << " point " << i);
            CHECK(column(t, i, "x") == x[0]);
            CHECK(std::abs(column(t, i, var) - test::poly(x[0], x[1], x[2], p)) < 1e-12);
            CHECK(std::abs(column(t, i, "p") - 2.0) < 1e-12);
            CHECK(std::abs(column(t, i, "v") + 0.2) < 1e-12);
            for (int c = 0; c < nd; ++c)
              CHECK(std::abs(column(t, i, "grad_" + var + "_" + "xyz"[c]) - g[c]) < 1e-8);
            CHECK(std::abs(column(t, i, "grad_p_x")) < 1e-11);
          }
        }
      }
    }
  }
}

TEST_CASE("sample: points outside the mesh and impossible averages are refused", "[sample]") {
  test::AffineMap m;
  const ex::SolutionContext ctx = test::single_type_mesh("quad", &m);
  const auto s = test::make_solution(ctx.mesh, 2, [](double, double, double) {
    return std::array<double, 5>{1, 0, 0, 0, 1};
  });
  ex::ProbeOptions o;
  o.points = {{0.5, -0.25, 0}, {40, 40, 0}};
  CHECK_THROWS_WITH(ex::probe(ctx, s, o, "sample: f.h5"),
                    Catch::Matchers::Contains("sample: f.h5: point 1 (40, 40) lies in no element"));
  o.points = {{0.5, -0.25, 0}};
  o.average_axis = 2;
  o.average_n = 4;
  CHECK_THROWS_AS(ex::probe(ctx, s, o, "sample"), UserError);
}

#if FRMINI_HAVE_GMSH
TEST_CASE("sample: curved cylinder hexes, near the wall, averaged over the periodic span", "[sample]") {
  // The Re 3900 mesh at a quarter of its cells: quadratic hexes whose walls are curved. A
  // field linear in x, y and z lies in the span of a p >= 2 element mapped quadratically, so it
  // is exact there; at p = 3 so is its gradient (at p = 2 the metric terms, built in PyFR's
  // conservative curl form, are not exact on curved hexes: the z-gradient is off by 1-3% at
  // the wall). Its mean over the span (midpoints of equal slices) is its value at z = pi/2.
  const fs::path msh = fs::temp_directory_path() / ("frmini-probe-" + std::to_string(::getpid()) + ".msh");
  meshes::GeneratorOptions g;
  g.name = "cylinder3d";
  g.out = msh.string();
  g.scale = 0.25;
  g.nspan = 3;
  meshes::generate_mesh(g);
  const ex::SolutionContext ctx = test::make_context(meshes::build_mesh(meshes::read_gmsh(msh.string())));
  fs::remove(msh);
  const double zmid = std::numbers::pi / 2;
  auto lin = [&](double x, double y, double z) { return 0.7 + 0.3 * x - 0.2 * y + 0.25 * (z - zmid); };
  for (const bool mean : {false, true}) {
    const auto s = test::make_solution(ctx.mesh, 3, [&](double x, double y, double z) {
      return std::array<double, 5>{mean ? 1.0 : 2.0 + lin(x, y, z), mean ? lin(x, y, z) : 0.5, 0.1, 0.0, 3.0};
    }, mean);
    ex::ProbeOptions o;
    o.gradients = true;
    for (int k = 0; k < 36; ++k) {  // a ring just off the wall, and points in the wake
      const double th = 2 * std::numbers::pi * k / 36;
      o.points.push_back({(0.5 + 1e-4) * std::cos(th), (0.5 + 1e-4) * std::sin(th), 0.3 + 0.07 * k});
    }
    o.points.push_back({1.06, -2.5, 1.0});
    o.points.push_back({1.06, -1.5, 0.5});  // on the O-grid's edge: Newton ends ~1e-8 outside
    o.points.push_back({7.3, 0.01, 2.9});
    const std::string var = mean ? "u" : "rho";
    const double off = mean ? 0.0 : 2.0;
    const ex::ProbeTable pt = ex::probe(ctx, s, o, "test");
    for (std::size_t i = 0; i < o.points.size(); ++i) {
      const auto& x = o.points[i];
      INFO("point " << i << " (" << x[0] << ", " << x[1] << ", " << x[2] << ")");
      CHECK(std::abs(column(pt, i, var) - off - lin(x[0], x[1], x[2])) < 1e-10);
      CHECK(std::abs(column(pt, i, "grad_" + var + "_x") - 0.3) < 1e-8);
      CHECK(std::abs(column(pt, i, "grad_" + var + "_z") - 0.25) < 1e-8);
    }
    o.average_axis = 2;
    for (int n : {1, 5, 16, 31}) {
      o.average_n = n;
      const ex::ProbeTable avg = ex::probe(ctx, s, o, "test");
      CHECK(avg.columns[0] == "x");
      CHECK(avg.columns[1] == "y");
      CHECK(avg.columns[2] == "rho");
      for (std::size_t i = 0; i < o.points.size(); ++i) {
        const auto& x = o.points[i];
        CHECK(std::abs(column(avg, i, var) - off - lin(x[0], x[1], zmid)) < 1e-10);
      }
    }
  }
}
#else
TEST_CASE("sample: curved cylinder hexes", "[sample]") { FRMINI_SKIP("built without Gmsh"); }
#endif
