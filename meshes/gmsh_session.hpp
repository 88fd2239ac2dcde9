// Gmsh as a library: one initialised, silent session at a time, and Gmsh's errors (4.8 throws
// std::string, newer versions std::exception) turned into UserErrors that name the file.
#pragma once

#include <functional>
#include <string>

namespace frmini::meshes {

class GmshSession {
 public:
  GmshSession();   // gmsh::initialize without config files; terminal output off
  ~GmshSession();  // gmsh::finalize
  GmshSession(const GmshSession&) = delete;
  GmshSession& operator=(const GmshSession&) = delete;

 private:
  int omp_threads_;  // restored on finalize: Gmsh resets OpenMP's thread count
};

// Runs f; any Gmsh error becomes UserError("<context>: <gmsh's message>").
void gmsh_guarded(const std::string& context, const std::function<void()>& f);

}  // namespace frmini::meshes
