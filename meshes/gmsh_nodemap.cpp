#include "meshes/gmsh_nodemap.hpp"

#include <gmsh.h>

#include <cmath>
#include <map>

#include "meshes/element_types.hpp"
#include "operators/error.hpp"

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

GmshType compute(int id, const std::string& source) {
  GmshType t;
  std::vector<double> local;
  gmsh::model::mesh::getElementProperties(id, t.gmsh_name, t.dim, t.order, t.nnodes, local,
                                          t.nprimary);
  static const std::map<std::string, std::string> names = {
      {"Triangle", "tri"}, {"Quadrilateral", "quad"}, {"Tetrahedron", "tet"},
      {"Prism", "pri"},    {"Pyramid", "pyr"},        {"Hexahedron", "hex"}};
  std::string first = t.gmsh_name.substr(0, t.gmsh_name.find(' '));
  auto it = names.find(first);
  if (it == names.end()) {
    if (t.dim <= 1) return t;  // points and lines: boundary data, never elements
    throw UserError(source + ": element type '" + t.gmsh_name + "' (Gmsh type " +
                    std::to_string(id) + ") cannot be used by frmini");
  }
  t.etype = it->second;
  if (t.order < 1 || t.order > 4 || lattice_size(t.etype, t.order) != t.nnodes)
    throw UserError(source + ": element type '" + t.gmsh_name + "' (Gmsh type " +
                    std::to_string(id) +
                    ") cannot be used by frmini (only complete Lagrange elements of order 1-4)");
  auto lat = lattice(t.etype, t.order);
  t.perm.assign(size_t(t.nnodes), -1);
  std::vector<int> used(lat.size(), 0);
  for (int i = 0; i < t.nnodes; ++i) {
    Point3 p = to_pyfr(t.etype, local.data() + size_t(i) * t.dim, t.dim);
    for (size_t j = 0; j < lat.size(); ++j)
      if (std::abs(p[0] - lat[j][0]) + std::abs(p[1] - lat[j][1]) + std::abs(p[2] - lat[j][2]) < 1e-9) {
        t.perm[size_t(i)] = int(j);
        ++used[j];
      }
    if (t.perm[size_t(i)] < 0)
      throw UserError(source + ": element type '" + t.gmsh_name +
                      "' has nodes off the equispaced lattice; frmini cannot use it");
  }
  for (int u : used)
    if (u != 1) throw UserError(source + ": element type '" + t.gmsh_name + "': bad node layout");
  for (const auto& v : shape(t.etype).verts)
    for (int i = 0; i < t.nnodes; ++i)
      if (lat[size_t(t.perm[size_t(i)])] == v) t.vert_local.push_back(i);
  return t;
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
