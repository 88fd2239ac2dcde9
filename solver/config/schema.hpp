// The case-file schema: every section and key a case may hold, with its type, default and
// help text. It is the single source of truth for validation (unknown keys and wrong types
// are errors with file:line) and for `frmini run --help-config`, assembled from the core
// sections here and the registrations of the extensions (plugins, Riemann solvers, boundary
// conditions, backends, matmul providers), which own their names, keys and help.
#pragma once

#include <deque>
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
  // What each choice is, where its registration says (a Riemann solver's file): parallel to
  // `choices`, "" where it says nothing; --help-config prints one line per described choice.
  std::vector<std::string> choice_help = {};
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

// The schema in use: the core sections (backend, constants, mesh, solver, time, ics, bcs.*)
// and what extensions registered. A deque, so that registering never moves a section.
const std::deque<SectionSpec>& case_schema();

// Registrations (docs/architecture.md, "Where to add things"), made before a case is read: a
// plugin adds its sections, a Riemann solver or boundary condition its name to a key's choices,
// a boundary condition the values it takes. Registering again replaces (sections, keys) or is
// a no-op (choices), so a registration may run more than once. A choice or key of a section the
// schema lacks is a programming error (std::logic_error).
void register_section(SectionSpec s);
void register_choice(const std::string& section, const std::string& key, const std::string& choice,
                     const std::string& help = "");
void register_key(const std::string& section, KeySpec k);

// The spec of a concrete section path ("bcs.wall" matches "bcs.*"), or null.
const SectionSpec* find_section(const std::string& path);
const KeySpec* find_key(const SectionSpec& s, const std::string& key);

const char* type_name(ValueType t);

// Every section and key, with types, defaults and help: `frmini run --help-config`.
void print_schema(std::ostream& o);

}  // namespace frmini::config
