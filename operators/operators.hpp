// The FR operator matrices of one element type at one order, built on the host in double
// precision exactly as PyFR builds them (pyfr/shapes.py), for every element type by one code
// path (M3 by lifting through the orthonormal basis). See docs/operators.md.
//
//   M0   nfpts × nupts        interpolate the solution to the flux points
//   M1   nupts × d·nupts      reference divergence of a vector field at the upts
//   M2   nfpts × d·nupts      reference normal component at the fpts (unnormalised normals)
//   M3   nupts × nfpts        divergence of the correction field of each flux point
//   M4   d·nupts × nupts      reference gradient
//   M6   d·nupts × nfpts      gradient correction
//   M132 = M1 − M3·M2,  M460 = M4 − M6·M0
// and, for flux anti-aliasing (operators/antialias.hpp, only when asked for):
//   M7   nqpts × nupts        interpolate the solution to the volume quadrature points
//   M8   nupts × nqpts        L2 projection from the quadrature points onto the nodal basis
//   M9   d·nupts × d·nqpts    blockdiag(M8, ..., M8): the same for a vector field
//   M1329 = (M1 − M3·M2)·M9   divergence of the flux at the qpts, projected back
// and, for surface-flux anti-aliasing (add_surface_antialias), the flux points moved to each
// face's quadrature rule, M3 replaced by M3·blockdiag(P_face) (P: L2 projection from the rule's
// points onto the face's nodal basis) and M0, M2, M6, M132, M460 rebuilt on the new points.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "operators/linalg.hpp"

namespace frmini::operators {

struct ElementOperators {
  std::string etype, upts_name;
  std::map<std::string, std::string> fpts_names;  // face kind → flux point set
  int order = 0, ndims = 0, nupts = 0, nfpts = 0;
  Matrix m0, m1, m2, m3, m4, m6, m132, m460;

  Matrix upts;                       // nupts × ndims reference coordinates
  Matrix fpts;                       // nfpts × ndims, face by face
  std::vector<int> fpts_face;        // face index of each flux point
  Matrix norm_fpts;                  // nfpts × ndims unnormalised reference normals
  // Quadrature weight of each flux point on its face's parameter domain (∫ of its face
  // nodal basis function; a face's weights sum to 2 for line and tri faces, 4 for quad
  // faces): Σ w |pnorm| f integrates f over a physical face (surface forces).
  std::vector<double> fpts_wts;

  // Flux anti-aliasing (add_flux_antialias in antialias.hpp; empty, nqpts 0, until then).
  std::string qpts_name;             // the volume rule's table ("witherden-vincent-n59-d9-sp.txt")
  int qdeg = -1, nqpts = 0;          // its strength (degree) and number of points
  Matrix qpts;                       // nqpts × ndims
  std::vector<double> qwts;          // its weights
  Matrix m7, m8, m9, m1329;

  // Surface-flux anti-aliasing (add_surface_antialias; empty until then): the face rule of each
  // face kind ("line" → "gauss-legendre-n4-d7-spu.txt") and its degree. fpts, fpts_face,
  // norm_fpts and fpts_wts then hold the rules' points and weights.
  std::map<std::string, std::string> surf_qrule_names;
  std::map<std::string, int> surf_qdeg;
};

// The default solution point set of an element type (gauss-legendre, williams-shunn, ...), and
// the sets it accepts.
std::string default_upts(const std::string& etype);
std::vector<std::string> upts_choices(const std::string& etype);
// The flux point set of each face kind that follows an element's solution point set
// (hex gauss-legendre → quad faces gauss-legendre; tet shunn-ham → tri faces williams-shunn...).
std::map<std::string, std::string> default_fpts(const std::string& etype, const std::string& upts);

// Builds every operator. upts "" = default set. `fpts` overrides the flux point set per face
// kind ("line", "tri", "quad"); kinds not named follow the default. Throws UserError for an
// unknown element type or point set, a negative order, or an order beyond the tables.
ElementOperators build_operators(const std::string& etype, int order, const std::string& upts = "",
                                 const std::map<std::string, std::string>& fpts = {});

// An operator by name: "M0", "M1", "M2", "M3", "M4", "M6", "M132", "M460" (also M1-M3*M2,
// M4-M6*M0), and once add_flux_antialias has run "M7", "M8", "M9", "M1329" (also
// (M1-M3*M2)*M9). Throws UserError for another name or an anti-aliasing operator not built.
const Matrix& get(const ElementOperators& ops, const std::string& name);

// The operators the solver multiplies by, in the order it applies them.
const std::vector<std::string>& solver_operator_names();  // M0 M3 M6 M132 M460
const std::vector<std::string>& all_operator_names();     // + M1 M2 M4

}  // namespace frmini::operators
