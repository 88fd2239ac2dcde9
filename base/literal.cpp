#include "base/literal.hpp"

#include <cstdio>

namespace frmini {

std::string literal(double v, bool single) {
  char buf[64];
  if (single)
    std::snprintf(buf, sizeof buf, "%.9g", double(float(v)));
  else
    std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string s = buf;
  // "2" is an integer in C: make it a floating literal ("inf" and "nan" are left as they are).
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  if (single) s += "f";
  return s;
}

}  // namespace frmini
