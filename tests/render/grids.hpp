// Test support for render/: unstructured grids built by hand, of linear hexes or VTK Lagrange
// hexes and quads (node order from VTK itself: PointIndexFromIJK), with point fields given as
// functions of position. Nodes are equispaced in each cell and not shared between cells, as in
// frmini's export.
#pragma once

#include <array>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <vtkCellType.h>
#include <vtkDoubleArray.h>
#include <vtkHigherOrderHexahedron.h>
#include <vtkHigherOrderQuadrilateral.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>

namespace frmini::test {

using X3 = std::array<double, 3>;

struct PointField {
  std::string name;
  int ncomp;
  std::function<void(const X3&, double*)> f;
};

inline PointField scalar_field(std::string name, std::function<double(const X3&)> f) {
  return {std::move(name), 1, [f](const X3& x, double* v) { v[0] = f(x); }};
}

// n[0] x n[1] x n[2] cells over [lo, hi] (n[2] = 0 and lo[2] = hi[2]: quads in the plane z = lo[2]),
// each of the given order (1: VTK_HEXAHEDRON / VTK_QUAD; >= 2: Lagrange cells).
inline vtkSmartPointer<vtkUnstructuredGrid> box_grid(std::array<int, 3> n, X3 lo, X3 hi, int order,
                                                     const std::vector<PointField>& fields) {
  const bool two_d = n[2] == 0;
  const int nz = two_d ? 1 : n[2];
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  auto pts = vtkSmartPointer<vtkPoints>::New();
  pts->SetDataTypeToDouble();
  std::vector<vtkSmartPointer<vtkDoubleArray>> arrays;
  for (const auto& f : fields) {
    auto a = vtkSmartPointer<vtkDoubleArray>::New();
    a->SetName(f.name.c_str());
    a->SetNumberOfComponents(f.ncomp);
    grid->GetPointData()->AddArray(a);
    arrays.push_back(a);
  }
  const int p = order;
  const int npk = two_d ? 1 : p + 1;
  const int nnode = (p + 1) * (p + 1) * npk;
  const int ord[3] = {p, p, p};
  std::vector<vtkIdType> conn(nnode);
  for (int ck = 0; ck < nz; ++ck)
    for (int cj = 0; cj < n[1]; ++cj)
      for (int ci = 0; ci < n[0]; ++ci) {
        for (int k = 0; k < npk; ++k)
          for (int j = 0; j <= p; ++j)
            for (int i = 0; i <= p; ++i) {
              const X3 x = {lo[0] + (hi[0] - lo[0]) * (ci + double(i) / p) / n[0],
                            lo[1] + (hi[1] - lo[1]) * (cj + double(j) / p) / n[1],
                            two_d ? lo[2] : lo[2] + (hi[2] - lo[2]) * (ck + double(k) / p) / n[2]};
              int local;
              if (p == 1) {
                // VTK's linear hex/quad order: counter-clockwise bottom, then top.
                static const int lin[2][2] = {{0, 3}, {1, 2}};
                local = lin[i][j] + 4 * k;
              } else if (two_d) {
                local = vtkHigherOrderQuadrilateral::PointIndexFromIJK(i, j, ord);
              } else {
                local = vtkHigherOrderHexahedron::PointIndexFromIJK(i, j, k, ord);
              }
              conn[local] = pts->InsertNextPoint(x.data());
              for (std::size_t a = 0; a < fields.size(); ++a) {
                double v[9];
                fields[a].f(x, v);
                arrays[a]->InsertNextTuple(v);
              }
            }
        const int type = p == 1 ? (two_d ? VTK_QUAD : VTK_HEXAHEDRON)
                                : (two_d ? VTK_LAGRANGE_QUADRILATERAL : VTK_LAGRANGE_HEXAHEDRON);
        grid->InsertNextCell(type, nnode, conn.data());
      }
  grid->SetPoints(pts);
  return grid;
}

inline double norm(const X3& x) { return std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]); }

}  // namespace frmini::test
