// Floating-point precision of device data: a run-time choice that reaches every kernel.
// Host-side setup (operators, geometry) is always double.
#pragma once

#include <cstddef>
#include <string>

#include "base/error.hpp"

namespace frmini::kernels {

enum class Precision { single, double_ };

inline std::size_t itemsize(Precision p) { return p == Precision::single ? 4 : 8; }
inline const char* to_string(Precision p) { return p == Precision::single ? "single" : "double"; }
// The scalar type's name in C, OpenCL C and CUDA alike.
inline const char* c_type(Precision p) { return p == Precision::single ? "float" : "double"; }

inline Precision parse_precision(const std::string& s, const std::string& where) {
  if (s == "single" || s == "float") return Precision::single;
  if (s == "double") return Precision::double_;
  throw UserError(where + ": unknown precision '" + s + "' (choose single or double)");
}

}  // namespace frmini::kernels
