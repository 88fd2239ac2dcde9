// The case-file schema: every section and key a case may hold, with its type, default and
// help text. It is the single source of truth for validation (unknown keys and wrong types
// are errors with file:line) and for `frmini run --help-config`.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace frmini::config {

enum class ValueType {
  string,      // any string
  choice,      // one of `choices`
  integer,     // a TOML integer within [min, max]
  real,        // a TOML float or integer within [min, max]
  boolean,
  expression,  // a string (or number) parsed later as an expression of x, y, z, t
  any,         // open sections: a string, number or boolean
};

struct KeySpec {
  std::string name;
  ValueType type;
  std::string def;  // "" = no default (required only if `required`)
  std::string help;
  std::vector<std::string> choices = {};
  double min = -1e308, max = 1e308;
  bool required = false;
};

// A section is a TOML table path such as "solver.points"; one path component may be "*"
// ("bcs.*": one table per boundary name). An open section accepts keys not listed (any type
// `open_type`), e.g. [constants].
struct SectionSpec {
  std::string path;
  std::string help;
  std::vector<KeySpec> keys;
  bool open = false;
  ValueType open_type = ValueType::any;
};

const std::vector<SectionSpec>& case_schema();

// The spec of a concrete section path ("bcs.wall" matches "bcs.*"), or null.
const SectionSpec* find_section(const std::string& path);
const KeySpec* find_key(const SectionSpec& s, const std::string& key);

const char* type_name(ValueType t);

// Every section and key, with types, defaults and help: `frmini run --help-config`.
void print_schema(std::ostream& o);

}  // namespace frmini::config
