#include "solver/cli/args.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>

#include "operators/error.hpp"

namespace frmini::cli {

namespace {
std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  if (s.empty()) return out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

long parse_long(const std::string& cmd, const std::string& name, const std::string& v) {
  long x = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc() || p != v.data() + v.size() || v.empty())
    throw UserError(cmd + ": --" + name + ": '" + v + "' is not an integer");
  return x;
}
}  // namespace

const std::string& Args::get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw std::logic_error("Args::get: undeclared option " + name);
  return it->second;
}

bool Args::given(const std::string& name) const {
  auto it = given_.find(name);
  return it != given_.end() && it->second;
}

long Args::get_int(const std::string& name, long min, long max) const {
  long x = parse_long(cmd_, name, get(name));
  if (x < min || x > max)
    throw UserError(cmd_ + ": --" + name + ": " + std::to_string(x) + " is out of range [" +
                    std::to_string(min) + ", " + std::to_string(max) + "]");
  return x;
}

double Args::get_double(const std::string& name) const {
  const std::string& v = get(name);
  try {
    size_t pos = 0;
    double x = std::stod(v, &pos);
    if (pos != v.size()) throw std::invalid_argument(v);
    return x;
  } catch (const std::exception&) {
    throw UserError(cmd_ + ": --" + name + ": '" + v + "' is not a number");
  }
}

std::vector<std::string> Args::get_list(const std::string& name) const {
  auto out = split(get(name), ',');
  for (const auto& s : out)
    if (s.empty()) throw UserError(cmd_ + ": --" + name + ": empty item in list '" + get(name) + "'");
  return out;
}

std::vector<long> Args::get_int_list(const std::string& name, long min, long max) const {
  std::vector<long> out;
  for (const auto& s : get_list(name)) {
    // Ranges "1-6" are allowed as well as single values.
    auto dash = s.find('-', 1);
    long lo, hi;
    if (dash != std::string::npos) {
      lo = parse_long(cmd_, name, s.substr(0, dash));
      hi = parse_long(cmd_, name, s.substr(dash + 1));
    } else {
      lo = hi = parse_long(cmd_, name, s);
    }
    for (long x = lo; x <= hi; ++x) {
      if (x < min || x > max)
        throw UserError(cmd_ + ": --" + name + ": " + std::to_string(x) + " is out of range [" +
                        std::to_string(min) + ", " + std::to_string(max) + "]");
      out.push_back(x);
    }
  }
  return out;
}

const std::string& Args::get_choice(const std::string& name,
                                    const std::vector<std::string>& choices) const {
  const std::string& v = get(name);
  if (std::find(choices.begin(), choices.end(), v) == choices.end()) {
    std::string all;
    for (const auto& c : choices) all += (all.empty() ? "" : ", ") + c;
    throw UserError(cmd_ + ": --" + name + ": unknown value '" + v + "' (choose from " + all + ")");
  }
  return v;
}

ArgParser::ArgParser(std::string command, std::string summary)
    : command_(std::move(command)), summary_(std::move(summary)) {}

ArgParser& ArgParser::positional(const std::string& name, const std::string& help) {
  pos_.push_back({name, help, "", true});
  return *this;
}

ArgParser& ArgParser::optional_positional(const std::string& name, const std::string& help,
                                          const std::string& def) {
  pos_.push_back({name, help, def, false});
  return *this;
}

ArgParser& ArgParser::option(const std::string& name, const std::string& metavar,
                             const std::string& help, const std::string& def) {
  opts_.push_back({name, metavar, help, def, false});
  return *this;
}

ArgParser& ArgParser::flag(const std::string& name, const std::string& help) {
  opts_.push_back({name, "", help, "", true});
  return *this;
}

ArgParser& ArgParser::epilog(const std::string& text) {
  epilog_ = text;
  return *this;
}

std::string ArgParser::help() const {
  std::ostringstream o;
  o << "usage: frmini " << command_;
  for (const auto& p : pos_) o << (p.required ? " " + p.name : " [" + p.name + "]");
  if (!opts_.empty()) o << " [options]";
  o << "\n\n" << summary_ << "\n";
  if (!pos_.empty()) {
    o << "\narguments:\n";
    for (const auto& p : pos_) {
      o << "  " << p.name;
      for (size_t i = p.name.size(); i < 24; ++i) o << ' ';
      o << p.help;
      if (!p.required && !p.def.empty()) o << " (default: " << p.def << ")";
      o << "\n";
    }
  }
  o << "\noptions:\n";
  for (const auto& op : opts_) {
    std::string lhs = "--" + op.name + (op.is_flag ? "" : " " + op.metavar);
    o << "  " << lhs;
    for (size_t i = lhs.size(); i < 24; ++i) o << ' ';
    o << op.help;
    if (!op.is_flag && !op.def.empty()) o << " (default: " << op.def << ")";
    o << "\n";
  }
  o << "  --help                  show this help\n";
  if (!epilog_.empty()) o << "\n" << epilog_ << "\n";
  return o.str();
}

Args ArgParser::parse_mixed(const std::vector<std::string>& argv,
                           std::vector<std::string>& positionals) const {
  std::vector<std::string> opts;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& s = argv[i];
    if (s.size() > 2 && s.rfind("--", 0) == 0) {
      opts.push_back(s);
      const bool valued = std::any_of(opts_.begin(), opts_.end(), [&](const Opt& o) {
        return !o.is_flag && o.name == s.substr(2);
      });
      if (s.find('=') == std::string::npos && valued && i + 1 < argv.size()) opts.push_back(argv[++i]);
    } else if (s == "-h") {
      opts.push_back(s);
    } else {
      positionals.push_back(s);
    }
  }
  return parse(opts);
}

Args ArgParser::parse(const std::vector<std::string>& argv) const {
  Args a;
  a.cmd_ = command_;
  for (const auto& op : opts_) {
    a.values_[op.name] = op.def;
    a.given_[op.name] = false;
  }
  for (const auto& p : pos_) {
    a.values_[p.name] = p.def;
    a.given_[p.name] = false;
  }
  size_t npos = 0;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& s = argv[i];
    if (s == "--help" || s == "-h") throw HelpRequested{help()};
    if (s.size() > 2 && s.rfind("--", 0) == 0) {
      std::string name = s.substr(2), value;
      bool inline_value = false;
      if (auto eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
        inline_value = true;
      }
      auto it = std::find_if(opts_.begin(), opts_.end(),
                             [&](const Opt& o) { return o.name == name; });
      if (it == opts_.end())
        throw UserError(command_ + ": unknown option '--" + name + "' (see frmini " + command_ +
                        " --help)");
      if (it->is_flag) {
        if (inline_value) throw UserError(command_ + ": --" + name + " takes no value");
        a.given_[name] = true;
        continue;
      }
      if (!inline_value) {
        if (i + 1 >= argv.size())
          throw UserError(command_ + ": --" + name + " needs a value (" + it->metavar + ")");
        value = argv[++i];
      }
      a.values_[name] = value;
      a.given_[name] = true;
      continue;
    }
    if (npos >= pos_.size())
      throw UserError(command_ + ": unexpected argument '" + s + "' (see frmini " + command_ +
                      " --help)");
    a.values_[pos_[npos].name] = s;
    a.given_[pos_[npos].name] = true;
    ++npos;
  }
  for (size_t i = npos; i < pos_.size(); ++i)
    if (pos_[i].required)
      throw UserError(command_ + ": missing argument " + pos_[i].name + " (see frmini " +
                      command_ + " --help)");
  return a;
}

}  // namespace frmini::cli
