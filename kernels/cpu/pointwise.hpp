// Pointwise kernels on the cpu backend: the spec rendered as C (kernels/pointwise/render.hpp),
// compiled through the backend's cached compiler, and run over a range split among the
// OpenMP threads — or, when called inside a parallel region (a cache-blocked chain), over
// exactly the range given, by the calling thread.
#pragma once

#include <memory>

#include "kernels/cpu/backend.hpp"
#include "kernels/pointwise/kernel.hpp"

namespace frmini::kernels::cpu {

std::unique_ptr<pointwise::PointwiseKernel> make_pointwise(CpuBackend& be,
                                                           const pointwise::Spec& spec,
                                                           Precision p);

}  // namespace frmini::kernels::cpu
