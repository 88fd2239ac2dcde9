// Built without VTK: resolving a solution's mesh works, writing VTK files does not.
#include "base/error.hpp"
#include "solver/export/export.hpp"

namespace frmini::solver::exporter {

namespace {
[[noreturn]] void no_vtk() {
  throw UserError("export: built without VTK (install libvtk9-dev)");
}
}  // namespace

bool have_vtk() { return false; }

long write_volume(const std::string&, const SolutionContext&, const SolutionFile&,
                  const ExportOptions&) {
  no_vtk();
}
long write_boundary(const std::string&, const SolutionContext&, const SolutionFile&,
                    const ExportOptions&, const BoundaryOptions&) {
  no_vtk();
}
void write_pvd(const std::string&, const std::vector<PvdEntry>&) { no_vtk(); }

}  // namespace frmini::solver::exporter
