#include <gmsh.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "base/error.hpp"
#include "meshes/gen_internal.hpp"
#include "meshes/gmsh_session.hpp"

namespace frmini::meshes {

void generate_mesh(const GeneratorOptions& o) {
  const auto& list = generator_list();
  if (std::none_of(list.begin(), list.end(), [&](const GeneratorInfo& g) { return g.name == o.name; }))
    throw UserError("mesh: unknown mesh '" + o.name + "' (see frmini mesh --help)");
  if (o.msh_version != "4.1" && o.msh_version != "2.2")
    throw UserError("mesh: --msh-version must be 4.1 or 2.2");
  if (o.order < 0 || o.order > 4) throw UserError("mesh: --order must be between 1 and 4");
  GmshSession session;
  namespace fs = std::filesystem;
  // Gmsh picks the output format from the extension, so the temporary name keeps ".msh".
  fs::path tmp = o.out + ".tmp-" + std::to_string(::getpid()) + ".msh";
  try {
    gmsh_guarded("mesh " + o.name, [&] {
      gmsh::model::add(o.name);
      if (o.name.rfind("box-", 0) == 0) gen::build_box(o);
      else gen::build_cylinder(o, o.name == "cylinder3d");
      gmsh::option::setNumber("Mesh.MshFileVersion", o.msh_version == "2.2" ? 2.2 : 4.1);
      gmsh::option::setNumber("Mesh.Binary", o.binary ? 1 : 0);
      gmsh::option::setNumber("Mesh.SaveAll", 0);
      gmsh::write(tmp.string());
    });
    std::error_code ec;
    if (!fs::exists(tmp, ec)) throw UserError(o.out + ": Gmsh wrote nothing");
    fs::rename(tmp, o.out, ec);
    if (ec) throw UserError(o.out + ": cannot write: " + ec.message());
  } catch (...) {
    std::error_code ec;
    fs::remove(tmp, ec);
    throw;
  }
}

}  // namespace frmini::meshes
