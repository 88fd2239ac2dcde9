// The VTK data sets behind frmini export, for callers that work on them in memory (the
// renderer: contours, pictures). Only for builds with VTK (FRMINI_HAVE_VTK); the file
// writers of solver/export/export.hpp need no VTK types.
#pragma once

#include <string>

#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>

#include "solver/export/export.hpp"

namespace frmini::solver::exporter {

// One Lagrange cell per element (pyramids and --divisor: linear sub-cells), with the point
// arrays of opts.fields (docs/export.md). Points are not shared between elements (the
// renderer averages them before contouring: solver/render/shared_points.hpp).
vtkSmartPointer<vtkUnstructuredGrid> volume_grid(const SolutionContext& ctx,
                                                 const SolutionFile& soln,
                                                 const ExportOptions& opts);

// The faces of boundary bopts.name: polylines (2D) or linear triangles / quads (3D) on the
// order-K (or divisor) lattice of each face, with the volume fields plus cp, cf (vector),
// cf-mag and normal (unit, out of the fluid). Throws UserError for an unknown boundary.
vtkSmartPointer<vtkPolyData> boundary_surface(const SolutionContext& ctx,
                                              const SolutionFile& soln,
                                              const ExportOptions& opts,
                                              const BoundaryOptions& bopts);

// Atomic XML writers (binary appended data, zlib).
void write_vtu(const std::string& path, vtkUnstructuredGrid* grid);
void write_vtp(const std::string& path, vtkPolyData* poly);

}  // namespace frmini::solver::exporter
