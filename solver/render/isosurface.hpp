// Isosurfaces of a VTK data set (from frmini export, or any vtkDataSet with point data):
// several "field=value" specs contoured with vtkContourFilter and merged into one vtkPolyData.
//
//   auto specs = {parse_iso_spec("qcrit=0.5"), parse_iso_spec("rho=0.99")};
//   vtkNew<vtkPolyData> iso;
//   long npolys = make_isosurfaces(*grid, {specs, "mach"}, *iso);
//   write_vtp(*iso, "iso.vtp");
//
// High-order (Lagrange, Bezier, quadratic) cells are first cut into linear pieces sampled with
// the cells' own interpolation functions (subdivide.hpp), 2 × order pieces per edge by default:
// contouring the cells directly follows only their node lattice (tests/render shows the
// difference on a sphere). Before that, points that coincide (the copies each element makes of
// the points on its faces) are merged and their values averaged (shared_points.hpp), so the
// surfaces close across element faces where the field jumps between cells. Vector fields are
// contoured by their magnitude ("velocity=0.3") or one component ("vorticity:z=1"). The
// output's point data: the colour field (its own name and components), "isosurface" (int, the
// index of the spec in opts.specs) and "Normals"; its field data: "isosurface-specs", the spec
// texts in the same order. Triangles in 3D; on 2D data (quads, triangles) the contours are line
// segments, counted as the polygons.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "solver/render/iso_spec.hpp"

class vtkDataSet;
class vtkPolyData;

namespace frmini::render {

struct IsoOptions {
  std::vector<IsoSpec> specs;
  std::string color_by;  // a point array carried onto the surface; "" for none
  int subdivisions = 0;  // linear pieces per edge of a high-order cell; 0: 2 x its order
  // Points that coincide (the copies each element makes of the points on its faces) merged and
  // their values averaged before contouring, so the surfaces close across element faces;
  // false contours each cell's own values (slits where the field jumps between cells).
  bool continuous = true;
};

// Replaces `out` with the isosurfaces and returns its polygon (2D: segment) count. UserError (one line) for
// an unknown field (listing the fields there are) or a value outside the field's range at the
// data's points (printing the range).
long make_isosurfaces(vtkDataSet& data, const IsoOptions& opts, vtkPolyData& out);

// Writes poly as a .vtp (VTK XML, binary, zlib) atomically; UserError when it cannot be written.
void write_vtp(vtkPolyData& poly, const std::filesystem::path& path);

}  // namespace frmini::render
