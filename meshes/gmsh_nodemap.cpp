#include "meshes/gmsh_nodemap.hpp"

#include <gmsh.h>

#include <cmath>
#include <map>

#include "base/error.hpp"
#include "meshes/element_types.hpp"
#include "meshes/lagrange.hpp"

namespace frmini::meshes {

namespace {

// Gmsh's reference elements to PyFR's: Gmsh simplices live on [0,1] (xi = 2u - 1), the prism
// is the [0,1] triangle times [-1,1], the pyramid has its base at w = 0 (zeta = 2w - 1); quads
// and hexes are already [-1,1]^d.
Point3 to_pyfr(const std::string& etype, const double* u, int dim) {
  Point3 p{0, 0, 0};
  for (int d = 0; d < dim; ++d) p[d] = u[d];
  if (etype == "tri" || etype == "tet") {
    for (int d = 0; d < dim; ++d) p[d] = 2 * u[d] - 1;
  } else if (etype == "pri") {
    p[0] = 2 * u[0] - 1;
    p[1] = 2 * u[1] - 1;
  } else if (etype == "pyr") {
    p[2] = 2 * u[2] - 1;
  }
  return p;
}

const std::map<std::string, std::string>& family_names() {
  static const std::map<std::string, std::string> names = {
      {"Triangle", "tri"}, {"Quadrilateral", "quad"}, {"Tetrahedron", "tet"},
      {"Prism", "pri"},    {"Pyramid", "pyr"},        {"Hexahedron", "hex"}};
  return names;
}

// Fills perm and vert_local from the nodes' positions on PyFR's reference element.
void finish(GmshType& t, const std::vector<Point3>& ref, const std::string& source) {
  auto lat = lattice(t.etype, t.order);
  t.perm.assign(size_t(t.nnodes), -1);
  std::vector<int> used(lat.size(), 0);
  for (int i = 0; i < t.nnodes; ++i) {
    const Point3& p = ref[size_t(i)];
    for (size_t j = 0; j < lat.size(); ++j)
      if (std::abs(p[0] - lat[j][0]) + std::abs(p[1] - lat[j][1]) + std::abs(p[2] - lat[j][2]) < 1e-6) {
        t.perm[size_t(i)] = int(j);
        ++used[j];
      }
    if (t.perm[size_t(i)] < 0)
      throw UserError(source + ": element type '" + t.gmsh_name +
                      "' has nodes off the equispaced lattice; frmini cannot use it");
  }
  for (int u : used)
    if (u != 1) throw UserError(source + ": element type '" + t.gmsh_name + "': bad node layout");
  t.vert_local.clear();
  for (const auto& v : shape(t.etype).verts)
    for (int i = 0; i < t.nnodes; ++i)
      if (lat[size_t(t.perm[size_t(i)])] == v) t.vert_local.push_back(i);
}

GmshType compute(int id, const std::string& source) {
  GmshType t;
  std::vector<double> local;
  gmsh::model::mesh::getElementProperties(id, t.gmsh_name, t.dim, t.order, t.nnodes, local,
                                          t.nprimary);
  std::string first = t.gmsh_name.substr(0, t.gmsh_name.find(' '));
  auto it = family_names().find(first);
  if (it == family_names().end()) {
    if (t.dim <= 1) return t;  // points and lines: boundary data, never elements
    throw UserError(source + ": element type '" + t.gmsh_name + "' (Gmsh type " +
                    std::to_string(id) + ") cannot be used by frmini");
  }
  t.etype = it->second;
  if (t.order < 1 || t.order > 4 || lattice_size(t.etype, t.order) != t.nnodes)
    throw UserError(source + ": element type '" + t.gmsh_name + "' (Gmsh type " +
                    std::to_string(id) +
                    ") cannot be used by frmini (only complete Lagrange elements of order 1-4)");
  std::vector<Point3> ref;
  for (int i = 0; i < t.nnodes; ++i) ref.push_back(to_pyfr(t.etype, local.data() + size_t(i) * t.dim, t.dim));
  finish(t, ref, source);
  return t;
}

// Solves X(xi) = x for the vertex (order-1) map of one element by Newton's method.
bool pull_back(const LagrangeBasis& lin, const std::vector<double>& verts, int d, const double* x,
               Point3& xi) {
  const int nv = lin.nnodes();
  xi = {0, 0, 0};
  for (const auto& v : lin.nodes())
    for (int c = 0; c < d; ++c) xi[c] += v[c] / nv;
  for (int it = 0; it < 30; ++it) {
    auto val = lin.values({xi});
    auto grad = lin.gradients({xi});
    double r[3] = {0, 0, 0}, j[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (int c = 0; c < d; ++c) {
      r[c] = -x[c];
      for (int n = 0; n < nv; ++n) {
        r[c] += val[size_t(n)] * verts[size_t(n) * d + c];
        for (int k = 0; k < d; ++k) j[c * d + k] += grad[size_t(k) * nv + n] * verts[size_t(n) * d + c];
      }
    }
    // Solve J dxi = r (d = 2 or 3) by Cramer's rule.
    double det = d == 2 ? j[0] * j[3] - j[1] * j[2]
                        : j[0] * (j[4] * j[8] - j[5] * j[7]) - j[1] * (j[3] * j[8] - j[5] * j[6]) +
                              j[2] * (j[3] * j[7] - j[4] * j[6]);
    if (std::abs(det) < 1e-300) return false;
    double dx[3] = {0, 0, 0};
    for (int k = 0; k < d; ++k) {
      double m[9];
      std::copy(j, j + 9, m);
      for (int c = 0; c < d; ++c) m[c * d + k] = r[c];
      double dk = d == 2 ? m[0] * m[3] - m[1] * m[2]
                         : m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
                               m[2] * (m[3] * m[7] - m[4] * m[6]);
      dx[k] = dk / det;
    }
    double step = 0;
    for (int k = 0; k < d; ++k) {
      xi[k] -= dx[k];
      step = std::max(step, std::abs(dx[k]));
    }
    if (step < 1e-13) return true;
  }
  return false;
}

}  // namespace

GmshType gmsh_type(int id, const std::string& source) {
  // getElementProperties is cheap but called per entity and type: cache per process.
  static std::map<int, GmshType> cache;
  auto it = cache.find(id);
  if (it != cache.end()) return it->second;
  GmshType t = compute(id, source);
  cache[id] = t;
  return t;
}

}  // namespace frmini::meshes

namespace frmini::meshes {

GmshType gmsh_type_from_elements(int id, const std::vector<std::size_t>& node_tags, std::size_t nelems,
                                 const std::function<const double*(std::size_t)>& coords, int ndims,
                                 const std::string& source) {
  GmshType t;
  for (const auto& [family, etype] : family_names())
    for (int order = 1; order <= 4 && t.etype.empty(); ++order)
      if (gmsh::model::mesh::getElementType(family, order, false) == id) {
        t.etype = etype;
        t.order = order;
        t.gmsh_name = family + " (order " + std::to_string(order) + ")";
      }
  if (t.etype.empty() || nelems == 0)
    throw UserError(source + ": Gmsh type " + std::to_string(id) + " cannot be used by frmini");
  t.dim = shape(t.etype).ndims;
  t.nnodes = int(node_tags.size() / nelems);
  if (t.dim != ndims || lattice_size(t.etype, t.order) != t.nnodes)
    throw UserError(source + ": element type '" + t.gmsh_name + "' cannot be used by frmini");
  // Gmsh lists an element's vertices first; where they sit on PyFR's reference element
  // follows from the order-1 type, which Gmsh can describe.
  GmshType lin_t = gmsh_type(gmsh::model::mesh::getElementType(
                                 t.gmsh_name.substr(0, t.gmsh_name.find(' ')), 1, false),
                             source);
  t.nprimary = lin_t.nnodes;
  LagrangeBasis lin(t.etype, 1);
  const int d = t.dim, nv = lin.nnodes();
  for (std::size_t e = 0; e < nelems; ++e) {
    const std::size_t* en = node_tags.data() + e * size_t(t.nnodes);
    std::vector<double> verts(size_t(nv) * d);
    for (int i = 0; i < nv; ++i)  // lin's node order = PyFR vertex order = lattice order 1
      for (int c = 0; c < d; ++c) verts[size_t(lin_t.perm[size_t(i)]) * d + c] = coords(en[i])[c];
    std::vector<Point3> ref(size_t(t.nnodes));
    bool ok = true;
    for (int i = 0; i < t.nnodes && ok; ++i) ok = pull_back(lin, verts, d, coords(en[i]), ref[size_t(i)]);
    if (!ok) continue;
    try {
      finish(t, ref, source);
      return t;
    } catch (const UserError&) {
      // a curved element: try the next one
    }
  }
  throw UserError(source + ": cannot work out Gmsh's node order for '" + t.gmsh_name +
                  "' (Gmsh cannot describe it and no element is straight-sided)");
}

}  // namespace frmini::meshes
