#include "meshes/quadrature.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace frmini::meshes {

void gauss_legendre(int n, std::vector<double>& x, std::vector<double>& w) {
  x.assign(n, 0.0);
  w.assign(n, 0.0);
  for (int i = 0; i < n; ++i) {
    double z = std::cos(std::numbers::pi * (i + 0.75) / (n + 0.5)), dp = 0.0;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1.0, p1 = z;
      for (int k = 2; k <= n; ++k) {
        double p2 = ((2.0 * k - 1) * z * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      if (n == 1) p0 = 1.0, p1 = z;
      dp = n * (z * p1 - p0) / (z * z - 1.0);
      double dz = p1 / dp;
      z -= dz;
      if (std::abs(dz) < 1e-16) break;
    }
    x[n - 1 - i] = z;
    w[n - 1 - i] = 2.0 / ((1.0 - z * z) * dp * dp);
  }
}

Quadrature quadrature(const std::string& etype, int n) {
  std::vector<double> g, gw;
  gauss_legendre(n, g, gw);
  Quadrature q;
  auto add = [&q](double x, double y, double z, double w) {
    q.pts.push_back({x, y, z});
    q.wts.push_back(w);
  };
  if (etype == "quad" || etype == "tri") {
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        double u = g[i], v = g[j], w = gw[i] * gw[j];
        if (etype == "quad") add(u, v, 0, w);
        else add((1 + u) * (1 - v) / 2 - 1, v, 0, w * (1 - v) / 2);
      }
  } else if (etype == "hex" || etype == "tet" || etype == "pri" || etype == "pyr") {
    for (int l = 0; l < n; ++l)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          double u = g[i], v = g[j], s = g[l], w = gw[i] * gw[j] * gw[l];
          if (etype == "hex") add(u, v, s, w);
          else if (etype == "pri") add((1 + u) * (1 - v) / 2 - 1, v, s, w * (1 - v) / 2);
          else if (etype == "pyr") add(u * (1 - s) / 2, v * (1 - s) / 2, s, w * (1 - s) * (1 - s) / 4);
          else
            add((1 + u) * (1 - v) * (1 - s) / 4 - 1, (1 + v) * (1 - s) / 2 - 1, s,
                w * (1 - v) * (1 - s) * (1 - s) / 8);
        }
  } else {
    throw std::out_of_range("quadrature: unknown element type '" + etype + "'");
  }
  return q;
}

}  // namespace frmini::meshes
