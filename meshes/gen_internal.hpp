// Shared by the generator files: each builds and meshes its model in the current Gmsh session.
#pragma once

#include "meshes/generators.hpp"

namespace frmini::meshes::gen {

void build_box(const GeneratorOptions& o);
void build_cylinder(const GeneratorOptions& o, bool three_d);

}  // namespace frmini::meshes::gen
