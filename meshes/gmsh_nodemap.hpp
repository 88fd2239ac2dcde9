// Gmsh element types as frmini sees them: the PyFR type name, the geometric order and the
// permutation from Gmsh's node order to the std_ele lattice - computed from Gmsh's own node
// coordinates (getElementProperties), not from hand-written tables.
#pragma once

#include <string>
#include <vector>

namespace frmini::meshes {

struct GmshType {
  std::string etype;      // tri quad tet pri pyr hex, or "" for a lower-dimensional/unused type
  std::string gmsh_name;  // e.g. "Hexahedron 27"
  int dim = 0, order = 0, nnodes = 0, nprimary = 0;
  std::vector<int> perm;  // perm[gmsh local node] = std_ele lattice index
  std::vector<int> vert_local;  // Gmsh local node of each PyFR vertex
};

// Throws UserError naming `source` for element types frmini cannot use (serendipity elements,
// orders above 4, polygons...). Requires an initialised Gmsh session.
GmshType gmsh_type(int gmsh_type_id, const std::string& source);

}  // namespace frmini::meshes
