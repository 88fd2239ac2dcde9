// Test support: a kernel cache directory of the test's own (compiled kernels, tuning decisions,
// bandwidth figures), removed afterwards, and environment variables set while it lives (for
// example FRMINI_CFLAGS=-Werror, FRMINI_TUNE_CACHE=0), restored afterwards.
#pragma once

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace frmini::test {

class TempCache {
 public:
  TempCache() {
    static std::atomic<int> count{0};
    dir_ = std::filesystem::temp_directory_path() /
           ("frmini-test-cache-" + std::to_string(::getpid()) + "-" + std::to_string(count++));
    std::filesystem::create_directories(dir_);
    set("FRMINI_CACHE_DIR", dir_.string());
  }
  // The cache, and `name`=`value` while it lives.
  TempCache(const std::string& name, const std::string& value) : TempCache() { set(name, value); }
  ~TempCache() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
      if (it->second) setenv(it->first.c_str(), it->second->c_str(), 1);
      else unsetenv(it->first.c_str());
    }
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  TempCache(const TempCache&) = delete;
  TempCache& operator=(const TempCache&) = delete;

 private:
  void set(const std::string& name, const std::string& value) {
    const char* old = std::getenv(name.c_str());
    saved_.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
    setenv(name.c_str(), value.c_str(), 1);
  }
  std::filesystem::path dir_;
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

}  // namespace frmini::test
