// The FR system of one rank's mesh: element groups (operators, geometry), interfaces, the
// arena of device arrays, and the right-hand side of PyFR's pipeline (the order the kernels
// run in, chains included: docs/architecture.md):
//   Euler:  disu (M0) -> common fluxes (interfaces, BCs) -> tflux -> M132 -> M3 (beta 1)
//           -> negdivconf
//   NS:     disu -> common solution -> M460, M6 (beta 1) -> physical gradient -> M0 per
//           dimension -> common fluxes with LDG -> tflux -> M132 -> M3 -> negdivconf
// With flux anti-aliasing, tflux runs at the volume quadrature points on u (and, NS, the
// physical gradient) interpolated there by M7, and M1329 = (M1 - M3 M2) M9 replaces M132.
// Every product goes through the matmul providers (kernels/matmul), every pointwise step is a
// kernel written once (solver/physics) and rendered by the backend. The system never names a
// backend API.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/backend.hpp"
#include "kernels/matmul/provider.hpp"
#include "meshes/mesh.hpp"
#include "meshes/mesh_part.hpp"
#include "solver/comm/comm.hpp"
#include "operators/operators.hpp"
#include "solver/physics/physics.hpp"
#include "solver/system/geometry.hpp"
#include "solver/system/interfaces.hpp"
#include "solver/system/layout.hpp"

namespace frmini::solver {

struct BcSpec {
  std::string type;
  std::map<std::string, std::string> values;  // user values as C expressions of x, y, z, t
};

struct SystemConfig {
  physics::Options phys;
  int order = 3;
  std::map<std::string, std::string> upts;  // etype -> solution point set ("" = default)
  // Volume flux anti-aliasing (PyFR's `anti-alias = flux`): the flux is evaluated at a volume
  // quadrature rule's points and its divergence projected back (operators/antialias.hpp);
  // quad_deg gives the rule's strength per element type (absent or < 0: PyFR's default).
  bool antialias_flux = false;
  std::map<std::string, int> quad_deg;
  // Surface-flux anti-aliasing (PyFR's `anti-alias = surf-flux`): the flux points moved to a
  // symmetric quadrature rule on each face, the common flux projected onto the face's nodal
  // basis before it is lifted; face_quad_deg gives the rule's strength per face kind (line,
  // tri, quad; absent or < 0: PyFR's default).
  bool antialias_surf = false;
  std::map<std::string, int> face_quad_deg;
  kernels::Precision precision = kernels::Precision::double_;
  std::string matmul = "auto";
  int nregs = 1;                            // solution registers the integrator uses
  std::map<std::string, BcSpec> bcs;        // by boundary name
  // Affine element groups read one point's metric terms (System::uniform_metrics); false
  // makes them read every point's, as curved ones do (a test compares the two).
  bool uniform_metrics = true;
};

// Sets antialias_flux and antialias_surf from a value of [solver] anti-alias ("none", "flux",
// "surf-flux" or "flux,surf-flux"); false for both on another value (the schema rejects it).
void set_antialias(SystemConfig& cfg, const std::string& value);

class Halo;
struct StepFloor;

class System {
 public:
  // Throws UserError for a boundary without a BC, a BC naming no boundary, or geometry errors.
  System(kernels::Backend& be, const meshes::Mesh& mesh, SystemConfig cfg);
  // One part of a partitioned mesh (mesh = part.mesh), its faces shared with other parts
  // exchanged with them through `comm` (halo.hpp); every rank of `comm` builds its part's
  // system at once (the constructor exchanges flux-point positions). Reductions (error norm,
  // finiteness) then cover every part.
  System(kernels::Backend& be, const meshes::MeshPart& part, comm::Comm& comm, SystemConfig cfg);
  ~System();
  System(const System&) = delete;
  System& operator=(const System&) = delete;

  const SystemConfig& config() const { return cfg_; }
  int ndims() const { return cfg_.phys.ndims; }
  int nvars() const { return cfg_.phys.nvars(); }
  const std::vector<GroupLayout>& layout() const { return layout_; }
  const std::vector<GroupGeometry>& geometry() const { return geos_; }
  const std::vector<operators::ElementOperators>& operators() const { return ops_; }
  const Interfaces& interfaces() const { return ifs_; }
  int64_t ndofs() const;  // solution points of real elements (this part's)
  int64_t global_ndofs() const { return global_ndofs_; }  // of every part
  // Whether group g's kernels read its metric terms from one point row (affine elements).
  bool uniform_metrics(std::size_t g) const;
  kernels::Backend& backend() { return be_; }
  // For kernels outside the RHS that read registers through views (element_gather.hpp): the
  // arena holding every register, where register `reg` starts in it (in values of the run's
  // precision), and the AoSoA width of the panels.
  kernels::Buffer& arena();
  std::size_t register_offset(int reg) const;
  std::size_t soa_width() const;

  // A `points` kernel over whole registers: its array arguments ({1} each) are bound in order
  // to registers `regs`, its scalar arguments in order to `scalars`.
  struct RegisterKernel {
    kernels::pointwise::Spec spec;
    std::vector<int> regs;
    std::vector<double> scalars;
  };
  // r[dst] = sum of coefficient * r[reg] over `terms` (dst may be among them).
  static RegisterKernel axnpby_kernel(int dst, const std::vector<std::pair<double, int>>& terms);

  // Enqueues u[fout] = du/dt of u[uin] at time t, then the register kernels `then` in order.
  // They run in the RHS's last pass over each block of elements, right after that block's
  // derivative is written: the same values as running them after the RHS, but where the
  // backend cache-blocks its chains they read the derivative (and each other's results) from
  // cache, which saves a time integrator most of its passes over memory.
  //
  // `prepare` >= 0: that register, as the kernels `then` leave it, is the next RHS's input, and
  // this pass also interpolates it to the flux points (M0) while each block is in cache; the
  // next rhs with uin == `prepare` then skips its first pass over memory. The caller must
  // not change that register in between (the integrators call the next rhs at once).
  void rhs(double t, int uin, int fout, const std::vector<RegisterKernel>& then = {}, int prepare = -1);
  // Enqueues r[dst] = sum of coefficient * r[reg] over `terms` (dst may be among them).
  void axnpby(int dst, const std::vector<std::pair<double, int>>& terms);
  // Enqueues a register kernel over whole registers. Compiled once per spec.
  void run_on_registers(const RegisterKernel& k);
  void run_on_registers(const kernels::pointwise::Spec& spec, const std::vector<int>& regs,
                        const std::vector<double>& scalars) {
    run_on_registers(RegisterKernel{spec, regs, scalars});
  }
  // The weighted error norm of an embedded RK pair (PyFR's errest): over every value,
  // e = err / (atol + rtol*max(|cur|, |prev|)); "l2": sqrt(sum e^2 / n), "uniform": max |e|.
  // Computed on the device; overwrites register `err`. +inf for a NaN or an infinity (the
  // integrator rejects the step and counts it).
  double error_norm(int cur, int prev, int err, double atol, double rtol, bool l2);
  void copy_register(int dst, int src);
  // Whether every value of register `reg` is finite: one reduction on the device (largest
  // |x|, NaN propagating), so the blow-up check costs no download.
  bool finite(int reg);

  // Sets register `reg` on the device with one kernel per group, `spec_for(nupts)`: an
  // element_points kernel of two arguments, the solution points' coordinates (ndims values,
  // uploaded for the launch) and the register (nvars values, out). The initial condition
  // (physics::ics) is set this way, its expressions compiled into the kernel.
  void set_from_positions(int reg,
                          const std::function<kernels::pointwise::Spec(int nupts)>& spec_for);

  // Host <-> device: per group, [neles][nvars][nupts] conserved values (PyFR's layout).
  void upload_solution(int reg, const std::vector<std::vector<double>>& soln);
  std::vector<std::vector<double>> download_solution(int reg);
  // A field made on the host in that layout: at every solution point, f(x, u) receives the
  // point's coordinates (x[0..ndims), the rest 0) and writes its nvars values to u[0..nvars).
  std::vector<std::vector<double>> host_field(
      const std::function<void(const double* x, double* u)>& f) const;

  // Navier-Stokes: the LDG-corrected physical gradient of register `reg` at the solution
  // points, the one the RHS makes for the viscous flux (and PyFR's plugins read): the common
  // solution made on the device by the RHS's own kernels (interfaces, boundaries at time t,
  // faces shared with other ranks), then M460 u + M6 u_c (one-sided LDG: M4 u + M6 (u_c - u_f))
  // to physical space on the host in double (corrected_gradients.cpp). `soln` is register
  // `reg` as download_solution gives it (the caller has it already). Per group
  // [neles][ndims][nvars][nupts], as upts_gradients (gradients.hpp) lays out the uncorrected.
  std::vector<std::vector<double>> corrected_gradients(int reg, double t,
                                                       const std::vector<std::vector<double>>& soln);

  // The MPI exchanges' cost so far on this rank (zeros on one rank or a part with no
  // neighbour).
  HaloTraffic halo_traffic() const;

  // The provider and strategy chosen for each operator product ("hex-p3-M0" -> "generated:...").
  std::map<std::string, std::string> matmul_choices() const;

  // Times every kernel the RHS and the integrator have used (each on its last range, `nrep`
  // runs after one warm-up) and counts the bytes it must move. Clobbers the registers: for the
  // end of a run, after the last output.
  struct KernelProfile {
    std::string name;
    double seconds = 0;  // median per run
    double bytes = 0;    // minimum bytes moved per run
  };
  std::vector<KernelProfile> profile(int nrep);

  // The least bytes (step_floor.hpp) of every RHS and register pass enqueued so far: the
  // difference over some steps, divided by their number, is the floor of a step.
  StepFloor floor_so_far() const;

 private:
  System(kernels::Backend& be, const meshes::Mesh& mesh, SystemConfig cfg, const meshes::MeshPart* part,
         comm::Comm* comm);
  // The constructor's steps, in order (system.cpp).
  void build_operators_and_interfaces(const meshes::MeshPart* part);
  void check_bcs() const;
  void plan_groups(ArenaPlan& plan);
  void plan_arrays(ArenaPlan& plan);
  void upload_geometry();
  std::vector<int64_t> upload_interfaces();
  void plan_gradient_rows();
  // Uploads host values (double) to the arena at `off`, in the run's precision.
  void put(std::size_t off, const std::vector<double>& v);
  // The RHS's first two stages alone: register `reg` at the flux points and the LDG common
  // solution in comm_fpts (rhs.cpp), for corrected_gradients.
  void common_solution_of(int reg, double t);
  // Adds an RHS (uin >= 0; `prepared`: its flux-point solution made by the last one) or a
  // register pass to floor_so_far() (step_floor.cpp).
  void count_floor(int uin, int fout, const std::vector<RegisterKernel>& then, int passes = 0,
                   bool prepared = false);
  double between_passes(bool prepared) const;
  struct Impl;
  struct Rhs;  // one RHS evaluation's stages and the kernels they make (rhs.cpp)
  kernels::Backend& be_;
  const meshes::Mesh& mesh_;
  SystemConfig cfg_;
  std::vector<operators::ElementOperators> ops_;
  std::vector<GroupGeometry> geos_;
  std::vector<GroupLayout> layout_;
  Interfaces ifs_;
  std::unique_ptr<Impl> impl_;
  comm::Comm* comm_ = nullptr;
  std::unique_ptr<Halo> halo_;
  int64_t global_ndofs_ = 0;
};

}  // namespace frmini::solver
