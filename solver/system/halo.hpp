// The MPI half of a part's right-hand side (docs/design.md, MPI interfaces): for every
// neighbouring part, this side's values at the shared flux points are packed through the same
// views as an internal interface's left side into one contiguous array by a pointwise kernel,
// staged through the host, exchanged with non-blocking MPI while the part's own interfaces
// run, and the shared points' common solution and fluxes are computed by the internal
// interface kernels with their far side an array (the received values) instead of a view.
// Each part computes the shared faces for itself with its own normal; on faces where it is
// the right side of the one-part orientation it runs the kernels with ldg-beta negated, so
// one-sided LDG takes the same side as a run on one part.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "kernels/pointwise/kernel.hpp"
#include "solver/comm/comm.hpp"
#include "solver/physics/physics.hpp"
#include "solver/system/interfaces.hpp"
#include "solver/system/layout.hpp"

namespace frmini::solver {

class System;

// The part's MpiInterfaces (interfaces.hpp), built with one exchange of flux-point positions
// with every neighbouring part; every rank calls it at once.
std::vector<MpiInterfaces> exchange_mpi_interfaces(const meshes::MeshPart& part, comm::Comm& comm,
                                                   const std::vector<GroupGeometry>& geos,
                                                   const std::vector<std::vector<int>>& fpts_face);

class Halo {
 public:
  Halo(System& sys, const std::vector<MpiInterfaces>& ifs, comm::Comm& comm);
  ~Halo();
  Halo(const Halo&) = delete;
  Halo& operator=(const Halo&) = delete;

  // Every fpts panel offset is the arena's (layout()), set before the first call.
  void post_solution();   // pack u at the shared points, post the exchange
  void finish_conu();     // complete it; LDG common solution at the shared points
  void post_gradients();  // Navier-Stokes: pack the gradients, post
  void finish_cflux();    // complete what is posted; common fluxes at the shared points
  // While the part's own work runs: lets what is posted move on (Comm::progress).
  void progress();

  // Bytes each RHS sends (all neighbours).
  std::size_t bytes_per_rhs() const;
  const HaloTraffic& traffic() const { return traffic_; }

 private:
  struct Neighbour;
  void post(bool grads);
  void finish();
  // finish(), then the interface kernel `which` on the shared points, each side's range.
  void finish_with(const std::string& which);
  kernels::pointwise::PointwiseKernel& kernel(Neighbour& nb, const std::string& which, bool as_right);
  System& sys_;
  comm::Comm& comm_;
  std::vector<std::unique_ptr<Neighbour>> nbs_;
  bool posted_ = false, posted_grads_ = false;
  HaloTraffic traffic_;
};

}  // namespace frmini::solver
