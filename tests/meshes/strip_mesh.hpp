// A hand-built RawMesh for the tests: a strip of n unit quads along x, walls named "wall" at
// y = 0 and y = 1, and the two ends x = 0 and x = n either named periodic_0_l / _r, paired by
// a Gmsh-style periodic transform, or named "inlet" / "outlet".
#pragma once

#include "meshes/connectivity.hpp"
#include "meshes/periodic.hpp"

namespace frmini::meshes::test {

enum class Ends { named_periodic, entity_periodic, boundaries };

inline RawMesh strip_mesh(int n, Ends ends) {
  RawMesh r;
  r.source = "strip";
  r.ndims = 2;
  RawMesh::Group g;
  g.etype = "quad";
  g.order = 1;
  // Vertex ids: bottom row 0..n, top row n+1..2n+1.
  for (int e = 0; e < n; ++e) {
    g.verts.insert(g.verts.end(), {e, e + 1, n + 1 + e, n + 2 + e});
    g.nodes.insert(g.nodes.end(), {double(e), 0, double(e + 1), 0, double(e), 1, double(e + 1), 1});
  }
  r.groups.push_back(g);
  RawMesh::Boundary wall{"wall", {}};
  for (int e = 0; e < n; ++e) {
    wall.faces.push_back({e, e + 1});
    wall.faces.push_back({n + 1 + e, n + 2 + e});
  }
  r.boundaries.push_back(wall);
  if (ends == Ends::named_periodic) {
    r.boundaries.push_back({"periodic_0_l", {{0, n + 1}}});
    r.boundaries.push_back({"periodic_0_r", {{n, 2 * n + 1}}});
    r.named_periodic.push_back({"0", "periodic_0_l", "periodic_0_r"});
  } else if (ends == Ends::entity_periodic) {
    r.entity_periodic.push_back(translation({double(n), 0, 0}));
  } else {
    r.boundaries.push_back({"inlet", {{0, n + 1}}});
    r.boundaries.push_back({"outlet", {{n, 2 * n + 1}}});
  }
  return r;
}

}  // namespace frmini::meshes::test
