#include "meshes/gmsh_session.hpp"

#include <gmsh.h>
#include <omp.h>

#include <exception>

#include "base/error.hpp"

namespace frmini::meshes {

// Gmsh sets the process's OpenMP thread count from its General.NumThreads option (default 1)
// when it initialises: the session puts back what the rest of frmini had, or a solver run
// that generated its mesh in-process would then run on one thread.
GmshSession::GmshSession() : omp_threads_(omp_get_max_threads()) {
  gmsh::initialize(0, nullptr, false);
  // Gmsh prints progress and errors to the terminal by default; frmini reports errors itself.
  gmsh::option::setNumber("General.Terminal", 0);
  gmsh::option::setNumber("General.Verbosity", 0);
}

GmshSession::~GmshSession() {
  try {
    gmsh::finalize();
  } catch (...) {
  }
  omp_set_num_threads(omp_threads_);
}

void gmsh_guarded(const std::string& context, const std::function<void()>& f) {
  std::string msg;
  try {
    f();
    return;
  } catch (const UserError&) {
    throw;
  } catch (const std::string& s) {
    msg = s;
  } catch (const char* s) {
    msg = s;
  } catch (const std::exception& e) {
    msg = e.what();
  }
  // Gmsh's messages may span lines; the project promises one line.
  for (auto& c : msg)
    if (c == '\n' || c == '\r') c = ' ';
  throw UserError(context + ": " + (msg.empty() ? "Gmsh failed" : msg));
}

}  // namespace frmini::meshes
