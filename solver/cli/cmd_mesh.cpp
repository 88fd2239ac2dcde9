// frmini mesh NAME --out file.msh: the built-in generators (cylinders, periodic boxes).
#include <iostream>

#include "base/error.hpp"
#include "meshes/generators.hpp"
#include "solver/cli/args.hpp"
#include "solver/cli/commands.hpp"

namespace frmini::cli {

namespace {

int run_mesh(const std::vector<std::string>& argv) {
  std::string names = "meshes:\n";
  for (const auto& g : meshes::generator_list()) {
    names += "  " + g.name;
    for (size_t i = g.name.size(); i < 14; ++i) names += ' ';
    names += g.summary + "\n";
  }
  names +=
      "\nExamples:\n"
      "  frmini mesh cylinder3d --out cyl.msh                  # ~42k curved hexes\n"
      "  frmini mesh cylinder3d --out small.msh --scale 0.25   # a quick small version\n"
      "  frmini mesh box-hex --out box.msh --n 8 --length 6.283185307179586\n"
      "The .geo recipes in configs/meshes/ build the same geometries with the gmsh binary.";
  ArgParser p("mesh", "Generate a built-in mesh as a Gmsh .msh file (import it with frmini import).");
  p.positional("NAME", "which mesh (see below)")
      .option("out", "FILE.msh", "output file (required)")
      .option("order", "K", "geometric order 1-4 (default: 2 for cylinders, 1 for boxes)")
      .option("n", "N[,N,N]", "boxes: cells per direction", "4")
      .option("length", "L[,L,L]", "boxes: extent per direction (the box is [0, L])", "1")
      .option("ncirc", "N", "cylinders: cells around the wall, a multiple of 4 (default: 64 x scale)")
      .option("nradial", "N", "cylinders: cells across the O-grid (default: 20 x scale)")
      .option("nspan", "N", "cylinder3d: spanwise layers (default: 10 x scale)")
      .option("scale", "S", "cylinders: multiply every default cell count by S", "1")
      .option("upstream", "L", "cylinders: inflow boundary at x = -L diameters (default: 9)")
      .option("downstream", "L", "cylinders: outflow boundary at x = L diameters (default: 25)")
      .option("half-height", "H", "cylinders: side boundaries at y = +-H diameters (default: 9); "
              "cell counts follow the lengths, keeping the cell sizes near the wall and the growth ratios")
      .option("wall-cell", "H", "cylinders: the first cell's radial height at the wall in diameters, on the "
              "axes (default: cells square at the wall on the diagonals, 0.0303 at 64 cells around)")
      .flag("mixed", "cylinder2d: triangles in the far field (quads stay around the wall)")
      .option("msh-version", "V", "MSH format written: 4.1 or 2.2", "4.1")
      .flag("binary", "write binary MSH")
      .epilog(names);
  Args a = p.parse(argv);
  meshes::GeneratorOptions o;
  o.name = a.get("NAME");
  o.out = a.get("out");
  if (o.out.empty()) throw UserError("mesh: --out FILE.msh is required");
  o.order = a.given("order") ? int(a.get_int("order", 1, 4)) : 0;
  o.n = a.get_int_list("n", 1, 1000);
  for (const auto& s : a.get_list("length")) {
    try {
      size_t pos = 0;
      o.length.push_back(std::stod(s, &pos));
      if (pos != s.size()) throw std::invalid_argument(s);
    } catch (const std::exception&) {
      throw UserError("mesh: --length: '" + s + "' is not a number");
    }
  }
  // Options whose default is computed: absent = 0 = the generator's default.
  auto count = [&](const char* k) { return a.given(k) ? int(a.get_int(k, 1, 4096)) : 0; };
  auto length = [&](const char* k) { return a.given(k) ? a.get_double(k) : 0.0; };
  o.ncirc = count("ncirc");
  o.nradial = count("nradial");
  o.nspan = count("nspan");
  o.upstream = length("upstream");
  o.downstream = length("downstream");
  o.half_height = length("half-height");
  o.wall_cell = length("wall-cell");
  o.scale = a.get_double("scale");
  o.mixed = a.flag("mixed");
  o.msh_version = a.get("msh-version");
  o.binary = a.flag("binary");
  meshes::generate_mesh(o);
  std::cout << o.out << ": " << o.name << " written (MSH " << o.msh_version
            << (o.binary ? " binary" : "") << ")\n";
  return 0;
}

}  // namespace

FRMINI_COMMAND("mesh", "generate a built-in mesh (cylinders, periodic boxes) as .msh", run_mesh, 9);

}  // namespace frmini::cli
