// Built without VTK: no isosurfaces or pictures.
#include "base/error.hpp"
#include "solver/export/views.hpp"

namespace frmini::solver::exporter {

void check_views(const SolutionContext&, const ViewOptions&) {
  throw UserError("export: built without VTK (install libvtk9-dev)");
}
ViewReport write_views(const SolutionContext& ctx, const SolutionFile&, const ExportOptions&,
                       const ViewOptions& v) {
  check_views(ctx, v);
  return {};
}

}  // namespace frmini::solver::exporter
