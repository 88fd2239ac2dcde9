// Pictures, rendered off screen (under an Xvfb the library starts when DISPLAY is unset), read
// back: the requested size, many colours, and the objects covering a reasonable fraction.
// Synthetic flows past a cylinder of diameter 1 on its axis z: a vortex street of Q-criterion
// tubes (3D) and of alternating-sign vorticity (2D). The PNGs are left in the test's working
// directory for people to look at.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <vector>

#include <vtkCellArray.h>
#include <vtkDoubleArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>

#include "base/error.hpp"
#include "solver/render/field_select.hpp"
#include "solver/render/isosurface.hpp"
#include "solver/render/picture.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/render/grids.hpp"
#include "tests/render/png_stats.hpp"

using namespace frmini;
using namespace frmini::render;
using frmini::test::box_grid;
using frmini::test::png_stats;
using frmini::test::X3;

namespace {

constexpr double kPi = 3.14159265358979323846;

// Vortex k of the street: centre (x, y) at height z, and its sign.
void vortex(int k, double z, double& xc, double& yc, double& sign) {
  xc = 1.2 + 1.1 * k;
  yc = (k % 2 ? 0.45 : -0.45) + 0.12 * std::sin(2 * kPi * z / 2.0 + 0.7 * k);
  sign = k % 2 ? -1 : 1;
}

double street(const X3& x, bool signed_sum) {
  if (x[0] * x[0] + x[1] * x[1] < 0.25) return 0;
  double s = 0;
  for (int k = 0; k < 8; ++k) {
    double xc, yc, sign;
    vortex(k, x[2], xc, yc, sign);
    const double r2 = (x[0] - xc) * (x[0] - xc) + (x[1] - yc) * (x[1] - yc);
    s += (signed_sum ? sign : 1.0) * std::exp(-r2 / 0.09) * std::exp(-0.08 * k);
  }
  return s;
}

double mach(const X3& x) {
  return 0.2 * (1 - 0.7 * std::exp(-x[1] * x[1]) * 0.5 * (1 + std::tanh(2 * x[0])));
}

// The cylinder's surface (3D: quads over z in [z0, z1]) or its outline (2D: a closed line).
vtkSmartPointer<vtkPolyData> cylinder(bool two_d, double z0, double z1) {
  const int n = 64;
  auto pts = vtkSmartPointer<vtkPoints>::New();
  auto cells = vtkSmartPointer<vtkCellArray>::New();
  for (int layer = 0; layer < (two_d ? 1 : 2); ++layer)
    for (int i = 0; i < n; ++i)
      pts->InsertNextPoint(0.5 * std::cos(2 * kPi * i / n), 0.5 * std::sin(2 * kPi * i / n),
                           layer ? z1 : z0);
  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->SetPoints(pts);
  if (two_d) {
    std::vector<vtkIdType> ids(n + 1);
    for (int i = 0; i <= n; ++i) ids[i] = i % n;
    cells->InsertNextCell(n + 1, ids.data());
    poly->SetLines(cells);
  } else {
    for (int i = 0; i < n; ++i) {
      const vtkIdType q[4] = {i, (i + 1) % n, n + (i + 1) % n, n + i};
      cells->InsertNextCell(4, q);
    }
    poly->SetPolys(cells);
  }
  return poly;
}

}  // namespace

TEST_CASE("picture: 3D isosurfaces coloured by a field, with the body", "[render][picture]") {
  auto grid = box_grid({30, 14, 8}, {-2, -3, 0}, {10, 3, 4}, 2,
                       {frmini::test::scalar_field("qcrit", [](const X3& x) { return street(x, false); }),
                        frmini::test::scalar_field("mach", mach)});
  vtkNew<vtkPolyData> iso;
  const long n = make_isosurfaces(*grid, {{parse_iso_spec("qcrit=0.5")}, "mach", 0}, *iso);
  CHECK(n > 1000);
  auto body = cylinder(false, 0, 4);
  const std::string png = "render_test_3d.png";
  PictureOptions opts;
  render_isosurfaces_png(*iso, body, opts, png);
  const auto s = png_stats(png);
  std::printf("3D: %dx%d, %zu colours, coloured %.3f\n", s.width, s.height, s.colours, s.coloured);
  CHECK(s.width == 1280);
  CHECK(s.height == 720);
  CHECK(s.colours > 200);
  CHECK(s.coloured > 0.02);  // the isosurfaces cover a good part of the picture (3.4%)...
  CHECK(s.coloured < 0.8);   // ...but it is not one colour wall
  CHECK(std::getenv("DISPLAY") != nullptr);
}

TEST_CASE("picture: 2D colour map of vorticity with the body", "[render][picture]") {
  frmini::test::PointField vort{"vorticity", 3, [](const X3& x, double* v) {
                                  v[0] = v[1] = 0;
                                  v[2] = 3 * street(x, true);
                                }};
  auto grid = box_grid({36, 20, 0}, {-3, -5, 0}, {15, 5, 0}, 3,
                       {frmini::test::scalar_field("mach", mach), vort});
  auto body = cylinder(true, 0, 0);
  const std::string png = "render_test_2d.png";
  PictureOptions opts;
  opts.width = 800;
  opts.height = 450;
  render_field_png(*grid, body, opts, png);
  const auto s = png_stats(png);
  std::printf("2D: %dx%d, %zu colours, red %.3f blue %.3f dark %.4f\n", s.width, s.height,
              s.colours, s.reddish, s.bluish, s.dark_grey);
  CHECK(s.width == 800);
  CHECK(s.height == 450);
  CHECK(s.colours > 200);
  // A diverging map over a symmetric range: both signs of the street show.
  CHECK(s.reddish > 0.01);
  CHECK(s.bluish > 0.01);
  CHECK(s.dark_grey > 0.0005);  // the cylinder's outline
  CHECK(is_two_d(*grid));
}

TEST_CASE("picture: the default frame is the body's wake, clipped to the data", "[render][picture]") {
  const Box body{-0.5, 0.5, -0.5, 0.5, 0, 4}, data{-10, 30, -10, 10, 0, 4};
  const Box b3 = wake_box(body, data, false);
  CHECK(b3 == Box{-1.5, 8.5, -2, 2, 0, 4});
  const Box b2 = wake_box({-0.5, 0.5, -0.5, 0.5, 0, 0}, {-2, 5, -10, 10, 0, 0}, true);
  CHECK(b2 == Box{-1.5, 5, -3, 3, 0, 0});
  CHECK(wake_box({1, 0, 1, 0, 1, 0}, data, false) == data);  // no body: the data
  // A sphere's wake spreads in z too.
  CHECK(wake_box({-0.5, 0.5, -0.5, 0.5, -0.5, 0.5}, {-5, 20, -5, 5, -5, 5}, false) ==
        Box{-1.5, 8.5, -2, 2, -2, 2});
}

TEST_CASE("picture: user errors", "[render][picture]") {
  auto grid = box_grid({2, 2, 0}, {-1, -1, 0}, {1, 1, 0}, 2,
                       {frmini::test::scalar_field("mach", mach)});
  PictureOptions opts;
  opts.color_by = "rho";
  CHECK_THROWS_WITH(render_field_png(*grid, nullptr, opts, "x.png"),
                    "--color-by 'rho': no point field 'rho' (fields: mach)");
  opts.color_by = "";
  opts.width = 0;
  CHECK_THROWS_WITH(render_field_png(*grid, nullptr, opts, "x.png"),
                    "x.png: picture size 0x720 is not between 16x16 and 8192x8192");
  CHECK(!std::filesystem::exists("x.png"));
}

TEST_CASE("picture: the colour range is a percentile of area, not of points", "[render][picture]") {
  // A "boundary layer" of 900 points at |v| = 50 over a tiny area, and a "wake" of 100 points
  // with v = -0.99 ... 0.99 (alternating signs) over most of it.
  vtkNew<vtkDoubleArray> v;
  std::vector<double> w;
  for (int i = 0; i < 900; ++i) {
    v->InsertNextValue(i % 2 ? 50 : -50);
    w.push_back(1e-4);
  }
  for (int i = 0; i < 100; ++i) {
    v->InsertNextValue((i % 2 ? 1 : -1) * 0.01 * i);
    w.push_back(1);
  }
  const auto by_points = frmini::render::detail::percentile_range(*v, 0.99, true);
  CHECK(by_points[1] == 50);
  const auto by_area = frmini::render::detail::percentile_range(*v, 0.99, true, w);
  CHECK(by_area[0] == -by_area[1]);
  CHECK(by_area[1] == Approx(0.99));  // 99% of the area lies in the wake, at or below 0.99
  w.assign(w.size(), 0.0);
  w[950] = 1;  // only one point inside the frame
  CHECK(frmini::render::detail::percentile_range(*v, 0.99, true, w)[1] == Approx(0.5));
}
