#include "kernels/cuda/resources.hpp"

#include <regex>
#include <sstream>

namespace frmini::kernels::cuda {

std::map<std::string, Resources> parse_ptxas_log(const std::string& log) {
  // ptxas prints, per entry:
  //   ptxas info    : Compiling entry function 'k' for 'sm_90'
  //   ptxas info    : Function properties for k
  //   ptxas         .     16 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
  //   ptxas info    : Used 38 registers, used 1 barriers, 6144 bytes smem, ...
  static const std::regex entry(R"(Compiling entry function '([^']+)')");
  static const std::regex props(R"(Function properties for (\S+))");
  static const std::regex frame(
      R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex regs(R"(Used (\d+) registers)");
  static const std::regex smem(R"((\d+) bytes smem)");
  std::map<std::string, Resources> out;
  std::string current;
  std::istringstream in(log);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, entry) || std::regex_search(line, m, props)) {
      current = m[1];
      out[current];
      continue;
    }
    if (current.empty()) continue;
    Resources& r = out[current];
    if (std::regex_search(line, m, frame)) {
      r.stack_frame = std::stoi(m[1]);
      r.spill_stores = std::stoi(m[2]);
      r.spill_loads = std::stoi(m[3]);
    }
    if (std::regex_search(line, m, regs)) r.registers = std::stoi(m[1]);
    if (std::regex_search(line, m, smem)) r.shared = std::stoi(m[1]);
  }
  return out;
}

}  // namespace frmini::kernels::cuda
