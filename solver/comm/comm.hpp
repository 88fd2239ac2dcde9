// The ranks of a run (docs/architecture.md: MPI lives in solver/, kernels/ and operators/ know
// nothing of ranks). A process is one rank unless frmini was built with MPI and started by an
// MPI launcher (mpirun sets its environment), when every rank holds one part of the mesh.
// Which implementation is linked (comm_mpi.cpp or comm_serial.cpp) is CMake's choice, so no
// code asks the preprocessor. Collective calls are made by every rank in the same order.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "base/error.hpp"

namespace frmini::solver::comm {

// A user error in this rank's part only (a non-physical initial state there): over several
// ranks this rank says it, where an error every rank meets alike is said by rank 0 alone; the
// other ranks meet an error that says "on another rank" and say nothing.
struct PartError : UserError {
  using UserError::UserError;
};

class Comm {
 public:
  virtual ~Comm() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;

  // Over every rank, in place.
  virtual void sum(double* v, std::size_t n) = 0;
  virtual void max(double* v, std::size_t n) = 0;
  // Rank `root`'s bytes on every rank (resized there).
  virtual void broadcast(std::string& bytes, int root) = 0;
  // Every rank's bytes on rank 0, in rank order (empty on the others).
  virtual std::vector<std::string> gather(const std::string& bytes) = 0;

  // Point to point, several peers at once: post() starts sending each send buffer to its
  // peer and receiving each receive buffer (sized by the caller) from its peer; wait()
  // completes them all. The buffers must stay put in between.
  struct Message {
    int peer;
    void* data;
    std::size_t bytes;
  };
  virtual void post(const std::vector<Message>& sends, const std::vector<Message>& recvs) = 0;
  virtual void wait() = 0;
  // Lets the messages posted move on without waiting for them (MPI moves a large message only
  // inside its calls): called now and then while the work they overlap runs.
  virtual void progress() {}

  virtual void barrier() = 0;
  // Ends every rank of the run with `status` (an error seen by one rank only).
  [[noreturn]] virtual void abort(int status) = 0;
};

// The run's ranks: MPI_COMM_WORLD after init() under a launcher, else one rank.
Comm& world();
// Called once by main(): starts MPI when the process was started by an MPI launcher and frmini
// has MPI. Returns the number of ranks.
int init(int* argc, char*** argv);
void finalize();
// "MPI (Open MPI 4.1.4)" or "no MPI in this build", for reports and --version.
std::string description();

}  // namespace frmini::solver::comm
