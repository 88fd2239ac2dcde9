// The frmini mesh file (HDF5; layout in docs/file-formats.md). Writing goes through a
// temporary file and a rename, so an existing file is never left half-written.
#pragma once

#include <string>

#include "meshes/mesh.hpp"

namespace frmini::meshes {

inline constexpr int mesh_file_version = 1;

void write_mesh(const std::string& path, const Mesh& m);
// Throws UserError naming the file for anything that is not a valid frmini mesh file.
Mesh read_mesh(const std::string& path);

}  // namespace frmini::meshes
