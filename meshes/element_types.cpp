#include "meshes/element_types.hpp"

#include <cmath>
#include <stdexcept>

namespace frmini::meshes {

namespace {

// A face is the set of vertices on the supporting plane with outward normal n: those that
// maximise n·v. Deriving faces this way means the face table cannot disagree with the
// vertex table or with the face normals (PyFR's, listed in docs/operators.md).
ShapeInfo make_shape(std::string name, int ndims, std::vector<Point3> verts,
                     std::vector<Point3> normals) {
  ShapeInfo s{std::move(name), ndims, std::move(verts), {}, normals};
  for (const auto& n : normals) {
    double best = -1e300;
    for (const auto& v : s.verts) best = std::max(best, n[0] * v[0] + n[1] * v[1] + n[2] * v[2]);
    std::vector<int> f;
    for (size_t i = 0; i < s.verts.size(); ++i) {
      const auto& v = s.verts[i];
      if (std::abs(n[0] * v[0] + n[1] * v[1] + n[2] * v[2] - best) < 1e-12) f.push_back(int(i));
    }
    s.faces.push_back(f);
  }
  return s;
}

std::vector<ShapeInfo> build() {
  std::vector<ShapeInfo> v;
  v.push_back(make_shape("tri", 2, {{-1, -1, 0}, {1, -1, 0}, {-1, 1, 0}},
                         {{0, -1, 0}, {1, 1, 0}, {-1, 0, 0}}));
  v.push_back(make_shape("quad", 2, {{-1, -1, 0}, {1, -1, 0}, {-1, 1, 0}, {1, 1, 0}},
                         {{0, -1, 0}, {1, 0, 0}, {0, 1, 0}, {-1, 0, 0}}));
  v.push_back(make_shape("tet", 3, {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}},
                         {{0, 0, -1}, {0, -1, 0}, {-1, 0, 0}, {1, 1, 1}}));
  v.push_back(make_shape("pri", 3,
                         {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}},
                         {{0, 0, -1}, {0, 0, 1}, {0, -1, 0}, {1, 1, 0}, {-1, 0, 0}}));
  v.push_back(make_shape("pyr", 3,
                         {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1}, {0, 0, 1}},
                         {{0, 0, -1}, {0, -1, 0.5}, {1, 0, 0.5}, {0, 1, 0.5}, {-1, 0, 0.5}}));
  v.push_back(make_shape("hex", 3,
                         {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                          {-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}, {1, 1, 1}},
                         {{0, 0, -1}, {0, -1, 0}, {1, 0, 0}, {0, 1, 0}, {-1, 0, 0}, {0, 0, 1}}));
  return v;
}

}  // namespace

const std::vector<ShapeInfo>& all_shapes() {
  static const std::vector<ShapeInfo> shapes = build();
  return shapes;
}

const ShapeInfo* find_shape(const std::string& name) {
  for (const auto& s : all_shapes())
    if (s.name == name) return &s;
  return nullptr;
}

const ShapeInfo& shape(const std::string& name) {
  if (const auto* s = find_shape(name)) return *s;
  throw std::out_of_range("unknown element type '" + name + "'");
}

std::vector<Point3> lattice(const std::string& name, int k) {
  if (k < 1) throw std::invalid_argument("lattice: order must be >= 1");
  std::vector<Point3> p;
  auto c = [k](int i) { return -1.0 + 2.0 * i / k; };
  if (name == "quad") {
    for (int j = 0; j <= k; ++j)
      for (int i = 0; i <= k; ++i) p.push_back({c(i), c(j), 0});
  } else if (name == "hex") {
    for (int l = 0; l <= k; ++l)
      for (int j = 0; j <= k; ++j)
        for (int i = 0; i <= k; ++i) p.push_back({c(i), c(j), c(l)});
  } else if (name == "tri") {
    for (int j = 0; j <= k; ++j)
      for (int i = 0; i + j <= k; ++i) p.push_back({c(i), c(j), 0});
  } else if (name == "tet") {
    for (int l = 0; l <= k; ++l)
      for (int j = 0; j + l <= k; ++j)
        for (int i = 0; i + j + l <= k; ++i) p.push_back({c(i), c(j), c(l)});
  } else if (name == "pri") {
    for (int l = 0; l <= k; ++l)
      for (int j = 0; j <= k; ++j)
        for (int i = 0; i + j <= k; ++i) p.push_back({c(i), c(j), c(l)});
  } else if (name == "pyr") {
    // Layer l sits at z = c(l); its cross-section is the square of half-width (k-l)/k, holding
    // an equispaced (k-l+1)^2 grid with the same spacing 2/k as every other layer.
    for (int l = 0; l <= k; ++l)
      for (int j = 0; j <= k - l; ++j)
        for (int i = 0; i <= k - l; ++i)
          p.push_back({(2.0 * i - k + l) / k, (2.0 * j - k + l) / k, c(l)});
  } else {
    throw std::out_of_range("unknown element type '" + name + "'");
  }
  return p;
}

int lattice_size(const std::string& name, int k) {
  int n = k + 1;
  if (name == "quad") return n * n;
  if (name == "hex") return n * n * n;
  if (name == "tri") return n * (n + 1) / 2;
  if (name == "tet") return n * (n + 1) * (n + 2) / 6;
  if (name == "pri") return n * n * (n + 1) / 2;
  if (name == "pyr") return n * (n + 1) * (2 * n + 1) / 6;
  throw std::out_of_range("unknown element type '" + name + "'");
}

int order_from_nnodes(const std::string& name, int nnodes) {
  for (int k = 1; k <= 8; ++k)
    if (lattice_size(name, k) == nnodes) return k;
  return 0;
}

std::string face_shape(const ShapeInfo& s, int f) {
  if (s.ndims == 2) return "line";
  return s.faces.at(f).size() == 3 ? "tri" : "quad";
}

}  // namespace frmini::meshes
