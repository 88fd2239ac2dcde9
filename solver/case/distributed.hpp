// A run over several MPI ranks (mpirun -np N frmini run): the whole mesh's partitioning into
// one part per rank, this rank's part, and the moves between the parts' solutions and the
// whole mesh's layout that solution files keep (so a file written by any number of ranks
// restarts on any other number, and frmini export reads it as it is). Every rank reads the
// whole mesh; files are gathered through rank 0, which writes them (parallel HDF5 would spare
// rank 0 the memory of one whole solution, which these meshes do not need).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "meshes/mesh.hpp"
#include "meshes/mesh_part.hpp"
#include "solver/comm/comm.hpp"

namespace frmini::solver {

class Distribution {
 public:
  // Uses the mesh's stored partitioning of comm.size() parts, else partitions with METIS now
  // and says so in `note` (empty otherwise). Throws UserError when that cannot be done.
  Distribution(const meshes::Mesh& whole, comm::Comm& comm, std::string& note);

  const meshes::MeshPart& part() const { return part_; }
  comm::Comm& comm() const { return comm_; }
  int rank() const { return comm_.rank(); }
  // Element `e` of part group `g` by its number in the whole mesh's group, and "rank r of n":
  // what a message about one element names, so the user finds it whatever the rank count.
  int64_t whole_element(std::size_t g, int64_t e) const { return part_.gelem[g][std::size_t(e)]; }
  std::string where() const;

  // `local`: this part's solution, per part group [neles][nvars][nupts]. Returns the whole
  // mesh's on rank 0 (per whole group), nothing elsewhere. Collective.
  std::vector<std::vector<double>> gather(const std::vector<std::vector<double>>& local) const;
  // This part's elements of a whole-mesh solution (every rank holds it).
  std::vector<std::vector<double>> scatter(const std::vector<std::vector<double>>& whole) const;

 private:
  const meshes::Mesh& whole_;
  comm::Comm& comm_;
  std::vector<std::vector<int32_t>> parts_;
  meshes::MeshPart part_;
};

}  // namespace frmini::solver
