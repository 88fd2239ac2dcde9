// PyFR's reference elements: faces derived from the normals must be PyFR's face numbering, and
// the std_ele lattices must have PyFR's sizes and x-fastest order.
#include <set>

#include "meshes/element_types.hpp"
#include "tests/frmini_catch.hpp"

using namespace frmini::meshes;

namespace {
std::set<int> as_set(const std::vector<int>& v) { return {v.begin(), v.end()}; }
}  // namespace

TEST_CASE("face vertex lists follow PyFR's numbering", "[meshes]") {
  // quad: 0 y=-1, 1 x=+1, 2 y=+1, 3 x=-1 (tensor vertex order).
  const auto& q = shape("quad");
  CHECK(as_set(q.faces[0]) == std::set<int>{0, 1});
  CHECK(as_set(q.faces[1]) == std::set<int>{1, 3});
  CHECK(as_set(q.faces[2]) == std::set<int>{2, 3});
  CHECK(as_set(q.faces[3]) == std::set<int>{0, 2});
  const auto& t = shape("tri");
  CHECK(as_set(t.faces[0]) == std::set<int>{0, 1});
  CHECK(as_set(t.faces[1]) == std::set<int>{1, 2});
  CHECK(as_set(t.faces[2]) == std::set<int>{0, 2});
  const auto& h = shape("hex");
  CHECK(as_set(h.faces[0]) == std::set<int>{0, 1, 2, 3});
  CHECK(as_set(h.faces[1]) == std::set<int>{0, 1, 4, 5});
  CHECK(as_set(h.faces[2]) == std::set<int>{1, 3, 5, 7});
  CHECK(as_set(h.faces[3]) == std::set<int>{2, 3, 6, 7});
  CHECK(as_set(h.faces[4]) == std::set<int>{0, 2, 4, 6});
  CHECK(as_set(h.faces[5]) == std::set<int>{4, 5, 6, 7});
  const auto& te = shape("tet");
  CHECK(as_set(te.faces[0]) == std::set<int>{0, 1, 2});
  CHECK(as_set(te.faces[1]) == std::set<int>{0, 1, 3});
  CHECK(as_set(te.faces[2]) == std::set<int>{0, 2, 3});
  CHECK(as_set(te.faces[3]) == std::set<int>{1, 2, 3});
  const auto& p = shape("pri");
  CHECK(as_set(p.faces[0]) == std::set<int>{0, 1, 2});
  CHECK(as_set(p.faces[1]) == std::set<int>{3, 4, 5});
  CHECK(as_set(p.faces[2]) == std::set<int>{0, 1, 3, 4});
  CHECK(as_set(p.faces[3]) == std::set<int>{1, 2, 4, 5});
  CHECK(as_set(p.faces[4]) == std::set<int>{0, 2, 3, 5});
  const auto& y = shape("pyr");
  CHECK(as_set(y.faces[0]) == std::set<int>{0, 1, 2, 3});
  CHECK(as_set(y.faces[1]) == std::set<int>{0, 1, 4});
  CHECK(as_set(y.faces[2]) == std::set<int>{1, 3, 4});
  CHECK(as_set(y.faces[3]) == std::set<int>{2, 3, 4});
  CHECK(as_set(y.faces[4]) == std::set<int>{0, 2, 4});
  CHECK(face_shape(y, 0) == "quad");
  CHECK(face_shape(y, 1) == "tri");
  CHECK(face_shape(q, 0) == "line");
}

TEST_CASE("std_ele lattices have PyFR's sizes and order", "[meshes]") {
  // Gmsh's complete element node counts for orders 1-4.
  const std::vector<std::pair<std::string, std::vector<int>>> sizes = {
      {"tri", {3, 6, 10, 15}}, {"quad", {4, 9, 16, 25}},   {"tet", {4, 10, 20, 35}},
      {"pri", {6, 18, 40, 75}}, {"pyr", {5, 14, 30, 55}}, {"hex", {8, 27, 64, 125}}};
  for (const auto& [name, n] : sizes)
    for (int k = 1; k <= 4; ++k) {
      CHECK(lattice_size(name, k) == n[k - 1]);
      CHECK(int(lattice(name, k).size()) == n[k - 1]);
      CHECK(order_from_nnodes(name, n[k - 1]) == k);
    }
  auto q = lattice("quad", 2);  // x fastest
  CHECK(q[1] == Point3{0, -1, 0});
  CHECK(q[3] == Point3{-1, 0, 0});
  auto t = lattice("tri", 2);
  CHECK(t[2] == Point3{1, -1, 0});
  CHECK(t[3] == Point3{-1, 0, 0});
  CHECK(t[5] == Point3{-1, 1, 0});
  auto p = lattice("pyr", 2);  // base 3x3, then 2x2 at z = 0, then the apex
  CHECK(p[9] == Point3{-0.5, -0.5, 0});
  CHECK(p[13] == Point3{0, 0, 1});
  // Every reference vertex is a lattice node.
  for (const auto& s : all_shapes())
    for (const auto& v : s.verts) {
      auto lat = lattice(s.name, 3);
      CHECK(std::find(lat.begin(), lat.end(), v) != lat.end());
    }
}
