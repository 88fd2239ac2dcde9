// The change of order of a solution (`frmini restart --order q` from a file of order p): the
// L2 projection, in the reference element, of the order-p nodal values at the solution points
// onto the order-q space, given as the order-q nodal values. One construction for every
// element type, through the orthonormal bases (operators/bases.hpp):
//
//   P = Φ_q(x_q)ᵀ · M · V_p⁻ᵀ,  V_p[k,u] = ψ_k(x_u),  M[j,k] = ∫ φ_j ψ_k (by quadrature)
//
// V_p⁻ᵀ takes nodal values to the order-p modal coefficients, M projects them onto the
// order-q basis φ (orthonormal, so no mass matrix to invert), and Φ_q(x_q)ᵀ evaluates the
// result at the order-q solution points. Every function of both spaces (each polynomial of
// total degree ≤ min(p, q); on quad/hex the whole tensor space Q_min(p,q)) comes back exactly.
#pragma once

#include <string>

#include "operators/linalg.hpp"
#include "operators/quadrules.hpp"

namespace frmini::operators {

// nupts(q) × nupts(p): order-p nodal values at the solution point set `upts` of `etype`
// ("" = default_upts(etype)) to the order-q nodal values of their projection, at the same
// set's order-q points. q == p gives the identity exactly (a same-order restart stays bit
// for bit). Throws UserError for an unknown element type or point set, a negative order, or
// an order beyond the point-set tables.
Matrix projection_matrix(const std::string& etype, int p, int q, const std::string& upts = "");

// The same built by quadrature whatever p and q (projection_matrix short-circuits q == p);
// for tests: at q == p it is the identity to round-off.
Matrix l2_projection_matrix(const std::string& etype, int p, int q, const std::string& upts = "");

// The order-p solution points of `etype` (nupts × ndims) of the set `upts` ("" = default).
Matrix solution_points(const std::string& etype, int p, const std::string& upts = "");

// The quadrature the projection integrates with: n Gauss–Legendre points in each collapsed
// (Duffy) coordinate of the reference `etype`, weights times the collapse's Jacobian. Exact
// for the product of any order-p and order-q basis functions when n ≥ p + q + 2 (the
// pyramid's functions reach degree 2p in the collapsed ζ; the Jacobian adds up to 2). The
// point-set tables cannot serve every element: the pyramid's carry no weights and the
// tetrahedron's stop at degree 9.
QuadRule collapsed_gauss_rule(const std::string& etype, int n);

}  // namespace frmini::operators
