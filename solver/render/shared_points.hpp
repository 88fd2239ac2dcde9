// Internal to render/: continuous point fields where cells meet. frmini's export writes every
// element's own copies of the points on its faces, with its own polynomial's values there (the
// FR solution is discontinuous between elements); a contour of such a field has slits along
// the element faces, each side ending where its own values cross the isovalue. Averaging the
// copies of each point and sharing it between the cells makes the field continuous (a Lagrange
// cell's trace on a face depends only on the face's nodes, so both cells then agree on the
// whole face) and the grid conforming, so the contour closes across faces.
#pragma once

#include <vector>

#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>

class vtkDataArray;
class vtkDataSet;

namespace frmini::render::detail {

// A copy of data's cells in which points that coincide (closer than 1e-6 of the smallest
// cell's bounding-box diagonal: copies of one point made by neighbouring cells agree to
// round-off, distinct nodes of a cell are a sizeable fraction of it apart) are merged into one
// (VTK's vtkStaticPointLocator::MergePoints finds them), carrying `arrays` (point arrays of
// data) as double arrays of the same names, each merged point's values the mean over its
// copies. Other point arrays are left out.
vtkSmartPointer<vtkUnstructuredGrid> merge_shared_points(vtkDataSet& data,
                                                         const std::vector<vtkDataArray*>& arrays);

}  // namespace frmini::render::detail
