// A case file: TOML parsed with toml11 and validated against the schema (schema.hpp).
// Unknown sections and keys, wrong types and out-of-range values are UserErrors that name
// "<file>:<line>". Getters return the file's value or the schema's default; command-line
// flags override values through override_value(), validated the same way.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace frmini::config {

class Config {
 public:
  static Config load(const std::filesystem::path& file);
  static Config parse(const std::string& text, const std::string& filename);

  const std::string& text() const { return text_; }          // stored in solution files
  const std::string& filename() const { return filename_; }
  std::filesystem::path dir() const;                          // relative paths start here

  bool has_section(const std::string& section) const;
  bool has(const std::string& section, const std::string& key) const;  // set in file or flags

  // Typed access; a key with neither a value nor a default is a UserError naming it.
  std::string str(const std::string& section, const std::string& key) const;
  long integer(const std::string& section, const std::string& key) const;
  double real(const std::string& section, const std::string& key) const;
  bool boolean(const std::string& section, const std::string& key) const;
  // The source text of an expression key (numbers become their decimal text).
  std::string expr(const std::string& section, const std::string& key) const;

  // Names of the tables under `prefix`: subsections("bcs") → {"farfield", "wall"}.
  std::vector<std::string> subsections(const std::string& prefix) const;
  // Keys set in a section (for open sections such as [mesh.options]).
  std::vector<std::string> keys(const std::string& section) const;
  // [constants] with defaults applied, for expressions and kernels.
  std::map<std::string, double> constants() const;

  // "case.toml:12: [solver] order" — for error messages about a value.
  std::string where(const std::string& section, const std::string& key) const;

  // Sets a value from elsewhere (a command-line flag named `origin`), type-checked.
  void override_value(const std::string& section, const std::string& key,
                      const std::string& value, const std::string& origin);

 private:
  struct Entry {
    std::string value;  // canonical text: strings unquoted, numbers as written
    std::string where;  // "case.toml:12"
  };
  const Entry* find(const std::string& section, const std::string& key) const;
  std::string value_or_default(const std::string& section, const std::string& key) const;

  std::string text_, filename_;
  std::map<std::string, std::map<std::string, Entry>> values_;  // section → key → entry
};

// A whole string as a number (std::stod's syntax, nothing left over): the one number reader of
// case files and command lines. False when it is not one.
bool parse_real(const std::string& text, double& x);

}  // namespace frmini::config
