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
#include <vtkGenericCell.h>
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

// One empty point array per field, added to `grid`, in the order of `fields`.
inline std::vector<vtkSmartPointer<vtkDoubleArray>> add_point_arrays(
    vtkUnstructuredGrid& grid, const std::vector<PointField>& fields) {
  std::vector<vtkSmartPointer<vtkDoubleArray>> arrays;
  for (const auto& f : fields) {
    auto a = vtkSmartPointer<vtkDoubleArray>::New();
    a->SetName(f.name.c_str());
    a->SetNumberOfComponents(f.ncomp);
    grid.GetPointData()->AddArray(a);
    arrays.push_back(a);
  }
  return arrays;
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
  const auto arrays = add_point_arrays(*grid, fields);
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

// The parametric coordinates of the nodes of a cell of this type and node count, in VTK's node
// order, from VTK itself (a one-cell grid's vtkCell::GetParametricCoords).
inline std::vector<X3> vtk_node_pcoords(int type, int npts) {
  auto one = vtkSmartPointer<vtkUnstructuredGrid>::New();
  auto pts = vtkSmartPointer<vtkPoints>::New();
  pts->SetNumberOfPoints(npts);
  for (int i = 0; i < npts; ++i) pts->SetPoint(i, i, 0, 0);
  one->SetPoints(pts);
  std::vector<vtkIdType> ids(npts);
  for (int i = 0; i < npts; ++i) ids[i] = i;
  one->InsertNextCell(type, npts, ids.data());
  auto cell = vtkSmartPointer<vtkGenericCell>::New();
  one->GetCell(0, cell);
  const double* pc = cell->GetParametricCoords();
  std::vector<X3> out(npts);
  for (int i = 0; i < npts; ++i) out[i] = {pc[3 * i], pc[3 * i + 1], pc[3 * i + 2]};
  return out;
}

enum class Simplex { Tet, Wedge, Tri };

// n^3 cubes over [lo, hi] (n[2] = 0: squares in the plane z = lo[2]), each cut into straight-sided
// Lagrange cells of the given order: 6 tets (Kuhn's split), 2 wedges, or 2 triangles. Node
// positions: VTK's parametric coordinates through the cell's affine (wedge: affine x linear) map.
inline vtkSmartPointer<vtkUnstructuredGrid> simplex_grid(Simplex kind, std::array<int, 3> n, X3 lo,
                                                         X3 hi, int order,
                                                         const std::vector<PointField>& fields) {
  const int p = order;
  int type, npts;
  switch (kind) {
    case Simplex::Tet: type = VTK_LAGRANGE_TETRAHEDRON; npts = (p + 1) * (p + 2) * (p + 3) / 6; break;
    case Simplex::Wedge: type = VTK_LAGRANGE_WEDGE; npts = (p + 1) * (p + 1) * (p + 2) / 2; break;
    default: type = VTK_LAGRANGE_TRIANGLE; npts = (p + 1) * (p + 2) / 2; break;
  }
  const auto pc = vtk_node_pcoords(type, npts);
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  auto pts = vtkSmartPointer<vtkPoints>::New();
  pts->SetDataTypeToDouble();
  const auto arrays = add_point_arrays(*grid, fields);
  auto add_cell = [&](const std::array<X3, 6>& v) {
    std::vector<vtkIdType> conn(npts);
    for (int a = 0; a < npts; ++a) {
      const double r = pc[a][0], s = pc[a][1], t = pc[a][2];
      X3 x;
      for (int d = 0; d < 3; ++d) {
        if (kind == Simplex::Tet)
          x[d] = v[0][d] + r * (v[1][d] - v[0][d]) + s * (v[2][d] - v[0][d]) + t * (v[3][d] - v[0][d]);
        else if (kind == Simplex::Tri)
          x[d] = v[0][d] + r * (v[1][d] - v[0][d]) + s * (v[2][d] - v[0][d]);
        else
          x[d] = (1 - t) * (v[0][d] + r * (v[1][d] - v[0][d]) + s * (v[2][d] - v[0][d])) +
                 t * (v[3][d] + r * (v[4][d] - v[3][d]) + s * (v[5][d] - v[3][d]));
      }
      conn[a] = pts->InsertNextPoint(x.data());
      for (std::size_t f = 0; f < fields.size(); ++f) {
        double val[9];
        fields[f].f(x, val);
        arrays[f]->InsertNextTuple(val);
      }
    }
    grid->InsertNextCell(type, npts, conn.data());
  };
  const bool two_d = n[2] == 0;
  const X3 h = {(hi[0] - lo[0]) / n[0], (hi[1] - lo[1]) / n[1], two_d ? 0.0 : (hi[2] - lo[2]) / n[2]};
  for (int ck = 0; ck < (two_d ? 1 : n[2]); ++ck)
    for (int cj = 0; cj < n[1]; ++cj)
      for (int ci = 0; ci < n[0]; ++ci) {
        const X3 o = {lo[0] + ci * h[0], lo[1] + cj * h[1], lo[2] + ck * h[2]};
        auto at = [&](int a, int b, int c) { return X3{o[0] + a * h[0], o[1] + b * h[1], o[2] + c * h[2]}; };
        if (kind == Simplex::Tet) {
          const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
          for (const auto& pm : perms) {
            int c[3] = {0, 0, 0};
            std::array<X3, 6> v{at(0, 0, 0)};
            for (int k = 0; k < 3; ++k) {
              c[pm[k]] = 1;
              v[k + 1] = at(c[0], c[1], c[2]);
            }
            add_cell(v);
          }
        } else if (kind == Simplex::Wedge) {
          add_cell({at(0, 0, 0), at(1, 0, 0), at(1, 1, 0), at(0, 0, 1), at(1, 0, 1), at(1, 1, 1)});
          add_cell({at(0, 0, 0), at(1, 1, 0), at(0, 1, 0), at(0, 0, 1), at(1, 1, 1), at(0, 1, 1)});
        } else {
          add_cell({at(0, 0, 0), at(1, 0, 0), at(1, 1, 0), {}, {}, {}});
          add_cell({at(0, 0, 0), at(1, 1, 0), at(0, 1, 0), {}, {}, {}});
        }
      }
  grid->SetPoints(pts);
  return grid;
}

inline double norm(const X3& x) { return std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]); }

}  // namespace frmini::test
