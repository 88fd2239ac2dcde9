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
// Not counted: what the RHS keeps between its passes (the solution at the flux points, the
// fluxes at the solution points, the gradients), so measured / floor says how far the
// unfused pipeline and its kernels are from the bytes no arrangement avoids.
#pragma once

#include <vector>

#include "solver/system/system.hpp"

namespace frmini::solver {

struct StepFloor {
  double registers = 0, geometry = 0, interfaces = 0;  // bytes
  double total() const { return registers + geometry + interfaces; }
  StepFloor& operator+=(const StepFloor& o) {
    registers += o.registers, geometry += o.geometry, interfaces += o.interfaces;
    return *this;
  }
  StepFloor operator-(const StepFloor& o) const {
    return {registers - o.registers, geometry - o.geometry, interfaces - o.interfaces};
  }
  StepFloor operator/(double n) const { return {registers / n, geometry / n, interfaces / n}; }
};

// The bytes of one RHS evaluation beyond its registers: geometry and interfaces of this part.
StepFloor rhs_floor(const System& sys, std::size_t itemsize);

// Registers read and written (each once) by an RHS from `uin` into `fout` with the register
// kernels `then` fused into it; uin < 0 or fout < 0: none (a stand-alone register kernel).
int register_passes(int uin, int fout, const std::vector<System::RegisterKernel>& then);

}  // namespace frmini::solver
