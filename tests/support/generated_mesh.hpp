// Test support: the built-in generators' small meshes (scale 0.25; the mixed box 2 x 2 x 4),
// each made once per test process and kept: Catch runs a test case again for every section,
// and Gmsh's pyramid relocation asserts when the same tet/pyramid mesh is made twice in one
// process.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <unistd.h>
#include <utility>

#include "meshes/connectivity.hpp"
#include "meshes/generators.hpp"
#include "meshes/gmsh_import.hpp"
#include "meshes/mesh.hpp"

namespace frmini::test {

inline const meshes::Mesh& generated_mesh(const std::string& name, bool mixed) {
  static std::map<std::pair<std::string, bool>, meshes::Mesh> made;
  auto it = made.find({name, mixed});
  if (it != made.end()) return it->second;
  auto dir = std::filesystem::temp_directory_path() / ("frmini-gen-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  meshes::GeneratorOptions g;
  g.name = name;
  g.out = (dir / (name + (mixed ? "-mixed" : "") + ".msh")).string();
  g.mixed = mixed;
  g.scale = 0.25;
  if (name == "box-mixed3d") g.n = {2, 2, 4};
  meshes::generate_mesh(g);
  auto m = meshes::build_mesh(meshes::read_gmsh(g.out));
  std::filesystem::remove_all(dir);
  return made.emplace(std::make_pair(name, mixed), std::move(m)).first->second;
}

}  // namespace frmini::test
