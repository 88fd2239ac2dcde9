// The Figure-3 plot of `frmini bench matmul --plot`, drawn by gnuplot (pngcairo).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "solver/cli/bench.hpp"

namespace frmini::cli {

void plot_speedups(const std::string& png, const std::string& title, const std::string& ylabel,
                   const std::vector<SpeedupPoint>& points) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0)
    throw UserError("--plot " + png + ": gnuplot was not found in PATH (install gnuplot)");
  namespace fs = std::filesystem;
  auto dat = fs::temp_directory_path() / ("frmini-plot-" + std::to_string(getpid()) + ".dat");
  {
    std::ofstream o(dat);
    for (const auto& p : points)
      if (p.speedup > 0) o << p.size << " " << p.speedup << " " << p.zero_fraction << "\n";
  }
  write_atomically(png, [&](const fs::path& tmp) {
    std::ostringstream g;
    g << "set terminal pngcairo size 900,600 enhanced font 'sans,11'\n"
      << "set output '" << tmp.string() << "'\n"
      << "set title '" << title << "'\n"
      << "set logscale x\nset logscale y\nset grid\n"
      << "set xlabel 'operator size m x k'\nset ylabel '" << ylabel << "'\n"
      << "set cblabel 'zero fraction (sparsity)'\nset cbrange [0:1]\n"
      << "set palette defined (0 'blue', 0.5 'green', 0.8 'orange', 1 'red')\n"
      << "f(x) = 1\n"
      << "plot '" << dat.string() << "' using 1:2:3 with points pt 7 ps 1.3 palette notitle, "
      << "f(x) with lines lc rgb 'black' dt 2 title 'speedup 1'\n";
    FILE* p = popen("gnuplot 2>&1", "w");
    if (!p) throw UserError("--plot: cannot run gnuplot");
    std::string script = g.str();
    fwrite(script.data(), 1, script.size(), p);
    int st = pclose(p);
    if (st != 0 || !fs::exists(tmp)) throw UserError("--plot " + png + ": gnuplot failed");
  });
  std::error_code ec;
  fs::remove(dat, ec);
}

}  // namespace frmini::cli
