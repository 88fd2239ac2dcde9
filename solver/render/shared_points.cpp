#include "solver/render/shared_points.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <vtkDataArray.h>
#include <vtkDataSet.h>
#include <vtkDoubleArray.h>
#include <vtkIdList.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkStaticPointLocator.h>
#include <vtkCellType.h>

namespace frmini::render::detail {
namespace {

// The smallest bounding-box diagonal of a cell with extent (0 when there is none).
double smallest_cell(vtkDataSet& data) {
  auto ids = vtkSmartPointer<vtkIdList>::New();
  double h = std::numeric_limits<double>::infinity();
  for (vtkIdType c = 0; c < data.GetNumberOfCells(); ++c) {
    data.GetCellPoints(c, ids);
    double lo[3], hi[3], x[3];
    for (vtkIdType a = 0; a < ids->GetNumberOfIds(); ++a) {
      data.GetPoint(ids->GetId(a), x);
      for (int d = 0; d < 3; ++d) {
        lo[d] = a == 0 ? x[d] : std::min(lo[d], x[d]);
        hi[d] = a == 0 ? x[d] : std::max(hi[d], x[d]);
      }
    }
    if (ids->GetNumberOfIds() < 2) continue;
    const double diag = std::hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
    if (diag > 0) h = std::min(h, diag);
  }
  return std::isfinite(h) ? h : 0.0;
}

// For every point the id of its merged point (0..n-1, in order of first appearance); n.
vtkIdType merged_ids(vtkDataSet& data, std::vector<vtkIdType>& to_new) {
  const vtkIdType np = data.GetNumberOfPoints();
  std::vector<vtkIdType> rep(static_cast<std::size_t>(np));
  for (vtkIdType i = 0; i < np; ++i) rep[std::size_t(i)] = i;
  const double tol = 1e-6 * smallest_cell(data);
  if (np > 0 && tol > 0) {
    auto locator = vtkSmartPointer<vtkStaticPointLocator>::New();
    locator->SetDataSet(&data);
    locator->BuildLocator();
    locator->MergePoints(tol, rep.data());
  }
  to_new.assign(std::size_t(np), -1);
  vtkIdType n = 0;
  for (vtkIdType i = 0; i < np; ++i) {
    // The map names a representative of each group; follow it to one that names itself.
    vtkIdType r = i;
    for (int hops = 0; rep[std::size_t(r)] != r && hops < 64; ++hops) r = rep[std::size_t(r)];
    auto& id = to_new[std::size_t(r)];
    if (id < 0) id = n++;
    to_new[std::size_t(i)] = id;
  }
  return n;
}

// `a` on the merged points: the sum over each point's copies divided by their number.
vtkSmartPointer<vtkDoubleArray> averaged(vtkDataArray& a, const std::vector<vtkIdType>& to_new,
                                         const std::vector<int>& copies) {
  const auto nc = std::size_t(a.GetNumberOfComponents());
  auto avg = vtkSmartPointer<vtkDoubleArray>::New();
  avg->SetName(a.GetName());
  avg->SetNumberOfComponents(int(nc));
  avg->SetNumberOfTuples(vtkIdType(copies.size()));
  avg->Fill(0.0);
  double* v = avg->GetPointer(0);
  for (std::size_t i = 0; i < to_new.size(); ++i)
    for (std::size_t c = 0; c < nc; ++c)
      v[std::size_t(to_new[i]) * nc + c] += a.GetComponent(vtkIdType(i), int(c));
  for (std::size_t j = 0; j < copies.size(); ++j)
    for (std::size_t c = 0; c < nc; ++c) v[j * nc + c] /= copies[j];
  return avg;
}

// data's cells into out, their points renumbered (polyhedra's face streams too).
void copy_cells(vtkDataSet& data, const std::vector<vtkIdType>& to_new, vtkUnstructuredGrid& out) {
  auto ids = vtkSmartPointer<vtkIdList>::New();
  auto* grid = vtkUnstructuredGrid::SafeDownCast(&data);
  std::vector<vtkIdType> conn, faces;
  out.AllocateEstimate(data.GetNumberOfCells(), 8);
  for (vtkIdType c = 0; c < data.GetNumberOfCells(); ++c) {
    data.GetCellPoints(c, ids);
    conn.resize(std::size_t(ids->GetNumberOfIds()));
    for (vtkIdType a = 0; a < ids->GetNumberOfIds(); ++a)
      conn[std::size_t(a)] = to_new[std::size_t(ids->GetId(a))];
    const int type = data.GetCellType(c);
    if (type != VTK_POLYHEDRON || !grid) {
      out.InsertNextCell(type, vtkIdType(conn.size()), conn.data());
      continue;
    }
    // The face stream: nfaces, then per face its point count and points.
    grid->GetFaceStream(c, ids);
    faces.assign(ids->begin(), ids->end());
    const std::size_t nfaces = faces.empty() ? 0 : std::size_t(faces[0]);
    for (std::size_t f = 0, at = 1; f < nfaces; ++f) {
      const auto m = std::size_t(faces[at]);
      for (std::size_t k = 1; k <= m; ++k) faces[at + k] = to_new[std::size_t(faces[at + k])];
      at += m + 1;
    }
    out.InsertNextCell(type, vtkIdType(conn.size()), conn.data(), vtkIdType(nfaces),
                       nfaces > 0 ? faces.data() + 1 : nullptr);
  }
}

}  // namespace

vtkSmartPointer<vtkUnstructuredGrid> merge_shared_points(vtkDataSet& data,
                                                         const std::vector<vtkDataArray*>& arrays) {
  std::vector<vtkIdType> to_new;
  const vtkIdType n = merged_ids(data, to_new);
  auto out = vtkSmartPointer<vtkUnstructuredGrid>::New();
  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(n);
  // A merged point sits where its first copy does (the others agree to round-off).
  std::vector<int> copies(std::size_t(n), 0);
  for (std::size_t i = 0; i < to_new.size(); ++i)
    if (copies[std::size_t(to_new[i])]++ == 0)
      points->SetPoint(to_new[i], data.GetPoint(vtkIdType(i)));
  out->SetPoints(points);
  for (auto* a : arrays) out->GetPointData()->AddArray(averaged(*a, to_new, copies));
  copy_cells(data, to_new, *out);
  return out;
}

}  // namespace frmini::render::detail
