// Built without VTK: isosurfaces and pictures are unavailable; the option parsing
// (iso_spec.cpp) still works, so malformed options are reported the same way.
#include "base/error.hpp"
#include "solver/render/display.hpp"
#include "solver/render/isosurface.hpp"
#include "solver/render/picture.hpp"

namespace frmini::render {
namespace {
[[noreturn]] void not_built(const char* what) {
  throw NotBuiltError("VTK (install libvtk9-dev)", what);
}
}  // namespace

long make_isosurfaces(vtkDataSet&, const IsoOptions&, vtkPolyData&) { not_built("isosurfaces"); }
void write_vtp(vtkPolyData&, const std::filesystem::path&) { not_built("isosurfaces"); }
std::string ensure_display() { not_built("pictures"); }
bool own_xvfb_running() { return false; }
Box wake_box(const Box&, const Box& data, bool) { return data; }
bool is_two_d(vtkDataSet&) { not_built("pictures"); }
void render_isosurfaces_png(vtkPolyData&, vtkPolyData*, const PictureOptions&,
                            const std::filesystem::path&) { not_built("pictures"); }
void render_field_png(vtkDataSet&, vtkPolyData*, const PictureOptions&,
                      const std::filesystem::path&) { not_built("pictures"); }

}  // namespace frmini::render
