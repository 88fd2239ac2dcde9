// Test support: a directory for one test process's own files, under the system's temporary
// directory and named after the process, made on first use and removed with its contents when
// the process ends (a test binary that leaves its files behind fills /tmp run after run).
#pragma once

#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <system_error>

namespace frmini::test {

inline std::filesystem::path scratch_dir(const std::string& prefix) {
  struct Dir {
    std::filesystem::path path;
    Dir() = default;
    Dir(const Dir&) = delete;
    Dir& operator=(const Dir&) = delete;
    ~Dir() {
      std::error_code ec;
      if (!path.empty()) std::filesystem::remove_all(path, ec);
    }
  };
  static std::map<std::string, Dir> dirs;
  Dir& d = dirs[prefix];
  if (d.path.empty()) {
    d.path = std::filesystem::temp_directory_path() / (prefix + "-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d.path);
  }
  return d.path;
}

}  // namespace frmini::test
