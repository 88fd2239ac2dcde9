// Points written in a case file as PyFR writes them: "(x, y[, z]), ..." (the sampler's
// points and line ends, the integrals plugin's region box).
#include "base/error.hpp"
#include "solver/plugins/point_list.hpp"

namespace frmini::solver {

std::vector<std::array<double, 3>> parse_points(const std::string& text, int nd,
                                                const std::string& where) {
  std::vector<std::array<double, 3>> out;
  std::size_t i = 0;
  while ((i = text.find('(', i)) != std::string::npos) {
    const std::size_t j = text.find(')', i);
    if (j == std::string::npos) throw UserError(where + ": a '(' without its ')'");
    std::string inner = text.substr(i + 1, j - i - 1);
    std::array<double, 3> p{};
    int n = 0;
    std::size_t k = 0;
    while (k <= inner.size()) {
      std::size_t c = inner.find(',', k);
      if (c == std::string::npos) c = inner.size();
      const std::string item = inner.substr(k, c - k);
      if (n == 3) throw UserError(where + ": a point has at most 3 coordinates");
      try {
        std::size_t pos = 0;
        p[std::size_t(n)] = std::stod(item, &pos);
        if (item.find_first_not_of(" \t", pos) != std::string::npos) throw std::invalid_argument(item);
      } catch (const std::exception&) {
        throw UserError(where + ": '" + item + "' is not a number");
      }
      ++n;
      k = c + 1;
    }
    if (n != nd)
      throw UserError(where + ": (" + inner + ") has " + std::to_string(n) + " coordinates, the mesh " +
                      std::to_string(nd));
    out.push_back(p);
    i = j + 1;
  }
  if (out.empty()) throw UserError(where + ": no points, expected e.g. \"(1.0, 0.5), (2.0, 0.5)\"");
  return out;
}

}  // namespace frmini::solver
