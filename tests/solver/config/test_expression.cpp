// Expressions: parsed values against hand-computed ones, the C rendering compiled by the
// system compiler would be the real test of to_c — here it is checked structurally and by
// re-parsing its output (which is itself a valid expression of the same grammar for the
// functions we emit), and bad input gives one clear message naming where it came from.
#include <cmath>

#include "base/error.hpp"
#include "solver/config/expression.hpp"
#include "tests/frmini_catch.hpp"

using frmini::UserError;
using frmini::config::Expression;
using frmini::kernels::Precision;

namespace {
const std::vector<std::string> xyzt = {"x", "y", "z", "t"};
double ev(const std::string& s, std::map<std::string, double> c = {}) {
  return Expression::parse(s, xyzt, c, "test").eval({{"x", 0.5}, {"y", -2}, {"z", 3}, {"t", 0}});
}
}  // namespace

TEST_CASE("expressions evaluate with precedence and associativity") {
  CHECK(ev("1 + 2*3") == 7);
  CHECK(ev("(1 + 2)*3") == 9);
  CHECK(ev("2^3^2") == 512);          // right-associative
  CHECK(ev("2**3") == 8);
  CHECK(ev("-2^2") == -4);            // unary minus binds looser than ^
  CHECK(ev("(-1.5)^2") == 2.25);      // squares multiply (no pow): the sign must not matter
  CHECK(ev("4^0.5") == 2);            // other powers through pow
  CHECK(ev("8/2/2") == 2);            // left-associative
  CHECK(ev("x*y + z") == Approx(2.0));
  CHECK(ev("1e-3*1e3") == Approx(1.0));
  CHECK(ev("atan2(1, 1)*4") == Approx(M_PI));
  CHECK(ev("max(x, y) + min(x, y)") == Approx(-1.5));
  CHECK(ev("abs(y) + sqrt(4) + exp(0) + log(1)") == Approx(5.0));
  CHECK(ev("Uinf*2 + pi", {{"Uinf", 3.0}}) == Approx(6.0 + M_PI));
}

TEST_CASE("the isentropic vortex density expression matches its closed form") {
  std::map<std::string, double> c = {{"S", 13.5}, {"M", 0.4}, {"R", 1.5}, {"gamma", 1.4}};
  std::string f = "((1 - x*x - y*y)/(2*R*R))";
  std::string rho = "(1 - S*S*M*M*(gamma - 1)*exp(2*" + f + ")/(8*pi*pi))^(1/(gamma - 1))";
  auto e = Expression::parse(rho, xyzt, c, "test");
  double x = 0.3, y = -0.7;
  double ff = (1 - x * x - y * y) / (2 * 1.5 * 1.5);
  double exact = std::pow(1 - 13.5 * 13.5 * 0.16 * 0.4 * std::exp(2 * ff) / (8 * M_PI * M_PI),
                          1 / 0.4);
  CHECK(e.eval({{"x", x}, {"y", y}, {"z", 0}, {"t", 0}}) == Approx(exact).epsilon(1e-14));
  CHECK(e.uses("x"));
  CHECK_FALSE(e.uses("t"));
}

TEST_CASE("constants are embedded as literals in the C rendering") {
  auto e = Expression::parse("Uinf*sin(x) + 2", xyzt, {{"Uinf", 0.25}}, "test");
  std::string c = e.to_c(Precision::double_);
  CHECK(c.find("0.25") != std::string::npos);
  CHECK(c.find("Uinf") == std::string::npos);
  CHECK(c.find("sin(x)") != std::string::npos);
  std::string f = e.to_c(Precision::single);
  CHECK(f.find("0.25f") != std::string::npos);
  CHECK(f.find("2.0f") != std::string::npos);
}

TEST_CASE("bad expressions are one clear error naming the key") {
  auto bad = [](const std::string& s) {
    try {
      Expression::parse(s, xyzt, {}, "case.toml:7: [ics] rho");
    } catch (const UserError& e) {
      std::string m = e.what();
      CHECK(m.rfind("case.toml:7: [ics] rho: ", 0) == 0);
      CHECK(m.find('\n') == std::string::npos);
      return m;
    }
    FAIL("no error for '" << s << "'");
    return std::string();
  };
  CHECK(bad("1 +").find("ends too early") != std::string::npos);
  CHECK(bad("foo*2").find("unknown name 'foo'") != std::string::npos);
  CHECK(bad("sinn(x)").find("unknown function 'sinn'") != std::string::npos);
  CHECK(bad("atan2(x)").find("takes 2 argument") != std::string::npos);
  CHECK(bad("(x + 1").find("missing ')'") != std::string::npos);
  CHECK(bad("x $ 2").find("unexpected '$'") != std::string::npos);
  CHECK(bad("").find("empty expression") != std::string::npos);
}

TEST_CASE("a bound expression evaluates exactly as the interpreter, slots in any order") {
  // Slots in another order than the parse's variable list, and one unused.
  const std::vector<std::string> slots = {"t", "unused", "z", "y", "x"};
  const double values[] = {0.25, 99.0, 3.0, -2.0, 0.5};
  const std::map<std::string, double> vars = {{"x", 0.5}, {"y", -2}, {"z", 3}, {"t", 0.25}};
  for (const char* text : {"1 + 2*3", "2^3^2", "-x^2 + -(y - z)/t", "x*y + z*t - 8/2/2",
                           "atan2(y, x)*4 + max(x, min(y, z)) - abs(y)",
                           "0.5*(x*x + y*y + z*z)*(1 + sin(t)*cos(x)) - exp(-x)*log(z) + sqrt(z)^x",
                           "((((((((x + 1)*2 + y)*3 + z)*4 + t)*5 - x)*6 + y)*7 - z)*8 + t)"}) {
    auto e = Expression::parse(text, xyzt, {}, "test");
    INFO(text);
    CHECK(e.bind(slots)(values) == e.eval(vars));  // the same operations in the same order
  }
  auto e = Expression::parse("x + y", xyzt, {}, "test");
  CHECK_THROWS(e.bind({"x"}));  // y has no slot: an internal error, not a silent zero
}
