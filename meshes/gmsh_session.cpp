#include "meshes/gmsh_session.hpp"

#include <gmsh.h>

#include <exception>

#include "operators/error.hpp"

namespace frmini::meshes {

GmshSession::GmshSession() {
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
