// The generator names and summaries: kept apart from the Gmsh code so that `frmini mesh --help`
// lists them in builds without Gmsh too.
#include "meshes/generators.hpp"

namespace frmini::meshes {

const std::vector<GeneratorInfo>& generator_list() {
  static const std::vector<GeneratorInfo> list = {
      {"cylinder2d", "quads around a curved cylinder wall (D = 1 at the origin) in "
                     "[-9,25]x[-9,9] (--upstream, --downstream, --half-height); --mixed: triangles "
                     "in the far field; boundaries "
                     "'cylinder', 'farfield'; order 2"},
      {"cylinder3d", "the Re 3900 mesh: cylinder2d's quads extruded to hexes over z in [0, pi], "
                     "spanwise periodic (periodic_span_l/_r); boundaries 'cylinder', "
                     "'farfield'; order 2; about 42,000 hexes"},
      {"box-quad", "fully periodic box of quads, n[0] x n[1]"},
      {"box-tri", "fully periodic box of triangles, 2 per quad cell"},
      {"box-hex", "fully periodic box of hexes"},
      {"box-tet", "fully periodic box of tets, 6 per hex cell"},
      {"box-pri", "fully periodic box of prisms, 2 per hex cell"},
      {"box-mixed3d", "fully periodic box in four z layers: prisms, tets (with pyramids next to "
                      "the hexes), hexes, tets"},
  };
  return list;
}

}  // namespace frmini::meshes
