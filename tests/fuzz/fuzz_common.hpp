// Shared by the libFuzzer targets: the readers under test take paths, so each input is written
// to a file of this process's own (several fuzzers may run at once) and read back.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>

namespace frmini::fuzz {

// The extension matters: the Gmsh importer picks its format by it. The file is removed when
// the process ends (every input of a run rewrites the same one).
inline std::string temp_path(const std::string& ext) {
  struct Removed {
    std::string path;
    ~Removed() { std::remove(path.c_str()); }
  };
  static std::map<std::string, Removed> made;
  Removed& r = made[ext];
  if (r.path.empty()) r.path = "/tmp/frmini-fuzz-" + std::to_string(::getpid()) + ext;
  return r.path;
}

// The streams retry a write that a signal interrupts (libFuzzer's timeout alarm); a failure
// that remains is the harness's, not the reader's, so it stops the run.
inline void write_file(const std::string& path, const uint8_t* data, size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
  out.close();
  if (!out) throw std::runtime_error("fuzz harness: cannot write " + path);
}

inline std::string write_temp(const uint8_t* data, size_t size, const std::string& ext) {
  const std::string path = temp_path(ext);
  write_file(path, data, size);
  return path;
}

}  // namespace frmini::fuzz
