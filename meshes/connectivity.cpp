#include "meshes/connectivity.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <unordered_map>
#include <utility>

#include "base/error.hpp"
#include "meshes/element_types.hpp"
#include "meshes/geometry.hpp"
#include "meshes/periodic.hpp"

namespace frmini::meshes {

namespace {

using FaceKey = std::array<int64_t, 4>;  // sorted vertex ids, padded with -1

struct KeyHash {
  size_t operator()(const FaceKey& k) const {
    uint64_t h = 1469598103934665603ULL;
    for (int64_t v : k) h = (h ^ uint64_t(v)) * 1099511628211ULL;
    return size_t(h);
  }
};

FaceKey make_key(const int64_t* v, size_t n) {
  FaceKey k{-1, -1, -1, -1};
  n = std::min<size_t>(n, k.size());  // faces have at most 4 vertices
  for (size_t i = 0; i < n; ++i) k[i] = v[i];
  // Insertion sort of at most four values: std::sort's inlined 16-element path makes GCC 12
  // warn of an out-of-bounds subscript here under the sanitizers' instrumentation.
  for (size_t i = 1; i < n; ++i)
    for (size_t j = i; j > 0 && k[j - 1] > k[j]; --j) std::swap(k[j - 1], k[j]);
  return k;
}

struct FaceRef {
  int32_t g, e, f;
};

std::string where(const Mesh& m, const FaceRef& r, const FaceGeom& geo) {
  std::ostringstream o;
  o << "face " << r.f << " of " << m.groups[r.g].etype << " " << r.e << " at (" << geo.centroid[0]
    << ", " << geo.centroid[1];
  if (m.ndims == 3) o << ", " << geo.centroid[2];
  o << ")";
  return o.str();
}

class Matcher {
 public:
  explicit Matcher(RawMesh& raw) : raw_(raw) {}
  Mesh run();

 private:
  FaceGeom geometry(const FaceRef& r) const;
  FaceKey key(const FaceRef& r) const;
  FaceLink& link(const FaceRef& r) { return m_.groups[r.g].link(r.e, r.f); }
  int add_transform(const Affine& t);
  void pair_periodic(const FaceRef& a, const FaceRef& b, const Affine& t);
  void match_internal();
  void match_named_periodic();
  void match_entity_periodic();
  void match_boundaries();

  RawMesh& raw_;
  Mesh m_;
  std::vector<std::vector<int>> vnodes_;   // per group: lattice index of each vertex
  std::vector<FaceRef> all_;               // every element face
  std::unordered_map<FaceKey, int, KeyHash> bmap_;  // boundary face -> raw boundary index
  std::vector<int64_t> bcount_;
  double tol_ = 0.0;
};

FaceKey Matcher::key(const FaceRef& r) const {
  const auto& s = shape(m_.groups[r.g].etype);
  const auto& fv = s.faces[r.f];
  int64_t v[4];
  const int64_t* ev = raw_.groups[r.g].verts.data() + size_t(r.e) * s.verts.size();
  for (size_t i = 0; i < fv.size(); ++i) v[i] = ev[fv[i]];
  return make_key(v, fv.size());
}

FaceGeom Matcher::geometry(const FaceRef& r) const {
  const auto& g = m_.groups[r.g];
  const auto& fv = shape(g.etype).faces[r.f];
  FaceGeom fg;
  fg.nv = int(fv.size());
  const int d = m_.ndims;
  for (size_t i = 0; i < fv.size(); ++i) {
    const double* x = g.nodes.data() + (size_t(r.e) * g.nnodes + vnodes_[r.g][fv[i]]) * d;
    for (int c = 0; c < d; ++c) {
      fg.v[i][c] = x[c];
      fg.centroid[c] += x[c] / double(fv.size());
    }
  }
  return fg;
}

int Matcher::add_transform(const Affine& t) {
  for (size_t i = 0; i < m_.transforms.size(); ++i)
    if (nearly_equal(m_.transforms[i], t, tol_)) return int(i);
  m_.transforms.push_back(t);
  return int(m_.transforms.size() - 1);
}

void Matcher::pair_periodic(const FaceRef& a, const FaceRef& b, const Affine& t) {
  int ta = add_transform(t), tb = add_transform(inverse(t));
  link(a) = {FaceLink::periodic, b.g, b.e, b.f, ta};
  link(b) = {FaceLink::periodic, a.g, a.e, a.f, tb};
}

void Matcher::match_internal() {
  std::unordered_map<FaceKey, FaceRef, KeyHash> seen;
  seen.reserve(all_.size());
  for (const auto& r : all_) {
    auto [it, fresh] = seen.try_emplace(key(r), r);
    if (fresh) continue;
    const FaceRef o = it->second;
    if (link(o).kind != FaceLink::unset)
      throw UserError(raw_.source + ": " + where(m_, r, geometry(r)) +
                      " is shared by more than two elements");
    link(o) = {FaceLink::internal, r.g, r.e, r.f, -1};
    link(r) = {FaceLink::internal, o.g, o.e, o.f, -1};
  }
}

void Matcher::match_named_periodic() {
  for (const auto& np : raw_.named_periodic) {
    int li = -1, ri = -1;
    for (size_t i = 0; i < raw_.boundaries.size(); ++i) {
      if (raw_.boundaries[i].name == np.left) li = int(i);
      if (raw_.boundaries[i].name == np.right) ri = int(i);
    }
    std::vector<FaceRef> lf, rf;
    std::vector<FaceGeom> lg, rg;
    for (const auto& r : all_) {
      if (link(r).kind != FaceLink::unset) continue;
      auto it = bmap_.find(key(r));
      if (it == bmap_.end()) continue;
      if (it->second == li) lf.push_back(r), lg.push_back(geometry(r));
      if (it->second == ri) rf.push_back(r), rg.push_back(geometry(r));
    }
    if (lf.empty() || lf.size() != rf.size())
      throw UserError(raw_.source + ": periodic pair '" + np.id + "': '" + np.left + "' has " +
                      std::to_string(lf.size()) + " faces and '" + np.right + "' has " +
                      std::to_string(rf.size()));
    // PyFR's convention: the two sides differ by a translation, the offset of their centroids.
    Point3 off{0, 0, 0};
    for (size_t i = 0; i < lf.size(); ++i)
      for (int c = 0; c < 3; ++c) off[c] += (rg[i].centroid[c] - lg[i].centroid[c]) / double(lf.size());
    Affine t = translation(off);
    auto match = match_through_transform(lg, rg, t, tol_);
    for (size_t i = 0; i < lf.size(); ++i) {
      if (match[i] < 0 || link(rf[size_t(match[i])]).kind != FaceLink::unset)
        throw UserError(raw_.source + ": periodic pair '" + np.id + "': " +
                        where(m_, lf[i], lg[i]) + " on '" + np.left +
                        "' has no partner on '" + np.right + "'");
      pair_periodic(lf[i], rf[size_t(match[i])], t);
    }
  }
}

void Matcher::match_entity_periodic() {
  for (const Affine& t : raw_.entity_periodic) {
    std::vector<FaceRef> cand;
    std::vector<FaceGeom> geo;
    for (const auto& r : all_)
      if (link(r).kind == FaceLink::unset) cand.push_back(r), geo.push_back(geometry(r));
    auto match = match_through_transform(geo, geo, t, tol_);
    for (size_t i = 0; i < cand.size(); ++i) {
      if (match[i] < 0 || size_t(match[i]) == i) continue;
      const FaceRef& b = cand[size_t(match[i])];
      if (link(cand[i]).kind != FaceLink::unset || link(b).kind != FaceLink::unset) continue;
      pair_periodic(cand[i], b, t);
    }
  }
}

void Matcher::match_boundaries() {
  int64_t nunmatched = 0;
  std::string first;
  for (const auto& r : all_) {
    if (link(r).kind != FaceLink::unset) continue;
    auto it = bmap_.find(key(r));
    if (it != bmap_.end()) {
      link(r) = {FaceLink::boundary, it->second, -1, -1, -1};
      ++bcount_[size_t(it->second)];
    } else if (nunmatched++ == 0) {
      first = where(m_, r, geometry(r));
    }
  }
  if (nunmatched)
    throw UserError(raw_.source + ": " + std::to_string(nunmatched) +
                    " element faces are unmatched (no neighbour, named boundary or periodic "
                    "partner); the first is " + first +
                    (raw_.boundaries.empty() ? " (the file names no boundaries: give them Gmsh "
                                               "physical groups of dimension " +
                                                   std::to_string(raw_.ndims - 1) + ")"
                                             : ""));
}

Mesh Matcher::run() {
  m_.ndims = raw_.ndims;
  // Groups in alphabetical order of type, as PyFR; boundaries alphabetical too.
  std::sort(raw_.groups.begin(), raw_.groups.end(),
            [](const auto& a, const auto& b) { return a.etype < b.etype; });
  std::sort(raw_.boundaries.begin(), raw_.boundaries.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  for (size_t gi = 0; gi < raw_.groups.size(); ++gi) {
    auto& rg = raw_.groups[gi];
    const auto& s = shape(rg.etype);
    ElementGroup g;
    g.etype = rg.etype;
    g.order = rg.order;
    g.nnodes = lattice_size(rg.etype, rg.order);
    g.nfaces = int(s.faces.size());
    g.neles = int64_t(rg.verts.size() / s.verts.size());
    if (g.neles > INT32_MAX) throw UserError(raw_.source + ": too many elements");
    g.nodes = std::move(rg.nodes);
    g.faces.assign(size_t(g.neles) * g.nfaces, FaceLink{});
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      int c = int(i % size_t(m_.ndims));
      lo[c] = std::min(lo[c], g.nodes[i]);
      hi[c] = std::max(hi[c], g.nodes[i]);
    }
    auto lat = lattice(g.etype, g.order);
    std::vector<int> vn;
    for (const auto& v : s.verts)
      for (size_t i = 0; i < lat.size(); ++i)
        if (lat[i] == v) vn.push_back(int(i));
    vnodes_.push_back(vn);
    for (int64_t e = 0; e < g.neles; ++e)
      for (int f = 0; f < g.nfaces; ++f) all_.push_back({int32_t(gi), int32_t(e), f});
    m_.groups.push_back(std::move(g));
  }
  double diag = 0.0;
  for (int c = 0; c < m_.ndims; ++c) diag += (hi[c] - lo[c]) * (hi[c] - lo[c]);
  tol_ = 1e-6 * std::sqrt(diag);

  for (size_t b = 0; b < raw_.boundaries.size(); ++b)
    for (const auto& f : raw_.boundaries[b].faces) {
      auto [it, fresh] = bmap_.try_emplace(make_key(f.data(), f.size()), int(b));
      if (!fresh && it->second != int(b))
        throw UserError(raw_.source + ": a face belongs to both boundaries '" +
                        raw_.boundaries[size_t(it->second)].name + "' and '" +
                        raw_.boundaries[b].name + "'");
    }
  bcount_.assign(raw_.boundaries.size(), 0);

  match_internal();
  match_named_periodic();
  match_entity_periodic();
  match_boundaries();

  // Keep the boundaries that own faces; renumber the links.
  std::vector<int> remap(raw_.boundaries.size(), -1);
  for (size_t b = 0; b < raw_.boundaries.size(); ++b)
    if (bcount_[b] > 0) {
      remap[b] = int(m_.boundaries.size());
      m_.boundaries.push_back(raw_.boundaries[b].name);
    }
  for (auto& g : m_.groups)
    for (auto& l : g.faces)
      if (l.kind == FaceLink::boundary) l.index = remap[size_t(l.index)];

  check_jacobians(m_, raw_.source);
  for (auto& g : m_.groups) g.curved = curved_flags(g, m_.ndims);
  m_.uuid = mesh_uuid(m_);
  return std::move(m_);
}

}  // namespace

void check_jacobians(const Mesh& m, const std::string& source) {
  for (const auto& g : m.groups) {
    auto geo = analyse_group(g, m.ndims);
    if (geo.n_bad == 0) continue;
    std::ostringstream o;
    const double* x = g.nodes.data() + size_t(geo.first_bad) * g.nnodes * m.ndims;
    o << source << ": " << geo.n_bad << " " << g.etype
      << " elements have non-positive Jacobians (inverted or degenerate); the first is "
      << g.etype << " " << geo.first_bad << " with a node at (" << x[0] << ", " << x[1];
    if (m.ndims == 3) o << ", " << x[2];
    o << ")";
    throw UserError(o.str());
  }
}

Mesh build_mesh(RawMesh raw) {
  if (raw.groups.empty()) throw UserError(raw.source + ": the mesh has no elements");
  return Matcher(raw).run();
}

}  // namespace frmini::meshes
