// The tables embedded by CMake (operators/embed_quadrules.cmake writes quadrules_data.cpp in
// the build directory from operators/data/quadrules). Internal to quadrules.cpp.
#pragma once

#include <cstddef>

namespace frmini::operators::detail {

struct EmbeddedTable {
  const char* shape;  // "hex"
  const char* file;   // "gauss-legendre-n8-d3-pstu.txt"
  const char* text;   // the file's contents
};

extern const EmbeddedTable embedded_quadrules[];
extern const std::size_t embedded_quadrules_count;

}  // namespace frmini::operators::detail
