// The extension points as a newcomer meets them (docs/architecture.md, "Where to add things"):
// a Riemann solver that is only its kernel file (central.kern, beside this test), a boundary
// condition that is only its kernel file, and a plugin that is only its class and one
// register_plugin call. Each must reach the schema (validation, --help-config) and the run.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "base/error.hpp"
#include "solver/config/schema.hpp"
#include "solver/io/solution_file.hpp"
#include "solver/physics/physics.hpp"
#include "solver/plugins/plugin.hpp"
#include "solver/run/runner.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/support/vortex_case.hpp"

using namespace frmini;
namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  REQUIRE(in.good());
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A Riemann solver's file with its "//! " lines replaced by `help`.
std::string with_help(const std::string& kern, const std::string& help) {
  std::istringstream in(kern);
  std::string out = "//! help: " + help + "\n";
  for (std::string line; std::getline(in, line);)
    if (line.rfind("//! ", 0) != 0) out += line + "\n";
  return out;
}

// The vortex (tests/support/vortex_case.hpp) with Riemann solver @RSOLVER@, writing its
// solution at the start and every 0.25; `extra` ends the case.
const std::string vortex_case = test::vortex_case_text("@RSOLVER@") + R"toml(
[plugins.writer]
dt-out = 0.25
basedir = "@DIR@"
basename = "s-{n}"
)toml";

std::string replaced(std::string text, const std::string& what, const std::string& with) {
  for (std::size_t p; (p = text.find(what)) != std::string::npos;) text.replace(p, what.size(), with);
  return text;
}

// The vortex case with `rsolver`, run 5 steps (to t = 0.25): its final solution.
std::vector<std::vector<double>> vortex(const std::string& rsolver, const std::string& extra = "") {
  const auto dir = fs::temp_directory_path() / ("frmini-test-ext-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto text = replaced(replaced(vortex_case, "@RSOLVER@", rsolver), "@DIR@", dir.string()) + extra;
  auto k = solver::load_case_text(text, "extension.toml");
  solver::RunOptions o;
  o.max_steps = 5;
  o.quiet = true;
  solver::run_case(k, o);
  auto s = solver::read_solution((dir / "s-1.h5").string());
  REQUIRE(std::abs(s.state.t - 0.25) < 1e-12);
  fs::remove_all(dir);
  return s.soln;
}

double max_diff(const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& b) {
  double d = 0;
  for (std::size_t g = 0; g < a.size(); ++g)
    for (std::size_t i = 0; i < a[g].size(); ++i) d = std::max(d, std::abs(a[g][i] - b[g][i]));
  return d;
}

std::string schema_text() {
  std::ostringstream o;
  config::print_schema(o);
  return o.str();
}

std::string load_error(const std::string& text) {
  try {
    solver::load_case_text(text, "extension.toml");
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("extension: a Riemann solver is its kernel file") {
  const auto& rusanov = physics::source("euler/rsolvers/rusanov.kern");
  physics::add_source("euler/rsolvers/test-central.kern",
                      read_text(fs::path(FRMINI_TEST_DATA_DIR) / "central.kern"));
  physics::add_source("euler/rsolvers/test-rusanov.kern", with_help(rusanov, "Rusanov, copied"));
  physics::register_schema();

  const auto help = schema_text();
  CHECK(help.find("test-central") != std::string::npos);
  const auto* solver_section = config::find_section("solver");
  REQUIRE(solver_section);
  const auto& choices = config::find_key(*solver_section, "riemann-solver")->choices;
  CHECK(std::find(choices.begin(), choices.end(), "test-central") != choices.end());
  // An unknown name lists the added ones with the built-in ones.
  const auto bad = load_error(replaced(vortex_case, "@RSOLVER@", "nope"));
  CHECK(bad.find("unknown value 'nope'") != std::string::npos);
  CHECK(bad.find("test-central") != std::string::npos);

  // The copy runs as the original does, bit for bit; the central flux differs from it by the
  // dissipation it lacks: visibly on this coarse mesh (16 elements across the vortex's box),
  // but well within the solution's size.
  const auto ref = vortex("rusanov");
  CHECK(max_diff(vortex("test-rusanov"), ref) == 0.0);
  double size = 0;
  for (const auto& g : ref)
    for (double x : g) size = std::max(size, std::abs(x));
  const double d = max_diff(vortex("test-central"), ref);
  CHECK(d > 1e-8);
  CHECK(d < 0.1 * size);
}

TEST_CASE("extension: a boundary condition is its kernel file") {
  // A wall with an inflow-like value of its own ("tw"), to show a new value reaching the
  // schema and the kernel (BC_TW).
  std::string kern = physics::source("bcs/slp-adia-wall.kern");
  kern = "//! help: slip wall (a test's copy)\n//! value tw optional: a value of its own\n" +
         replaced(kern, "//! help: inviscid (slip) wall\n", "");
  physics::add_source("bcs/test-wall.kern", kern);
  physics::register_schema();
  const auto* bcs = config::find_section("bcs.wall");
  REQUIRE(bcs);
  const auto& types = config::find_key(*bcs, "type")->choices;
  CHECK(std::find(types.begin(), types.end(), "test-wall") != types.end());
  const auto* tw = config::find_key(*bcs, "tw");
  REQUIRE(tw);
  CHECK(tw->help == "a value of its own (test-wall)");
  CHECK(physics::bc_type("test-wall").values.at(0).optional);
  // Its kernel compiles with the value as BC_TW (the interface and boundary kernels' spec).
  physics::Options o;
  auto spec = physics::bccflux(o, "test-wall", {{"tw", "1.0"}});
  CHECK(spec.functions.find("#define BC_TW (1.0)") != std::string::npos);
  CHECK(spec.functions.find("slip wall") != std::string::npos);
}

namespace {

// A plugin that counts the steps it was called after every `every` steps.
int counted = 0;
class StepCounter : public solver::Plugin {
 public:
  explicit StepCounter(const solver::Case& k) : every_(k.cfg.integer("plugins.test-steps", "every")) {}
  std::string name() const override { return "test-steps"; }
  void after_step(solver::RunContext& ctx) override {
    if (ctx.intg.state().nsteps % every_ == 0) ++counted;
  }

 private:
  int64_t every_;
};

}  // namespace

TEST_CASE("extension: a plugin is its class and one registration") {
  using T = config::ValueType;
  solver::register_plugin(
      {"plugins.test-steps",
       {{"plugins.test-steps", "Counts steps (a test's plugin).",
         {{"every", T::integer, "1", "count every `every` steps", {}, 1, 1000}}}},
       [](const solver::Case& k, const solver::PluginArgs&) -> std::unique_ptr<solver::Plugin> {
         return std::make_unique<StepCounter>(k);
       }});
  CHECK(schema_text().find("[plugins.test-steps]  Counts steps") != std::string::npos);

  counted = 0;
  vortex("rusanov", "[plugins.test-steps]\nevery = 2\n");
  CHECK(counted == 2);  // after steps 2 and 4 of 5
  counted = 0;
  vortex("rusanov");
  CHECK(counted == 0);  // not made without its section
  const auto bad = load_error(replaced(vortex_case, "@RSOLVER@", "rusanov") +
                              "[plugins.test-steps]\nevry = 2\n");
  CHECK(bad.find("unknown key 'evry' in [plugins.test-steps]") != std::string::npos);
}
