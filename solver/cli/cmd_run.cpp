// frmini run / frmini restart: a case file (TOML) to a finished run with its report.
#include <cstdio>
#include <iostream>
#include <sstream>

#include "solver/cli/args.hpp"
#include "solver/cli/commands.hpp"
#include "solver/config/schema.hpp"
#include "solver/export/export.hpp"
#include "solver/io/solution_file.hpp"
#include "solver/comm/comm.hpp"
#include "solver/run/runner.hpp"

namespace frmini::cli {

namespace {

ArgParser run_parser(const std::string& cmd, bool restart) {
  ArgParser p(cmd, restart ? "Continue a run from a solution file, bit for bit (at another order\n"
                             "with --order: the solution projected onto it, dt from the case)."
                           : "Run a case: read the TOML file, march in time, write solutions.");
  p.positional("case", "the case file (TOML); --help-config lists every key");
  if (restart) p.positional("solution", "a solution file written by frmini run (.h5)");
  p.option("backend", "NAME", "cpu, opencl or cuda (overrides [backend] name)")
      .option("matmul", "NAME", "generated, blas, cublas (cuda), xsmm, reference or auto (overrides [backend] matmul)")
      .option("precision", "P", "single or double (overrides [backend] precision)")
      .option("order", "P",
              restart ? "polynomial order (overrides the file's and [solver] order); another "
                        "order than the file's projects its solution onto order P"
                      : "polynomial order (overrides [solver] order)")
      .option("anti-alias", "A", "none, flux, surf-flux or flux,surf-flux (overrides [solver] anti-alias)")
      .option("cuda-graphs", "BOOL", "true or false: cuda's launches as CUDA graphs (overrides [backend] cuda-graphs)")
      .option("steps", "N", "stop after N steps (the writer saves the final state)")
      .flag("quiet", "no progress bar")
      .flag("no-plugins", "leave the case's plugins out (writer, forces, ...): only the blow-up "
                          "check and the report, for timing a case (frmini bench scaling)")
      .flag("help-config", "print every case-file section and key with type, default and help")
      .epilog("Flags override the case file; the solution files record both.\n"
              "Over several MPI ranks: mpirun -np N frmini " + cmd + " ... (each rank one part of the\n"
              "mesh; the files as from one rank; README: Distributed runs).");
  return p;
}

std::vector<solver::Override> overrides(const Args& a, std::string& text) {
  std::vector<solver::Override> o;
  auto add = [&](const char* flag, const char* sec, const char* key) {
    if (!a.given(flag)) return;
    o.push_back({sec, key, a.get(flag), std::string("--") + flag});
    text += std::string(text.empty() ? "" : " ") + "--" + flag + " " + a.get(flag);
  };
  add("backend", "backend", "name");
  add("matmul", "backend", "matmul");
  add("precision", "backend", "precision");
  add("order", "solver", "order");
  add("anti-alias", "solver", "anti-alias");
  add("cuda-graphs", "backend", "cuda-graphs");
  return o;
}

// A restart continues the run as it was made: the precision, order, anti-aliasing and matmul
// provider its command line chose (recorded in the solution file as "--precision single ...") apply again
// unless this command line names them. The backend is left to this command line: the machine
// may have changed (a run begun on a GPU node, continued on a workstation).
void reapply_recorded(const Args& a, const std::string& recorded, std::vector<solver::Override>& ov,
                      std::string& flags, std::string& note) {
  std::istringstream in(recorded);
  std::string flag, value;
  while (in >> flag >> value) {
    const std::string name = flag.rfind("--", 0) == 0 ? flag.substr(2) : flag;
    const bool solver = name == "order" || name == "anti-alias";
    if ((!solver && name != "precision" && name != "matmul") || a.given(name)) continue;
    ov.push_back({solver ? "solver" : "backend", name, value, flag});
    flags += std::string(flags.empty() ? "" : " ") + flag + " " + value;
    note += std::string(note.empty() ? "" : " ") + flag + " " + value;
  }
}

int run(const std::vector<std::string>& argv, bool restart) {
  // --help-config needs no case file.
  for (const auto& s : argv)
    if (s == "--help-config") {
      config::print_schema(std::cout);
      return 0;
    }
  const std::string cmd = restart ? "restart" : "run";
  Args a = run_parser(cmd, restart).parse(argv);
  std::string flags;
  auto ov = overrides(a, flags);
  solver::RunOptions o;
  o.quiet = a.flag("quiet");
  o.no_plugins = a.flag("no-plugins");
  o.flags = flags;
  if (a.given("steps")) o.max_steps = a.get_int("steps", 0, 1L << 50);
  solver::SolutionFile sf;
  if (restart) {
    sf = solver::read_solution(a.get("solution"));
    if (sf.variables != "conserved")
      throw UserError(a.get("solution") + ": holds time averages (" + sf.variables +
                      "), not a solution to restart from");
    std::string note;
    reapply_recorded(a, sf.flags, ov, o.flags, note);
    if (!note.empty() && !o.quiet && solver::comm::world().rank() == 0)
      std::printf("frmini: restart: %s, as the solution file records\n", note.c_str());
    o.restart = &sf;
    o.restart_path = a.get("solution");
  }
  solver::Case k = solver::load_case(a.get("case"), ov);
  auto& comm = solver::comm::world();
  try {
    solver::run_case(k, o);
  } catch (const solver::Interrupted& i) {
    if (comm.rank() == 0) std::cerr << "frmini: " << i.what() << "\n";
    return 128 + i.signal;
  } catch (const DivergedError&) {
    throw;  // every rank stops on it (main: the rank that found it says where)
  } catch (const std::exception& e) {
    if (comm.size() == 1 || !solver::in_time_loop()) throw;
    // One rank's failure in the time loop: the others would wait for it.
    std::cerr << "frmini: error: rank " << comm.rank() << ": " << e.what() << "\n";
    comm.abort(dynamic_cast<const UserError*>(&e) ? 2 : 1);
  }
  return 0;
}

}  // namespace

FRMINI_COMMAND("run", "run a case (TOML) to its end time and report", [](const auto& a) { return run(a, false); }, 20);
FRMINI_COMMAND("restart", "continue a run from a solution file", [](const auto& a) { return run(a, true); }, 21);

}  // namespace frmini::cli
