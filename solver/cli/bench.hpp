// `frmini bench <what>`: benchmark sub-commands register here (bench matmul in
// cmd_bench_matmul.cpp; bench solver can be added in its own cmd_bench_<what>.cpp file).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace frmini::cli {

struct BenchCommand {
  std::string name;     // "matmul"
  std::string summary;
  std::function<int(const std::vector<std::string>& args)> run;
};

bool register_bench(BenchCommand c);
const std::vector<BenchCommand>& bench_commands();

// The paper's Figure 3 (speedup of generated over a peer against operator size, coloured by
// sparsity), drawn by gnuplot (pngcairo). Each point: size (m*k), zero fraction, speedup.
struct SpeedupPoint {
  double size = 0, zero_fraction = 0, speedup = 0;
  std::string label;
};
// Throws UserError if gnuplot is missing or fails.
void plot_speedups(const std::string& png, const std::string& title, const std::string& ylabel,
                   const std::vector<SpeedupPoint>& points);

}  // namespace frmini::cli
