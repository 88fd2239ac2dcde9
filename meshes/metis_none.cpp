// Built without METIS: partitioning into more than one part is unavailable.
#include "base/error.hpp"
#include "meshes/partition.hpp"

namespace frmini::meshes {

std::vector<int32_t> partition_graph(const DualGraph&, int) {
  throw NotBuiltError("METIS", "partition");
}

}  // namespace frmini::meshes
