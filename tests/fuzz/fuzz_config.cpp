// libFuzzer target: a case file (TOML) through Config::parse, then every key of [constants],
// [ics] and [bcs.*] parsed as an expression, evaluated at a few points and rendered as C.
// UserError is the expected answer to bad input; anything else (another exception, a
// sanitizer report, an abort) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/error.hpp"
#include "kernels/precision.hpp"
#include "solver/config/config.hpp"
#include "solver/config/expression.hpp"

namespace {

void exercise(const frmini::config::Config& c, const std::string& section) {
  using frmini::config::Expression;
  const auto consts = c.constants();
  for (const auto& key : c.keys(section)) {
    try {
      auto e = Expression::parse(c.expr(section, key), {"x", "y", "z", "t"}, consts,
                                 c.where(section, key));
      for (double x : {0.0, 0.5, -1.0, 1e300})
        (void)e.eval({{"x", x}, {"y", -x}, {"z", 2 * x}, {"t", 1.0}});
      (void)e.to_c(frmini::kernels::Precision::single);
      (void)e.to_c(frmini::kernels::Precision::double_);
    } catch (const frmini::UserError&) {
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    auto c = frmini::config::Config::parse(text, "fuzz.toml");
    exercise(c, "ics");
    for (const auto& b : c.subsections("bcs")) exercise(c, "bcs." + b);
  } catch (const frmini::UserError&) {
  }
  return 0;
}
