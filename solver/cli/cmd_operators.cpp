// `frmini operators`: builds one element type's FR operators and reports their shapes and
// sparsity (the numbers that decide which matmul strategy pays off), optionally exporting
// them as Matrix Market files.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "operators/matrix_market.hpp"
#include "operators/operators.hpp"
#include "solver/cli/args.hpp"
#include "solver/cli/commands.hpp"

namespace frmini::cli {

namespace {

namespace ops = frmini::operators;

struct Stats {
  std::size_t nnz = 0, unique = 0;
  double zero_fraction = 0.0;
};

// nnz counts |a| > 1e-12; unique counts the distinct magnitudes of those entries, two being
// the same when they agree to 1e-10 relative (the tolerance PyFR's clean coalesces with).
Stats stats(const ops::Matrix& m) {
  Stats s;
  std::vector<double> mags;
  for (double v : m.data)
    if (std::abs(v) > 1e-12) mags.push_back(std::abs(v));
  s.nnz = mags.size();
  s.zero_fraction = m.data.empty() ? 0.0 : 1.0 - double(s.nnz) / double(m.data.size());
  std::sort(mags.begin(), mags.end());
  for (std::size_t i = 0; i < mags.size();) {
    std::size_t j = i + 1;
    while (j < mags.size() && mags[j] - mags[i] <= 1e-10 * mags[i]) ++j;
    ++s.unique;
    i = j;
  }
  return s;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string pad(const std::string& s, std::size_t w) {
  return s.size() >= w ? s : s + std::string(w - s.size(), ' ');
}

std::string describe(const ops::ElementOperators& o) {
  std::string s = o.etype + ", order " + std::to_string(o.order) + ", upts " + o.upts_name + " (" +
                  std::to_string(o.nupts) + "), fpts";
  for (const auto& [kind, name] : o.fpts_names) s += " " + kind + ":" + name;
  return s + " (" + std::to_string(o.nfpts) + ")";
}

void print_table(const ops::ElementOperators& o) {
  std::cout << "frmini operators: " << describe(o) << "\n\n"
            << pad("operator", 10) << pad("m x k", 12) << pad("nnz", 9) << pad("zero frac", 11)
            << "unique values\n";
  for (const auto& name : ops::all_operator_names()) {
    const auto& m = ops::get(o, name);
    const Stats s = stats(m);
    std::cout << pad(name, 10) << pad(std::to_string(m.rows) + "x" + std::to_string(m.cols), 12)
              << pad(std::to_string(s.nnz), 9) << pad(fmt("%.3f", s.zero_fraction), 11) << s.unique
              << "\n";
  }
  std::cout << "\nThe solver multiplies by M0, M3, M6, M132 = M1 - M3*M2 and M460 = M4 - M6*M0.\n";
}

void print_csv(const ops::ElementOperators& o) {
  std::cout << "operator,m,k,nnz,zero_fraction,unique_values\n";
  for (const auto& name : ops::solver_operator_names()) {
    const auto& m = ops::get(o, name);
    const Stats s = stats(m);
    std::cout << name << "," << m.rows << "," << m.cols << "," << s.nnz << ","
              << fmt("%.6f", s.zero_fraction) << "," << s.unique << "\n";
  }
}

int run(const std::vector<std::string>& argv) {
  ArgParser parser("operators", "Build the FR operator matrices of one element type and report "
                                "their shapes and sparsity.");
  parser.option("etype", "TYPE", "element type: quad, hex, tri, tet, pri or pyr", "hex")
      .option("order", "P", "polynomial order", "3")
      .option("upts", "NAME",
              "solution point set (default: gauss-legendre for quad/hex/pyr, williams-shunn for "
              "tri, shunn-ham for tet, williams-shunn~gauss-legendre for pri)")
      .option("format", "FMT", "output format: table or csv", "table")
      .option("mtx", "DIR", "also write every operator to DIR/<etype>-p<P>-<op>.mtx (Matrix Market)")
      .epilog("examples:\n  frmini operators\n  frmini operators --etype tet --order 3 --format csv\n"
              "  frmini operators --etype quad --upts gauss-legendre-lobatto --mtx out/");
  const Args args = parser.parse(argv);
  const std::string format = args.get_choice("format", {"table", "csv"});
  const long order = args.get_int("order", -1000000, 1000000);
  std::filesystem::path dir;
  if (args.given("mtx")) {
    dir = args.get("mtx");
    if (!std::filesystem::is_directory(dir))
      throw UserError("operators: --mtx: directory '" + dir.string() + "' does not exist");
  }

  const auto o = ops::build_operators(args.get("etype"), static_cast<int>(order), args.get("upts"));
  if (format == "csv")
    print_csv(o);
  else
    print_table(o);

  if (!dir.empty()) {
    for (const auto& name : ops::all_operator_names()) {
      const auto path = dir / (o.etype + "-p" + std::to_string(o.order) + "-" + name + ".mtx");
      write_text_atomically(path, ops::to_matrix_market(ops::get(o, name),
                                                         "frmini operator " + name + ": " + describe(o)));
    }
    if (format == "table")
      std::cout << "wrote " << ops::all_operator_names().size() << " Matrix Market files to "
                << dir.string() << "\n";
  }
  return 0;
}

}  // namespace

FRMINI_COMMAND("operators", "inspect FR operator matrices: shapes, sparsity, .mtx export", run, 60);

}  // namespace frmini::cli
