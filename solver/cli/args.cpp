#include "solver/cli/args.hpp"

#include <algorithm>
#include <charconv>
#include <memory>
#include <sstream>

#include <CLI/CLI.hpp>

#include "base/error.hpp"
#include "solver/config/config.hpp"

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
  double x = 0;
  if (!config::parse_real(v, x)) throw UserError(cmd_ + ": --" + name + ": '" + v + "' is not a number");
  return x;
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

// Help texts keep their own line breaks; CLI11 indents the lines after the first itself.
static std::string tidy(const std::string& help) {
  std::string out;
  bool line_start = false;
  for (char c : help) {
    if (line_start && c == ' ') continue;
    line_start = c == '\n';
    out += c;
  }
  return out;
}

// The CLI11 application of this command, its options bound to `a`'s values (pre-set to their
// defaults): one description serves parsing and --help.
std::unique_ptr<CLI::App> ArgParser::make_app(Args& a) const {
  auto app = std::make_unique<CLI::App>(summary_, "frmini " + command_);
  app->set_help_flag("-h,--help", "show this help");
  app->allow_extras();  // reported below in frmini's words, naming the first
  app->footer(epilog_);
  app->get_formatter()->column_width(30);
  for (const auto& p : pos_) {
    a.values_[p.name] = p.def;
    auto* o = app->add_option(p.name, a.values_[p.name], tidy(p.help))->type_name("");
    if (p.required) o->required();
    else if (!p.def.empty()) o->default_str(p.def);
  }
  for (const auto& op : opts_) {
    a.values_[op.name] = op.def;
    if (op.is_flag) {
      const std::string help = tidy(op.help);  // a const string: CLI11's description overload
      app->add_flag("--" + op.name, help);
      continue;
    }
    auto* o = app->add_option("--" + op.name, a.values_[op.name], tidy(op.help))
                  ->type_name(op.metavar);
    if (!op.def.empty()) o->default_str(op.def);
  }
  return app;
}

std::string ArgParser::help() const {
  Args a;
  return make_app(a)->help();
}

Args ArgParser::parse_mixed(const std::vector<std::string>& argv,
                           std::vector<std::string>& positionals) const {
  return parse_impl(argv, &positionals);
}

Args ArgParser::parse(const std::vector<std::string>& argv) const { return parse_impl(argv, nullptr); }

Args ArgParser::parse_impl(const std::vector<std::string>& argv,
                           std::vector<std::string>* positionals) const {
  Args a;
  a.cmd_ = command_;
  auto app = make_app(a);
  std::vector<std::string> rev(argv.rbegin(), argv.rend());  // CLI11 takes them last first
  try {
    app->parse(rev);
  } catch (const CLI::CallForHelp&) {
    throw HelpRequested{help()};
  } catch (const CLI::RequiredError& e) {
    throw UserError(command_ + ": missing argument (" + e.what() + "; see frmini " + command_ +
                    " --help)");
  } catch (const CLI::ParseError& e) {
    throw UserError(command_ + ": " + e.what() + " (see frmini " + command_ + " --help)");
  }
  for (const auto& extra : app->remaining()) {
    if (extra.size() > 1 && extra[0] == '-')
      throw UserError(command_ + ": unknown option '" + extra.substr(0, extra.find('=')) +
                      "' (see frmini " + command_ + " --help)");
    if (!positionals)
      throw UserError(command_ + ": unexpected argument '" + extra + "' (see frmini " +
                      command_ + " --help)");
    positionals->push_back(extra);
  }
  for (const auto& p : pos_) a.given_[p.name] = app->count(p.name) > 0;
  for (const auto& op : opts_) a.given_[op.name] = app->count("--" + op.name) > 0;
  return a;
}

}  // namespace frmini::cli
