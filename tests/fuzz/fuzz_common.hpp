// Shared by the libFuzzer targets: the readers under test take paths, so each input is written
// to a file of this process's own (several fuzzers may run at once) and read back.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
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

inline std::string write_temp(const uint8_t* data, size_t size, const std::string& ext) {
  const std::string path = temp_path(ext);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
  return path;
}

}  // namespace frmini::fuzz
