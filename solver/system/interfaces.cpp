#include "solver/system/interfaces.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <tuple>

#include "base/error.hpp"

namespace frmini::solver {

namespace {

// The flux points of each face of a group: face -> [first, count) in the fpts numbering.
std::vector<std::pair<int, int>> face_ranges(const std::vector<int>& fpts_face) {
  std::vector<std::pair<int, int>> r;
  for (int i = 0; i < int(fpts_face.size()); ++i) {
    int f = fpts_face[i];
    if (int(r.size()) <= f) r.resize(f + 1, {i, 0});
    if (r[f].second == 0) r[f].first = i;
    ++r[f].second;
  }
  return r;
}

struct Side {
  const GroupGeometry* geo;
  int64_t elem;
  int fpt;
};

// Value c of a (npts, ndims, neles) panel.
double at(const std::vector<double>& p, const GroupGeometry& g, int i, int c, int64_t e) {
  return p[(std::size_t(i) * g.ndims + c) * std::size_t(g.neles) + std::size_t(e)];
}

std::string where(const meshes::Mesh& m, int g, int64_t e, int f) {
  std::ostringstream o;
  o << m.groups[g].etype << " element " << e << " face " << f;
  return o.str();
}

// Reorders the points of an interface list so that consecutive points are the same flux point
// of consecutive elements (PyFR orders its views the same way): the left side then reads and
// writes each panel row as one stream, and on a structured mesh so does the right side, where
// the element order of the mesh would jump between the 16-96 rows of one element.
template <class List>
void stream_order(List& l, bool paired) {
  const std::size_t n = l.left.size();
  std::vector<std::size_t> perm(n);
  for (std::size_t i = 0; i < n; ++i) perm[i] = i;
  std::stable_sort(perm.begin(), perm.end(), [&](std::size_t a, std::size_t b) {
    const FacePoint &x = l.left[a], &y = l.left[b];
    return std::tie(x.group, x.fpt, x.elem) < std::tie(y.group, y.fpt, y.elem);
  });
  auto permute = [&](auto& v, std::size_t width) {
    auto old = v;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t c = 0; c < width; ++c) v[i * width + c] = old[perm[i] * width + c];
  };
  permute(l.left, 1);
  if constexpr (requires { l.right; })
    if (paired) permute(l.right, 1);
  permute(l.nrm, std::size_t(l.ndims));
  permute(l.magn, 1);
  if constexpr (requires { l.ploc; }) permute(l.ploc, std::size_t(l.ndims));
}

void add_normal(std::vector<double>& nrm, std::vector<double>& magn, const GroupGeometry& geo,
                int fpt, int64_t e) {
  double l = 0;
  for (int c = 0; c < geo.ndims; ++c) l += std::pow(at(geo.pnorm_fpts, geo, fpt, c, e), 2);
  l = std::sqrt(l);
  for (int c = 0; c < geo.ndims; ++c) nrm.push_back(at(geo.pnorm_fpts, geo, fpt, c, e) / l);
  magn.push_back(l);
}

// For each point of xl (n points of nd coordinates) the point of xr at the same place, each
// taken once; empty if some point has none. The tolerance is relative to the face's extent and
// distance from the origin (faces of a single point, p = 0 in 2D, have no extent).
std::vector<int> pair_points(const std::vector<double>& xl, const std::vector<double>& xr, int n, int nd) {
  double size = 0;
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < nd; ++c)
      size = std::max({size, std::abs(xl[i * nd + c] - xl[c]), std::abs(xl[i * nd + c])});
  const double tol = 1e-6 * std::max(size, 1e-300);
  std::vector<int> match(static_cast<std::size_t>(n));
  std::vector<char> taken(std::size_t(n), 0);
  for (int i = 0; i < n; ++i) {
    int best = -1;
    double bd = 0;
    for (int j = 0; j < n; ++j) {
      double d = 0;
      for (int c = 0; c < nd; ++c) d += std::pow(xl[i * nd + c] - xr[j * nd + c], 2);
      if (best < 0 || d < bd) best = j, bd = d;
    }
    if (std::sqrt(bd) > tol || taken[std::size_t(best)]) return {};
    taken[std::size_t(best)] = 1;
    match[std::size_t(i)] = best;
  }
  return match;
}

}  // namespace

Interfaces build_interfaces(const meshes::Mesh& mesh, const std::vector<GroupGeometry>& geos,
                            const std::vector<std::vector<int>>& fpts_face,
                            const std::vector<std::vector<int64_t>>* numbers) {
  // The element numbers that break ties: the whole mesh's, so a part takes each of its own
  // pairs from the same side as a run on one part (one-sided LDG reads that side).
  auto number = [&](int g, int64_t e) { return numbers ? (*numbers)[std::size_t(g)][std::size_t(e)] : e; };
  const int nd = mesh.ndims;
  Interfaces out;
  out.internal.ndims = nd;
  out.boundaries.resize(mesh.boundaries.size());
  for (std::size_t b = 0; b < mesh.boundaries.size(); ++b) {
    out.boundaries[b].name = mesh.boundaries[b];
    out.boundaries[b].ndims = nd;
  }
  std::vector<std::vector<std::pair<int, int>>> ranges;
  for (const auto& ff : fpts_face) ranges.push_back(face_ranges(ff));

  for (int g = 0; g < int(mesh.groups.size()); ++g) {
    const auto& grp = mesh.groups[g];
    const GroupGeometry& geo = geos[g];
    for (int64_t e = 0; e < grp.neles; ++e)
      for (int f = 0; f < grp.nfaces; ++f) {
        const auto& link = grp.link(e, f);
        auto [f0, nf] = ranges[g][f];
        if (link.kind == meshes::FaceLink::remote) continue;
        if (link.kind == meshes::FaceLink::boundary) {
          auto& bi = out.boundaries[link.index];
          for (int i = f0; i < f0 + nf; ++i) {
            bi.left.push_back({g, i, e});
            add_normal(bi.nrm, bi.magn, geo, i, e);
            for (int c = 0; c < nd; ++c) bi.ploc.push_back(at(geo.ploc_fpts, geo, i, c, e));
          }
          continue;
        }
        // Each internal or periodic pair once, from the side with the lower face number
        // (then group, element): on a structured mesh every element is then the left side
        // of the same faces, so each of those faces' flux-point rows is left side complete,
        // every element in order, and streams as whole vectors (stream_order).
        const int rg = link.index;
        const int64_t re = link.elem;
        const int rf = link.face;
        if (std::tuple(f, g, number(g, e)) > std::tuple(rf, rg, number(rg, re))) continue;
        const GroupGeometry& rgeo = geos[rg];
        auto [r0, rn] = ranges[rg][rf];
        if (rn != nf)
          throw UserError("mesh: " + where(mesh, g, e, f) + " and " + where(mesh, rg, re, rf) +
                          " have different numbers of flux points");
        // Left points, moved onto the right face by the periodic transform if there is one.
        std::vector<double> xl(std::size_t(nf) * nd), xr(std::size_t(nf) * nd);
        for (int i = 0; i < nf; ++i) {
          double p[3] = {0, 0, 0};
          for (int c = 0; c < nd; ++c) p[c] = at(geo.ploc_fpts, geo, f0 + i, c, e);
          if (link.kind == meshes::FaceLink::periodic) {
            const auto& t = mesh.transforms[link.transform];
            double q[3];
            for (int r = 0; r < 3; ++r) q[r] = t[r * 4 + 0] * p[0] + t[r * 4 + 1] * p[1] + t[r * 4 + 2] * p[2] + t[r * 4 + 3];
            for (int c = 0; c < 3; ++c) p[c] = q[c];
          }
          for (int c = 0; c < nd; ++c) {
            xl[i * nd + c] = p[c];
            xr[i * nd + c] = at(rgeo.ploc_fpts, rgeo, r0 + i, c, re);
          }
        }
        const std::vector<int> match = pair_points(xl, xr, nf, nd);
        if (match.empty())
          throw UserError("mesh: the flux points of " + where(mesh, g, e, f) + " and " +
                          where(mesh, rg, re, rf) + " do not coincide (non-conforming faces)");
        for (int i = 0; i < nf; ++i) {
          const int best = match[std::size_t(i)];
          out.internal.left.push_back({g, f0 + i, e});
          out.internal.right.push_back({rg, r0 + best, re});
          add_normal(out.internal.nrm, out.internal.magn, geo, f0 + i, e);
        }
      }
  }
  stream_order(out.internal, true);
  for (auto& b : out.boundaries) stream_order(b, false);
  return out;
}

namespace {

struct SharedFace {
  const meshes::RemoteFace* r;
  bool me_left;                          // this side is the one-part run's left side
  int set;                               // 0: the left side is on the lower part
  std::tuple<int32_t, int32_t, int64_t> key;  // the left side's global face, group, element
};

// Per neighbouring part, the faces shared with it in the order both parts list them.
std::map<int, std::vector<SharedFace>> shared_faces(const meshes::MeshPart& part) {
  std::map<int, std::vector<SharedFace>> out;
  for (const auto& r : part.remote) {
    const auto mine = std::tuple(r.face, r.ggroup, r.gelem);
    const auto theirs = std::tuple(r.nbr_face, r.nbr_ggroup, r.nbr_gelem);
    const bool me_left = mine < theirs;
    const int left_part = me_left ? part.part : r.part;
    out[r.part].push_back({&r, me_left, left_part == std::min(part.part, r.part) ? 0 : 1,
                           me_left ? mine : theirs});
  }
  for (auto& [p, faces] : out)
    std::sort(faces.begin(), faces.end(), [](const SharedFace& a, const SharedFace& b) {
      return std::tie(a.set, a.key) < std::tie(b.set, b.key);
    });
  return out;
}

}  // namespace

std::map<int, std::vector<double>> mpi_face_positions(const meshes::MeshPart& part,
                                                      const std::vector<GroupGeometry>& geos,
                                                      const std::vector<std::vector<int>>& fpts_face) {
  const int nd = part.mesh.ndims;
  std::map<int, std::vector<double>> out;
  for (const auto& [p, faces] : shared_faces(part)) {
    auto& x = out[p];
    for (const auto& sf : faces) {
      if (!sf.me_left) continue;
      const auto& geo = geos[std::size_t(sf.r->group)];
      const auto [f0, nf] = face_ranges(fpts_face[std::size_t(sf.r->group)])[std::size_t(sf.r->face)];
      for (int i = f0; i < f0 + nf; ++i)
        for (int c = 0; c < nd; ++c) x.push_back(at(geo.ploc_fpts, geo, i, c, sf.r->elem));
    }
  }
  return out;
}

std::vector<MpiInterfaces> build_mpi_interfaces(const meshes::MeshPart& part,
                                                const std::vector<GroupGeometry>& geos,
                                                const std::vector<std::vector<int>>& fpts_face,
                                                const std::map<int, std::vector<double>>& received) {
  const int nd = part.mesh.ndims;
  std::vector<std::vector<std::pair<int, int>>> ranges;
  for (const auto& ff : fpts_face) ranges.push_back(face_ranges(ff));
  std::vector<MpiInterfaces> out;
  for (const auto& [p, faces] : shared_faces(part)) {
    MpiInterfaces mi;
    mi.part = p, mi.ndims = nd, mi.lower = part.part < p;
    auto it = received.find(p);
    const std::vector<double> none;
    const std::vector<double>& xl_all = it == received.end() ? none : it->second;
    std::size_t off = 0;
    for (const auto& sf : faces) {
      const int g = sf.r->group;
      const int64_t e = sf.r->elem;
      const auto& geo = geos[std::size_t(g)];
      const auto [f0, nf] = ranges[std::size_t(g)][std::size_t(sf.r->face)];
      std::vector<int> order(static_cast<std::size_t>(nf));
      for (int i = 0; i < nf; ++i) order[std::size_t(i)] = i;
      if (!sf.me_left) {
        // The left side's points, as the other part sent them; this side's paired to them.
        if (xl_all.size() < off + std::size_t(nf * nd))
          throw UserError("mpi: part " + std::to_string(p) + " sent fewer flux-point positions than "
                          "the faces it shares with part " + std::to_string(part.part) + " have");
        std::vector<double> xl(xl_all.begin() + std::ptrdiff_t(off),
                               xl_all.begin() + std::ptrdiff_t(off + std::size_t(nf * nd)));
        off += std::size_t(nf * nd);
        std::vector<double> xr(std::size_t(nf * nd));
        for (int i = 0; i < nf; ++i)
          for (int c = 0; c < nd; ++c) xr[std::size_t(i * nd + c)] = at(geo.ploc_fpts, geo, f0 + i, c, e);
        order = pair_points(xl, xr, nf, nd);
        if (order.empty())
          throw UserError("mpi: the flux points of " + where(part.mesh, g, e, sf.r->face) + " on part " +
                          std::to_string(part.part) + " and of its neighbour on part " +
                          std::to_string(p) + " do not coincide");
      }
      for (int i = 0; i < nf; ++i) {
        const int fpt = f0 + order[std::size_t(i)];
        mi.left.push_back({g, fpt, e});
        add_normal(mi.nrm, mi.magn, geo, fpt, e);
      }
      if (sf.set == 0) mi.nfirst = mi.left.size();
    }
    if (off != xl_all.size())
      throw UserError("mpi: part " + std::to_string(p) + " sent more flux-point positions than the "
                      "faces it shares with part " + std::to_string(part.part) + " have");
    out.push_back(std::move(mi));
  }
  return out;
}

}  // namespace frmini::solver
