#include "base/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>
#include <unistd.h>

#include "base/error.hpp"

namespace frmini {

void write_atomically(const std::filesystem::path& path,
                      const std::function<void(const std::filesystem::path& tmp)>& write) {
  namespace fs = std::filesystem;
  fs::path tmp = path;
  tmp += ".tmp-" + std::to_string(::getpid());
  try {
    write(tmp);
  } catch (...) {
    std::error_code ec;
    fs::remove(tmp, ec);
    throw;
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw UserError(path.string() + ": cannot write: " + ec.message());
  }
}

std::size_t write_fully(int fd, const char* data, std::size_t n, std::string& why) {
  std::size_t done = 0;
  while (done < n) {
    const ssize_t w = ::write(fd, data + done, n - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      why = w == 0 ? "nothing written" : std::strerror(errno);
      break;
    }
    done += std::size_t(w);
  }
  return done;
}

void write_text_atomically(const std::filesystem::path& path, const std::string& text) {
  write_atomically(path, [&](const std::filesystem::path& tmp) {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw UserError(path.string() + ": cannot open for writing");
    out << text;
    out.close();
    if (!out) throw UserError(path.string() + ": write failed");
  });
}

}  // namespace frmini
