#include "solver/export/cells.hpp"

#include <vtkCellType.h>
#include <vtkLagrangeHexahedron.h>
#include <vtkLagrangeQuadrilateral.h>
#include <vtkLagrangeTetra.h>
#include <vtkLagrangeTriangle.h>
#include <vtkLagrangeWedge.h>

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>

namespace frmini::solver::exporter {

namespace {

using Ijk = std::array<int, 3>;

// Equispaced lattice points of order k, indexed by their integer coordinates; for the
// pyramid layer l holds (k-l+1)^2 points, x = -1 + (2i + l)/k.
class Lattice {
 public:
  Lattice(std::string etype, int k, int ndims) : etype_(std::move(etype)), k_(k), nd_(ndims) {}

  int add(const Ijk& p) {
    auto [it, fresh] = index_.emplace(p, int(pts_.size()));
    if (fresh) pts_.push_back(coords(p));
    return it->second;
  }
  int at(int i, int j, int l = 0) { return add({i, j, l}); }

  operators::Matrix matrix() const {
    operators::Matrix m(pts_.size(), std::size_t(nd_));
    for (std::size_t r = 0; r < pts_.size(); ++r)
      for (int c = 0; c < nd_; ++c) m(r, std::size_t(c)) = pts_[r][std::size_t(c)];
    return m;
  }
  const std::array<double, 3>& point(int n) const { return pts_[std::size_t(n)]; }

 private:
  std::array<double, 3> coords(const Ijk& p) const {
    const double k = k_;
    if (etype_ == "pyr")
      return {-1 + (2 * p[0] + p[2]) / k, -1 + (2 * p[1] + p[2]) / k, -1 + 2 * p[2] / k};
    return {-1 + 2 * p[0] / k, -1 + 2 * p[1] / k, -1 + 2 * p[2] / k};
  }
  std::string etype_;
  int k_, nd_;
  std::map<Ijk, int> index_;
  std::vector<std::array<double, 3>> pts_;
};

void add_cell(CellSet& c, int type, std::vector<int> ids) {
  c.types.push_back(type);
  c.conn.push_back(std::move(ids));
}

// A tet with VTK's orientation (positive volume).
void add_tet(CellSet& c, Lattice& L, std::vector<int> ids) {
  auto d = [&](int a, int b) {
    std::array<double, 3> r;
    for (int q = 0; q < 3; ++q) r[std::size_t(q)] = L.point(b)[std::size_t(q)] - L.point(a)[std::size_t(q)];
    return r;
  };
  auto u = d(ids[0], ids[1]), v = d(ids[0], ids[2]), w = d(ids[0], ids[3]);
  const double det = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
                     u[2] * (v[0] * w[1] - v[1] * w[0]);
  if (det < 0) std::swap(ids[1], ids[2]);
  add_cell(c, VTK_TETRA, std::move(ids));
}

void tri_subcells(CellSet& c, Lattice& L, int k, int layer, std::vector<std::array<int, 3>>* out) {
  for (int j = 0; j < k; ++j)
    for (int i = 0; i + j < k; ++i) {
      std::array<int, 3> a{L.at(i, j, layer), L.at(i + 1, j, layer), L.at(i, j + 1, layer)};
      if (out) out->push_back(a);
      else add_cell(c, VTK_TRIANGLE, {a[0], a[1], a[2]});
      if (i + j + 2 <= k) {
        std::array<int, 3> b{L.at(i + 1, j, layer), L.at(i + 1, j + 1, layer), L.at(i, j + 1, layer)};
        if (out) out->push_back(b);
        else add_cell(c, VTK_TRIANGLE, {b[0], b[1], b[2]});
      }
    }
}

// A tet lattice of k per edge: at each lattice point an upright tet, the octahedron above it
// (4 tets around one diagonal) and the inverted tet above that: k^3 tets' volume in all.
void tet_subcells(CellSet& c, Lattice& L, int k) {
  for (int l = 0; l < k; ++l)
    for (int j = 0; j + l < k; ++j)
      for (int i = 0; i + j + l < k; ++i) {
        const int s = i + j + l;
        add_tet(c, L, {L.at(i, j, l), L.at(i + 1, j, l), L.at(i, j + 1, l), L.at(i, j, l + 1)});
        if (s + 2 <= k) {
          const int a = L.at(i + 1, j, l), b = L.at(i, j + 1, l + 1);  // the diagonal
          const int ring[4] = {L.at(i, j + 1, l), L.at(i + 1, j + 1, l), L.at(i + 1, j, l + 1),
                               L.at(i, j, l + 1)};
          for (int m = 0; m < 4; ++m) add_tet(c, L, {a, b, ring[m], ring[(m + 1) % 4]});
        }
        if (s + 3 <= k)
          add_tet(c, L, {L.at(i + 1, j + 1, l), L.at(i + 1, j, l + 1), L.at(i, j + 1, l + 1),
                         L.at(i + 1, j + 1, l + 1)});
      }
}

// A pyramid lattice of k per edge: upright pyramids on every base square of each layer,
// inverted ones under every square of the layer above, and tets in the gaps between them.
void pyr_subcells(CellSet& c, Lattice& L, int k) {
  for (int l = 0; l < k; ++l) {
    const int n = k - l;  // squares per side in this layer
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        add_cell(c, VTK_PYRAMID, {L.at(i, j, l), L.at(i + 1, j, l), L.at(i + 1, j + 1, l),
                                  L.at(i, j + 1, l), L.at(i, j, l + 1)});
    for (int j = 0; j + 1 < n; ++j)
      for (int i = 0; i + 1 < n; ++i)  // base seen from below: clockwise from above
        add_cell(c, VTK_PYRAMID, {L.at(i, j, l + 1), L.at(i, j + 1, l + 1),
                                  L.at(i + 1, j + 1, l + 1), L.at(i + 1, j, l + 1),
                                  L.at(i + 1, j + 1, l)});
    for (int j = 0; j < n; ++j)
      for (int i = 0; i + 1 < n; ++i)
        add_tet(c, L, {L.at(i + 1, j, l), L.at(i + 1, j + 1, l), L.at(i, j, l + 1),
                       L.at(i + 1, j, l + 1)});
    for (int j = 0; j + 1 < n; ++j)
      for (int i = 0; i < n; ++i)
        add_tet(c, L, {L.at(i, j + 1, l), L.at(i + 1, j + 1, l), L.at(i, j, l + 1),
                       L.at(i, j + 1, l + 1)});
  }
}

}  // namespace

CellSet element_cells(const std::string& etype, int k, bool linear) {
  if (k < 1) throw std::invalid_argument("element_cells: order must be >= 1");
  const int nd = (etype == "quad" || etype == "tri") ? 2 : 3;
  Lattice L(etype, k, nd);
  CellSet c;
  if (etype == "pyr") {
    pyr_subcells(c, L, k);
  } else if (!linear) {
    // One Lagrange cell: lattice point (i, j, l) goes where VTK numbers it.
    std::vector<std::pair<int, Ijk>> order;
    const int q2[2] = {k, k}, q3[3] = {k, k, k};
    if (etype == "quad") {
      for (int j = 0; j <= k; ++j)
        for (int i = 0; i <= k; ++i)
          order.push_back({vtkLagrangeQuadrilateral::PointIndexFromIJK(i, j, q2), {i, j, 0}});
    } else if (etype == "hex") {
      for (int l = 0; l <= k; ++l)
        for (int j = 0; j <= k; ++j)
          for (int i = 0; i <= k; ++i)
            order.push_back({vtkLagrangeHexahedron::PointIndexFromIJK(i, j, l, q3), {i, j, l}});
    } else if (etype == "tri") {
      for (int j = 0; j <= k; ++j)
        for (int i = 0; i + j <= k; ++i) {
          const vtkIdType b[3] = {i, j, k - i - j};  // VTK's barycentric index: (r, s, rest)
          order.push_back({int(vtkLagrangeTriangle::Index(b, k)), {i, j, 0}});
        }
    } else if (etype == "tet") {
      for (int l = 0; l <= k; ++l)
        for (int j = 0; j + l <= k; ++j)
          for (int i = 0; i + j + l <= k; ++i) {
            const vtkIdType b[4] = {i, j, l, k - i - j - l};
            order.push_back({int(vtkLagrangeTetra::Index(b, k)), {i, j, l}});
          }
    } else if (etype == "pri") {
      const int npts = (k + 1) * (k + 1) * (k + 2) / 2;
      const int qw[4] = {k, k, k, npts};
      for (int l = 0; l <= k; ++l)
        for (int j = 0; j <= k; ++j)
          for (int i = 0; i + j <= k; ++i)
            order.push_back({vtkLagrangeWedge::PointIndexFromIJK(i, j, l, qw), {i, j, l}});
    } else {
      throw std::invalid_argument("element_cells: unknown element type " + etype);
    }
    std::sort(order.begin(), order.end());
    std::vector<int> ids;
    for (std::size_t n = 0; n < order.size(); ++n) {
      if (order[n].first != int(n)) throw std::logic_error("element_cells: VTK order has gaps");
      ids.push_back(L.add(order[n].second));
    }
    const int type = etype == "quad"  ? VTK_LAGRANGE_QUADRILATERAL
                     : etype == "hex" ? VTK_LAGRANGE_HEXAHEDRON
                     : etype == "tri" ? VTK_LAGRANGE_TRIANGLE
                     : etype == "tet" ? VTK_LAGRANGE_TETRAHEDRON
                                      : VTK_LAGRANGE_WEDGE;
    add_cell(c, type, ids);
  } else if (etype == "quad") {
    for (int j = 0; j < k; ++j)
      for (int i = 0; i < k; ++i)
        add_cell(c, VTK_QUAD, {L.at(i, j), L.at(i + 1, j), L.at(i + 1, j + 1), L.at(i, j + 1)});
  } else if (etype == "hex") {
    for (int l = 0; l < k; ++l)
      for (int j = 0; j < k; ++j)
        for (int i = 0; i < k; ++i)
          add_cell(c, VTK_HEXAHEDRON,
                   {L.at(i, j, l), L.at(i + 1, j, l), L.at(i + 1, j + 1, l), L.at(i, j + 1, l),
                    L.at(i, j, l + 1), L.at(i + 1, j, l + 1), L.at(i + 1, j + 1, l + 1),
                    L.at(i, j + 1, l + 1)});
  } else if (etype == "tri") {
    tri_subcells(c, L, k, 0, nullptr);
  } else if (etype == "tet") {
    tet_subcells(c, L, k);
  } else if (etype == "pri") {
    for (int l = 0; l < k; ++l) {
      std::vector<std::array<int, 3>> lo, hi;
      tri_subcells(c, L, k, l, &lo);
      tri_subcells(c, L, k, l + 1, &hi);
      for (std::size_t t = 0; t < lo.size(); ++t)
        add_cell(c, VTK_WEDGE, {lo[t][0], lo[t][1], lo[t][2], hi[t][0], hi[t][1], hi[t][2]});
    }
  } else {
    throw std::invalid_argument("element_cells: unknown element type " + etype);
  }
  c.pts = L.matrix();
  return c;
}

CellSet face_cells(const std::string& kind, int k) {
  if (k < 1) throw std::invalid_argument("face_cells: order must be >= 1");
  CellSet c;
  if (kind == "line") {
    Lattice L("line", k, 1);
    std::vector<int> ids;
    for (int i = 0; i <= k; ++i) ids.push_back(L.at(i, 0));
    add_cell(c, VTK_POLY_LINE, ids);
    c.pts = L.matrix();
  } else {
    c = element_cells(kind, k, true);
  }
  return c;
}

}  // namespace frmini::solver::exporter
