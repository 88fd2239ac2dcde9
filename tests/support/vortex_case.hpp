// Test support: the text of a small case file, the isentropic vortex on a periodic 4 x 4 box of
// quads at p = 2 with RK4 steps of 0.05 (as tests/solver/cases/small-vortex.toml), without
// plugins: a test appends the ones it needs. Unsteady, so a wrong weight, window or flux shows.
#pragma once

#include <string>

namespace frmini::test {

inline std::string vortex_case_text(const std::string& riemann_solver = "hllc") {
  return R"toml(
[backend]
matmul = "generated"
[constants]
S = 13.5
M = 0.4
R = 1.5
[mesh]
generator = "box-quad"
[mesh.options]
n = 4
length = 20.0
[solver]
system = "euler"
order = 2
riemann-solver = ")toml" + riemann_solver + R"toml("
[time]
scheme = "rk4"
dt = 0.05
tend = 1.0
[ics]
rho = "(1 - S^2*M^2*(gamma - 1)*exp(2*(1 - (x-10)^2 - (y-10)^2)/(2*R^2))/(8*pi^2))^(1/(gamma - 1))"
u = "S*(y-10)*exp((1 - (x-10)^2 - (y-10)^2)/(2*R^2))/(2*pi*R)"
v = "1 - S*(x-10)*exp((1 - (x-10)^2 - (y-10)^2)/(2*R^2))/(2*pi*R)"
p = "(1 - S^2*M^2*(gamma - 1)*exp(2*(1 - (x-10)^2 - (y-10)^2)/(2*R^2))/(8*pi^2))^(gamma/(gamma - 1))/(gamma*M^2)"
)toml";
}

}  // namespace frmini::test
