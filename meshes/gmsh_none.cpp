// Built without the Gmsh SDK: importing and generating meshes are unavailable; reading,
// partitioning and inspecting frmini mesh files still work.
#include "base/error.hpp"
#include "meshes/generators.hpp"
#include "meshes/gmsh_import.hpp"

namespace frmini::meshes {

RawMesh read_gmsh(const std::string&) { throw NotBuiltError("Gmsh", "import"); }

void generate_mesh(const GeneratorOptions&) { throw NotBuiltError("Gmsh", "mesh"); }

}  // namespace frmini::meshes
