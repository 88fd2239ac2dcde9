// Isosurfaces of analytic fields land where they should: spheres r = R on linear and Lagrange
// hexes (mean and max radius error, area against 4 pi R^2), a circle's length in 2D, several
// specs in one surface, vector magnitudes and components, surfaces closed across cells whose
// values jump at their faces, and the user's errors.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <set>

#include <vtkCellArray.h>
#include <vtkContourFilter.h>
#include <vtkFeatureEdges.h>
#include <vtkFieldData.h>
#include <vtkIntArray.h>
#include <vtkMassProperties.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkStringArray.h>
#include <vtkTriangleFilter.h>
#include <vtkXMLPolyDataReader.h>

#include "base/error.hpp"
#include "solver/render/isosurface.hpp"
#include "solver/render/shared_points.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/render/grids.hpp"

using namespace frmini;
using namespace frmini::render;
using frmini::test::box_grid;
using frmini::test::norm;
using frmini::test::scalar_field;
using frmini::test::X3;

namespace {

constexpr double kPi = 3.14159265358979323846;

struct SphereError {
  double mean = 0, max = 0, area_rel = 0;
};

// Radius errors of every point of poly and the relative area error, against a sphere of
// radius R centred at the origin.
SphereError sphere_error(vtkPolyData* poly, double R) {
  SphereError e;
  const vtkIdType n = poly->GetNumberOfPoints();
  REQUIRE(n > 0);
  for (vtkIdType i = 0; i < n; ++i) {
    double x[3];
    poly->GetPoint(i, x);
    const double d = std::abs(norm({x[0], x[1], x[2]}) - R);
    e.mean += d / double(n);
    e.max = std::max(e.max, d);
  }
  vtkNew<vtkTriangleFilter> tri;
  tri->SetInputData(poly);
  vtkNew<vtkMassProperties> mass;
  mass->SetInputConnection(tri->GetOutputPort());
  mass->Update();
  e.area_rel = std::abs(mass->GetSurfaceArea() / (4 * kPi * R * R) - 1);
  std::printf("sphere R=%g: %lld points, radius error mean %.3g max %.3g, area error %.3g\n", R,
              static_cast<long long>(n), e.mean, e.max, e.area_rel);
  return e;
}

IsoOptions one(const std::string& spec, const std::string& color = "", int level = 0) {
  return {{parse_iso_spec(spec)}, color, level};
}

const auto kR = scalar_field("r", [](const X3& x) { return norm(x); });
const auto kR2 = scalar_field("r2", [](const X3& x) { return x[0] * x[0] + x[1] * x[1] + x[2] * x[2]; });

}  // namespace

TEST_CASE("isosurface: a sphere |x| = R on linear hexes", "[render][isosurface]") {
  // 24^3 hexes of side h = 1/12; |x| is not trilinear, so the contour's error is O(h^2 / R).
  auto grid = box_grid({24, 24, 24}, {-1, -1, -1}, {1, 1, 1}, 1, {kR});
  vtkNew<vtkPolyData> iso;
  const long n = make_isosurfaces(*grid, one("r=0.6"), *iso);
  CHECK(n == iso->GetNumberOfPolys());
  CHECK(n > 1000);
  const auto e = sphere_error(iso, 0.6);
  // Measured: 5.2e-4, 1.3e-3, 6.1e-3.
  CHECK(e.mean < 8e-4);
  CHECK(e.max < 2e-3);
  CHECK(e.area_rel < 8e-3);
}

TEST_CASE("isosurface: a sphere on Lagrange hexes follows the high-order field",
          "[render][isosurface]") {
  // r^2 is exactly a polynomial of degree 2 in each cell, so the Lagrange field is the exact
  // r^2 and the only error is the contour's linear pieces. Coarse cells (h = 0.5, R = 0.7).
  struct Tol { int order; double mean, max, area; };
  // Measured: order 2: 2.3e-3, 2.8e-3, 1.35e-2; order 3: 0.9e-3, 1.2e-3, 0.59e-2.
  for (const Tol t : {Tol{2, 3e-3, 4e-3, 1.6e-2}, Tol{3, 1.2e-3, 1.6e-3, 8e-3}}) {
    const int order = t.order;
    INFO("order " << order);
    auto grid = box_grid({4, 4, 4}, {-1, -1, -1}, {1, 1, 1}, order, {kR2});
    const double R = 0.7;
    // VTK's own contour of the Lagrange cells cuts them along their node lattice only.
    vtkNew<vtkContourFilter> direct;
    direct->SetInputData(grid);
    direct->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, "r2");
    direct->SetValue(0, R * R);
    direct->Update();
    const auto ed = sphere_error(direct->GetOutput(), R);

    vtkNew<vtkPolyData> iso;
    make_isosurfaces(*grid, one("r2=0.49"), *iso);
    const auto e = sphere_error(iso, R);
    CHECK(e.mean < t.mean);
    CHECK(e.max < t.max);
    CHECK(e.area_rel < t.area);
    // The default (2 x order pieces per edge) is clearly better than the node lattice.
    CHECK(e.max < 0.5 * ed.max);

    vtkNew<vtkPolyData> fine;
    make_isosurfaces(*grid, one("r2=0.49", "", 16), *fine);
    const auto ef = sphere_error(fine, R);
    CHECK(ef.max < 1e-3);
    CHECK(ef.area_rel < 1e-3);
  }
}

TEST_CASE("isosurface: spheres and circles on Lagrange tets, wedges and triangles",
          "[render][isosurface]") {
  // The same exact r^2 on straight-sided tets and wedges of order 2 (384 tets, 128 wedges; node
  // positions from VTK's own parametric coordinates), cut into 4 hexes (tet), 3 hexes (wedge) or
  // 3 quads (triangle) and then subdivided. A wrong node order or piece would scramble these.
  using frmini::test::Simplex;
  const double R = 0.7;
  for (const auto kind : {Simplex::Tet, Simplex::Wedge}) {
    INFO((kind == Simplex::Tet ? "tets" : "wedges"));
    auto grid = frmini::test::simplex_grid(kind, {4, 4, 4}, {-1, -1, -1}, {1, 1, 1}, 2, {kR2});
    vtkNew<vtkPolyData> iso;
    CHECK(make_isosurfaces(*grid, one("r2=0.49"), *iso) > 100);
    const auto e = sphere_error(iso, R);
    // Measured: tets 3.6e-4, 2.1e-3, 1.9e-3; wedges 1.2e-3, 2.8e-3, 6.2e-3.
    CHECK(e.mean < 1.5e-3);
    CHECK(e.max < 3.5e-3);
    CHECK(e.area_rel < 1e-2);
  }
  auto tris = frmini::test::simplex_grid(Simplex::Tri, {5, 5, 0}, {-1, -1, 0}, {1, 1, 0}, 3, {kR2});
  vtkNew<vtkPolyData> circle;
  CHECK(make_isosurfaces(*tris, one("r2=0.36"), *circle) > 20);
  double worst = 0;
  for (vtkIdType i = 0; i < circle->GetNumberOfPoints(); ++i) {
    const double* x = circle->GetPoint(i);
    worst = std::max(worst, std::abs(norm({x[0], x[1], 0}) - 0.6));
  }
  std::printf("circle on triangles: radius error %.3g\n", worst);
  CHECK(worst < 1e-3);  // measured 3.7e-4
}

TEST_CASE("isosurface: several specs in one surface, tagged, with the colour field",
          "[render][isosurface]") {
  // colour c = x + 2y + 3z is linear, so its interpolated values are exact at every point.
  auto c = scalar_field("c", [](const X3& x) { return x[0] + 2 * x[1] + 3 * x[2]; });
  auto grid = box_grid({4, 4, 4}, {-1, -1, -1}, {1, 1, 1}, 2, {kR2, c});
  IsoOptions opts{{parse_iso_spec("r2=0.16"), parse_iso_spec("r2=0.64")}, "c", 0};
  vtkNew<vtkPolyData> iso;
  const long n = make_isosurfaces(*grid, opts, *iso);
  CHECK(n == iso->GetNumberOfPolys());
  auto* tag = vtkIntArray::SafeDownCast(iso->GetPointData()->GetArray("isosurface"));
  auto* col = iso->GetPointData()->GetArray("c");
  REQUIRE(tag);
  REQUIRE(col);
  REQUIRE(iso->GetPointData()->GetArray("Normals"));
  CHECK(iso->GetPointData()->GetArray("r2") == nullptr);  // only the colour field is carried
  auto* specs = vtkStringArray::SafeDownCast(iso->GetFieldData()->GetAbstractArray("isosurface-specs"));
  REQUIRE(specs);
  REQUIRE(specs->GetNumberOfValues() == 2);
  CHECK(specs->GetValue(1) == "r2=0.64");
  std::set<int> tags;
  double worst_r = 0, worst_c = 0;
  for (vtkIdType i = 0; i < iso->GetNumberOfPoints(); ++i) {
    double x[3];
    iso->GetPoint(i, x);
    const int t = tag->GetValue(i);
    tags.insert(t);
    worst_r = std::max(worst_r, std::abs(norm({x[0], x[1], x[2]}) - (t == 0 ? 0.4 : 0.8)));
    worst_c = std::max(worst_c, std::abs(col->GetComponent(i, 0) - (x[0] + 2 * x[1] + 3 * x[2])));
  }
  CHECK(tags == std::set<int>{0, 1});
  CHECK(worst_r < 5e-3);
  CHECK(worst_c < 1e-12);

  // Written atomically and read back with VTK's reader.
  const std::string path = "render_test_two_spheres.vtp";
  write_vtp(*iso, path);
  vtkNew<vtkXMLPolyDataReader> reader;
  reader->SetFileName(path.c_str());
  reader->Update();
  CHECK(reader->GetOutput()->GetNumberOfPolys() == n);
  CHECK(reader->GetOutput()->GetPointData()->GetArray("isosurface") != nullptr);
  CHECK_THROWS_WITH(write_vtp(*iso, "no-such-dir/x.vtp"),
                    "no-such-dir/x.vtp: cannot write the isosurface file (No such file or directory)");
}

TEST_CASE("isosurface: vectors by magnitude or component", "[render][isosurface]") {
  frmini::test::PointField vel{"velocity", 3, [](const X3& x, double* v) {
                                 v[0] = x[0]; v[1] = x[1]; v[2] = x[2]; }};
  auto grid = box_grid({3, 3, 3}, {-1, -1, -1}, {1, 1, 1}, 2, {vel});
  vtkNew<vtkPolyData> iso;
  CHECK(make_isosurfaces(*grid, one("velocity=0.5"), *iso) > 0);
  CHECK(sphere_error(iso, 0.5).max < 2e-2);  // |x| is not a polynomial: coarser than r^2
  CHECK(make_isosurfaces(*grid, one("velocity:x=0.25", "velocity"), *iso) > 0);
  double worst = 0;
  for (vtkIdType i = 0; i < iso->GetNumberOfPoints(); ++i) worst = std::max(worst, std::abs(iso->GetPoint(i)[0] - 0.25));
  CHECK(worst < 1e-12);
  CHECK(iso->GetPointData()->GetArray("velocity")->GetNumberOfComponents() == 3);
}

TEST_CASE("isosurface: a circle's length in 2D", "[render][isosurface]") {
  // Cubic Lagrange quads in the plane z = 0; r^2 exact; contour lines of total length 2 pi R.
  auto grid = box_grid({5, 5, 0}, {-1, -1, 0}, {1, 1, 0}, 3, {kR2});
  vtkNew<vtkPolyData> iso;
  const long n = make_isosurfaces(*grid, one("r2=0.36"), *iso);
  CHECK(n == iso->GetNumberOfLines());
  double length = 0, worst = 0;
  auto* lines = iso->GetLines();
  vtkNew<vtkIdList> ids;
  for (lines->InitTraversal(); lines->GetNextCell(ids);)
    for (vtkIdType k = 0; k + 1 < ids->GetNumberOfIds(); ++k) {
      double a[3], b[3];
      iso->GetPoint(ids->GetId(k), a);
      iso->GetPoint(ids->GetId(k + 1), b);
      length += std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]));
      worst = std::max(worst, std::abs(norm({a[0], a[1], 0}) - 0.6));
    }
  std::printf("circle: %ld segments, length error %.3g, radius error %.3g\n", n,
              length / (2 * kPi * 0.6) - 1, worst);
  CHECK(std::abs(length / (2 * kPi * 0.6) - 1) < 2e-3);
  CHECK(worst < 2e-3);
}

TEST_CASE("isosurface: closed across cells whose values jump at their faces",
          "[render][isosurface]") {
  // r^2 on quadratic hexes, each cell's own copy of its nodes, and every other cell's values
  // raised by 0.02 (a checkerboard): as frmini's export writes a discontinuous FR solution.
  auto grid = box_grid({4, 4, 4}, {-1, -1, -1}, {1, 1, 1}, 2, {kR2});
  auto* r2 = grid->GetPointData()->GetArray("r2");
  vtkNew<vtkIdList> ids;
  for (vtkIdType c = 0; c < grid->GetNumberOfCells(); ++c) {
    if ((c % 4 + c / 4 % 4 + c / 16) % 2 == 0) continue;
    grid->GetCellPoints(c, ids);
    for (vtkIdType a = 0; a < ids->GetNumberOfIds(); ++a)
      r2->SetComponent(ids->GetId(a), 0, r2->GetComponent(ids->GetId(a), 0) + 0.02);
  }
  // The copies merged: 9^3 points of 4^3 x 27, each face point the mean of its cells' values.
  auto merged = frmini::render::detail::merge_shared_points(*grid, {r2});
  CHECK(grid->GetNumberOfPoints() == 64 * 27);
  CHECK(merged->GetNumberOfPoints() == 9 * 9 * 9);
  CHECK(merged->GetNumberOfCells() == 64);
  double x0[3] = {0.5, 0.5, 0.5};  // a corner of 8 cells, 4 of them raised
  const vtkIdType corner = merged->FindPoint(x0);
  CHECK(merged->GetPointData()->GetArray("r2")->GetComponent(corner, 0) == Approx(0.75 + 0.01));

  // Open edges (vtkFeatureEdges' boundary edges: of one triangle) of the sphere r^2 = 0.49,
  // which lies inside the box: slits with each cell's own values, none once they are averaged.
  auto open_edges = [](vtkPolyData* iso) {
    vtkNew<vtkFeatureEdges> edges;
    edges->SetInputData(iso);
    edges->BoundaryEdgesOn();
    edges->FeatureEdgesOff();
    edges->ManifoldEdgesOff();
    edges->NonManifoldEdgesOff();
    edges->Update();
    return edges->GetOutput()->GetNumberOfLines();
  };
  IsoOptions opts = one("r2=0.49");
  opts.continuous = false;
  vtkNew<vtkPolyData> slit, whole;
  make_isosurfaces(*grid, opts, *slit);
  make_isosurfaces(*grid, one("r2=0.49"), *whole);
  std::printf("jumping cells: %lld open edges of %lld triangles per cell, %lld of %lld averaged\n",
              static_cast<long long>(open_edges(slit)), static_cast<long long>(slit->GetNumberOfPolys()),
              static_cast<long long>(open_edges(whole)), static_cast<long long>(whole->GetNumberOfPolys()));
  CHECK(open_edges(slit) > 100);
  CHECK(open_edges(whole) == 0);
  // Between the two cells' own surfaces: r^2 within [0.47, 0.49] up to the contour's error.
  const auto e = sphere_error(whole, std::sqrt(0.48));
  CHECK(e.max < std::sqrt(0.49) - std::sqrt(0.48) + 4e-3);
}

TEST_CASE("isosurface: unknown fields and values out of range are one-line errors",
          "[render][isosurface]") {
  auto grid = box_grid({2, 2, 2}, {-1, -1, -1}, {1, 1, 1}, 2, {kR2});
  vtkNew<vtkPolyData> iso;
  CHECK_THROWS_WITH(make_isosurfaces(*grid, one("qcrit=0.5"), *iso),
                    "--isosurface 'qcrit=0.5': no point field 'qcrit' (fields: r2)");
  CHECK_THROWS_WITH(make_isosurfaces(*grid, one("r2=5"), *iso),
                    "--isosurface 'r2=5': value outside the range of r2, [0, 3]");
  CHECK_THROWS_WITH(make_isosurfaces(*grid, one("r2:y=0.5"), *iso),
                    "--isosurface 'r2:y=0.5': field 'r2' has 1 component(s), no r2 (y)");
  CHECK_THROWS_WITH(make_isosurfaces(*grid, one("r2=0.5", "mach"), *iso),
                    "--color-by 'mach': no point field 'mach' (fields: r2)");
}

TEST_CASE("isosurface: timing on a cylinder-sized grid", "[.][perf]") {
  // About the size of cylinder-re3900 at p = 3: 41.6k cubic hexes, 2.7M points.
  auto c = scalar_field("c", [](const X3& x) { return x[0]; });
  auto grid = box_grid({40, 40, 26}, {-1, -1, -1}, {1, 1, 1}, 3, {kR2, c});
  vtkNew<vtkPolyData> iso;
  const auto t0 = std::chrono::steady_clock::now();
  const long n = make_isosurfaces(*grid, {{parse_iso_spec("r2=0.49")}, "c", 0}, *iso);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%ld polygons in %.2f s\n", n, s);
}

TEST_CASE("isosurface: a plane through the nodes is whole, with no collapsed pieces",
          "[render][isosurface]") {
  // x = 0 passes through a layer of nodes of both the linear and the Lagrange grid: the
  // contour is the square [-1, 1]^2 of area 4 exactly, triangles only.
  auto x = scalar_field("x", [](const X3& p) { return p[0]; });
  for (int order : {1, 2}) {
    INFO("order " << order);
    auto grid = box_grid({4, 4, 4}, {-1, -1, -1}, {1, 1, 1}, order, {x});
    vtkNew<vtkPolyData> iso;
    const long n = make_isosurfaces(*grid, one("x=0"), *iso);
    CHECK(n == iso->GetNumberOfPolys());
    CHECK(iso->GetNumberOfLines() == 0);
    CHECK(iso->GetNumberOfVerts() == 0);
    vtkNew<vtkMassProperties> mass;
    mass->SetInputData(iso);
    mass->Update();
    CHECK(mass->GetSurfaceArea() == Approx(4).epsilon(1e-9));
  }
}
