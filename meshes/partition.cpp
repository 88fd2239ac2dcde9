#include "meshes/partition.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>

#include "base/error.hpp"
#include "meshes/element_types.hpp"

namespace frmini::meshes {

namespace {

std::map<std::string, int64_t> parse_weights(const std::string& text) {
  std::map<std::string, int64_t> w;
  size_t a = 0;
  while (a < text.size()) {
    size_t b = text.find(',', a);
    if (b == std::string::npos) b = text.size();
    std::string item = text.substr(a, b - a);
    a = b + 1;
    auto colon = item.find(':');
    std::string type = item.substr(0, colon);
    if (colon == std::string::npos || !find_shape(type))
      throw UserError("partition: --weights: '" + item + "' is not TYPE:WEIGHT with TYPE one of "
                      "tri, quad, tet, pri, pyr, hex");
    std::string num = item.substr(colon + 1);
    if (num.empty() || num.size() > 6 || !std::all_of(num.begin(), num.end(), ::isdigit) ||
        std::stol(num) < 1)
      throw UserError("partition: --weights: '" + item + "': the weight must be a positive integer");
    w[type] = std::stol(num);
  }
  return w;
}

int64_t find(std::vector<int64_t>& p, int64_t x) {
  while (p[size_t(x)] != x) {
    p[size_t(x)] = p[size_t(p[size_t(x)])];
    x = p[size_t(x)];
  }
  return x;
}

}  // namespace

DualGraph dual_graph(const Mesh& m, const std::string& weights) {
  auto w = parse_weights(weights);
  std::vector<int64_t> off(m.groups.size() + 1, 0);
  for (size_t g = 0; g < m.groups.size(); ++g) off[g + 1] = off[g] + m.groups[g].neles;
  const int64_t n = off.back();

  // Union-find over periodic partners.
  std::vector<int64_t> parent(static_cast<size_t>(n));
  std::iota(parent.begin(), parent.end(), 0);
  for (size_t g = 0; g < m.groups.size(); ++g)
    for (int64_t e = 0; e < m.groups[g].neles; ++e)
      for (int f = 0; f < m.groups[g].nfaces; ++f) {
        const auto& l = m.groups[g].link(e, f);
        if (l.kind != FaceLink::periodic) continue;
        int64_t a = find(parent, off[g] + e), b = find(parent, off[size_t(l.index)] + l.elem);
        if (a != b) parent[size_t(std::max(a, b))] = std::min(a, b);
      }
  DualGraph dg;
  dg.vertex_of.assign(size_t(n), -1);
  int64_t nv = 0;
  std::vector<int64_t> root_id(size_t(n), -1);
  for (int64_t i = 0; i < n; ++i) {
    int64_t r = find(parent, i);
    if (root_id[size_t(r)] < 0) root_id[size_t(r)] = nv++;
    dg.vertex_of[size_t(i)] = root_id[size_t(r)];
  }
  dg.vwgt.assign(size_t(nv), 0);
  std::vector<std::vector<int64_t>> adj(static_cast<size_t>(nv));
  for (size_t g = 0; g < m.groups.size(); ++g) {
    const auto& grp = m.groups[g];
    int64_t wt = w.count(grp.etype) ? w[grp.etype] : 1;
    for (int64_t e = 0; e < grp.neles; ++e) {
      int64_t v = dg.vertex_of[size_t(off[g] + e)];
      dg.vwgt[size_t(v)] += wt;
      for (int f = 0; f < grp.nfaces; ++f) {
        const auto& l = grp.link(e, f);
        if (l.kind != FaceLink::internal && l.kind != FaceLink::periodic) continue;
        int64_t u = dg.vertex_of[size_t(off[size_t(l.index)] + l.elem)];
        if (u != v) adj[size_t(v)].push_back(u);
      }
    }
  }
  dg.xadj.assign(1, 0);
  for (auto& a : adj) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
    dg.adjncy.insert(dg.adjncy.end(), a.begin(), a.end());
    dg.xadj.push_back(int64_t(dg.adjncy.size()));
  }
  return dg;
}

void add_partitioning(Mesh& m, int nparts, const std::string& weights) {
  DualGraph dg = dual_graph(m, weights);
  const int64_t nv = int64_t(dg.vwgt.size());
  if (nparts < 1) throw UserError("partition: the number of parts must be at least 1");
  if (nparts > nv)
    throw UserError("partition: cannot split " + std::to_string(nv) +
                    " elements (periodic partners counted once) into " + std::to_string(nparts) +
                    " parts");
  std::vector<int32_t> vpart =
      nparts == 1 ? std::vector<int32_t>(size_t(nv), 0) : partition_graph(dg, nparts);
  std::vector<int64_t> count(size_t(nparts), 0);
  for (int32_t p : vpart) ++count[size_t(p)];
  for (int p = 0; p < nparts; ++p)
    if (count[size_t(p)] == 0)
      throw UserError("partition: METIS left part " + std::to_string(p) + " of " +
                      std::to_string(nparts) + " empty; try fewer parts");
  Partitioning part;
  part.nparts = nparts;
  part.weights = weights;
  int64_t gidx = 0;
  for (const auto& g : m.groups) {
    std::vector<int32_t> p(size_t(g.neles));
    for (int64_t e = 0; e < g.neles; ++e) p[size_t(e)] = vpart[size_t(dg.vertex_of[size_t(gidx++)])];
    part.parts.push_back(std::move(p));
  }
  auto it = std::find_if(m.partitionings.begin(), m.partitionings.end(),
                         [&](const Partitioning& q) { return q.nparts == nparts; });
  if (it != m.partitionings.end()) *it = std::move(part);
  else m.partitionings.push_back(std::move(part));
  std::sort(m.partitionings.begin(), m.partitionings.end(),
            [](const auto& a, const auto& b) { return a.nparts < b.nparts; });
}

}  // namespace frmini::meshes
