// Face matching: internal neighbours, named boundaries, periodic pairs (by PyFR naming and by
// Gmsh's periodic transform) and the errors for meshes that do not close.
#include <cmath>

#include "base/error.hpp"
#include "meshes/connectivity.hpp"
#include "strip_mesh.hpp"
#include "tests/frmini_catch.hpp"

using namespace frmini::meshes;
using frmini::UserError;

TEST_CASE("a quad strip with walls and named ends", "[meshes]") {
  Mesh m = build_mesh(test::strip_mesh(3, test::Ends::boundaries));
  REQUIRE(m.groups.size() == 1);
  const auto& g = m.groups[0];
  CHECK(g.neles == 3);
  CHECK(m.boundaries == std::vector<std::string>{"inlet", "outlet", "wall"});
  // Element 1: face 3 (x = -1) meets face 1 (x = +1) of element 0.
  CHECK(g.link(1, 3).kind == FaceLink::internal);
  CHECK(g.link(1, 3).elem == 0);
  CHECK(g.link(1, 3).face == 1);
  CHECK(g.link(0, 3).kind == FaceLink::boundary);
  CHECK(m.boundaries[size_t(g.link(0, 3).index)] == "inlet");
  CHECK(m.boundaries[size_t(g.link(2, 2).index)] == "wall");
  auto fc = count_faces(m);
  CHECK(fc.internal == 2);
  CHECK(fc.periodic == 0);
  CHECK(fc.boundary == std::vector<int64_t>{1, 1, 6});
}

TEST_CASE("periodic ends, by name and by transform, give the same pairs", "[meshes]") {
  for (auto ends : {test::Ends::named_periodic, test::Ends::entity_periodic}) {
    Mesh m = build_mesh(test::strip_mesh(3, ends));
    const auto& g = m.groups[0];
    CHECK(m.boundaries == std::vector<std::string>{"wall"});  // periodic names are not BCs
    const auto& l = g.link(0, 3);
    REQUIRE(l.kind == FaceLink::periodic);
    CHECK(l.elem == 2);
    CHECK(l.face == 1);
    // The transform of element 0's face maps it onto element 2's (x + 3), and back.
    const Affine& t = m.transforms.at(size_t(l.transform));
    CHECK(std::abs(t[3] - 3.0) < 1e-12);
    CHECK(std::abs(m.transforms.at(size_t(g.link(2, 1).transform))[3] + 3.0) < 1e-12);
    CHECK(count_faces(m).periodic == 1);
  }
}

TEST_CASE("meshes that do not close are refused with a clear message", "[meshes]") {
  auto r = test::strip_mesh(3, test::Ends::boundaries);
  r.boundaries[0].faces.pop_back();  // one wall face lost
  CHECK_THROWS_WITH(build_mesh(r), Catch::Matchers::Contains("1 element faces are unmatched") &&
                                       Catch::Matchers::Contains("face 2 of quad 2"));
  auto r1 = test::strip_mesh(3, test::Ends::boundaries);
  r1.boundaries.clear();  // a file without physical groups for its boundaries
  CHECK_THROWS_WITH(build_mesh(r1), Catch::Matchers::Contains("8 element faces are unmatched") &&
                                        Catch::Matchers::Contains("names no boundaries"));
  auto r2 = test::strip_mesh(3, test::Ends::boundaries);
  r2.groups[0].verts.insert(r2.groups[0].verts.end(), {0, 1, 4, 5});  // a duplicate of element 0
  r2.groups[0].nodes.insert(r2.groups[0].nodes.end(), {0, 0, 1, 0, 0, 1, 1, 1});
  CHECK_THROWS_WITH(build_mesh(r2), Catch::Matchers::Contains("shared by more than two"));
  auto r3 = test::strip_mesh(3, test::Ends::named_periodic);
  r3.boundaries[2].faces[0] = {1, 5};  // periodic_0_r moved inside: no translation partner
  CHECK_THROWS_AS(build_mesh(r3), UserError);
  auto r4 = test::strip_mesh(2, test::Ends::boundaries);
  std::swap(r4.groups[0].nodes[0], r4.groups[0].nodes[2]);  // element 0's x flipped: inverted
  std::swap(r4.groups[0].nodes[4], r4.groups[0].nodes[6]);
  CHECK_THROWS_WITH(build_mesh(r4), Catch::Matchers::Contains("non-positive Jacobians"));
}
