// MPI_COMM_WORLD, when the process was started by an MPI launcher; one rank otherwise (a
// frmini built with MPI runs alone without touching MPI, so it needs no launcher).
// The C API only: the deprecated C++ bindings would need their own library.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "solver/comm/comm.hpp"
#include "solver/comm/comm_single.hpp"

namespace frmini::solver::comm {

namespace {

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

class World : public Comm {
 public:
  World() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void sum(double* v, std::size_t n) override {
    check(MPI_Allreduce(MPI_IN_PLACE, v, int(n), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  }
  void max(double* v, std::size_t n) override {
    check(MPI_Allreduce(MPI_IN_PLACE, v, int(n), MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  }
  void broadcast(std::string& bytes, int root) override {
    long long n = (long long)bytes.size();
    check(MPI_Bcast(&n, 1, MPI_LONG_LONG, root, MPI_COMM_WORLD), "MPI_Bcast");
    bytes.resize(std::size_t(n));
    check(MPI_Bcast(bytes.data(), int(n), MPI_BYTE, root, MPI_COMM_WORLD), "MPI_Bcast");
  }
  std::vector<std::string> gather(const std::string& bytes) override {
    int n = int(bytes.size());
    const auto nr = static_cast<std::size_t>(size_);
    std::vector<int> counts(nr), displs(nr);
    check(MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Gather");
    std::string all;
    if (rank_ == 0) {
      int off = 0;
      for (int r = 0; r < size_; ++r) displs[std::size_t(r)] = off, off += counts[std::size_t(r)];
      all.resize(std::size_t(off));
    }
    check(MPI_Gatherv(bytes.data(), n, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE, 0,
                      MPI_COMM_WORLD),
          "MPI_Gatherv");
    std::vector<std::string> out;
    if (rank_ == 0)
      for (int r = 0; r < size_; ++r)
        out.push_back(all.substr(std::size_t(displs[std::size_t(r)]), std::size_t(counts[std::size_t(r)])));
    return out;
  }
  void post(const std::vector<Message>& sends, const std::vector<Message>& recvs) override {
    if (!reqs_.empty()) throw std::logic_error("comm: post() before the last wait()");
    reqs_.resize(sends.size() + recvs.size());
    std::size_t k = 0;
    for (const auto& m : recvs)
      check(MPI_Irecv(m.data, int(m.bytes), MPI_BYTE, m.peer, 0, MPI_COMM_WORLD, &reqs_[k++]), "MPI_Irecv");
    for (const auto& m : sends)
      check(MPI_Isend(m.data, int(m.bytes), MPI_BYTE, m.peer, 0, MPI_COMM_WORLD, &reqs_[k++]), "MPI_Isend");
  }
  void progress() override {
    if (reqs_.empty()) return;
    int done = 0;  // completed requests become MPI_REQUEST_NULL, which wait() passes over
    check(MPI_Testall(int(reqs_.size()), reqs_.data(), &done, MPI_STATUSES_IGNORE), "MPI_Testall");
  }
  void wait() override {
    if (reqs_.empty()) return;
    check(MPI_Waitall(int(reqs_.size()), reqs_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    reqs_.clear();
  }
  void barrier() override { check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier"); }
  [[noreturn]] void abort(int status) override {
    MPI_Abort(MPI_COMM_WORLD, status);
    std::exit(status);
  }

 private:
  int rank_ = 0, size_ = 1;
  std::vector<MPI_Request> reqs_;
};

std::unique_ptr<Comm>& instance() {
  static std::unique_ptr<Comm> c;
  return c;
}
bool started = false;

// Launchers (Open MPI, MPICH/Hydra, PMIx, Slurm's srun with PMI) leave these in the
// environment of every rank.
bool under_launcher() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK"})
    if (std::getenv(v)) return true;
  return false;
}

}  // namespace

Comm& world() {
  auto& c = instance();
  if (!c) c = std::make_unique<SingleRank>();
  return *c;
}

int init(int* argc, char*** argv) {
  if (!under_launcher()) return 1;
  // One thread calls MPI (OpenMP threads only compute).
  int provided = 0;
  check(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  started = true;
  // If the launcher dies (mpirun killed with -9, a lost daemon), the ranks must not run on,
  // unseen, to the end of the allocation. OpenMPI's ranks notice the lost daemon and end;
  // with launchers that do not, the kernel's SIGTERM when the parent goes makes them stop as
  // a signalled run does, after the same step, with a checkpoint. (A parent already gone: do
  // it now.)
  const pid_t parent = getppid();
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) raise(SIGTERM);
  instance() = std::make_unique<World>();
  return instance()->size();
}

void finalize() {
  if (!started) return;
  instance().reset();
  MPI_Finalize();
  started = false;
}

std::string description() {
  char v[MPI_MAX_LIBRARY_VERSION_STRING];
  int n = 0;
  MPI_Get_library_version(v, &n);
  std::string s(v, std::size_t(n));
  if (auto nl = s.find_first_of(",\n"); nl != std::string::npos) s.resize(nl);
  return "MPI (" + s + ")";
}

}  // namespace frmini::solver::comm
