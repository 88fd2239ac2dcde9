// The forces plugin's surface integral done on the device: one kernel per element group with
// wall faces (physics::wall_force) evaluates every wall flux point's pressure and viscous
// force straight from the solution register, and the backend's reduction sums them, so a
// sample downloads 2 x ndims numbers. The host's surface_force (forces.hpp) is the same
// integral, which the tests hold this one to.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "kernels/pointwise/kernel.hpp"
#include "solver/plugins/forces.hpp"
#include "solver/system/system.hpp"

namespace frmini::solver {

class DeviceSurfaceForce {
 public:
  // Throws UserError when the mesh has no boundary called `boundary`.
  DeviceSurfaceForce(System& sys, const std::string& boundary);
  ~DeviceSurfaceForce();
  DeviceSurfaceForce(const DeviceSurfaceForce&) = delete;
  DeviceSurfaceForce& operator=(const DeviceSurfaceForce&) = delete;

  // The force on the boundary from register `reg` (this part's points only).
  SurfaceForce compute(int reg);
  std::size_t npoints() const { return npts_; }

 private:
  // The wall points of one element group and what their kernel reads.
  struct Part {
    std::size_t n = 0;
    int64_t ld = 0;
    std::unique_ptr<kernels::Buffer> idx, m0, gop, wn, fo;
    std::unique_ptr<kernels::pointwise::PointwiseKernel> kernel;
  };
  void make_part(int group, const std::vector<std::size_t>& points);

  System& sys_;
  const BoundaryInterfaces* bnd_ = nullptr;
  std::vector<Part> parts_;
  std::size_t npts_ = 0;
  int bound_reg_ = -1;
};

}  // namespace frmini::solver
