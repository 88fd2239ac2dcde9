#include "meshes/mesh_part.hpp"

#include <string>

#include "base/error.hpp"

namespace frmini::meshes {

MeshPart extract_part(const Mesh& whole, const std::vector<std::vector<int32_t>>& parts, int nparts,
                      int part) {
  if (parts.size() != whole.groups.size())
    throw UserError("mesh partitioning: " + std::to_string(parts.size()) + " groups of part numbers for a mesh of " +
                    std::to_string(whole.groups.size()) + " element groups");
  MeshPart out;
  out.part = part, out.nparts = nparts;
  out.total_elements = whole.total_elements();
  Mesh& m = out.mesh;
  m.ndims = whole.ndims;
  m.boundaries = whole.boundaries;
  m.transforms = whole.transforms;
  m.uuid = whole.uuid;
  // The part's elements and, for every element of the whole mesh, its place in the part.
  std::vector<int32_t> lgroup(whole.groups.size(), -1);
  std::vector<std::vector<int64_t>> local(whole.groups.size());
  for (std::size_t g = 0; g < whole.groups.size(); ++g) {
    const auto& wg = whole.groups[g];
    if (int64_t(parts[g].size()) != wg.neles)
      throw UserError("mesh partitioning: group " + wg.etype + " has " + std::to_string(wg.neles) +
                      " elements but " + std::to_string(parts[g].size()) + " part numbers");
    local[g].assign(std::size_t(wg.neles), -1);
    std::vector<int64_t> mine, inner;
    for (int64_t e = 0; e < wg.neles; ++e) {
      const int32_t p = parts[g][std::size_t(e)];
      if (p < 0 || p >= nparts)
        throw UserError("mesh partitioning: part " + std::to_string(p) + " of " + wg.etype + " element " +
                        std::to_string(e) + " is not in [0, " + std::to_string(nparts) + ")");
      if (p != part) continue;
      bool halo = false;
      for (int f = 0; f < wg.nfaces && !halo; ++f) {
        const FaceLink l = wg.link(e, f);
        if (l.kind == FaceLink::internal) {
          const auto& np = parts.at(std::size_t(l.index));
          halo = std::size_t(l.elem) < np.size() && np[std::size_t(l.elem)] != part;
        }
      }
      (halo ? mine : inner).push_back(e);
    }
    if (mine.empty() && inner.empty()) continue;
    out.nhalo.push_back(int64_t(mine.size()));
    mine.insert(mine.end(), inner.begin(), inner.end());
    for (std::size_t i = 0; i < mine.size(); ++i) local[g][std::size_t(mine[i])] = int64_t(i);
    lgroup[g] = int32_t(m.groups.size());
    out.ggroup.push_back(int32_t(g));
    ElementGroup lg;
    lg.etype = wg.etype, lg.order = wg.order, lg.nnodes = wg.nnodes, lg.nfaces = wg.nfaces;
    lg.neles = int64_t(mine.size());
    const std::size_t nn = std::size_t(wg.nnodes) * std::size_t(whole.ndims);
    for (int64_t e : mine) {
      lg.nodes.insert(lg.nodes.end(), wg.nodes.begin() + std::ptrdiff_t(std::size_t(e) * nn),
                      wg.nodes.begin() + std::ptrdiff_t(std::size_t(e + 1) * nn));
      lg.curved.push_back(wg.curved[std::size_t(e)]);
    }
    m.groups.push_back(std::move(lg));
    out.gelem.push_back(std::move(mine));
  }
  // Links: inside the part renumbered, across parts remote.
  for (std::size_t lg = 0; lg < m.groups.size(); ++lg) {
    auto& grp = m.groups[lg];
    const std::size_t g = std::size_t(out.ggroup[lg]);
    const auto& wg = whole.groups[g];
    grp.faces.resize(std::size_t(grp.neles) * std::size_t(grp.nfaces));
    for (int64_t e = 0; e < grp.neles; ++e) {
      const int64_t ge = out.gelem[lg][std::size_t(e)];
      for (int f = 0; f < grp.nfaces; ++f) {
        FaceLink l = wg.link(ge, f);
        if (l.kind == FaceLink::internal || l.kind == FaceLink::periodic) {
          const int32_t p = parts[std::size_t(l.index)][std::size_t(l.elem)];
          if (p == part) {
            l.elem = int32_t(local[std::size_t(l.index)][std::size_t(l.elem)]);
            l.index = lgroup[std::size_t(l.index)];
          } else if (l.kind == FaceLink::periodic) {
            throw UserError("mesh partitioning: the periodic partners " + wg.etype + " element " +
                            std::to_string(ge) + " face " + std::to_string(f) + " and " +
                            whole.groups[std::size_t(l.index)].etype + " element " +
                            std::to_string(l.elem) + " lie on different parts (repartition with frmini "
                            "partition, which keeps periodic partners together)");
          } else {
            RemoteFace r;
            r.group = int32_t(lg), r.elem = e, r.face = f, r.part = p;
            r.ggroup = int32_t(g), r.gelem = ge;
            r.nbr_ggroup = l.index, r.nbr_gelem = l.elem, r.nbr_face = l.face;
            l = FaceLink{FaceLink::remote, int32_t(out.remote.size()), -1, -1, -1};
            out.remote.push_back(r);
          }
        }
        grp.link(e, f) = l;
      }
    }
  }
  return out;
}

}  // namespace frmini::meshes
