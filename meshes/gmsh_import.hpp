// Reading Gmsh .msh files (MSH 2.2 and 4.1, ASCII and binary) through the Gmsh SDK into a
// RawMesh: std_ele node order, named boundaries, periodic information. Face matching and checks
// happen afterwards in build_mesh (meshes/connectivity.hpp).
#pragma once

#include <string>

#include "meshes/connectivity.hpp"

namespace frmini::meshes {

RawMesh read_gmsh(const std::string& path);

}  // namespace frmini::meshes
