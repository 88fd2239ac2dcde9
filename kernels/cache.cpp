#include "kernels/cache.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "base/atomic_file.hpp"

namespace frmini::kernels {

std::filesystem::path cache_dir() {
  namespace fs = std::filesystem;
  fs::path dir;
  if (const char* e = std::getenv("FRMINI_CACHE_DIR"); e && *e) {
    dir = e;
  } else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) {
    dir = fs::path(x) / "frmini";
  } else if (const char* h = std::getenv("HOME"); h && *h) {
    dir = fs::path(h) / ".cache" / "frmini";
  } else {
    dir = fs::temp_directory_path() / "frmini-cache";
  }
  std::error_code ec;
  fs::create_directories(dir, ec);  // a read-only cache only costs recompilation
  return dir;
}

std::optional<std::string> cache_read(const std::string& key) {
  std::ifstream in(cache_dir() / key, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void cache_write(const std::string& key, const std::string& value) {
  auto path = cache_dir() / key;
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  try {
    write_text_atomically(path, value);
  } catch (const std::exception&) {
    // The cache is an optimisation: failing to write it must never fail a run.
  }
}

}  // namespace frmini::kernels
