// Parts of a partitioned mesh (meshes/mesh_part.hpp) and the interfaces they share
// (MpiInterfaces): every part's flux-point pairs, those inside it and those across parts, are
// exactly the whole mesh's interface pairs with the same orientation, on a curved quad/tri
// mesh and on a periodic hex/prism/tet/pyramid box split three ways.
#include <map>
#include <set>
#include <tuple>

#include "base/error.hpp"
#include "meshes/mesh_part.hpp"
#include "meshes/partition.hpp"
#include "operators/operators.hpp"
#include "solver/system/geometry.hpp"
#include "solver/system/interfaces.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/support/box_mesh.hpp"
#include "tests/support/generated_mesh.hpp"

using namespace frmini;

namespace {


struct Geo {
  std::vector<solver::GroupGeometry> geos;
  std::vector<std::vector<int>> fpts_face;
};
Geo geometry(const meshes::Mesh& m, int order) {
  Geo r;
  for (const auto& g : m.groups) {
    auto ops = operators::build_operators(g.etype, order);
    r.geos.push_back(solver::compute_geometry(g, m.ndims, ops));
    r.fpts_face.push_back(ops.fpts_face);
  }
  return r;
}

using GPoint = std::tuple<int, int64_t, int>;  // whole-mesh group, element, flux point

void check_parts(const meshes::Mesh& whole, const std::vector<std::vector<int32_t>>& parts, int nparts) {
  const int order = 2;
  const Geo wg = geometry(whole, order);
  const auto wi = solver::build_interfaces(whole, wg.geos, wg.fpts_face);
  std::map<GPoint, GPoint> want;  // left -> right
  for (std::size_t k = 0; k < wi.internal.size(); ++k) {
    const auto &l = wi.internal.left[k], &r = wi.internal.right[k];
    want[{l.group, l.elem, l.fpt}] = {r.group, r.elem, r.fpt};
  }
  std::vector<meshes::MeshPart> mp;
  std::vector<Geo> geos;
  std::vector<std::map<int, std::vector<double>>> sent;
  int64_t nel = 0;
  for (int p = 0; p < nparts; ++p) {
    mp.push_back(meshes::extract_part(whole, parts, nparts, p));
    const auto& part = mp.back();
    for (std::size_t g = 0; g < part.mesh.groups.size(); ++g) {
      const auto& lg = part.mesh.groups[g];
      const auto& og = whole.groups[std::size_t(part.ggroup[g])];
      nel += lg.neles;
      // The same nodes as the whole mesh's element.
      const std::size_t nn = std::size_t(lg.nnodes * whole.ndims);
      for (int64_t e = 0; e < lg.neles; ++e)
        for (std::size_t i = 0; i < nn; ++i)
          REQUIRE(lg.nodes[std::size_t(e) * nn + i] == og.nodes[std::size_t(part.gelem[g][std::size_t(e)]) * nn + i]);
    }
    geos.push_back(geometry(part.mesh, order));
    sent.push_back(solver::mpi_face_positions(part, geos.back().geos, geos.back().fpts_face));
  }
  CHECK(nel == whole.total_elements());
  // Route the positions: what part q sent p.
  std::map<GPoint, GPoint> got;
  std::size_t nmpi = 0;
  std::vector<std::vector<solver::MpiInterfaces>> mpi(static_cast<std::size_t>(nparts));
  for (int p = 0; p < nparts; ++p) {
    std::map<int, std::vector<double>> recv;
    for (int q = 0; q < nparts; ++q)
      if (sent[std::size_t(q)].count(p)) recv[q] = sent[std::size_t(q)].at(p);
    mpi[std::size_t(p)] = solver::build_mpi_interfaces(mp[std::size_t(p)], geos[std::size_t(p)].geos,
                                                       geos[std::size_t(p)].fpts_face, recv);
    // This part's own pairs, in whole-mesh numbers.
    const auto& part = mp[std::size_t(p)];
    auto glob = [&](const solver::FacePoint& f) {
      return GPoint{part.ggroup[std::size_t(f.group)], part.gelem[std::size_t(f.group)][std::size_t(f.elem)], f.fpt};
    };
    const auto li = solver::build_interfaces(part.mesh, geos[std::size_t(p)].geos, geos[std::size_t(p)].fpts_face,
                                             &part.gelem);
    for (std::size_t k = 0; k < li.internal.size(); ++k) got[glob(li.internal.left[k])] = glob(li.internal.right[k]);
  }
  // Across parts: point k of p's list for q and point k of q's list for p are a pair, the left
  // one on the side as_left() says.
  for (int p = 0; p < nparts; ++p)
    for (const auto& mi : mpi[std::size_t(p)]) {
      const int q = mi.part;
      if (q < p) continue;
      const solver::MpiInterfaces* other = nullptr;
      for (const auto& o : mpi[std::size_t(q)])
        if (o.part == p) other = &o;
      REQUIRE(other != nullptr);
      REQUIRE(other->size() == mi.size());
      CHECK(other->nfirst == mi.nfirst);
      const auto [lb, le] = mi.as_left();
      for (std::size_t k = 0; k < mi.size(); ++k) {
        const auto& fp = mi.left[k];
        const auto& fq = other->left[k];
        const GPoint a{mp[std::size_t(p)].ggroup[std::size_t(fp.group)], mp[std::size_t(p)].gelem[std::size_t(fp.group)][std::size_t(fp.elem)], fp.fpt};
        const GPoint b{mp[std::size_t(q)].ggroup[std::size_t(fq.group)], mp[std::size_t(q)].gelem[std::size_t(fq.group)][std::size_t(fq.elem)], fq.fpt};
        const bool p_left = k >= lb && k < le;
        if (p_left) got[a] = b;
        else got[b] = a;
        ++nmpi;
      }
    }
  CHECK(nmpi > 0);
  CHECK(got.size() == want.size());
  CHECK(got == want);
}

}  // namespace

TEST_CASE("the parts of a curved quad/tri mesh share their faces as the whole mesh's interfaces") {
  const auto& mesh = test::generated_mesh("cylinder2d", true);
  // Element by element round the parts: nearly every face crosses parts.
  std::vector<std::vector<int32_t>> parts;
  int64_t k = 0;
  for (const auto& g : mesh.groups) {
    parts.emplace_back();
    for (int64_t e = 0; e < g.neles; ++e) parts.back().push_back(int32_t(k++ % 3));
  }
  check_parts(mesh, parts, 3);
}

TEST_CASE("the parts of a periodic hex/prism/tet/pyramid box share their faces as the whole mesh's interfaces") {
  const meshes::Mesh& mesh = test::generated_mesh("box-mixed3d", false);
  REQUIRE(mesh.groups.size() == 4);
  // Periodic partners are one vertex of the dual graph: parts by vertex keep them together.
  const auto dg = meshes::dual_graph(mesh, "");
  std::vector<std::vector<int32_t>> parts;
  int64_t k = 0;
  for (const auto& g : mesh.groups) {
    parts.emplace_back();
    for (int64_t e = 0; e < g.neles; ++e) parts.back().push_back(int32_t(dg.vertex_of[std::size_t(k++)] % 3));
  }
  check_parts(mesh, parts, 3);
  SECTION("a periodic pair split between parts is refused") {
    for (auto& p : parts)
      for (std::size_t e = 0; e < p.size(); ++e) p[e] = int32_t(e % 2);
    CHECK_THROWS_WITH(meshes::extract_part(mesh, parts, 2, 0), Catch::Matchers::Contains("lie on different parts"));
  }
  SECTION("a part number out of range is refused") {
    parts[0][0] = 7;
    CHECK_THROWS_WITH(meshes::extract_part(mesh, parts, 3, 0), Catch::Matchers::Contains("is not in [0, 3)"));
  }
}
