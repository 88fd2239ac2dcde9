// An X display for VTK's off-screen rendering. Debian's VTK 9.1 renders through X
// (vtkXOpenGLRenderWindow) even off screen, and aborts the process when it cannot connect, so
// the display is checked here first and a headless machine gets its own Xvfb.
#pragma once

#include <string>

namespace frmini::render {

// Makes sure this process can open an X display and returns its name:
// - DISPLAY set: it must accept a connection, else UserError (VTK would abort instead); the
//   connection stays open until exit, so the server never resets between this check and
//   VTK's own connection;
// - DISPLAY unset: starts `Xvfb :N -screen 0 1920x1080x24 -nolisten tcp -noreset` on a free N (from 99
//   up), waits until it accepts connections, sets DISPLAY for this process and stops the server
//   at exit (and, through PR_SET_PDEATHSIG, if this process dies); one server per process,
//   reused by later pictures;
// - neither DISPLAY nor Xvfb (looked for in PATH): UserError "no DISPLAY and no Xvfb: ...".
std::string ensure_display();

// Whether ensure_display started an Xvfb in this process that is still running.
bool own_xvfb_running();

}  // namespace frmini::render
