// frmini partition mesh.h5 N: METIS partitioning stored in the mesh file.
#include <algorithm>
#include <iostream>

#include "base/error.hpp"
#include "meshes/mesh_file.hpp"
#include "meshes/partition.hpp"
#include "solver/cli/args.hpp"
#include "solver/cli/commands.hpp"

namespace frmini::cli {

namespace {

int run_partition(const std::vector<std::string>& argv) {
  ArgParser p("partition", "Partition a frmini mesh with METIS and store the partitioning in the file.");
  p.positional("mesh.h5", "the frmini mesh file (rewritten in place, through a temporary file)")
      .positional("N", "number of parts")
      .option("weights", "TYPE:W,...",
              "element weights for mixed meshes, e.g. hex:3,pri:2,tet:1 (unlisted types: 1)")
      .epilog(
          "The dual graph joins elements that share a face; elements paired across periodic\n"
          "faces are kept on one part. A partitioning with the same N is replaced.");
  Args a = p.parse(argv);
  const std::string path = a.get("mesh.h5");
  long n = 0;
  {
    const std::string& s = a.get("N");
    try {
      size_t pos = 0;
      n = std::stol(s, &pos);
      if (pos != s.size()) throw std::invalid_argument(s);
    } catch (const std::exception&) {
      throw UserError("partition: N: '" + s + "' is not an integer");
    }
    if (n < 1 || n > 1000000) throw UserError("partition: N must be between 1 and 1000000");
  }
  meshes::Mesh m = meshes::read_mesh(path);
  meshes::add_partitioning(m, int(n), a.get("weights"));
  meshes::write_mesh(path, m);
  const auto& part = *std::find_if(m.partitionings.begin(), m.partitionings.end(),
                                   [&](const auto& q) { return q.nparts == n; });
  std::vector<long> count(size_t(n), 0);
  for (const auto& g : part.parts)
    for (int32_t x : g) ++count[size_t(x)];
  auto [mn, mx] = std::minmax_element(count.begin(), count.end());
  std::cout << path << ": partitioned into " << n << " parts (" << *mn << " to " << *mx
            << " elements per part)\n";
  return 0;
}

}  // namespace

FRMINI_COMMAND("partition", "partition a frmini mesh with METIS", run_partition, 11);

}  // namespace frmini::cli
