#include "solver/render/subdivide.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <utility>

#include <vtkCellType.h>
#include <vtkDataArray.h>
#include <vtkDataSet.h>
#include <vtkDoubleArray.h>
#include <vtkGenericCell.h>
#include <vtkIdList.h>
#include <vtkPointData.h>
#include <vtkPoints.h>

namespace frmini::render::detail {
namespace {

enum class Family { Hex, Quad, Tri, Tet, Wedge, Other };

Family family(int type) {
  switch (type) {
    case VTK_LAGRANGE_HEXAHEDRON: case VTK_BEZIER_HEXAHEDRON: case VTK_QUADRATIC_HEXAHEDRON:
    case VTK_TRIQUADRATIC_HEXAHEDRON: case VTK_BIQUADRATIC_QUADRATIC_HEXAHEDRON:
      return Family::Hex;
    case VTK_LAGRANGE_QUADRILATERAL: case VTK_BEZIER_QUADRILATERAL: case VTK_QUADRATIC_QUAD:
    case VTK_BIQUADRATIC_QUAD: case VTK_QUADRATIC_LINEAR_QUAD:
      return Family::Quad;
    case VTK_LAGRANGE_TRIANGLE: case VTK_BEZIER_TRIANGLE: case VTK_QUADRATIC_TRIANGLE:
    case VTK_BIQUADRATIC_TRIANGLE:
      return Family::Tri;
    case VTK_LAGRANGE_TETRAHEDRON: case VTK_BEZIER_TETRAHEDRON: case VTK_QUADRATIC_TETRA:
      return Family::Tet;
    case VTK_LAGRANGE_WEDGE: case VTK_BEZIER_WEDGE: case VTK_QUADRATIC_WEDGE:
    case VTK_QUADRATIC_LINEAR_WEDGE: case VTK_BIQUADRATIC_QUADRATIC_WEDGE:
      return Family::Wedge;
    default:
      return Family::Other;
  }
}

using P3 = std::array<double, 3>;
P3 mid(const P3& a, const P3& b) { return {(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2}; }
P3 mean(std::initializer_list<P3> ps) {
  P3 m{0, 0, 0};
  for (const auto& p : ps)
    for (int d = 0; d < 3; ++d) m[d] += p[d] / double(ps.size());
  return m;
}

// A triangle (a, b, c) as three quads, in VTK quad order, sharing the centroid.
std::vector<std::array<P3, 4>> tri_quads(const P3& a, const P3& b, const P3& c) {
  const P3 g = mean({a, b, c}), ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
  return {{a, ab, g, ca}, {b, bc, g, ab}, {c, ca, g, bc}};
}

// The sub-cells of one cell type and node count: parametric points, the cell's interpolation
// weights at them, and the linear sub-cells (VTK_QUAD or VTK_HEXAHEDRON) over those points.
struct Template {
  std::vector<double> weights;  // npoints x nnodes
  int nnodes = 0;
  int npoints = 0;
  int subtype = VTK_HEXAHEDRON;
  int nvert = 8;
  std::vector<int> conn;  // nvert per sub-cell
};

Template make_template(vtkGenericCell& cell, Family fam, int level) {
  const double* pc = cell.GetParametricCoords();
  auto corner = [&](int i) { return P3{pc[3 * i], pc[3 * i + 1], pc[3 * i + 2]}; };
  // Pieces as 8 (hex) or 4 (quad) parametric corners in VTK's linear-cell order.
  std::vector<std::array<P3, 8>> hexes;
  std::vector<std::array<P3, 4>> quads;
  int m = level;
  switch (fam) {
    case Family::Hex: {
      std::array<P3, 8> h;
      for (int i = 0; i < 8; ++i) h[i] = corner(i);
      hexes.push_back(h);
      break;
    }
    case Family::Quad:
      quads.push_back({corner(0), corner(1), corner(2), corner(3)});
      break;
    case Family::Tri:
      quads = tri_quads(corner(0), corner(1), corner(2));
      break;
    case Family::Wedge: {
      const auto bottom = tri_quads(corner(0), corner(1), corner(2));
      const auto top = tri_quads(corner(3), corner(4), corner(5));
      for (int q = 0; q < 3; ++q)
        hexes.push_back({bottom[q][0], bottom[q][1], bottom[q][2], bottom[q][3], top[q][0],
                         top[q][1], top[q][2], top[q][3]});
      break;
    }
    case Family::Tet: {
      const P3 v[4] = {corner(0), corner(1), corner(2), corner(3)};
      const P3 g = mean({v[0], v[1], v[2], v[3]});
      // For vertex i with the others j, k, l: the hex between i, its three edge midpoints,
      // its three face centres and the centroid.
      const int others[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
      for (int i = 0; i < 4; ++i) {
        const P3 &a = v[i], &b = v[others[i][0]], &c = v[others[i][1]], &d = v[others[i][2]];
        hexes.push_back({a, mid(a, b), mean({a, b, c}), mid(a, c), mid(a, d), mean({a, b, d}), g,
                         mean({a, c, d})});
      }
      break;
    }
    case Family::Other:
      break;
  }
  m = std::max(m, 1);

  Template t;
  t.nnodes = static_cast<int>(cell.GetNumberOfPoints());
  std::vector<P3> params;
  // Multilinear map of a piece's corners; (a, b, c) in [0, 1]^3.
  auto lerp_hex = [](const std::array<P3, 8>& h, double a, double b, double c) {
    const double w[8] = {(1 - a) * (1 - b) * (1 - c), a * (1 - b) * (1 - c), a * b * (1 - c),
                         (1 - a) * b * (1 - c),       (1 - a) * (1 - b) * c, a * (1 - b) * c,
                         a * b * c,                   (1 - a) * b * c};
    P3 p{0, 0, 0};
    for (int i = 0; i < 8; ++i)
      for (int d = 0; d < 3; ++d) p[d] += w[i] * h[i][d];
    return p;
  };
  const int n1 = m + 1;
  if (!hexes.empty()) {
    for (const auto& h : hexes) {
      const int base = static_cast<int>(params.size());
      for (int k = 0; k < n1; ++k)
        for (int j = 0; j < n1; ++j)
          for (int i = 0; i < n1; ++i)
            params.push_back(lerp_hex(h, double(i) / m, double(j) / m, double(k) / m));
      auto id = [&](int i, int j, int k) { return base + i + n1 * (j + n1 * k); };
      for (int k = 0; k < m; ++k)
        for (int j = 0; j < m; ++j)
          for (int i = 0; i < m; ++i)
            t.conn.insert(t.conn.end(),
                          {id(i, j, k), id(i + 1, j, k), id(i + 1, j + 1, k), id(i, j + 1, k),
                           id(i, j, k + 1), id(i + 1, j, k + 1), id(i + 1, j + 1, k + 1),
                           id(i, j + 1, k + 1)});
    }
  } else {
    t.subtype = VTK_QUAD;
    t.nvert = 4;
    for (const auto& q : quads) {
      const int base = static_cast<int>(params.size());
      const std::array<P3, 8> h{q[0], q[1], q[2], q[3], q[0], q[1], q[2], q[3]};
      for (int j = 0; j < n1; ++j)
        for (int i = 0; i < n1; ++i) params.push_back(lerp_hex(h, double(i) / m, double(j) / m, 0));
      auto id = [&](int i, int j) { return base + i + n1 * j; };
      for (int j = 0; j < m; ++j)
        for (int i = 0; i < m; ++i)
          t.conn.insert(t.conn.end(), {id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  }
  t.npoints = static_cast<int>(params.size());
  t.weights.resize(std::size_t(t.npoints) * t.nnodes);
  for (int q = 0; q < t.npoints; ++q)
    cell.InterpolateFunctions(params[q].data(), &t.weights[std::size_t(q) * t.nnodes]);
  return t;
}

}  // namespace

int cell_order(int cell_type, vtkIdType npts) {
  const auto fam = family(cell_type);
  for (vtkIdType p = 1; p <= 32; ++p) {
    vtkIdType n = 0;
    switch (fam) {
      case Family::Hex: n = (p + 1) * (p + 1) * (p + 1); break;
      case Family::Quad: n = (p + 1) * (p + 1); break;
      case Family::Tri: n = (p + 1) * (p + 2) / 2; break;
      case Family::Tet: n = (p + 1) * (p + 2) * (p + 3) / 6; break;
      case Family::Wedge: n = (p + 1) * (p + 1) * (p + 2) / 2; break;
      case Family::Other: return 1;
    }
    if (n >= npts) return static_cast<int>(p);
  }
  return 2;  // serendipity-like quadratic cells with fewer nodes than the full tensor product
}

vtkSmartPointer<vtkUnstructuredGrid> linear_pieces(vtkDataSet& data, int level,
                                                   const std::vector<vtkDataArray*>& arrays,
                                                   const StraddleFilter* filter) {
  auto out = vtkSmartPointer<vtkUnstructuredGrid>::New();
  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetDataTypeToDouble();
  std::vector<vtkSmartPointer<vtkDoubleArray>> outs;
  for (auto* a : arrays) {
    auto o = vtkSmartPointer<vtkDoubleArray>::New();
    o->SetName(a->GetName());
    o->SetNumberOfComponents(a->GetNumberOfComponents());
    out->GetPointData()->AddArray(o);
    outs.push_back(o);
  }
  out->AllocateEstimate(data.GetNumberOfCells(), 8);

  std::map<std::pair<int, vtkIdType>, Template> templates;
  auto gcell = vtkSmartPointer<vtkGenericCell>::New();
  auto ids = vtkSmartPointer<vtkIdList>::New();
  std::vector<double> nodes, svals, sub;
  std::vector<vtkIdType> local;
  std::vector<vtkIdType> cellpts;

  // The cell's node coordinates, gathered once per cell.
  std::vector<double> xs;
  auto gather = [&](int nn) {
    xs.resize(std::size_t(nn) * 3);
    for (int a = 0; a < nn; ++a) data.GetPoint(ids->GetId(a), &xs[std::size_t(a) * 3]);
  };
  // Adds the point with coordinates/fields given as weights over the cell's nodes.
  auto add_weighted = [&](const double* w, int nn) {
    double x[3] = {0, 0, 0};
    for (int a = 0; a < nn; ++a)
      for (int d = 0; d < 3; ++d) x[d] += w[a] * xs[std::size_t(a) * 3 + d];
    const vtkIdType id = points->InsertNextPoint(x);
    for (std::size_t k = 0; k < arrays.size(); ++k) {
      const int nc = std::min(arrays[k]->GetNumberOfComponents(), 9);
      double v[9] = {0};
      for (int a = 0; a < nn; ++a) {
        if (w[a] == 0) continue;
        for (int c = 0; c < nc; ++c) v[c] += w[a] * arrays[k]->GetComponent(ids->GetId(a), c);
      }
      outs[k]->InsertNextTuple(v);
    }
    return id;
  };
  // Copies node a of the cell unchanged (linear cells).
  auto add_node = [&](int a) {
    const vtkIdType id = points->InsertNextPoint(&xs[std::size_t(a) * 3]);
    for (std::size_t k = 0; k < arrays.size(); ++k)
      outs[k]->InsertNextTuple(arrays[k]->GetTuple(ids->GetId(a)));
    return id;
  };
  auto straddles = [&](const double* vals, const int* corner, int n) {
    double lo = vals[corner[0]], hi = lo;
    for (int i = 1; i < n; ++i) {
      lo = std::min(lo, vals[corner[i]]);
      hi = std::max(hi, vals[corner[i]]);
    }
    return lo <= filter->value && filter->value <= hi;
  };

  for (vtkIdType c = 0; c < data.GetNumberOfCells(); ++c) {
    const int type = data.GetCellType(c);
    data.GetCellPoints(c, ids);
    const int nn = static_cast<int>(ids->GetNumberOfIds());
    const auto fam = family(type);
    if (fam == Family::Other) {
      // Linear (or unknown) cells: copied; VTK's filters treat them natively.
      if (filter) {
        std::vector<double> v(nn);
        std::vector<int> all(nn);
        for (int a = 0; a < nn; ++a) {
          v[a] = filter->scalar->GetComponent(ids->GetId(a), 0);
          all[a] = a;
        }
        if (nn == 0 || !straddles(v.data(), all.data(), nn)) continue;
      }
      gather(nn);
      cellpts.resize(nn);
      for (int a = 0; a < nn; ++a) cellpts[a] = add_node(a);
      out->InsertNextCell(type, nn, cellpts.data());
      continue;
    }
    const auto key = std::make_pair(type, vtkIdType(nn));
    auto it = templates.find(key);
    if (it == templates.end()) {
      data.GetCell(c, gcell);
      const int lv = level > 0 ? level : 2 * cell_order(type, nn);
      it = templates.emplace(key, make_template(*gcell, fam, std::clamp(lv, 1, 16))).first;
    }
    const Template& t = it->second;
    local.assign(t.npoints, -1);
    if (filter) {
      nodes.resize(nn);
      for (int a = 0; a < nn; ++a) nodes[a] = filter->scalar->GetComponent(ids->GetId(a), 0);
      svals.assign(t.npoints, 0.0);
      for (int q = 0; q < t.npoints; ++q) {
        const double* w = &t.weights[std::size_t(q) * nn];
        double s = 0;
        for (int a = 0; a < nn; ++a) s += w[a] * nodes[a];
        svals[q] = s;
      }
    }
    gather(nn);
    const int nsub = static_cast<int>(t.conn.size()) / t.nvert;
    cellpts.resize(t.nvert);
    for (int s = 0; s < nsub; ++s) {
      const int* corner = &t.conn[std::size_t(s) * t.nvert];
      if (filter && !straddles(svals.data(), corner, t.nvert)) continue;
      for (int v = 0; v < t.nvert; ++v) {
        auto& l = local[corner[v]];
        if (l < 0) l = add_weighted(&t.weights[std::size_t(corner[v]) * nn], nn);
        cellpts[v] = l;
      }
      out->InsertNextCell(t.subtype, t.nvert, cellpts.data());
    }
  }
  out->SetPoints(points);
  return out;
}

}  // namespace frmini::render::detail
