// frmini import in.msh out.h5: a Gmsh mesh (through the Gmsh SDK) to a frmini mesh file.
#include <filesystem>
#include <iostream>

#include "base/error.hpp"
#include "meshes/connectivity.hpp"
#include "meshes/gmsh_import.hpp"
#include "meshes/mesh_file.hpp"
#include "solver/cli/args.hpp"
#include "solver/cli/commands.hpp"

namespace frmini::cli {

namespace {

int run_import(const std::vector<std::string>& argv) {
  ArgParser p("import", "Convert a Gmsh mesh (MSH 2.2 or 4.1, ASCII or binary) to a frmini mesh file.");
  p.positional("in.msh", "the Gmsh mesh")
      .positional("out.h5", "the frmini mesh file to write")
      .epilog(
          "Physical groups of the top dimension are the fluid; lower-dimensional physical names\n"
          "become boundary names (lower-cased, unique). Periodic faces come from the file's\n"
          "periodic entities or from boundary pairs named periodic_<id>_l / periodic_<id>_r.\n"
          "Every element face must match a neighbour, a named boundary or a periodic partner.\n"
          "See docs/meshes.md and docs/file-formats.md.");
  Args a = p.parse(argv);
  std::error_code ec;
  if (std::filesystem::equivalent(a.get("in.msh"), a.get("out.h5"), ec))
    throw UserError("import: the output " + a.get("out.h5") + " is the input file");
  meshes::Mesh m = meshes::build_mesh(meshes::read_gmsh(a.get("in.msh")));
  meshes::write_mesh(a.get("out.h5"), m);
  auto fc = meshes::count_faces(m);
  std::cout << a.get("out.h5") << ":";
  for (const auto& g : m.groups) std::cout << " " << g.neles << " " << g.etype << " (order " << g.order << ")";
  std::cout << "; " << fc.internal << " internal, " << fc.periodic << " periodic face pairs;";
  for (size_t b = 0; b < m.boundaries.size(); ++b)
    std::cout << " " << m.boundaries[b] << " " << fc.boundary[b];
  std::cout << "; uuid " << m.uuid << "\n";
  return 0;
}

}  // namespace

FRMINI_COMMAND("import", "convert a Gmsh .msh file to a frmini mesh .h5", run_import, 10);

}  // namespace frmini::cli
