// The command line of every frmini command: each command declares its positionals and options
// with help text and defaults; CLI11 parses them and writes "frmini <cmd> --help", and every
// mistake (unknown option, missing value, bad number) is a UserError naming the option.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace frmini::cli {

// Thrown by ArgParser::parse when --help was given; main prints the text and exits 0.
struct HelpRequested {
  std::string text;
};

class Args {
 public:
  // The value of an option (its default when not given), or of a positional by name.
  const std::string& get(const std::string& name) const;
  bool given(const std::string& name) const;  // set on the command line (flags: present)
  bool flag(const std::string& name) const { return given(name); }
  // Typed access; a malformed value is a UserError naming the option.
  long get_int(const std::string& name, long min, long max) const;
  double get_double(const std::string& name) const;
  // Comma-separated list; empty string gives an empty list.
  std::vector<std::string> get_list(const std::string& name) const;
  std::vector<long> get_int_list(const std::string& name, long min, long max) const;
  // Value must be one of `choices`.
  const std::string& get_choice(const std::string& name,
                                const std::vector<std::string>& choices) const;

 private:
  friend class ArgParser;
  std::string cmd_;
  std::map<std::string, std::string> values_;
  std::map<std::string, bool> given_;
};

class ArgParser {
 public:
  ArgParser(std::string command, std::string summary);

  ArgParser& positional(const std::string& name, const std::string& help);
  ArgParser& optional_positional(const std::string& name, const std::string& help,
                                 const std::string& def = "");
  ArgParser& option(const std::string& name, const std::string& metavar,
                    const std::string& help, const std::string& def = "");
  ArgParser& flag(const std::string& name, const std::string& help);
  // Free text appended to --help (examples, notes).
  ArgParser& epilog(const std::string& text);

  Args parse(const std::vector<std::string>& argv) const;
  // For commands that take any number of positionals (files) among their options: every
  // argument that is not an option or an option's value goes to `positionals`, in order.
  Args parse_mixed(const std::vector<std::string>& argv, std::vector<std::string>& positionals) const;
  std::string help() const;

 private:
  struct Opt {
    std::string name, metavar, help, def;
    bool is_flag = false;
  };
  struct Pos {
    std::string name, help, def;
    bool required = true;
  };
  std::unique_ptr<CLI::App> make_app(Args& a) const;
  Args parse_impl(const std::vector<std::string>& argv, std::vector<std::string>* positionals) const;

  std::string command_, summary_, epilog_;
  std::vector<Opt> opts_;
  std::vector<Pos> pos_;
};

}  // namespace frmini::cli
