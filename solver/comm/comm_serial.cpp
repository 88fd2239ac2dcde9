// One rank: the build without MPI, or a run not started by an MPI launcher.

#include "solver/comm/comm.hpp"
#include "solver/comm/comm_single.hpp"

namespace frmini::solver::comm {

Comm& world() {
  static SingleRank one;
  return one;
}

int init(int*, char***) { return 1; }
void finalize() {}
std::string description() { return "no MPI in this build"; }

}  // namespace frmini::solver::comm
