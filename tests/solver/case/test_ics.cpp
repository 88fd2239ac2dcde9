// The initial condition is compiled into a kernel and evaluated on the device; the expression
// interpreter on the host is the independent oracle it must match (2D and 3D, cpu and opencl,
// double and single).
#include <cmath>
#include <string>

#include "kernels/backend.hpp"
#include "solver/case/case.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/support/backends.hpp"

using namespace frmini;

namespace {

std::string case_text(const std::string& generator, const std::string& precision) {
  return "[backend]\nprecision = \"" + precision + "\"\n"
         "[constants]\nS = 13.5\nM = 0.4\nR = 1.5\n"
         "[mesh]\ngenerator = \"" + generator + "\"\n[mesh.options]\nn = 3\nlength = 20.0\n"
         "[solver]\nsystem = \"euler\"\norder = 2\n"
         "[time]\nscheme = \"rk4\"\ndt = 0.01\ntend = 1.0\n"
         "[ics]\n"
         "rho = \"(1 - S^2*M^2*(gamma - 1)*exp(2*(1 - (x-10)^2 - (y-10)^2)/(2*R^2))/(8*pi^2))^(1/(gamma - 1))\"\n"
         "u = \"S*(y-10)*exp((1 - (x-10)^2 - (y-10)^2)/(2*R^2))/(2*pi*R)\"\n"
         "v = \"1 - S*(x-10)*exp((1 - (x-10)^2 - (y-10)^2)/(2*R^2))/(2*pi*R)\"\n"
         "w = \"0.1*sin(z/3)\"\n"
         "p = \"(1 + 0.01*z)/(gamma*M^2)\"\n";
}

}  // namespace

TEST_CASE("initial conditions on the device equal the host interpreter's") {
  const auto backends = test::cpu_and_opencl();
  for (std::string gen : {"box-quad", "box-hex"})
    for (std::string prec : {"double", "single"})
      for (const auto& name : backends) {
        INFO(gen << " " << prec << " " << name);
        auto k = solver::load_case_text(case_text(gen, prec), "ics-test.toml");
        auto be = kernels::make_backend(name);
        solver::System sys(*be, k.mesh, k.sys);
        k.set_initial_solution(sys, 0);
        auto dev = sys.download_solution(0);
        auto host = k.initial_solution(sys);
        REQUIRE(dev.size() == host.size());
        double d = 0, m = 0;
        for (std::size_t g = 0; g < dev.size(); ++g)
          for (std::size_t i = 0; i < dev[g].size(); ++i) {
            d = std::max(d, std::abs(dev[g][i] - host[g][i]) / std::max(1.0, std::abs(host[g][i])));
            m = std::max(m, std::abs(host[g][i]));
          }
        CHECK(m > 1.0);  // the comparison is not between zeros
        CHECK(d <= (prec == "double" ? 1e-13 : 2e-6));
      }
}
