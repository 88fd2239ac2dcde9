// The checks frmini makes on a .msh file before Gmsh reads it. Gmsh's readers take a file's
// structure on trust (tests/fuzz/fuzz_gmsh found crashes, out-of-bounds writes and absurd
// allocations inside them), so everything they would take on trust and fail on badly is checked
// here first, with one clear message naming the file.
#pragma once

#include <ios>
#include <string>

namespace frmini::meshes {

// Throws UserError (naming `path`) for a file that is not a complete MSH 2.2 or 4.1 file or
// whose structure Gmsh would mis-read. Returns the number of bytes of blank lines before the
// $MeshFormat header (PyFR accepts them, Gmsh does not).
std::streamoff check_gmsh_envelope(const std::string& path);

}  // namespace frmini::meshes
