// Which flux-point rows of an element group's gradient the RHS computes (M0, one product per
// dimension) and which rows of its common solution it reads back (M6). One-sided LDG reads
// one side's gradients, and on a structured mesh every element is the left side of the same
// faces, so those faces' rows come first (interfaces.cpp): 48 of 96 rows at hex p3. A
// boundary, or a face shared with another part, can be any face of its element, and made
// every element compute the rows up to it (80 on the cylinder, for its wall and far field):
// instead the rows every element needs are computed for all, and the rows past them only
// over the element blocks that need them.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace frmini::solver {

struct GradRows {
  int all = 0;   // rows any element needs: the others are never computed or read
  int most = 0;  // rows computed for every element
  // Element ranges [begin, end), whole SoA blocks, ascending, that also need rows [most, all).
  std::vector<std::pair<int64_t, int64_t>> extra;
};

// `need[e]`: one past the last row element e needs (0: none); `soa`: the SoA width, to which
// the ranges are aligned. `split` false (a backend whose chains are not cache-blocked, where
// every range would be a launch of its own) gives most = all and no ranges. Otherwise the
// split computes the fewest rows in all: `most` is the candidate that minimises
// most * (blocks) + (all - most) * (blocks of elements needing more).
GradRows plan_grad_rows(const std::vector<int>& need, int64_t soa, bool split);

}  // namespace frmini::solver
