// Test support: structured boxes of quads or hexes built in memory (no Gmsh), with optional
// periodic directions (PyFR's periodic_<d>_l / _r naming) and curved elements of geometric
// order k through a smooth map. Boundaries of non-periodic directions are named
// left/right (x), bottom/top (y), back/front (z).
#pragma once

#include <array>
#include <functional>
#include <string>

#include "meshes/connectivity.hpp"
#include "operators/shapes.hpp"

namespace frmini::test {

using PointMap = std::function<std::array<double, 3>(std::array<double, 3>)>;

inline meshes::Mesh make_box(const std::string& etype, int n, double lo, double hi,
                             std::array<bool, 3> periodic, int k = 1, PointMap map = {}) {
  const int nd = etype == "hex" ? 3 : 2;
  const double h = (hi - lo) / n;
  meshes::RawMesh raw;
  raw.source = "test-box";
  raw.ndims = nd;
  meshes::RawMesh::Group grp;
  grp.etype = etype;
  grp.order = k;
  operators::Matrix lat = operators::std_ele(etype, k);
  auto vid = [&](int i, int j, int l) { return int64_t(i) + (n + 1) * (int64_t(j) + (n + 1) * l); };
  const int nz = nd == 3 ? n : 1;
  for (int l = 0; l < nz; ++l)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        for (std::size_t q = 0; q < lat.rows; ++q) {
          std::array<double, 3> x{0, 0, 0};
          int ijk[3] = {i, j, l};
          for (int c = 0; c < nd; ++c) x[c] = lo + (ijk[c] + 0.5 * (lat(q, c) + 1)) * h;
          if (map) x = map(x);
          for (int c = 0; c < nd; ++c) grp.nodes.push_back(x[c]);
        }
        // PyFR vertex order: tensor order, x fastest.
        for (int c = 0; c < (nd == 3 ? 2 : 1); ++c)
          for (int b = 0; b < 2; ++b)
            for (int a = 0; a < 2; ++a) grp.verts.push_back(vid(i + a, j + b, nd == 3 ? l + c : 0));
      }
  raw.groups.push_back(grp);
  const char* names[3][2] = {{"left", "right"}, {"bottom", "top"}, {"back", "front"}};
  for (int d = 0; d < nd; ++d) {
    meshes::RawMesh::Boundary sides[2];
    for (int s = 0; s < 2; ++s) {
      sides[s].name = periodic[d] ? "periodic_" + std::to_string(d) + (s ? "_r" : "_l")
                                  : std::string(names[d][s]);
      const int fixed = s ? n : 0;
      for (int b = 0; b < (nd == 3 ? n : 1); ++b)
        for (int a = 0; a < n; ++a) {
          std::vector<int64_t> f;
          for (int y = 0; y < (nd == 3 ? 2 : 1); ++y)
            for (int x = 0; x < 2; ++x) {
              int ijk[3];
              int other[2] = {(d + 1) % nd, (d + 2) % nd};
              ijk[d] = fixed;
              ijk[other[0]] = a + x;
              if (nd == 3) ijk[other[1]] = b + y;
              f.push_back(vid(ijk[0], ijk[1], nd == 3 ? ijk[2] : 0));
            }
          sides[s].faces.push_back(f);
        }
      raw.boundaries.push_back(sides[s]);
    }
    if (periodic[d])
      raw.named_periodic.push_back({std::to_string(d), sides[0].name, sides[1].name});
  }
  return meshes::build_mesh(raw);
}

}  // namespace frmini::test
