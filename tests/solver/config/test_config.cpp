// Case files: valid files give the file's values and the schema's defaults; each kind of
// mistake is one UserError naming file:line.
#include <sstream>

#include "base/error.hpp"
#include "solver/config/config.hpp"
#include "solver/config/schema.hpp"
#include "tests/frmini_catch.hpp"

using frmini::UserError;
using frmini::config::Config;

namespace {
const char* good = R"TOML(
[backend]
name = "cpu"
precision = "single"

[constants]
gamma = 1.4
Uinf = 0.2

[solver]
system = "euler"
order = 2

[time]
dt = 1e-3
tend = 1

[ics]
rho = 1
u = "Uinf*cos(y)"
v = 0.0
p = "1/(gamma*0.04)"

[bcs.wall]
type = "slp-adia-wall"

[bcs.farfield]
type = "char-riem-inv"
rho = 1
u = "Uinf"
v = 0
p = 17.857

[plugins.nancheck]
)TOML";

std::string error_of(const std::string& text) {
  try {
    Config::parse(text, "case.toml");
  } catch (const UserError& e) {
    std::string m = e.what();
    CHECK(m.find('\n') == std::string::npos);
    return m;
  }
  return "";
}

std::string with(const std::string& extra) { return std::string(good) + extra; }
}  // namespace

TEST_CASE("a valid case gives its values and the schema's defaults") {
  Config c = Config::parse(good, "dir/case.toml");
  CHECK(c.str("backend", "name") == "cpu");
  CHECK(c.str("backend", "matmul") == "auto");  // default
  CHECK(c.str("backend", "precision") == "single");
  CHECK(c.integer("solver", "order") == 2);
  CHECK(c.str("solver", "riemann-solver") == "rusanov");
  CHECK(c.real("time", "tend") == 1.0);  // an integer is a fine number
  CHECK(c.real("time", "tstart") == 0.0);
  CHECK(c.expr("ics", "u") == "Uinf*cos(y)");
  CHECK(c.expr("ics", "rho") == "1");
  CHECK(c.expr("ics", "w") == "0");
  auto bcs = c.subsections("bcs");
  REQUIRE(bcs.size() == 2);
  CHECK(c.str("bcs.wall", "type") == "slp-adia-wall");
  CHECK(c.has_section("plugins.nancheck"));
  CHECK(c.integer("plugins.nancheck", "nsteps") == 20);
  CHECK_FALSE(c.has_section("plugins.writer"));
  auto k = c.constants();
  CHECK(k.at("Uinf") == 0.2);
  CHECK(k.at("Pr") == 0.72);
  CHECK(c.dir() == "dir");
  CHECK(c.where("solver", "order") == "dir/case.toml:12: [solver] order");
}

TEST_CASE("command-line overrides are type-checked like the file") {
  Config c = Config::parse(good, "case.toml");
  c.override_value("backend", "name", "opencl", "--backend");
  CHECK(c.str("backend", "name") == "opencl");
  c.override_value("solver", "order", "4", "--order");
  CHECK(c.integer("solver", "order") == 4);
  CHECK_THROWS_AS(c.override_value("backend", "name", "gpu", "--backend"), UserError);
  CHECK_THROWS_AS(c.override_value("solver", "order", "four", "--order"), UserError);
}

TEST_CASE("mistakes in case files name file and line") {
  CHECK(error_of(with("[solver.points]\nhexx = \"gauss-legendre\"\n")) ==
        "case.toml:36: unknown key 'hexx' in [solver.points] (see frmini run --help-config)");
  CHECK(error_of(with("[plugins.wrier]\ndt-out = 1\n")).find("case.toml:35: unknown section "
                                                             "[plugins.wrier]") == 0);
  CHECK(error_of(std::string(good).replace(std::string(good).find("order = 2"), 9,
                                           "order = \"2\"")) ==
        "case.toml:12: [solver] order: expected an integer, got a string");
  CHECK(error_of(std::string(good).replace(std::string(good).find("order = 2"), 9,
                                           "order = 99")) ==
        "case.toml:12: [solver] order: 99 is out of range [1, 8]");
  CHECK(error_of(std::string(good).replace(std::string(good).find("\"euler\""), 7,
                                           "\"eulr\"")) ==
        "case.toml:11: [solver] system: unknown value 'eulr' (choose from euler, navier-stokes)");
  CHECK(error_of(with("[bcs.inlet]\nrho = 1\n")).find("[bcs.inlet] type is required") !=
        std::string::npos);
  CHECK(error_of("[time]\ndt = 1\n").find("[time] tend is required") != std::string::npos);
  CHECK(error_of("[time\ndt = 1\n").rfind("case.toml:1: ", 0) == 0);  // TOML syntax
  CHECK(error_of("stray = 1\n" + std::string(good)).find("'stray' is outside any known section") !=
        std::string::npos);
}

TEST_CASE("every schema key is documented") {
  std::ostringstream o;
  frmini::config::print_schema(o);
  for (const auto& s : frmini::config::case_schema()) {
    CHECK_FALSE(s.help.empty());
    CHECK(o.str().find("[" + s.path + "]") != std::string::npos);
    for (const auto& k : s.keys) CHECK((!k.help.empty() || !k.choices.empty()));
  }
}

TEST_CASE("the providers' and backends' choices come from their registrations") {
  // [backend] matmul: the union of the backends' provider lists in order, then auto; a name
  // whose help differs between backends says what it is on each.
  const auto* backend = frmini::config::find_section("backend");
  REQUIRE(backend);
  const auto* matmul = frmini::config::find_key(*backend, "matmul");
  REQUIRE(matmul);
  CHECK(matmul->choices ==
        std::vector<std::string>{"generated", "blas", "xsmm", "reference", "cublas", "auto"});
  REQUIRE(matmul->choice_help.size() == matmul->choices.size());
  CHECK(matmul->choice_help[1] == "cpu: OpenBLAS; opencl: CLBlast; cuda: cuBLASLt with its algorithms searched");
  CHECK(matmul->choice_help[2] == "libxsmm's JIT kernels (cpu)");
  CHECK(frmini::config::find_key(*backend, "name")->choices ==
        std::vector<std::string>{"cpu", "opencl", "cuda"});
}
