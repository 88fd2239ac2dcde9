// Built-in mesh generators (through the Gmsh SDK): the 2D and 3D cylinder meshes of the
// Re 3900 case and fully periodic boxes for convergence tests. Each writes a Gmsh .msh file
// that `frmini import` reads like any user's file.
#pragma once

#include <string>
#include <vector>

namespace frmini::meshes {

struct GeneratorOptions {
  std::string name;
  std::string out;
  int order = 0;                  // geometric order; 0 = the generator's default
  std::string msh_version = "4.1";
  bool binary = false;
  // Boxes: cells per direction and extents (one value applies to every direction).
  std::vector<long> n;
  std::vector<double> length;
  // Cylinders: cells around the cylinder, radially in the O-grid, spanwise; overall scale of
  // every count (0.25 gives a mesh about 64x smaller in 3D); far field of triangles (2D).
  int ncirc = 0, nradial = 0, nspan = 0;
  double scale = 1.0;
  bool mixed = false;
  // Cylinders: the domain, in diameters from the axis: inflow at x = -upstream, outflow at
  // x = downstream, sides at y = +-half_height (0: 9, 25, 9). The cell counts beyond the O-grid
  // follow the lengths, so the cell sizes near the cylinder and the growth ratios stay.
  double upstream = 0, downstream = 0, half_height = 0;
  // Cylinders: the O-grid's first cell at the wall, its radial height in diameters where the
  // grid lines run along the axes (at 0, 90, 180 and 270 degrees; 1.62 times that on the
  // diagonals). 0: cells square at the wall on the diagonals, pi/ncirc x 0.62.
  double wall_cell = 0;
};

struct GeneratorInfo {
  std::string name, summary;
};
const std::vector<GeneratorInfo>& generator_list();

// Generates options.name into options.out (written to a temporary name, then renamed).
// Throws UserError for bad options, NotBuiltError without Gmsh.
void generate_mesh(const GeneratorOptions& options);

}  // namespace frmini::meshes
