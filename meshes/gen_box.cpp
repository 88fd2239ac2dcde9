// Fully periodic boxes [0, L0] x [0, L1] (x [0, L2]) through Gmsh's OpenCASCADE kernel:
// transfinite (structured) where the element type allows, Gmsh periodic constraints on every
// pair of opposite sides, so the import finds the pairs through Gmsh's periodic information.
#include <gmsh.h>

#include <array>
#include <cmath>

#include "base/error.hpp"
#include "meshes/gen_internal.hpp"

namespace frmini::meshes::gen {

namespace {

using Box = std::array<double, 6>;

Box bbox(int dim, int tag) {
  Box b;
  gmsh::model::getBoundingBox(dim, tag, b[0], b[1], b[2], b[3], b[4], b[5]);
  return b;
}

std::vector<int> in_box(int dim, const Box& b, double e) {
  gmsh::vectorpair out;
  gmsh::model::getEntitiesInBoundingBox(b[0] - e, b[1] - e, b[2] - e, b[3] + e, b[4] + e, b[5] + e,
                                        out, dim);
  std::vector<int> tags;
  for (auto [d, t] : out) tags.push_back(t);
  return tags;
}

// Pairs every side entity at x_d = L_d with its image at x_d = 0 by bounding boxes. MSH 2.2
// files keep Gmsh's periodic information only for entities with node pairs, which structured
// (transfinite) faces lack, so for them the sides are also named periodic_<x|y|z>_l / _r.
void make_periodic(int dim, const std::array<double, 3>& L, bool named) {
  const double e = 1e-6 * (L[0] + L[1] + L[2]);
  for (int d = 0; d < dim; ++d) {
    Box lo{0, 0, 0, L[0], L[1], L[2]}, hi = lo;
    lo[3 + d] = 0;
    hi[d] = L[d];
    std::vector<double> t = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    t[4 * d + 3] = L[d];
    std::vector<int> left, right;
    for (int s : in_box(dim - 1, hi, e)) {
      Box bs = bbox(dim - 1, s);
      for (int m : in_box(dim - 1, lo, e)) {
        Box bm = bbox(dim - 1, m);
        bool same = true;
        for (int c = 0; c < 6; ++c) same = same && std::abs(bm[c] + (c % 3 == d ? L[d] : 0) - bs[c]) < e;
        if (!same) continue;
        gmsh::model::mesh::setPeriodic(dim - 1, {s}, {m}, t);
        left.push_back(m);
        right.push_back(s);
      }
    }
    if (!named) continue;
    const std::string axis(1, "xyz"[d]);
    gmsh::model::setPhysicalName(dim - 1, gmsh::model::addPhysicalGroup(dim - 1, left),
                                 "periodic_" + axis + "_l");
    gmsh::model::setPhysicalName(dim - 1, gmsh::model::addPhysicalGroup(dim - 1, right),
                                 "periodic_" + axis + "_r");
  }
}

}  // namespace

void build_box(const GeneratorOptions& o) {
  const std::string kind = o.name.substr(4);
  const int dim = (kind == "quad" || kind == "tri") ? 2 : 3;
  std::array<long, 3> n{4, 4, 4};
  std::array<double, 3> L{1, 1, 1};
  if (!o.n.empty()) {
    if (o.n.size() != 1 && o.n.size() != size_t(dim))
      throw UserError("mesh " + o.name + ": --n takes 1 or " + std::to_string(dim) + " values");
    for (int d = 0; d < 3; ++d) n[d] = o.n[o.n.size() == 1 ? 0 : std::min<size_t>(d, o.n.size() - 1)];
  }
  if (!o.length.empty()) {
    if (o.length.size() != 1 && o.length.size() != size_t(dim))
      throw UserError("mesh " + o.name + ": --length takes 1 or " + std::to_string(dim) + " values");
    for (int d = 0; d < 3; ++d)
      L[d] = o.length[o.length.size() == 1 ? 0 : std::min<size_t>(d, o.length.size() - 1)];
  }
  for (int d = 0; d < dim; ++d) {
    if (n[d] < 1 || n[d] > 1000) throw UserError("mesh " + o.name + ": --n must be in [1, 1000]");
    if (!(L[d] > 0)) throw UserError("mesh " + o.name + ": --length must be positive");
  }
  if (dim == 2) L[2] = 0;
  const double e = 1e-6 * (L[0] + L[1] + L[2]);
  // The mixed box: four z layers - prisms, unstructured tets, hexes, unstructured tets (Gmsh
  // puts pyramids where tets meet the hexes' quads).
  const bool mixed = kind == "mixed3d";
  const int nlayers = mixed ? 4 : 1;
  const long nzl = mixed ? std::max(1L, (n[2] + 3) / 4) : n[2];
  if (dim == 2) {
    gmsh::model::occ::addRectangle(0, 0, 0, L[0], L[1]);
  } else {
    std::vector<std::pair<int, int>> vols;
    for (int l = 0; l < nlayers; ++l)
      vols.push_back({3, gmsh::model::occ::addBox(0, 0, l * L[2] / nlayers, L[0], L[1], L[2] / nlayers)});
    if (nlayers > 1) {
      gmsh::vectorpair out;
      std::vector<gmsh::vectorpair> map;
      gmsh::model::occ::fragment({vols[0]}, {vols.begin() + 1, vols.end()}, out, map);
    }
  }
  gmsh::model::occ::synchronize();

  // Curves: cell counts by direction (z cells per layer in the mixed box).
  gmsh::vectorpair curves;
  gmsh::model::getEntities(curves, 1);
  for (auto [d, t] : curves) {
    Box b = bbox(1, t);
    int dir = 0;
    for (int c = 1; c < 3; ++c)
      if (b[3 + c] - b[c] > b[3 + dir] - b[dir]) dir = c;
    gmsh::model::mesh::setTransfiniteCurve(t, int((dir == 2 ? nzl : n[dir]) + 1));
  }
  auto layer_box = [&](int l) {
    return Box{0, 0, l * L[2] / nlayers, L[0], L[1], (l + 1) * L[2] / nlayers};
  };
  const bool recombine_all = kind == "quad" || kind == "hex";
  if (dim == 2) {
    gmsh::model::mesh::setTransfiniteSurface(1);
    if (recombine_all) gmsh::model::mesh::setRecombine(2, 1);
  } else {
    for (int l = 0; l < nlayers; ++l) {
      // Structured layers: the whole box for hex/tet/pri; layers 0 (prisms) and 2 (hexes) of
      // the mixed box. Unstructured tets take their size from the curves.
      std::string lk = mixed ? (l == 0 ? "pri" : l == 2 ? "hex" : "unstructured") : kind;
      if (lk == "unstructured") continue;
      Box lb = layer_box(l);
      for (int s : in_box(2, lb, e)) {
        gmsh::model::mesh::setTransfiniteSurface(s);
        Box b = bbox(2, s);
        bool horizontal = b[5] - b[2] < e;  // a z = const face
        if (lk == "hex" || (lk == "pri" && !horizontal)) gmsh::model::mesh::setRecombine(2, s);
      }
      for (int v : in_box(3, lb, e)) {
        gmsh::model::mesh::setTransfiniteVolume(v);
        if (lk != "tet") gmsh::model::mesh::setRecombine(3, v);
      }
    }
    if (mixed) {
      gmsh::option::setNumber("Mesh.MeshSizeMax", std::min({L[0] / n[0], L[1] / n[1], L[2] / n[2]}));
    }
  }
  make_periodic(dim, L, o.msh_version == "2.2");
  gmsh::vectorpair ents;
  gmsh::model::getEntities(ents, dim);
  std::vector<int> tags;
  for (auto [d, t] : ents) tags.push_back(t);
  int g = gmsh::model::addPhysicalGroup(dim, tags);
  gmsh::model::setPhysicalName(dim, g, "fluid");
  gmsh::model::mesh::generate(dim);
  gmsh::model::mesh::setOrder(o.order ? o.order : 1);
}

}  // namespace frmini::meshes::gen
