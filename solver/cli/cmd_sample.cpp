// frmini sample soln.h5 [more.h5 ...]: solution or time-average files evaluated at points or
// along a line after a run, optionally averaged over a periodic direction (the offline
// sampler, solver/export/probe.hpp). One CSV row per file and point.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <tuple>
#include <utility>

#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "solver/cli/args.hpp"
#include "solver/cli/commands.hpp"
#include "solver/export/probe.hpp"
#include "solver/io/solution_file.hpp"
#include "solver/plugins/point_list.hpp"

namespace frmini::cli {

namespace {

namespace fs = std::filesystem;
namespace ex = solver::exporter;

ArgParser parser() {
  ArgParser p("sample",
              "Evaluate solution or time-average files at points: sample soln.h5 [more.h5 ...]\n"
              "(--points \"(x, y, z), ...\" | --line \"(x0, y0, z0), (x1, y1, z1)\") [--out f.csv]");
  p.option("points", "\"(x, y[, z]), ...\"", "the points, as a case file's [plugins.sampler] points")
      .option("line", "\"(a), (b)\"", "--npts points evenly spaced from a to b, both included")
      .option("npts", "N", "points on --line", "101")
      .option("average", "AXIS:N",
              "average each point over N positions along x, y or z: the midpoints of N equal\n"
              "      slices of the mesh's extent on that axis (a periodic span), e.g. z:32;\n"
              "      the axis's column is left out of the output")
      .flag("gradients", "also the gradient of every variable (columns grad_<var>_<axis>)")
      .option("mesh", "mesh.h5", "the mesh (default: the one named by the solution's case)")
      .option("out", "f.csv", "the CSV to write (default: standard output)")
      .epilog(
          "Columns: t (the file's time), point (its index), the coordinates, rho, u, v[, w], p\n"
          "(primitive variables: converted from a solution, as stored in a time-average\n"
          "file). Values are the element's own polynomial at the point and gradients that\n"
          "polynomial's physical gradient, curved elements included. A point in no element is\n"
          "an error naming it. tools/cylinder-stats turns these into a cylinder wake's\n"
          "statistics (docs/validation.md).");
  return p;
}

// --average AXIS:N as (axis, N); (-1, 0) when not given.
std::pair<int, int> average_option(const Args& a) {
  if (!a.given("average")) return {-1, 0};
  const std::string s = a.get("average");
  const std::size_t colon = s.find(':');
  const std::string axis = s.substr(0, colon);
  if (colon == std::string::npos || (axis != "x" && axis != "y" && axis != "z"))
    throw UserError("sample: --average " + s + ": expected AXIS:N, e.g. z:32");
  try {
    std::size_t pos = 0;
    const int n = std::stoi(s.substr(colon + 1), &pos);
    if (pos != s.size() - colon - 1 || n < 1 || n > 100000) throw std::out_of_range(s);
    return {axis[0] - 'x', n};
  } catch (const std::exception&) {
    throw UserError("sample: --average " + s + ": N must be a whole number from 1 to 100000");
  }
}

// The options that need no file, checked before any is read.
void check_options(const Args& a) {
  if (a.given("points") == a.given("line"))
    throw UserError("sample: give --points or --line (see frmini sample --help)");
  average_option(a);
}

ex::ProbeOptions probe_options(const Args& a, int nd) {
  ex::ProbeOptions o;
  if (a.given("points")) {
    o.points = solver::parse_points(a.get("points"), nd, "sample: --points");
  } else {
    const auto ends = solver::parse_points(a.get("line"), nd, "sample: --line");
    if (ends.size() != 2) throw UserError("sample: --line takes two points, its ends");
    const long n = a.get_int("npts", 2, 1000000);
    for (long i = 0; i < n; ++i) {
      const double s = double(i) / double(n - 1);
      std::array<double, 3> p{};
      for (std::size_t c = 0; c < 3; ++c) p[c] = (1 - s) * ends[0][c] + s * ends[1][c];
      o.points.push_back(p);
    }
  }
  std::tie(o.average_axis, o.average_n) = average_option(a);
  o.gradients = a.flag("gradients");
  return o;
}

std::string csv_rows(const ex::ProbeTable& tab) {
  std::string out;
  char b[64];
  for (std::size_t i = 0; i < tab.rows.size(); ++i) {
    std::snprintf(b, sizeof b, "%.17g,%zu", tab.t, i);
    out += b;
    for (double v : tab.rows[i]) {
      std::snprintf(b, sizeof b, ",%.17g", v);
      out += b;
    }
    out += '\n';
  }
  return out;
}

int run_sample(const std::vector<std::string>& argv) {
  std::vector<std::string> pos;
  const Args a = parser().parse_mixed(argv, pos);
  if (pos.empty()) throw UserError("sample: needs at least one solution file (see frmini sample --help)");
  check_options(a);
  // Every file is read and sampled before anything is written.
  // A run's files share one mesh: it is read (or regenerated) once.
  std::string text, head, key;
  // So are the points located in it (the costly part: a run's time averages share them).
  std::optional<ex::SolutionContext> ctx;
  std::optional<ex::ProbePoints> at;
  for (const auto& f : pos) {
    if (!fs::is_regular_file(f)) throw UserError("sample: " + f + ": no such solution file");
    const solver::SolutionFile soln = solver::read_solution(f);
    const auto opts = [&] { return probe_options(a, ctx->mesh.ndims); };
    if (!ctx || key != soln.mesh_uuid + soln.config_text) {
      ctx.emplace(ex::load_solution_context(soln, f, a.get("mesh")));
      key = soln.mesh_uuid + soln.config_text;
      at = ex::locate_probe(*ctx, opts(), "sample: " + f);
    }
    const ex::ProbeTable tab = ex::probe(*ctx, soln, opts(), *at);
    std::string h = "t,point";
    for (const auto& c : tab.columns) h += "," + c;
    if (!head.empty() && h != head)
      throw UserError("sample: " + f + ": its columns differ from the first file's (" + h + ")");
    if (head.empty()) text = (head = h) + '\n';
    text += csv_rows(tab);
  }
  if (a.given("out")) {
    write_text_atomically(a.get("out"), text);
    std::cerr << a.get("out") << ": " << pos.size() << " file(s) sampled\n";
  } else {
    std::cout << text;
  }
  return 0;
}

}  // namespace

FRMINI_COMMAND("sample", "evaluate solution or time-average files at points (CSV)", run_sample, 23);

}  // namespace frmini::cli
