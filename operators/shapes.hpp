// Reference element shapes as PyFR defines them (pyfr/shapes.py): vertices, faces (kind,
// reference→face map `proj`, unnormalised outward normal), point counts and the equispaced
// `std_ele` lattice used for geometry nodes. Element types: quad, tri, hex, tet, pri, pyr;
// face kinds: line, tri, quad.
#pragma once

#include <string>
#include <vector>

#include "operators/linalg.hpp"

namespace frmini::operators {

struct Face {
  std::string kind;            // "line", "tri" or "quad"
  std::vector<double> normal;  // outward, NOT normalised: |n| = face area / parameter area
};

struct Shape {
  std::string name;
  int ndims = 0;
  Matrix vertices;          // nverts × ndims, PyFR order (tensor order for quad/hex)
  std::vector<Face> faces;  // PyFR order
};

// The element types operators can be built for, in the CLI's order.
const std::vector<std::string>& element_types();

// Throws UserError for an unknown element type.
const Shape& shape(const std::string& etype);

// Maps face-parameter points (n × face ndims) of face `face` of `etype` into the element's
// reference coordinates (n × ndims), exactly as PyFR's lambdas do.
Matrix project_face(const std::string& etype, int face, const Matrix& facepts);

// nupts of `etype` (or of a face kind) at order p, and flux points per face / per element.
int nupts_for(const std::string& shape, int p);
int npts_for_face(const std::string& kind, int p);
int nfpts_for(const std::string& etype, int p);
// Inverse of nupts_for (PyFR's order_from_npts); −1 if npts is not such a count (p ≤ 14).
int order_from_npts(const std::string& shape, int npts);

// PyFR's std_ele(k): the equispaced order-k lattice of the reference element, x fastest.
Matrix std_ele(const std::string& shape, int k);

}  // namespace frmini::operators
