// `frmini bench`: dispatches to the benchmark named by its first argument.
#include <iostream>

#include "base/error.hpp"
#include "solver/cli/args.hpp"
#include "solver/cli/bench.hpp"
#include "solver/cli/commands.hpp"

namespace frmini::cli {

namespace {
std::vector<BenchCommand>& bench_registry() {
  static std::vector<BenchCommand> r;
  return r;
}

std::string usage() {
  std::string s = "usage: frmini bench <benchmark> [options]\n\nbenchmarks:\n";
  for (const auto& b : bench_commands()) {
    s += "  " + b.name;
    for (std::size_t i = b.name.size(); i < 12; ++i) s += ' ';
    s += b.summary + "\n";
  }
  return s + "\n'frmini bench <benchmark> --help' lists its options.\n";
}

int run_bench(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    if (args.empty()) throw UserError("bench: which benchmark? (" + [] {
      std::string n;
      for (const auto& b : bench_commands()) n += (n.empty() ? "" : ", ") + b.name;
      return n;
    }() + ")");
    throw HelpRequested{usage()};
  }
  for (const auto& b : bench_commands())
    if (b.name == args[0]) return b.run(std::vector<std::string>(args.begin() + 1, args.end()));
  throw UserError("bench: unknown benchmark '" + args[0] + "' (see frmini bench --help)");
}
}  // namespace

bool register_bench(BenchCommand c) {
  bench_registry().push_back(std::move(c));
  return true;
}

const std::vector<BenchCommand>& bench_commands() { return bench_registry(); }

FRMINI_COMMAND("bench", "benchmarks: matmul (per-operator kernels), solver (per-step times), scaling (MPI ranks)", run_bench, 60);

}  // namespace frmini::cli
