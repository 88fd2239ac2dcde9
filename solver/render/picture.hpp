// Off-screen pictures (PNG) with VTK, for `frmini export --png` and the export plugin.
//
// 3D: isosurfaces (make_isosurfaces' output) coloured by a field, the body's surface in grey, a
// colour bar titled with the field's name, and an oblique camera framing a box (by default the
// body extended downstream: the wake). 2D: a colour map of a field of the whole volume data set
// (vorticity z-component by default, diverging blue-white-red map over a symmetric range
// clipped at a percentile so the wake, not the boundary layer, sets the scale), seen from +z and
// framed on the body and its wake, with the body drawn. The flow is taken to go along +x.
//
// An X display is needed (Debian's VTK renders through X): ensure_display() (display.hpp) is
// called first and starts Xvfb on a headless machine. PNGs are written atomically.
#pragma once

#include <array>
#include <filesystem>
#include <optional>
#include <string>

class vtkDataSet;
class vtkPolyData;

namespace frmini::render {

// Bounds in VTK's order: xmin, xmax, ymin, ymax, zmin, zmax.
using Box = std::array<double, 6>;

struct PictureOptions {
  int width = 1280;
  int height = 720;
  // The colouring field: "name", "name:x|y|z" or "name:mag" (vectors default to the magnitude).
  // "" = 3D: the first point array of the isosurfaces other than "isosurface" and "Normals",
  // else the isosurface index; 2D: "vorticity:z", else the first point array.
  std::string color_by;
  std::optional<Box> box;  // what the camera frames; default wake_box(body, data)
  // Colour range: the `percentile` of |v| (signed fields: symmetric, diverging map) or the
  // [1 - percentile, percentile] quantiles (one-signed fields: sequential map); in 2D of the
  // area inside the frame, in 3D of the isosurfaces' points.
  double percentile = 0.99;
  std::optional<std::array<double, 2>> range;  // explicit colour range, overrides percentile
  int subdivisions = 0;  // 2D: linear pieces per edge of high-order cells; 0: 2 x order
};

// The default framing: with a body (its bounds), from 1 body height D upstream to 8 D (3D) or
// 10 D (2D) downstream and 2 D (3D) or 3 D (2D) either side of its centre in y; in z (3D) its
// own extent and at least 2 D either side of its centre; without one (body bounds empty or
// invalid), the data's bounds. Clipped to the data.
Box wake_box(const Box& body, const Box& data, bool two_d);

// Whether data is planar in z (2D meshes are exported with z = 0).
bool is_two_d(vtkDataSet& data);

// 3D picture of isosurfaces with the body (may be null).
void render_isosurfaces_png(vtkPolyData& iso, vtkPolyData* body, const PictureOptions& opts,
                            const std::filesystem::path& png);

// 2D picture: a colour map of `volume` seen from +z, with the body (may be null; its lines and
// polygons are drawn dark grey).
void render_field_png(vtkDataSet& volume, vtkPolyData* body, const PictureOptions& opts,
                      const std::filesystem::path& png);

}  // namespace frmini::render
