// Internal to render/: linear pieces of high-order cells, so that VTK's linear algorithms
// (contouring, colour maps) follow the high-order field instead of the cells' node lattice.
//
// Each nonlinear cell (Lagrange, Bezier and quadratic quad/hex/tri/tet/wedge) is cut into linear
// quads or hexes in its parametric space: a quad or hex directly into level^d sub-cells; a
// triangle into 3 quads, a tet into 4 hexes and a wedge into 3 hexes (corner, edge midpoints,
// face centres, centroid), each piece then cut `level` times per edge too: their sub-cells are
// half the size of a quad's or hex's, which the longer edges of simplices (up to a cube's
// diagonal in a hex split into tets) need for the same accuracy. Coordinates and fields at the sub-cell corners come from VTK's own interpolation
// functions of the cell (vtkCell::InterpolateFunctions), computed once per cell type and node
// count, so the pieces are exact samples of the high-order geometry and solution. Linear cells
// and cell types not listed are copied unchanged.
#pragma once

#include <vector>

#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>

class vtkDataArray;
class vtkDataSet;

namespace frmini::render::detail {

// With a filter, only the pieces whose corner values of `scalar` (one component, a point array
// of the input) straddle `value` are kept: the pieces a contour at that value passes through.
struct StraddleFilter {
  vtkDataArray* scalar = nullptr;
  double value = 0;
};

// The polynomial order of a cell from its type and node count (1 for linear cells).
int cell_order(int cell_type, vtkIdType npts);

// Splits the cells of data as described above. level: sub-cells per edge of a nonlinear quad or
// hex; 0 means 2 × the cell's order. arrays: point arrays of data carried (interpolated) onto
// the pieces, as double arrays of the same names.
vtkSmartPointer<vtkUnstructuredGrid> linear_pieces(vtkDataSet& data, int level,
                                                   const std::vector<vtkDataArray*>& arrays,
                                                   const StraddleFilter* filter = nullptr);

}  // namespace frmini::render::detail
