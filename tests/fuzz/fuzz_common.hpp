// Shared by the libFuzzer targets: the readers under test take paths, so each input is written
// to a file of this process's own (several fuzzers may run at once) and read back.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

namespace frmini::fuzz {

// The extension matters: the Gmsh importer picks its format by it.
inline std::string temp_path(const std::string& ext) {
  return "/tmp/frmini-fuzz-" + std::to_string(::getpid()) + ext;
}

inline std::string write_temp(const uint8_t* data, size_t size, const std::string& ext) {
  const std::string path = temp_path(ext);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
  return path;
}

}  // namespace frmini::fuzz
