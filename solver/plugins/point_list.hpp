// Points written as PyFR writes them in a case file: "(x, y[, z]), (...)". The sampler's
// points and line ends, the integrals plugin's region box and frmini sample's options.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace frmini::solver {

// "(x, y[, z]), (...)" tuples of nd coordinates each (z = 0 in 2D); a UserError naming
// `where` for anything else, or for no tuple at all.
std::vector<std::array<double, 3>> parse_points(const std::string& text, int nd,
                                                const std::string& where);

}  // namespace frmini::solver
