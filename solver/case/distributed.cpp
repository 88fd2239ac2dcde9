#include "solver/case/distributed.hpp"

#include <algorithm>
#include <cstring>

#include "base/error.hpp"
#include "meshes/partition.hpp"

namespace frmini::solver {

namespace {

std::vector<std::vector<int32_t>> partitioning(const meshes::Mesh& whole, int n, std::string& note) {
  for (const auto& p : whole.partitionings)
    if (p.nparts == n) return p.parts;
  meshes::Mesh copy = whole;
  meshes::add_partitioning(copy, n, "");
  note = "the mesh has no partitioning into " + std::to_string(n) +
         " parts: partitioned now with METIS (frmini partition stores one to reuse)";
  for (const auto& p : copy.partitionings)
    if (p.nparts == n) return p.parts;
  throw std::logic_error("distribution: the new partitioning is missing");
}

}  // namespace

Distribution::Distribution(const meshes::Mesh& whole, comm::Comm& comm, std::string& note)
    : whole_(whole), comm_(comm), parts_(partitioning(whole, comm.size(), note)),
      part_(meshes::extract_part(whole, parts_, comm.size(), comm.rank())) {}

std::vector<std::vector<double>> Distribution::gather(const std::vector<std::vector<double>>& local) const {
  // Each element's values are contiguous, so a part sends, per whole group, the values of one
  // element (0 for a group it has none of), then its groups' elements in increasing order of
  // their number in the whole mesh (extract_part lists those on shared faces first); rank 0
  // knows which elements each part holds from the partitioning.
  const std::size_t ng = whole_.groups.size();
  std::vector<uint64_t> per(ng, 0);
  for (std::size_t lg = 0; lg < local.size(); ++lg)
    if (!part_.gelem[lg].empty()) per[std::size_t(part_.ggroup[lg])] = local[lg].size() / part_.gelem[lg].size();
  std::string bytes(reinterpret_cast<const char*>(per.data()), ng * sizeof(uint64_t));
  for (std::size_t lg = 0; lg < local.size(); ++lg) {
    const auto& ge = part_.gelem[lg];
    if (ge.empty()) continue;
    const std::size_t m = local[lg].size() / ge.size();
    std::vector<std::size_t> order(ge.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ge[a] < ge[b]; });
    for (std::size_t i : order)
      bytes.append(reinterpret_cast<const char*>(local[lg].data() + i * m), m * sizeof(double));
  }
  const auto all = comm_.gather(bytes);
  if (comm_.rank() != 0) return {};
  std::vector<std::vector<double>> out(ng);
  for (int q = 0; q < comm_.size(); ++q) {
    const std::string& b = all[std::size_t(q)];
    std::vector<uint64_t> m(ng);
    std::memcpy(m.data(), b.data(), ng * sizeof(uint64_t));
    const char* data = b.data() + ng * sizeof(uint64_t);
    std::size_t off = 0;  // in doubles
    for (std::size_t g = 0; g < ng; ++g) {
      if (m[g] == 0) continue;
      if (out[g].empty()) out[g].assign(std::size_t(whole_.groups[g].neles) * m[g], 0.0);
      for (int64_t e = 0; e < whole_.groups[g].neles; ++e) {
        if (parts_[g][std::size_t(e)] != q) continue;
        std::memcpy(out[g].data() + std::size_t(e) * m[g], data + off * sizeof(double), m[g] * sizeof(double));
        off += m[g];
      }
    }
  }
  return out;
}

std::vector<std::vector<double>> Distribution::scatter(const std::vector<std::vector<double>>& whole) const {
  std::vector<std::vector<double>> out;
  for (std::size_t lg = 0; lg < part_.gelem.size(); ++lg) {
    const auto g = std::size_t(part_.ggroup[lg]);
    const std::size_t m = whole[g].size() / std::size_t(whole_.groups[g].neles);
    std::vector<double> v;
    v.reserve(part_.gelem[lg].size() * m);
    for (int64_t e : part_.gelem[lg])
      v.insert(v.end(), whole[g].begin() + std::ptrdiff_t(std::size_t(e) * m),
               whole[g].begin() + std::ptrdiff_t(std::size_t(e + 1) * m));
    out.push_back(std::move(v));
  }
  return out;
}

std::string Distribution::where() const {
  return "rank " + std::to_string(comm_.rank()) + " of " + std::to_string(comm_.size());
}

}  // namespace frmini::solver
