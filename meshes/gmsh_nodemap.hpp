// Gmsh element types as frmini sees them: the PyFR type name, the geometric order and the
// permutation from Gmsh's node order to the std_ele lattice - computed from Gmsh's own node
// coordinates (getElementProperties), not from hand-written tables.
#pragma once

#include <cstddef>
#include <functional>
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

// Gmsh 4.8 cannot describe some types it reads (prisms of order 3 and 4: getElementProperties
// throws "FaceClosureFull not implemented"). For those the layout is recovered from the mesh
// itself: the nodes of a straight-sided element, pulled back through the element's vertex map,
// land on the lattice. node_tags holds the elements' nodes ([nelems][nnodes]); coords(tag) gives
// a node's coordinates. Throws UserError if no element of the list is straight enough.
GmshType gmsh_type_from_elements(int gmsh_type_id, const std::vector<std::size_t>& node_tags,
                                 std::size_t nelems,
                                 const std::function<const double*(std::size_t)>& coords,
                                 int ndims, const std::string& source);

}  // namespace frmini::meshes
