// Isosurfaces and pictures of a solution: the exported volume (export_vtk.hpp) handed to the
// renderer (solver/render/). The volume is built once for both.
#include "solver/export/views.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <vtkAppendPolyData.h>
#include <vtkNew.h>
#include <vtkPolyData.h>

#include "base/error.hpp"
#include "solver/export/export_vtk.hpp"
#include "solver/render/isosurface.hpp"
#include "solver/render/picture.hpp"

namespace frmini::solver::exporter {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> body_names(const SolutionContext& ctx, const ViewOptions& v) {
  return v.body.empty() ? ctx.walls : v.body;
}

void need_extension(const std::string& path, const char* ext, const char* option) {
  if (!path.empty() && fs::path(path).extension() != ext)
    throw UserError(std::string("export: ") + option + " " + path + ": must end in " + ext);
}

// The body's surface: only its geometry is drawn, so the reference state of cp is whatever
// the case gives, or a stand-in when it gives none.
vtkSmartPointer<vtkPolyData> body_surface(const SolutionContext& ctx, const SolutionFile& soln,
                                          const ExportOptions& opts, const ViewOptions& v) {
  vtkNew<vtkAppendPolyData> all;
  int n = 0;
  for (const auto& name : body_names(ctx, v)) {
    BoundaryOptions b;
    b.name = name;
    if (!ctx.constants.count("Uinf")) b.uinf = 1;
    if (!ctx.constants.count("Pinf")) b.pinf = 0;
    all->AddInputData(boundary_surface(ctx, soln, opts, b));
    ++n;
  }
  if (n == 0) return nullptr;
  all->Update();
  vtkSmartPointer<vtkPolyData> out = vtkSmartPointer<vtkPolyData>::New();
  out->ShallowCopy(all->GetOutput());
  return out;
}

}  // namespace

void check_views(const SolutionContext& ctx, const ViewOptions& v) {
  for (const auto& s : v.isosurfaces) render::parse_iso_spec(s);
  need_extension(v.iso_out, ".vtp", "--out");
  need_extension(v.png, ".png", "--png");
  if (!v.iso_out.empty() && v.isosurfaces.empty())
    throw UserError("export: --out " + v.iso_out + " needs --isosurface FIELD=VALUE");
  if (!v.png.empty() && ctx.mesh.ndims == 3 && v.isosurfaces.empty())
    throw UserError("export: --png " + v.png + ": a 3D picture shows isosurfaces; give --isosurface FIELD=VALUE");
  for (const auto& b : v.body)
    if (std::find(ctx.mesh.boundaries.begin(), ctx.mesh.boundaries.end(), b) == ctx.mesh.boundaries.end())
      throw UserError("export: --body: the mesh has no boundary '" + b + "'");
}

ViewReport write_views(const SolutionContext& ctx, const SolutionFile& soln,
                       const ExportOptions& opts, const ViewOptions& v) {
  check_views(ctx, v);
  ViewReport r;
  if (v.isosurfaces.empty() && v.png.empty()) return r;
  ExportOptions all = opts;
  all.fields.clear();  // every field: the specs and the colouring may name any of them
  auto volume = volume_grid(ctx, soln, all);

  vtkNew<vtkPolyData> iso;
  if (!v.isosurfaces.empty()) {
    render::IsoOptions io;
    for (const auto& s : v.isosurfaces) io.specs.push_back(render::parse_iso_spec(s));
    // The colouring field travels onto the surface by name (without a component suffix).
    io.color_by = v.color_by.substr(0, v.color_by.find(':'));
    r.npolys = render::make_isosurfaces(*volume, io, *iso);
  }
  auto body = v.png.empty() ? nullptr : body_surface(ctx, soln, opts, v);
  // Both checked and built: now the files.
  if (!v.iso_out.empty()) render::write_vtp(*iso, v.iso_out);
  if (!v.png.empty()) {
    render::PictureOptions po;
    po.width = v.width;
    po.height = v.height;
    po.color_by = v.color_by;
    if (render::is_two_d(*volume))
      render::render_field_png(*volume, body.Get(), po, v.png);
    else
      render::render_isosurfaces_png(*iso, body.Get(), po, v.png);
  }
  return r;
}

}  // namespace frmini::solver::exporter
