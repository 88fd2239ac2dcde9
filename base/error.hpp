// The project-wide error types. base/ is the lowest layer, so every other layer can
// include this without reaching upwards.
//
// UserError: the user's input is wrong (file, option, config key, expression). main() prints
// "frmini: error: <message>" and exits with status 2. The message is one line and names the
// file or option at fault.
// DivergedError: the solution blew up (NaN or infinity): exit status 3.
// Anything else thrown is an internal error: exit status 1.
#pragma once

#include <stdexcept>
#include <string>

namespace frmini {

class UserError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A feature this build was configured without ("built without Gmsh"). A user error too: the
// user asked for something this binary cannot do, and exit status 2 tells scripts so.
class NotBuiltError : public UserError {
 public:
  explicit NotBuiltError(const std::string& feature, const std::string& what)
      : UserError(what + ": frmini was built without " + feature) {}
};

// The run diverged: a NaN or an infinity in the solution (the nancheck plugin, or a writer
// about to write one). Not a UserError: main() exits with status 3, so scripts and batch
// systems can tell a blow-up from bad input. The last good solution file is kept.
class DivergedError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace frmini
