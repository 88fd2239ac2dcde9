// The floor of a step: the least memory traffic the scheme as laid out must move, which divided
// by the device's measured triad bandwidth is the least time a step can take when memory is
// the limit (the run report's and `frmini bench solver`'s "floor"; docs/performance.md).
// Counted, each at most once per RHS evaluation (what a perfectly fused RHS would still move):
//   registers   every register an RHS and the integrator's updates fused into it read, and
//               every one they write (System::rhs), plus the integrator's other passes
//               (error norm, register copies, stand-alone updates);
//   geometry    each element's metric terms (smats, 1/|J|): one point row of an affine
//               element, every solution point of a curved one;
//   interfaces  at every flux point of a face: each side's solution read and its common flux
//               written, the normal and its magnitude read; Navier-Stokes adds each side's
//               solution read again for the LDG common solution, and the common solution
//               written and the gradient read on both sides (one side with one-sided LDG,
//               beta = +-1/2, the default).
// Not counted: what the RHS keeps between its passes, so measured / floor says how far the
// pipeline and its kernels are from the bytes no arrangement avoids. That is counted apart
// (`between`), as what the pipeline as laid out (System::rhs: three element chains with the
// interface kernels between them) must still move on top of the floor, each array once:
//   both        the solution at the flux points, written by its chain and read by the
//               interface kernels; the common fluxes the divergence reads back; the result
//               register, written by the chain before the interfaces and read and written by
//               the divergence (beta 1);
//   viscous     the LDG jumps the gradient chain reads back and the flux-point gradient rows
//               it writes (GradRows: the rows some kernel reads), 1/|J| read a second time,
//               and, when the previous RHS did not prepare this one's flux-point solution,
//               the solution read a second time;
//   unblocked   chains over whole panels (a provider with threads of its own): the
//               solution-point panel written and read once more.
// Halo exchange buffers are not counted (the run report shows their traffic).
// measured / (floor + between) then says how near each pass runs to the memory's speed, and
// between / floor what fusing the passes could save at most.
#pragma once

#include <vector>

#include "solver/system/system.hpp"

namespace frmini::solver {

struct StepFloor {
  double registers = 0, geometry = 0, interfaces = 0;  // bytes: the floor
  double between = 0;  // bytes the pipeline as laid out moves beyond the floor
  double total() const { return registers + geometry + interfaces; }
  double laid_out() const { return total() + between; }
  StepFloor& operator+=(const StepFloor& o) {
    registers += o.registers, geometry += o.geometry, interfaces += o.interfaces, between += o.between;
    return *this;
  }
  StepFloor operator-(const StepFloor& o) const {
    return {registers - o.registers, geometry - o.geometry, interfaces - o.interfaces, between - o.between};
  }
  StepFloor operator/(double n) const { return {registers / n, geometry / n, interfaces / n, between / n}; }
};

// The bytes of one RHS evaluation beyond its registers: geometry and interfaces of this part.
StepFloor rhs_floor(const System& sys, std::size_t itemsize);

// Registers read and written (each once) by an RHS from `uin` into `fout` with the register
// kernels `then` fused into it; uin < 0 or fout < 0: none (a stand-alone register kernel).
int register_passes(int uin, int fout, const std::vector<System::RegisterKernel>& then);

}  // namespace frmini::solver
