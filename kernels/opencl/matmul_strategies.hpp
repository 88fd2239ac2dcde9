// Which generated-kernel strategies the opencl backend offers for an operator, best-first.
// Kept apart from the source generator (what a strategy's code is) and the provider (how it
// is compiled and launched): this file is the heuristic, tuned by measurement.
#pragma once

#include <string>
#include <vector>

#include "kernels/matmul/analysis.hpp"
#include "kernels/opencl/device.hpp"
#include "kernels/opencl/matmul_source.hpp"

namespace frmini::kernels::opencl {

// Candidates for `a` on `dev`, best-first; empty with `why_not` set when none is suitable.
std::vector<Strategy> generated_strategies(const matmul::Analysis& a, const DeviceInfo& dev,
                                           Precision p, std::string* why_not);

// Every strategy the generator can produce for `a` on `dev` (the tests check them all).
std::vector<Strategy> all_strategies(const matmul::Analysis& a, const DeviceInfo& dev,
                                     Precision p);

}  // namespace frmini::kernels::opencl
