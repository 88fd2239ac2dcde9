// The output nodes and VTK cells of one reference element (internal to solver/export): the
// reference points where the geometry and solution are sampled, in frmini/PyFR reference
// coordinates, and the cells joining them. Lagrange cells take their node order from VTK
// itself (vtkLagrange*::PointIndexFromIJK / Index), VTK's parametric r in [0,1] mapping to
// xi = 2r - 1 on every frmini reference element.
#pragma once

#include <string>
#include <vector>

#include "operators/linalg.hpp"

namespace frmini::solver::exporter {

struct CellSet {
  operators::Matrix pts;               // npts × ndims reference coordinates
  std::vector<int> types;              // VTK cell type of each cell
  std::vector<std::vector<int>> conn;  // its points (indices into pts)
};

// An element: one Lagrange cell of order k (pyramids: linear pyramids and tets on the
// order-k lattice, VTK 9.1 having no usable Lagrange pyramid), or with `linear` linear
// sub-cells, k per edge.
CellSet element_cells(const std::string& etype, int k, bool linear);

// A face of kind "line", "tri" or "quad" in its own parameter coordinates, k per edge: a
// polyline (line) or linear triangles / quads, for vtkPolyData.
CellSet face_cells(const std::string& kind, int k);

}  // namespace frmini::solver::exporter
