// Small straight-sided test meshes for the export tests: elements of any type mapped by one
// affine map, vertices shared by position, every unshared face on the boundary "wall".
#pragma once

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

#include "meshes/connectivity.hpp"
#include "meshes/element_types.hpp"

namespace frmini::test {

struct TestElement {
  std::string etype;
  std::array<double, 3> shift{};  // added to the reference coordinates before the map
};

// x = A (xi + shift) + b.
struct AffineMap {
  double A[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  double b[3] = {0, 0, 0};
  std::array<double, 3> operator()(const std::array<double, 3>& xi) const {
    std::array<double, 3> x{};
    for (int i = 0; i < 3; ++i) x[i] = b[i] + A[i][0] * xi[0] + A[i][1] * xi[1] + A[i][2] * xi[2];
    return x;
  }
};

inline meshes::Mesh test_mesh(int ndims, const std::vector<TestElement>& els, const AffineMap& m) {
  meshes::RawMesh raw;
  raw.source = "test";
  raw.ndims = ndims;
  std::map<std::array<long, 3>, int64_t> ids;  // vertex position (rounded) -> id
  auto vid = [&](const std::array<double, 3>& x) {
    std::array<long, 3> key{std::lround(x[0] * 1e6), std::lround(x[1] * 1e6), std::lround(x[2] * 1e6)};
    return ids.emplace(key, int64_t(ids.size())).first->second;
  };
  std::map<std::vector<int64_t>, std::pair<int, std::vector<int64_t>>> faces;  // sorted ids
  for (const auto& el : els) {
    auto it = std::find_if(raw.groups.begin(), raw.groups.end(),
                           [&](const auto& g) { return g.etype == el.etype; });
    if (it == raw.groups.end()) {
      raw.groups.push_back({el.etype, 1, {}, {}});
      it = raw.groups.end() - 1;
    }
    const auto& sh = meshes::shape(el.etype);
    auto place = [&](const meshes::Point3& p) {
      return m({p[0] + el.shift[0], p[1] + el.shift[1], p[2] + el.shift[2]});
    };
    for (const auto& p : meshes::lattice(el.etype, 1)) {
      const auto x = place(p);
      for (int d = 0; d < ndims; ++d) it->nodes.push_back(x[std::size_t(d)]);
    }
    std::vector<int64_t> vs;
    for (const auto& v : sh.verts) vs.push_back(vid(place(v)));
    it->verts.insert(it->verts.end(), vs.begin(), vs.end());
    for (const auto& f : sh.faces) {
      std::vector<int64_t> fv;
      for (int i : f) fv.push_back(vs[std::size_t(i)]);
      auto key = fv;
      std::sort(key.begin(), key.end());
      ++faces[key].first;
      faces[key].second = fv;
    }
  }
  meshes::RawMesh::Boundary wall{"wall", {}};
  for (const auto& [k, v] : faces)
    if (v.first == 1) wall.faces.push_back(v.second);
  raw.boundaries.push_back(wall);
  return meshes::build_mesh(raw);
}

}  // namespace frmini::test
