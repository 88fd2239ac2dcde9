// What a user looks at rather than reads: isosurfaces of a solution (a .vtp) and a picture
// (a .png), made from the exported volume by solver/render/. Shared by `frmini export
// --isosurface/--png` and the export plugin, so both make the same files. No VTK types here.
//
//   ViewOptions v{{"qcrit=0.5"}, "mach", "iso.vtp", "wake.png"};
//   check_views(ctx, v);                 // before anything is written
//   ViewReport r = write_views(ctx, soln, ExportOptions{}, v);   // r.npolys
#pragma once

#include <string>
#include <vector>

#include "solver/export/export.hpp"

namespace frmini::solver::exporter {

struct ViewOptions {
  std::vector<std::string> isosurfaces;  // "field=value" specs (solver/render/iso_spec.hpp)
  std::string color_by;                  // a field (name[:x|y|z|mag]); "" = the renderer's default
  std::string iso_out;                   // the isosurfaces as .vtp ("" = not written)
  std::string png;                       // the picture ("" = none)
  // The boundaries drawn as the body; empty = every boundary whose [bcs.NAME] is a wall.
  std::vector<std::string> body;
  int width = 1280, height = 720;
};

// Throws UserError for a malformed spec or output name, an unknown body boundary, or a 3D
// picture without isosurfaces (a 3D picture is of isosurfaces; 2D pictures are colour maps).
void check_views(const SolutionContext& ctx, const ViewOptions& v);

struct ViewReport {
  long npolys = -1;  // polygons (line segments in 2D) of the isosurfaces; -1 when none asked
};
// Field ranges and field names are checked against the data (one-line UserErrors) before
// either file is written; both are written to temporary names and renamed.
ViewReport write_views(const SolutionContext& ctx, const SolutionFile& soln,
                       const ExportOptions& opts, const ViewOptions& v);

}  // namespace frmini::solver::exporter
