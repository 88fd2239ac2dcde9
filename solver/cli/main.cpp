// frmini's entry point: dispatches to the registered commands and turns exceptions into the
// exit statuses the project promises: 0 success, 2 user error (one line on stderr), 3 the
// solution diverged, 1 internal.
#include <algorithm>
#include <csignal>
#include <exception>
#include <iostream>

#include "base/error.hpp"
#include "frmini_config.hpp"
#include "solver/cli/args.hpp"
#include "solver/cli/commands.hpp"
#include "solver/comm/comm.hpp"
#include "solver/export/export.hpp"

namespace frmini::cli {

namespace {
std::vector<Command>& registry() {
  static std::vector<Command> r;
  return r;
}

void print_usage(std::ostream& o) {
  auto cmds = commands();
  std::stable_sort(cmds.begin(), cmds.end(),
                   [](const Command& a, const Command& b) { return a.order < b.order; });
  o << "frmini " << config::version
    << " - high-order flux reconstruction with generated matmul kernels\n\n"
    << "usage: frmini <command> [arguments] [options]\n\ncommands:\n";
  for (const auto& c : cmds) {
    o << "  " << c.name;
    for (size_t i = c.name.size(); i < 16; ++i) o << ' ';
    o << c.summary << "\n";
  }
  o << "\n'frmini <command> --help' lists every option of a command.\n"
    << "\nenvironment:\n"
    << "  FRMINI_CPU_ISA    instruction set of the cpu backend's kernels and of libxsmm:\n"
    << "                    native (default: this CPU, -march=native), avx512, avx2 or generic\n"
    << "                    (x86-64-v4, x86-64-v3, x86-64 SSE2), to run and test the code of\n"
    << "                    other machines on this one\n"
    << "  FRMINI_CC         C compiler of the cpu backend's run-time kernels (default: cc)\n"
    << "  FRMINI_CFLAGS     extra flags for it (after the ISA's -march)\n"
    << "  FRMINI_CACHE_DIR  compiled kernels, tuning decisions, bandwidth figures\n"
    << "                    (default: $XDG_CACHE_HOME/frmini or ~/.cache/frmini)\n"
    << "  FRMINI_TUNE_CACHE 0: 'auto' re-times every operator instead of reusing decisions\n";
}
}  // namespace

bool register_command(Command c) {
  registry().push_back(std::move(c));
  return true;
}

const std::vector<Command>& commands() { return registry(); }

}  // namespace frmini::cli

namespace {

// Over several ranks every rank meets the same error in what all of them read (case file,
// mesh, restart file): rank 0 says it once. A rank that holds a diverged value or an internal
// error says so itself; "on another rank" is the echo of one of those.
bool says_it(const std::exception& e, bool user_error) {
  auto& comm = frmini::solver::comm::world();
  if (comm.size() == 1) return true;
  if (std::string(e.what()).find("on another rank") != std::string::npos) return false;
  return comm.rank() == 0 || !user_error || dynamic_cast<const frmini::solver::comm::PartError*>(&e);
}

int run_command(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
  // A file-size limit (ulimit -f, a batch system's quota) makes a write fail with EFBIG, which
  // every writer reports as it reports a full disk, rather than killing the run mid-write.
  std::signal(SIGXFSZ, SIG_IGN);
  frmini::solver::comm::init(&argc, &argv);
  const int status = run_command(argc, argv);
  frmini::solver::comm::finalize();
  return status;
}

namespace {

int run_command(int argc, char** argv) {
  using namespace frmini;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    cli::print_usage(std::cout);
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version") {
    std::cout << "frmini " << config::version << "\n";
    return 0;
  }
  // The plugin above the solver library (VTK): in the schema before any case is read.
  solver::exporter::register_export_plugin();
  const auto& cmds = cli::commands();
  auto it = std::find_if(cmds.begin(), cmds.end(),
                         [&](const cli::Command& c) { return c.name == args[0]; });
  if (it == cmds.end()) {
    std::cerr << "frmini: error: unknown command '" << args[0] << "' (see frmini --help)\n";
    return 2;
  }
  try {
    return it->run(std::vector<std::string>(args.begin() + 1, args.end()));
  } catch (const cli::HelpRequested& h) {
    std::cout << h.text;
    return 0;
  } catch (const DivergedError& e) {
    if (says_it(e, false)) std::cerr << "frmini: error: " << e.what() << "\n";
    return 3;
  } catch (const UserError& e) {
    if (says_it(e, true)) std::cerr << "frmini: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    if (says_it(e, false)) std::cerr << "frmini: internal error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace
