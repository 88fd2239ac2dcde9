#include "operators/shapes.hpp"

#include <map>
#include <stdexcept>

#include "base/error.hpp"
#include "operators/bases.hpp"

namespace frmini::operators {

namespace {

Matrix pts(std::initializer_list<std::initializer_list<double>> rows) {
  Matrix m(rows.size(), rows.begin()->size());
  std::size_t i = 0;
  for (const auto& r : rows) {
    std::size_t j = 0;
    for (double v : r) m(i, j++) = v;
    ++i;
  }
  return m;
}

std::map<std::string, Shape> make_shapes() {
  std::map<std::string, Shape> s;
  s["quad"] = {"quad", 2, pts({{-1, -1}, {1, -1}, {-1, 1}, {1, 1}}),
               {{"line", {0, -1}}, {"line", {1, 0}}, {"line", {0, 1}}, {"line", {-1, 0}}}};
  s["tri"] = {"tri", 2, pts({{-1, -1}, {1, -1}, {-1, 1}}),
              {{"line", {0, -1}}, {"line", {1, 1}}, {"line", {-1, 0}}}};
  s["hex"] = {"hex", 3,
              pts({{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                   {-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}, {1, 1, 1}}),
              {{"quad", {0, 0, -1}}, {"quad", {0, -1, 0}}, {"quad", {1, 0, 0}},
               {"quad", {0, 1, 0}}, {"quad", {-1, 0, 0}}, {"quad", {0, 0, 1}}}};
  s["tet"] = {"tet", 3, pts({{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}}),
              {{"tri", {0, 0, -1}}, {"tri", {0, -1, 0}}, {"tri", {-1, 0, 0}}, {"tri", {1, 1, 1}}}};
  s["pri"] = {"pri", 3,
              pts({{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}}),
              {{"tri", {0, 0, -1}}, {"tri", {0, 0, 1}}, {"quad", {0, -1, 0}},
               {"quad", {1, 1, 0}}, {"quad", {-1, 0, 0}}}};
  s["pyr"] = {"pyr", 3,
              pts({{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1}, {0, 0, 1}}),
              {{"quad", {0, 0, -1}}, {"tri", {0, -1, 0.5}}, {"tri", {1, 0, 0.5}},
               {"tri", {0, 1, 0.5}}, {"tri", {-1, 0, 0.5}}}};
  return s;
}

// One face map, written as PyFR's lambda (same arithmetic).
void proj(const std::string& e, int f, const double* st, double* x) {
  const double s = st[0], t = e == "quad" || e == "tri" ? 0.0 : st[1];
  auto set2 = [&](double a, double b) { x[0] = a, x[1] = b; };
  auto set3 = [&](double a, double b, double c) { x[0] = a, x[1] = b, x[2] = c; };
  if (e == "quad") {
    switch (f) {
      case 0: return set2(s, -1);
      case 1: return set2(1, s);
      case 2: return set2(s, 1);
      case 3: return set2(-1, s);
    }
  } else if (e == "tri") {
    switch (f) {
      case 0: return set2(s, -1);
      case 1: return set2(-s, s);
      case 2: return set2(-1, s);
    }
  } else if (e == "hex") {
    switch (f) {
      case 0: return set3(s, t, -1);
      case 1: return set3(s, -1, t);
      case 2: return set3(1, s, t);
      case 3: return set3(s, 1, t);
      case 4: return set3(-1, s, t);
      case 5: return set3(s, t, 1);
    }
  } else if (e == "tet") {
    switch (f) {
      case 0: return set3(s, t, -1);
      case 1: return set3(s, -1, t);
      case 2: return set3(-1, t, s);
      case 3: return set3(s, t, -s - t - 1);
    }
  } else if (e == "pri") {
    switch (f) {
      case 0: return set3(s, t, -1);
      case 1: return set3(s, t, 1);
      case 2: return set3(s, -1, t);
      case 3: return set3(-s, s, t);
      case 4: return set3(-1, s, t);
    }
  } else if (e == "pyr") {
    switch (f) {
      case 0: return set3(s, t, -1);
      case 1: return set3(s + (t + 1) / 2, (t - 1) / 2, t);
      case 2: return set3((1 - t) / 2, -s - (t + 1) / 2, t);
      case 3: return set3(-s - (t + 1) / 2, (1 - t) / 2, t);
      case 4: return set3((t - 1) / 2, s + (t + 1) / 2, t);
    }
  }
  throw std::invalid_argument("project_face: no face " + std::to_string(f) + " on " + e);
}

std::vector<double> linspace(int k) {
  std::vector<double> v(k + 1);
  // np.linspace(-1, 1, k + 1): start + i·step, with the end point exact.
  for (int i = 0; i <= k; ++i) v[i] = k == 0 ? -1.0 : -1.0 + i * (2.0 / k);
  if (k > 0) v[k] = 1.0;
  return v;
}

}  // namespace

const std::vector<std::string>& element_types() {
  static const std::vector<std::string> t{"quad", "hex", "tri", "tet", "pri", "pyr"};
  return t;
}

const Shape& shape(const std::string& etype) {
  static const std::map<std::string, Shape> shapes = make_shapes();
  auto it = shapes.find(etype);
  if (it == shapes.end())
    throw UserError("operators: unknown element type '" + etype +
                    "' (expected quad, hex, tri, tet, pri or pyr)");
  return it->second;
}

Matrix project_face(const std::string& etype, int face, const Matrix& facepts) {
  const Shape& sh = shape(etype);
  if (face < 0 || face >= static_cast<int>(sh.faces.size()))
    throw std::invalid_argument("project_face: bad face index");
  if (static_cast<int>(facepts.cols) != sh.ndims - 1)
    throw std::invalid_argument("project_face: face points have the wrong dimension");
  Matrix out(facepts.rows, sh.ndims);
  for (std::size_t i = 0; i < facepts.rows; ++i)
    proj(etype, face, &facepts.data[i * facepts.cols], &out.data[i * out.cols]);
  return out;
}

int nupts_for(const std::string& s, int p) { return basis_size(s, p); }

int npts_for_face(const std::string& kind, int p) {
  if (kind == "line" || kind == "tri" || kind == "quad") return basis_size(kind, p);
  throw std::invalid_argument("npts_for_face: unknown face kind '" + kind + "'");
}

int nfpts_for(const std::string& etype, int p) {
  int n = 0;
  for (const auto& f : shape(etype).faces) n += npts_for_face(f.kind, p);
  return n;
}

int order_from_npts(const std::string& s, int npts) {
  for (int p = 0; p <= 14; ++p)
    if (nupts_for(s, p) == npts) return p;
  return -1;
}

Matrix std_ele(const std::string& s, int k) {
  if (k < 0) throw std::invalid_argument("std_ele: negative order");
  std::vector<std::vector<double>> out;
  if (s == "line") {
    for (double x : linspace(k)) out.push_back({x});
  } else if (s == "quad") {
    const auto p1 = linspace(k);
    for (double y : p1)
      for (double x : p1) out.push_back({x, y});
  } else if (s == "hex") {
    const auto p1 = linspace(k);
    for (double z : p1)
      for (double y : p1)
        for (double x : p1) out.push_back({x, y, z});
  } else if (s == "tri") {
    const auto p1 = linspace(k);
    for (int i = 0; i <= k; ++i)
      for (int j = 0; j <= k - i; ++j) out.push_back({p1[j], p1[i]});
  } else if (s == "tet") {
    const auto p1 = linspace(k);
    for (int i = 0; i <= k; ++i)
      for (int j = 0; j <= k - i; ++j)
        for (int l = 0; l <= k - i - j; ++l) out.push_back({p1[l], p1[j], p1[i]});
  } else if (s == "pri") {
    const auto p1 = linspace(k);
    for (double z : p1)
      for (int i = 0; i <= k; ++i)
        for (int j = 0; j <= k - i; ++j) out.push_back({p1[j], p1[i], z});
  } else if (s == "pyr") {
    // Layer i (z = pts1d[2i]) holds the (k−i+1)^2 points pts1d[i : n−i : 2] in x and y.
    const int n1 = 2 * k + 1;
    const auto p1 = linspace(n1 - 1);
    for (int i = 0; i <= k; ++i)
      for (int q = i; q < n1 - i; q += 2)
        for (int r = i; r < n1 - i; r += 2) out.push_back({p1[r], p1[q], p1[2 * i]});
  } else {
    throw std::invalid_argument("std_ele: unknown shape '" + s + "'");
  }
  const int nd = shape_ndims(s);
  Matrix m(out.size(), nd);
  for (std::size_t i = 0; i < out.size(); ++i)
    for (int j = 0; j < nd; ++j) m(i, j) = out[i][j];
  return m;
}

}  // namespace frmini::operators
