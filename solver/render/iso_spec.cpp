#include "solver/render/iso_spec.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "base/error.hpp"

namespace frmini::render {

std::string FieldChoice::label() const {
  static const char* names[] = {"x", "y", "z"};
  if (component >= 0 && component < 3) return array + " (" + names[component] + ")";
  return array;
}

FieldChoice parse_field_choice(std::string_view text, std::string_view what) {
  const std::string where = std::string(what) + ": ";
  FieldChoice c;
  const auto colon = text.find(':');
  c.array = std::string(text.substr(0, colon));
  if (c.array.empty()) throw UserError(where + "no field name");
  if (colon == std::string_view::npos) return c;
  const auto comp = text.substr(colon + 1);
  if (comp == "x") c.component = 0;
  else if (comp == "y") c.component = 1;
  else if (comp == "z") c.component = 2;
  else if (comp == "mag") c.component = -1;
  else throw UserError(where + "component '" + std::string(comp) + "' is not one of x, y, z, mag");
  return c;
}

IsoSpec parse_iso_spec(std::string_view spec) {
  const std::string where = "--isosurface '" + std::string(spec) + "': ";
  const auto eq = spec.find('=');
  if (eq == std::string_view::npos || spec.find('=', eq + 1) != std::string_view::npos)
    throw UserError(where + "expected field=value, e.g. qcrit=0.5");
  IsoSpec s;
  s.text = std::string(spec);
  s.field = parse_field_choice(spec.substr(0, eq), where.substr(0, where.size() - 2));
  const std::string num(spec.substr(eq + 1));
  char* end = nullptr;
  errno = 0;
  s.value = std::strtod(num.c_str(), &end);
  if (num.empty() || end != num.c_str() + num.size() || errno == ERANGE || !std::isfinite(s.value))
    throw UserError(where + "'" + num + "' is not a finite number");
  return s;
}

}  // namespace frmini::render
