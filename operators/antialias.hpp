// Volume flux anti-aliasing as PyFR defines it (pyfr/shapes.py, `[solver] anti-alias = flux`):
// the solution is interpolated to a volume quadrature rule (M7), the flux is evaluated there,
// and its divergence is projected back onto the nodal basis by an L2 projection computed with
// the same rule (M8, M9 = blockdiag(M8) per dimension, applied as (M1 − M3·M2)·M9). Over-
// integrating the flux this way removes the aliasing of the nonlinear flux's high modes.
//
// The rules are PyFR's tables (operators/data/quadrules, tools/pyfr-quadrules), chosen as PyFR
// chooses them: by default quad and hex Gauss–Legendre with (p+2)^d points, tet the fewest-point
// rule of degree ≥ 2p+1, tri and pyr of degree ≥ 2(p+1), pri of degree ≥ 2(p+2); a case may ask
// for another degree per element type (PyFR's [solver-elements-<etype>] quad-deg). Among rules
// of equal point count the first by name wins (PyFR takes whichever its directory listing yields
// first). Only rules with weights qualify (the pyramid's gauss-legendre point sets have none).
//
// Surface-flux anti-aliasing (PyFR's `anti-alias = surf-flux`) moves the flux points to a
// symmetric quadrature rule on each face (so that both sides of an interface see the same
// points), evaluates the common flux there and lifts its L2 projection onto the face's nodal
// basis: M3·blockdiag(P_face). PyFR's default face rules: quad faces the (p+2)² Gauss–Legendre
// rule, line and tri faces the fewest-point symmetric rule of degree ≥ 2(p+1).
#pragma once

#include <map>
#include <string>

#include "operators/operators.hpp"
#include "operators/quadrules.hpp"

namespace frmini::operators {

// PyFR's default strength for `etype` at order p: 2p+3 for quad/hex (the (p+2)-point
// Gauss–Legendre rule per direction), 2p+1 tet, 2(p+1) tri and pyr, 2(p+2) pri.
int default_volume_qdeg(const std::string& etype, int order);

// The volume rule for flux anti-aliasing of `etype` at order p; qdeg < 0: PyFR's default.
// Throws UserError naming the element type, order and degree when the tables hold no such rule.
QuadRule volume_quadrule(const std::string& etype, int order, int qdeg = -1);

// Adds qpts, qwts, M7, M8, M9 and M1329 to operators made by build_operators, with the rule of
// volume_quadrule(ops.etype, ops.order, qdeg), cleaned as PyFR's opmat cleans them.
void add_flux_antialias(ElementOperators& ops, int qdeg = -1);

// PyFR's default strength of the face rule of face kind `kind` ("line", "tri", "quad") at
// order p: 2p+3 for quad ((p+2)² Gauss–Legendre points), 2(p+1) for line and tri.
int default_face_qdeg(const std::string& kind, int order);

// The symmetric face rule for surface-flux anti-aliasing; qdeg < 0: PyFR's default. Throws
// UserError naming the face kind, order and degree when the tables hold no such rule.
QuadRule face_quadrule(const std::string& kind, int order, int qdeg = -1);

// Moves the flux points of operators made by build_operators to the face rules
// (face_quadrule(kind, ops.order, qdeg[kind]), PyFR's default for kinds not named) and rebuilds
// M0, M2, M3, M6, M132 and M460 on them. Must come before add_flux_antialias, whose M1329
// contains M3·M2 (std::logic_error otherwise).
void add_surface_antialias(ElementOperators& ops, const std::map<std::string, int>& qdeg = {});

}  // namespace frmini::operators
