// PyFR's point-set and quadrature tables (operators/data/quadrules/<shape>/*.txt, copied from
// PyFR by tools/pyfr-quadrules and embedded into the library at build time, so the binary
// never reads the source tree). File names follow PyFR: <rule>-n<npts>[-d<deg>][-<flags>].txt;
// each line is one point, `x [y [z]] [w]`.
//
// Look-up mirrors pyfr/quadrules/__init__.py: by exact point count (solution and flux points;
// the highest-degree such table wins) or by minimum degree (quadrature; the fewest points win).
#pragma once

#include <string>
#include <vector>

#include "operators/linalg.hpp"

namespace frmini::operators {

struct QuadRuleInfo {
  std::string shape, name;  // "tri", "williams-shunn"
  int npts = 0;
  int degree = -1;          // -1: a point set without a stated degree
  std::string flags;        // subset of "pstu"
  std::string file;         // PyFR's file name
};

struct QuadRule {
  QuadRuleInfo info;
  Matrix pts;               // npts × ndims
  std::vector<double> wts;  // empty if the table has no weights
};

// Every embedded table for `shape` (and `name`, if not empty), sorted by name then npts.
std::vector<QuadRuleInfo> list_quadrules(const std::string& shape, const std::string& name = "");

// The `name` table of `shape` with exactly npts points. Throws UserError if there is none.
QuadRule get_quadrule(const std::string& shape, const std::string& name, int npts);

// The table with the fewest points and degree ≥ qdeg (and flags ⊇ `flags`), any rule name if
// `name` is empty. Throws UserError if there is none.
QuadRule get_quadrule_deg(const std::string& shape, const std::string& name, int qdeg,
                          const std::string& flags = "");

}  // namespace frmini::operators
