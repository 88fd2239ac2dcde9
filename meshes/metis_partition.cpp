// The METIS graph partitioner, with PyFR's defaults (recursive bisection, ufactor 10,
// seed 2079), so runs are reproducible.
#include <metis.h>

#include <stdexcept>

#include "meshes/partition.hpp"

namespace frmini::meshes {

std::vector<int32_t> partition_graph(const DualGraph& g, int nparts) {
  std::vector<idx_t> xadj(g.xadj.begin(), g.xadj.end()), adjncy(g.adjncy.begin(), g.adjncy.end()),
      vwgt(g.vwgt.begin(), g.vwgt.end()), part(g.vwgt.size());
  idx_t nv = idx_t(g.vwgt.size()), ncon = 1, np = nparts, objval = 0;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_UFACTOR] = 10;
  options[METIS_OPTION_SEED] = 2079;
  options[METIS_OPTION_NUMBERING] = 0;
  int rc = METIS_PartGraphRecursive(&nv, &ncon, xadj.data(), adjncy.data(), vwgt.data(), nullptr,
                                    nullptr, &np, nullptr, nullptr, options, &objval, part.data());
  if (rc != METIS_OK) throw std::runtime_error("METIS_PartGraphRecursive failed (" + std::to_string(rc) + ")");
  return std::vector<int32_t>(part.begin(), part.end());
}

}  // namespace frmini::meshes
