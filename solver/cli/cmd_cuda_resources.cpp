// `frmini cuda-resources`: compiles every strategy of the CUDA matmul generator for the given
// operators with NVRTC for one architecture (no GPU needed) and prints, per operator, the best
// candidate's registers and spill bytes; --csv writes every kernel. tools/gimmik-spills runs it
// to compare with GiMMiK's CUDA candidates.
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "kernels/cuda/resource_table.hpp"
#include "operators/operators.hpp"
#include "solver/cli/args.hpp"
#include "solver/cli/commands.hpp"

namespace frmini::cli {

namespace {

namespace kc = frmini::kernels::cuda;

int run(const std::vector<std::string>& argv) {
  ArgParser parser("cuda-resources",
                   "Compile the generated CUDA matmul kernels of FR operators with NVRTC (no GPU "
                   "needed) and report registers and spills per operator.");
  parser.option("etypes", "LIST", "element types", "quad,hex,tri,tet")
      .option("orders", "LIST", "polynomial orders", "1,2,3,4,5,6")
      .option("operators", "LIST", "operators", "M0,M3,M6,M132,M460")
      .option("precision", "LIST", "single and/or double", "double")
      .option("beta", "B", "beta baked into the kernels", "0")
      .option("arch", "SM", "compute capability as major*10+minor", "90")
      .option("ld", "N", "ldb = ldc baked into the kernels", "50048")
      .option("csv", "FILE", "also write every kernel's row to FILE")
      .epilog("example:\n  frmini cuda-resources --etypes hex,tet --orders 6 --csv res.csv\n"
              "Compiled kernels are cached (see $FRMINI_CACHE_DIR), so reruns are fast.");
  const Args args = parser.parse(argv);
  std::vector<kc::NamedOperator> ops;
  for (const auto& et : args.get_list("etypes"))
    for (long p : args.get_int_list("orders", 0, 20)) {
      auto o = operators::build_operators(et, int(p));
      for (const auto& name : args.get_list("operators")) {
        const auto& m = operators::get(o, name);
        ops.push_back({et + "-p" + std::to_string(p) + "-" + name,
                       kernels::matmul::HostMatrix{m.rows, m.cols, m.data}});
      }
    }
  std::vector<kernels::Precision> precs;
  for (const auto& s : args.get_list("precision"))
    precs.push_back(kernels::parse_precision(s, "cuda-resources: --precision"));
  kc::TableOptions o;
  o.arch = int(args.get_int("arch", 30, 200));
  o.ld = std::size_t(args.get_int("ld", 1, 1L << 40));
  auto rows = kc::resource_table(ops, precs, {args.get_double("beta")}, o);
  if (args.given("csv")) write_text_atomically(args.get("csv"), kc::to_csv(rows));

  // Per (operator, precision): the candidate with the fewest spill bytes, then registers.
  std::map<std::string, std::vector<const kc::ResourceRow*>> by;
  std::vector<std::string> keys;
  for (auto& r : rows) {
    std::string key = r.op + " " + to_string(r.precision);
    if (!by.count(key)) keys.push_back(key);
    by[key].push_back(&r);
  }
  std::printf("%-20s %-7s %11s %6s %5s  %-26s %5s %7s  %s\n", "operator", "prec", "m x k", "nnz",
              "cands", "least-spilling strategy", "regs", "spill", "spill-free candidates");
  std::size_t nfree = 0;
  for (auto& key : keys) {
    auto& v = by[key];
    const kc::ResourceRow* best = v.front();
    std::size_t free = 0;
    for (auto* r : v) {
      free += r->spill_free();
      auto sb = r->res.spill_stores + r->res.spill_loads;
      auto bb = best->res.spill_stores + best->res.spill_loads;
      if (sb < bb || (sb == bb && r->res.registers < best->res.registers)) best = r;
    }
    nfree += free > 0;
    std::string shape = std::to_string(best->m) + "x" + std::to_string(best->k);
    std::printf("%-20s %-7s %11s %6zu %5zu  %-26s %5d %7d  %zu\n", best->op.c_str(),
                to_string(best->precision), shape.c_str(), best->nnz, v.size(),
                best->strategy.c_str(), best->res.registers, best->res.spill_stores, free);
  }
  std::printf("%zu of %zu operators have a spill-free candidate (sm_%d, beta %g)\n", nfree,
              keys.size(), o.arch, args.get_double("beta"));
  return nfree == keys.size() ? 0 : 1;
}

}  // namespace

FRMINI_COMMAND("cuda-resources",
               "compile the generated CUDA matmul kernels (no GPU) and report registers/spills",
               run, 95);

}  // namespace frmini::cli
