// The volume data set: every element sampled at the nodes of its output cells.
#include <vtkCellArray.h>
#include <vtkPoints.h>
#include <vtkUnsignedCharArray.h>

#include "base/error.hpp"
#include "solver/export/cells.hpp"
#include "solver/export/export_vtk.hpp"
#include "solver/export/sampling.hpp"
#include "solver/system/geometry.hpp"

namespace frmini::solver::exporter {

namespace {

int output_order(const SolutionFile& soln, const ExportOptions& opts) {
  if (opts.order < 0 || opts.divisor < 0)
    throw UserError("export: --order and --divisor must be positive");
  if (opts.order > 0 && opts.divisor > 0)
    throw UserError("export: give --order or --divisor, not both");
  if (opts.divisor > 0) return opts.divisor;
  return opts.order > 0 ? opts.order : std::max(soln.order, 1);
}

}  // namespace

vtkSmartPointer<vtkUnstructuredGrid> volume_grid(const SolutionContext& ctx,
                                                 const SolutionFile& soln,
                                                 const ExportOptions& opts) {
  check_fields(opts.fields);
  const int k = output_order(soln, opts);
  const bool primitive = soln.variables == "primitive-mean";
  const int nd = ctx.mesh.ndims;
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetDataTypeToDouble();
  PointArrays arrays(opts.fields, ctx.phys.gamma, gas_constant(ctx, opts));
  auto types = vtkSmartPointer<vtkUnsignedCharArray>::New();
  auto cells = vtkSmartPointer<vtkCellArray>::New();
  std::vector<double> q, grad;
  std::vector<vtkIdType> ids;
  for (std::size_t g = 0; g < ctx.mesh.groups.size(); ++g) {
    const GroupSolution gs = group_solution(ctx, soln, g);
    const auto& grp = *gs.group;
    const CellSet cs = element_cells(grp.etype, k, opts.divisor > 0);
    const operators::Matrix B = gs.basis->at(cs.pts);
    const std::vector<double> ploc = ploc_at(grp, nd, cs.pts);
    const std::size_t np = cs.pts.rows, ne = std::size_t(grp.neles);
    for (int64_t e = 0; e < grp.neles; ++e) {
      const vtkIdType base = points->GetNumberOfPoints();
      sample(gs, B, e, q, grad);
      for (std::size_t n = 0; n < np; ++n) {
        double x[3] = {0, 0, 0};
        for (int c = 0; c < nd; ++c) x[c] = ploc[(n * std::size_t(nd) + std::size_t(c)) * ne + std::size_t(e)];
        points->InsertNextPoint(x);
        arrays.append(point_state(&q[n * std::size_t(gs.nvars)],
                                  &grad[n * std::size_t(nd * gs.nvars)], nd, primitive,
                                  ctx.phys.gamma));
      }
      for (std::size_t c = 0; c < cs.conn.size(); ++c) {
        ids.clear();
        for (int i : cs.conn[c]) ids.push_back(base + i);
        cells->InsertNextCell(vtkIdType(ids.size()), ids.data());
        types->InsertNextValue(static_cast<unsigned char>(cs.types[c]));
      }
    }
  }
  grid->SetPoints(points);
  grid->SetCells(types, cells);
  arrays.attach(grid->GetPointData());
  return grid;
}

long write_volume(const std::string& path, const SolutionContext& ctx, const SolutionFile& soln,
                  const ExportOptions& opts) {
  auto grid = volume_grid(ctx, soln, opts);
  write_vtu(path, grid);
  return long(grid->GetNumberOfCells());
}

}  // namespace frmini::solver::exporter
