#include "solver/config/config.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>

#include <toml.hpp>

#include "base/error.hpp"
#include "solver/config/schema.hpp"

namespace frmini::config {

namespace {

std::string loc(const std::string& file, const toml::value& v) {
  auto l = v.location();
  return file + ":" + std::to_string(l.line());
}

std::string number_text(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

[[noreturn]] void fail(const std::string& msg) { throw UserError(msg); }

// A TOML file must be UTF-8, and toml11 3.7.1 (Debian 12) must not see one that is not: a
// literal string holding bytes that are not UTF-8 sends it down an error path that counts
// lines between iterators of two different buffers (parse_literal_string, reset(first) on a
// copy of the token), reading past the copy (AddressSanitizer) or throwing std::length_error
// (found by tests/fuzz/fuzz_config). Padding the input would not help: the copy is toml11's.
// This accepts exactly what toml11's lex_utf8_code does (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), so a text that passes never reaches that path.
void check_utf8(const std::string& text, const std::string& name) {
  long line = 1;
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    // The sequence's length by its first byte, and the range of its second (RFC 3629's table).
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c < 0x80) {
      n = 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
      n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 3;
      lo = c == 0xE0 ? 0xA0 : 0x80;
      hi = c == 0xED ? 0x9F : 0xBF;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 4;
      lo = c == 0xF0 ? 0x90 : 0x80;
      hi = c == 0xF4 ? 0x8F : 0xBF;
    }
    bool ok = n > 0 && i + n <= text.size();
    for (std::size_t k = 1; ok && k < n; ++k) {
      const unsigned char b = static_cast<unsigned char>(text[i + k]);
      ok = k == 1 ? b >= lo && b <= hi : b >= 0x80 && b <= 0xBF;
    }
    if (!ok) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", unsigned(c));
      fail(name + ":" + std::to_string(line) + ": not a valid TOML file: byte " + hex +
           " is not UTF-8 (a TOML file must be UTF-8)");
    }
    line += c == '\n';
    i += n;
  }
}

// Every TOML text frmini parses (case files, and values given on the command line) goes
// through here, past the UTF-8 check above.
toml::value parse_toml(const std::string& text, const std::string& name) {
  check_utf8(text, name);
  std::istringstream in(text);
  return toml::parse(in, name);
}

// Checks a scalar against its key spec and returns its canonical text.
std::string check_value(const KeySpec* spec, ValueType type, const toml::value& v,
                        const std::string& where, const std::string& label) {
  auto bad = [&](const std::string& what) { fail(where + ": " + label + ": " + what); };
  std::string got = v.is_string() ? "a string" : v.is_integer() ? "an integer"
                    : v.is_floating() ? "a number" : v.is_boolean() ? "a boolean"
                    : v.is_table() ? "a table" : v.is_array() ? "an array" : "a date/time";
  std::string text;
  double num = 0;
  bool is_num = false;
  switch (type) {
    case ValueType::string:
    case ValueType::choice:
      if (!v.is_string()) bad("expected a string, got " + got);
      text = v.as_string().str;
      if (type == ValueType::choice && spec) {
        bool ok = false;
        for (const auto& c : spec->choices) ok = ok || c == text;
        if (!ok) {
          std::string all;
          for (const auto& c : spec->choices) all += (all.empty() ? "" : ", ") + c;
          bad("unknown value '" + text + "' (choose from " + all + ")");
        }
      }
      return text;
    case ValueType::integer:
      if (!v.is_integer()) bad("expected an integer, got " + got);
      num = double(v.as_integer());
      text = std::to_string(v.as_integer());
      is_num = true;
      break;
    case ValueType::real:
      if (v.is_integer()) num = double(v.as_integer());
      else if (v.is_floating()) num = v.as_floating();
      else bad("expected a number, got " + got);
      if (!std::isfinite(num)) bad("expected a finite number");
      text = number_text(num);
      is_num = true;
      break;
    case ValueType::boolean:
      if (!v.is_boolean()) bad("expected true or false, got " + got);
      return v.as_boolean() ? "true" : "false";
    case ValueType::expression:
      if (v.is_string()) return v.as_string().str;
      if (v.is_integer()) return std::to_string(v.as_integer());
      if (v.is_floating()) return number_text(v.as_floating());
      bad("expected an expression (a string or a number), got " + got);
      break;
    case ValueType::any:
      if (v.is_string()) return v.as_string().str;
      if (v.is_integer()) return std::to_string(v.as_integer());
      if (v.is_floating()) return number_text(v.as_floating());
      if (v.is_boolean()) return v.as_boolean() ? "true" : "false";
      bad("expected a string, number or boolean, got " + got);
  }
  if (is_num && spec && (num < spec->min || num > spec->max))
    bad(text + " is out of range [" + number_text(spec->min) + ", " + number_text(spec->max) +
        "]");
  return text;
}

}  // namespace

Config Config::load(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw UserError(file.string() + ": cannot open case file");
  std::ostringstream s;
  s << in.rdbuf();
  return parse(s.str(), file.string());
}

Config Config::parse(const std::string& text, const std::string& filename) {
  Config c;
  c.text_ = text;
  c.filename_ = filename;
  toml::value root;
  try {
    root = parse_toml(text, filename);
  } catch (const toml::syntax_error& e) {
    // toml11's message spans several lines; keep "file:line: first line".
    std::string msg = e.what();
    auto nl = msg.find('\n');
    std::string first = msg.substr(0, nl);
    if (first.rfind("[error] ", 0) == 0) first = first.substr(8);
    throw UserError(filename + ":" + std::to_string(e.location().line()) + ": " + first);
  } catch (const std::length_error& e) {
    // toml11 3.7 threw this, not a syntax_error, on a literal string holding bytes that are
    // not UTF-8 (found by tests/fuzz/fuzz_config); check_utf8 now refuses those first, and this
    // stays so that any other such throw still names the file.
    throw UserError(filename + ": not a valid TOML file (" + e.what() + ")");
  }

  // Walks tables: a sub-table is a section of its own (solver.points, bcs.wall); any other
  // value is a key of the current section.
  std::function<void(const std::string&, const toml::value&)> walk =
      [&](const std::string& path, const toml::value& table) {
        const SectionSpec* sec = path.empty() ? nullptr : find_section(path);
        for (const auto& [key, v] : table.as_table()) {
          std::string sub = path.empty() ? key : path + "." + key;
          if (v.is_table()) {
            bool known = find_section(sub) != nullptr;
            // A parent of a known section ("bcs" for "bcs.*", "plugins") is a namespace.
            if (!known)
              for (const auto& s : case_schema()) known = known || s.path.rfind(sub + ".", 0) == 0;
            if (!known)
              throw UserError(loc(filename, v) + ": unknown section [" + sub +
                              "] (see frmini run --help-config)");
            walk(sub, v);
            continue;
          }
          if (!sec)
            throw UserError(loc(filename, v) + ": '" + key + "' is outside any known section" +
                            (path.empty() ? "" : " ([" + path + "] holds only tables)"));
          const KeySpec* k = find_key(*sec, key);
          if (!k && !sec->open)
            throw UserError(loc(filename, v) + ": unknown key '" + key + "' in [" + path +
                            "] (see frmini run --help-config)");
          std::string where = loc(filename, v);
          std::string val = check_value(k, k ? k->type : sec->open_type, v, where,
                                        "[" + path + "] " + key);
          c.values_[path][key] = Entry{val, where};
        }
      };
  walk("", root);
  // Sections present without keys still count as present (a plugin enabled with defaults).
  std::function<void(const std::string&, const toml::value&)> mark =
      [&](const std::string& path, const toml::value& table) {
        for (const auto& [key, v] : table.as_table())
          if (v.is_table()) {
            std::string sub = path.empty() ? key : path + "." + key;
            c.values_[sub];
            mark(sub, v);
          }
      };
  mark("", root);

  // Required keys of present sections (and of always-required sections).
  for (const auto& s : case_schema()) {
    if (s.path.find('*') != std::string::npos) continue;
    bool present = c.has_section(s.path);
    bool always = s.path == "time" || s.path == "ics";
    if (!present && !always) continue;
    for (const auto& k : s.keys)
      if (k.required && !c.find(s.path, k.name))
        throw UserError(filename + ": [" + s.path + "] " + k.name + " is required (" + k.help +
                        ")");
  }
  for (const auto& [path, keys] : c.values_) {
    const SectionSpec* s = find_section(path);
    if (!s || s->path.find('*') == std::string::npos) continue;
    for (const auto& k : s->keys)
      if (k.required && !keys.count(k.name))
        throw UserError(filename + ": [" + path + "] " + k.name + " is required (" + k.help +
                        ")");
  }
  return c;
}

std::filesystem::path Config::dir() const {
  auto d = std::filesystem::path(filename_).parent_path();
  return d.empty() ? std::filesystem::path(".") : d;
}

bool Config::has_section(const std::string& section) const {
  return values_.count(section) > 0;
}

const Config::Entry* Config::find(const std::string& section, const std::string& key) const {
  auto s = values_.find(section);
  if (s == values_.end()) return nullptr;
  auto k = s->second.find(key);
  return k == s->second.end() ? nullptr : &k->second;
}

bool Config::has(const std::string& section, const std::string& key) const {
  return find(section, key) != nullptr;
}

std::string Config::value_or_default(const std::string& section, const std::string& key) const {
  if (const Entry* e = find(section, key)) return e->value;
  const SectionSpec* s = find_section(section);
  const KeySpec* k = s ? find_key(*s, key) : nullptr;
  if (!s || (!k && !s->open)) throw std::logic_error("config: key not in schema: [" + section + "] " + key);
  if (!k || k->def.empty())
    throw UserError(filename_ + ": [" + section + "] " + key + " is required" +
                    (k && !k->help.empty() ? " (" + k->help + ")" : ""));
  return k->def;
}

std::string Config::str(const std::string& section, const std::string& key) const {
  if (const Entry* e = find(section, key)) return e->value;
  const SectionSpec* s = find_section(section);
  const KeySpec* k = s ? find_key(*s, key) : nullptr;
  if (k && k->def.empty() && !k->required &&
      (k->type == ValueType::string || k->type == ValueType::choice))
    return "";
  return value_or_default(section, key);
}

long Config::integer(const std::string& section, const std::string& key) const {
  std::string v = value_or_default(section, key);
  long x = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc() || p != v.data() + v.size())
    throw UserError(where(section, key) + ": expected an integer, got '" + v + "'");
  return x;
}

bool parse_real(const std::string& text, double& x) {
  try {
    size_t pos = 0;
    x = std::stod(text, &pos);
    return pos == text.size();
  } catch (const std::exception&) {
    return false;
  }
}

double Config::real(const std::string& section, const std::string& key) const {
  std::string v = value_or_default(section, key);
  double x = 0;
  if (!parse_real(v, x)) throw UserError(where(section, key) + ": expected a number, got '" + v + "'");
  return x;
}

bool Config::boolean(const std::string& section, const std::string& key) const {
  std::string v = value_or_default(section, key);
  if (v == "true") return true;
  if (v == "false") return false;
  throw UserError(where(section, key) + ": expected true or false, got '" + v + "'");
}

std::string Config::expr(const std::string& section, const std::string& key) const {
  return value_or_default(section, key);
}

std::vector<std::string> Config::subsections(const std::string& prefix) const {
  std::vector<std::string> out;
  for (const auto& [path, keys] : values_) {
    if (path.rfind(prefix + ".", 0) != 0) continue;
    std::string rest = path.substr(prefix.size() + 1);
    if (rest.find('.') == std::string::npos) out.push_back(rest);
  }
  return out;
}

std::vector<std::string> Config::keys(const std::string& section) const {
  std::vector<std::string> out;
  if (auto s = values_.find(section); s != values_.end())
    for (const auto& [k, e] : s->second) out.push_back(k);
  return out;
}

std::map<std::string, double> Config::constants() const {
  std::map<std::string, double> out;
  const SectionSpec* s = find_section("constants");
  for (const auto& k : s->keys)
    if (!k.def.empty() || has("constants", k.name)) out[k.name] = real("constants", k.name);
  for (const auto& k : keys("constants")) out[k] = real("constants", k);
  return out;
}

std::string Config::where(const std::string& section, const std::string& key) const {
  const Entry* e = find(section, key);
  return (e ? e->where : filename_) + ": [" + section + "] " + key;
}

void Config::override_value(const std::string& section, const std::string& key,
                            const std::string& value, const std::string& origin) {
  const SectionSpec* s = find_section(section);
  const KeySpec* k = s ? find_key(*s, key) : nullptr;
  if (!s || (!k && !s->open)) throw std::logic_error("override of unknown key " + key);
  // Re-use the TOML checks: parse the flag's value as a TOML value of the right kind.
  ValueType t = k ? k->type : s->open_type;
  toml::value v;
  if (t == ValueType::string || t == ValueType::choice || t == ValueType::expression) {
    v = toml::value(value);
  } else {
    try {
      v = toml::find(parse_toml("v = " + value, origin), "v");
    } catch (const std::exception&) {
      throw UserError(origin + ": '" + value + "' is not a valid " + type_name(t));
    }
  }
  values_[section][key] = Entry{check_value(k, t, v, origin, "[" + section + "] " + key), origin};
}

}  // namespace frmini::config
