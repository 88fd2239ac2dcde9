// The isentropic Euler vortex (PyFR's 2d-euler-vortex case): S = 13.5, M = 0.4, R = 1.5,
// free stream (0, 1), exact solution the initial one moved by (0, t) on a periodic box.
#pragma once

#include <cmath>
#include <vector>

namespace frmini::test {

struct Vortex {
  double S = 13.5, M = 0.4, R = 1.5, gamma = 1.4, L = 20.0;

  // Primitive (rho, u, v, p) at (x, y) and time t, using the nearest periodic image.
  std::vector<double> prim(double x, double y, double t) const {
    y -= t;
    x -= L * std::round(x / L);
    y -= L * std::round(y / L);
    const double f = (1 - x * x - y * y) / (2 * R * R);
    const double b = 1 - S * S * M * M * (gamma - 1) * std::exp(2 * f) / (8 * M_PI * M_PI);
    const double rho = std::pow(b, 1 / (gamma - 1));
    const double u = S * y * std::exp(f) / (2 * M_PI * R);
    const double v = 1 - S * x * std::exp(f) / (2 * M_PI * R);
    const double p = std::pow(b, gamma / (gamma - 1)) / (gamma * M * M);
    return {rho, u, v, p};
  }
  std::vector<double> cons(double x, double y, double t) const {
    auto w = prim(x, y, t);
    return {w[0], w[0] * w[1], w[0] * w[2], w[3] / (gamma - 1) + 0.5 * w[0] * (w[1] * w[1] + w[2] * w[2])};
  }
};

}  // namespace frmini::test
