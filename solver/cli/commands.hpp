// The command registry. Each frmini command lives in its own file solver/cli/cmd_<name>.cpp
// and registers itself with a static FRMINI_COMMAND(...) line, so adding a command touches
// no shared file. Those files are compiled into the executable (not a library) so that the
// registrations are never dropped by the linker.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace frmini::cli {

// A command gets the arguments after its name and returns the process exit status.
using CommandFn = std::function<int(const std::vector<std::string>& args)>;

struct Command {
  std::string name;
  std::string summary;
  CommandFn run;
  int order = 100;  // position in "frmini --help"
};

bool register_command(Command c);
const std::vector<Command>& commands();

}  // namespace frmini::cli

#define FRMINI_CMD_CAT2(a, b) a##b
#define FRMINI_CMD_CAT(a, b) FRMINI_CMD_CAT2(a, b)
#define FRMINI_COMMAND(...)                                              \
  [[maybe_unused]] static const bool FRMINI_CMD_CAT(frmini_cmd_reg_, __LINE__) = \
      ::frmini::cli::register_command(::frmini::cli::Command{__VA_ARGS__})
