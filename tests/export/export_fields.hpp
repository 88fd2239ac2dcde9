// Solution files made in memory for the export and sampler tests: primitive values given as a
// function of position, set at the solution points of any mesh, and a context with the case
// physics export needs.
#pragma once

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "meshes/mesh.hpp"
#include "operators/operators.hpp"
#include "solver/export/export.hpp"
#include "solver/io/solution_file.hpp"
#include "solver/system/geometry.hpp"
#include "tests/export/export_meshes.hpp"

namespace frmini::test {

using Prim = std::function<std::array<double, 5>(double, double, double)>;  // rho u v w p
inline constexpr double kGamma = 1.4;

// A solution of order p set at the solution points from primitive values.
inline solver::SolutionFile make_solution(const meshes::Mesh& m, int p, const Prim& f,
                                   bool primitive_mean = false) {
  solver::SolutionFile s;
  s.config_name = "test";
  s.mesh_uuid = m.uuid;
  s.system = "euler";
  s.order = p;
  s.ndims = m.ndims;
  s.nvars = m.ndims + 2;
  s.variables = primitive_mean ? "primitive-mean" : "conserved";
  const int nd = m.ndims, nv = s.nvars;
  for (const auto& g : m.groups) {
    const auto ops = operators::build_operators(g.etype, p);
    const auto ploc = solver::ploc_at(g, nd, ops.upts);
    const std::size_t ne = std::size_t(g.neles), nu = std::size_t(ops.nupts);
    std::vector<double> u(ne * std::size_t(nv) * nu);
    for (std::size_t e = 0; e < ne; ++e)
      for (std::size_t i = 0; i < nu; ++i) {
        double x[3] = {0, 0, 0};
        for (int c = 0; c < nd; ++c) x[c] = ploc[(i * std::size_t(nd) + std::size_t(c)) * ne + e];
        const auto q = f(x[0], x[1], x[2]);
        auto at = [&](int v) -> double& { return u[(e * std::size_t(nv) + std::size_t(v)) * nu + i]; };
        double vv = 0;
        for (int d = 0; d < nd; ++d) vv += q[std::size_t(d) + 1] * q[std::size_t(d) + 1];
        at(0) = q[0];
        for (int d = 0; d < nd; ++d)
          at(d + 1) = primitive_mean ? q[std::size_t(d) + 1] : q[0] * q[std::size_t(d) + 1];
        at(nv - 1) = primitive_mean ? q[4] : q[4] / (kGamma - 1) + 0.5 * q[0] * vv;
      }
    s.etypes.push_back(g.etype);
    s.shapes.push_back({ne, std::size_t(nv), nu});
    s.soln.push_back(std::move(u));
  }
  return s;
}

inline solver::exporter::SolutionContext make_context(const meshes::Mesh& m) {
  solver::exporter::SolutionContext c;
  c.mesh = m;
  c.phys.ndims = m.ndims;
  c.phys.gamma = kGamma;
  c.constants = {{"Uinf", 2.0}, {"Pinf", 3.0}};
  return c;
}

inline double poly(double x, double y, double z, int p) {
  // A full polynomial of total degree p.
  double v = 1.0;
  if (p >= 1) v += 0.3 * x - 0.2 * y + 0.1 * z;
  if (p >= 2) v += 0.05 * x * y - 0.04 * z * z + 0.03 * x * x + 0.02 * y * z;
  if (p >= 3) v += 0.01 * x * y * z - 0.02 * x * x * x + 0.015 * y * y * x + 0.01 * z * z * z;
  return v;
}

// Two elements of one type side by side in x (sharing a face), through a sheared, stretched,
// shifted map so that nothing is axis-aligned; the map is returned through map_out.
inline solver::exporter::SolutionContext single_type_mesh(const std::string& etype, test::AffineMap* map_out = nullptr) {
  test::AffineMap m;
  const bool is3d = !(etype == "quad" || etype == "tri");
  // A sheared, stretched, shifted map (positive determinant) so nothing is axis-aligned.
  double A[3][3] = {{1.3, 0.2, 0.1}, {-0.1, 0.9, 0.3}, {0.05, -0.2, 1.1}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m.A[i][j] = (is3d || (i < 2 && j < 2)) ? A[i][j] : (i == j);
  m.b[0] = 0.5;
  m.b[1] = -0.25;
  m.b[2] = is3d ? 0.125 : 0.0;
  if (map_out) *map_out = m;
  // Two elements side by side in x (sharing a face).
  return make_context(test::test_mesh(is3d ? 3 : 2, {{etype, {0, 0, 0}}, {etype, {2, 0, 0}}}, m));
}

}  // namespace frmini::test
