#include "meshes/periodic.hpp"

#include <cmath>
#include <stdexcept>
#include <unordered_map>

namespace frmini::meshes {

Affine identity_affine() { return {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}; }

Affine translation(const Point3& d) {
  Affine t = identity_affine();
  t[3] = d[0];
  t[7] = d[1];
  t[11] = d[2];
  return t;
}

Point3 apply(const Affine& t, const Point3& p) {
  Point3 r;
  for (int i = 0; i < 3; ++i) r[i] = t[4 * i] * p[0] + t[4 * i + 1] * p[1] + t[4 * i + 2] * p[2] + t[4 * i + 3];
  return r;
}

Affine inverse(const Affine& t) {
  // Inverse of [A b; 0 1] is [A^-1, -A^-1 b; 0 1].
  const double a = t[0], b = t[1], c = t[2], d = t[4], e = t[5], f = t[6], g = t[8], h = t[9],
               i = t[10];
  double det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  if (std::abs(det) < 1e-14) throw std::runtime_error("singular periodic transform");
  double m[9] = {(e * i - f * h) / det,  -(b * i - c * h) / det, (b * f - c * e) / det,
                 -(d * i - f * g) / det, (a * i - c * g) / det,  -(a * f - c * d) / det,
                 (d * h - e * g) / det,  -(a * h - b * g) / det, (a * e - b * d) / det};
  Affine r = identity_affine();
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 3; ++col) r[4 * row + col] = m[3 * row + col];
    r[4 * row + 3] = -(m[3 * row] * t[3] + m[3 * row + 1] * t[7] + m[3 * row + 2] * t[11]);
  }
  return r;
}

bool nearly_equal(const Affine& a, const Affine& b, double tol) {
  for (int i = 0; i < 16; ++i)
    if (std::abs(a[i] - b[i]) > tol) return false;
  return true;
}

namespace {
struct CellHash {
  size_t operator()(const std::array<int64_t, 3>& c) const {
    return size_t(c[0] * 73856093) ^ size_t(c[1] * 19349663) ^ size_t(c[2] * 83492791);
  }
};
}  // namespace

std::vector<int64_t> match_through_transform(const std::vector<FaceGeom>& from,
                                             const std::vector<FaceGeom>& to, const Affine& t,
                                             double tol) {
  // Cells of size 4*tol: a match lies in the same or a neighbouring cell.
  const double h = 4 * tol;
  auto cell = [h](const Point3& p) {
    return std::array<int64_t, 3>{int64_t(std::floor(p[0] / h)), int64_t(std::floor(p[1] / h)),
                                  int64_t(std::floor(p[2] / h))};
  };
  std::unordered_map<std::array<int64_t, 3>, std::vector<int64_t>, CellHash> grid;
  for (size_t i = 0; i < to.size(); ++i) grid[cell(to[i].centroid)].push_back(int64_t(i));
  auto close = [tol](const Point3& a, const Point3& b) {
    return std::abs(a[0] - b[0]) <= tol && std::abs(a[1] - b[1]) <= tol && std::abs(a[2] - b[2]) <= tol;
  };
  std::vector<int64_t> out(from.size(), -1);
  for (size_t i = 0; i < from.size(); ++i) {
    const FaceGeom& f = from[i];
    Point3 c = apply(t, f.centroid);
    auto c0 = cell(c);
    for (int dx = -1; dx <= 1 && out[i] < 0; ++dx)
      for (int dy = -1; dy <= 1 && out[i] < 0; ++dy)
        for (int dz = -1; dz <= 1 && out[i] < 0; ++dz) {
          auto it = grid.find({c0[0] + dx, c0[1] + dy, c0[2] + dz});
          if (it == grid.end()) continue;
          for (int64_t j : it->second) {
            const FaceGeom& g = to[size_t(j)];
            if (g.nv != f.nv || !close(c, g.centroid)) continue;
            bool all = true;
            for (int a = 0; a < f.nv && all; ++a) {
              Point3 p = apply(t, f.v[a]);
              bool found = false;
              for (int b = 0; b < g.nv; ++b) found = found || close(p, g.v[b]);
              all = found;
            }
            if (all) {
              out[i] = j;
              break;
            }
          }
        }
  }
  return out;
}

}  // namespace frmini::meshes
