// The cylinder meshes (D = 1 at the origin, domain [-9, 25] x [-9, 9] unless the options say
// otherwise, span [0, pi] in 3D):
// an O-grid of four transfinite blocks between the wall and the square [-a, a]^2, and eight
// transfinite blocks from the square to the far field, graded so that cell sizes match across
// block edges and grow away from the wall and down the wake. The 3D mesh extrudes it in z with
// structured layers; its two z ends are named periodic_span_l / periodic_span_r.
#include <gmsh.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numbers>
#include <sstream>
#include <string>

#include "base/error.hpp"
#include "meshes/gen_internal.hpp"

namespace frmini::meshes::gen {

namespace {

// Extrusion numbers each spanwise column of hexes consecutively, so a hex's neighbours above
// and below are one element over, and those beside it `nspan` over: never whole SoA blocks
// apart, which makes the solver's interface kernels gather. Layer by layer instead, the
// neighbours in z are a whole layer over, as in a box.
void layer_major(double dz) {
  gmsh::vectorpair vols;
  gmsh::model::getEntities(vols, 3);
  for (auto [dim, tag] : vols) {
    std::vector<int> types;
    gmsh::model::mesh::getElementTypes(types, dim, tag);
    for (int type : types) {
      std::vector<double> bc;
      gmsh::model::mesh::getBarycenters(type, tag, false, true, bc);
      const std::size_t n = bc.size() / 3;
      std::vector<std::size_t> order(n);
      for (std::size_t i = 0; i < n; ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return std::floor(bc[3 * a + 2] / dz) < std::floor(bc[3 * b + 2] / dz);
      });
      gmsh::model::mesh::reorderElements(type, tag, order);
    }
  }
}

constexpr double R = 0.5, A = 1.5;  // cylinder radius; half-width of the O-grid square
// The default domain, for which the default cell counts below were chosen.
constexpr double UPSTREAM = 9, DOWNSTREAM = 25, HALF_HEIGHT = 9;

// The growth ratio r with h0 (1 + r + ... + r^(n-1)) = len: the first cell is h0.
double ratio(double h0, int n, double len) {
  auto total = [&](double r) { return std::abs(r - 1) < 1e-12 ? h0 * n : h0 * (std::pow(r, n) - 1) / (r - 1); };
  double lo = 0.5, hi = 2.0;
  for (int it = 0; it < 200; ++it) {
    double mid = 0.5 * (lo + hi);
    (total(mid) < len ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

std::vector<int> in_box(int dim, double x0, double y0, double z0, double x1, double y1, double z1) {
  gmsh::vectorpair out;
  gmsh::model::getEntitiesInBoundingBox(x0, y0, z0, x1, y1, z1, out, dim);
  std::vector<int> t;
  for (auto [d, tag] : out) t.push_back(tag);
  return t;
}

void physical(int dim, const std::vector<int>& tags, const std::string& name) {
  if (tags.empty()) throw std::runtime_error("cylinder generator: no entities for " + name);
  int g = gmsh::model::addPhysicalGroup(dim, tags);
  gmsh::model::setPhysicalName(dim, g, name);
}

// Cells over `len` that keep the first cell h0 and the growth ratio the default count n_def
// has over the default length: h0 (r^n - 1)/(r - 1) = len for the same r, rounded.
int cells_for(double h0, int n_def, double len_def, double len) {
  const double r = ratio(h0, n_def, len_def);
  if (std::abs(r - 1) < 1e-9) return std::max(1, int(std::lround(len / h0)));
  return std::max(1, int(std::lround(std::log1p(len * (r - 1) / h0) / std::log(r))));
}

std::string num(double v) {
  std::ostringstream o;
  o << std::setprecision(4) << v;
  return o.str();
}

double domain_length(double given, double def, const char* option) {
  if (given == 0) return def;
  if (!(given >= 2 && given <= 1000))
    throw UserError(std::string("mesh: --") + option + " must be in [2, 1000] diameters (the O-grid reaches 1.5)");
  return given;
}

}  // namespace

void build_cylinder(const GeneratorOptions& o, bool three_d) {
  if (!(o.scale > 0) || o.scale > 8) throw UserError("mesh: --scale must be in (0, 8]");
  auto scaled = [&](int given, int def, int mult) {
    int v = given ? given : int(std::lround(def * o.scale / mult)) * mult;
    return std::max(v, mult);
  };
  // Defaults: 64 x 20 O-grid cells, 12 upstream, 48 in the wake, 13 to each side, 10 spanwise
  // layers: 4216 quads x 10 = 42,160 hexes, about the paper's 42,030.
  const int ncirc = scaled(o.ncirc, 64, 4), nq = ncirc / 4;
  if (ncirc % 4) throw UserError("mesh: --ncirc must be a multiple of 4");
  const double XMIN = -domain_length(o.upstream, UPSTREAM, "upstream");
  const double XMAX = domain_length(o.downstream, DOWNSTREAM, "downstream");
  const double YMAX = domain_length(o.half_height, HALF_HEIGHT, "half-height"), YMIN = -YMAX;
  const double h_sq = 2 * A / nq;  // the outer blocks' first cell, at the O-grid square
  const int nrad = scaled(o.nradial, 20, 1), nspan = scaled(o.nspan, 10, 1);
  const int nleft = cells_for(h_sq, scaled(0, 12, 1), UPSTREAM - A, -XMIN - A);
  const int nwake = cells_for(h_sq, scaled(0, 48, 1), DOWNSTREAM - A, XMAX - A);
  const int nside = cells_for(h_sq, scaled(0, 13, 1), HALF_HEIGHT - A, YMAX - A);
  const double span = std::numbers::pi;
  namespace geo = gmsh::model::geo;

  // Points: the 4x4 grid of block corners (the inner four are the square's corners), the
  // centre and the four wall points at 225, 315, 45 and 135 degrees.
  const double xs[4] = {XMIN, -A, A, XMAX}, ys[4] = {YMIN, -A, A, YMAX};
  int P[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) P[i][j] = geo::addPoint(xs[i], ys[j], 0);
  const int O = geo::addPoint(0, 0, 0);
  const int sq[4] = {P[1][1], P[2][1], P[2][2], P[1][2]};
  int C[4];
  for (int k = 0; k < 4; ++k) {
    double th = std::numbers::pi * (1.25 + 0.5 * k);
    C[k] = geo::addPoint(R * std::cos(th), R * std::sin(th), 0);
  }
  int H[3][4], V[4][3], arc[4], rad[4];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) H[i][j] = geo::addLine(P[i][j], P[i + 1][j]);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) V[i][j] = geo::addLine(P[i][j], P[i][j + 1]);
  for (int k = 0; k < 4; ++k) {
    arc[k] = geo::addCircleArc(C[k], O, C[(k + 1) % 4]);
    rad[k] = geo::addLine(C[k], sq[k]);
  }
  // Square sides as seen from the O-grid block k, oriented counter-clockwise around the origin.
  const int side[4] = {H[1][1], V[2][1], -H[1][2], -V[1][1]};

  // Gradings: O-grid cells start square at the wall on the diagonals, or --wall-cell thick
  // on the axes; outer blocks start at the square's cell size and grow outwards. The O-grid
  // blocks are transfinite, so every radial line has the diagonals' spacing in proportion to
  // its length: 1 on the axes, sqrt(2) A - R on the diagonals.
  const double diag = A * std::sqrt(2.0) - R;
  double h_wall = 2 * std::numbers::pi * R / ncirc;
  if (o.wall_cell != 0) {
    if (!(o.wall_cell > 0 && o.wall_cell <= (A - R) / nrad))
      throw UserError("mesh: --wall-cell must be in (0, " + num((A - R) / nrad) + "] diameters for " +
                      std::to_string(nrad) + " radial cells (at most uniform cells)");
    h_wall = o.wall_cell * diag / (A - R);
  }
  const double r_rad = ratio(h_wall, nrad, diag);
  if (r_rad > 1.5)
    throw UserError("mesh: the O-grid's radial cells would grow by " + num(r_rad) +
                    " from one to the next (over 1.5): give more --nradial cells or a thicker --wall-cell");
  const double r_left = ratio(h_sq, nleft, -A - XMIN), r_wake = ratio(h_sq, nwake, XMAX - A);
  const double r_side = ratio(h_sq, nside, YMAX - A);

  std::vector<int> surfaces, ogrid;
  for (int k = 0; k < 4; ++k) {
    int loop = geo::addCurveLoop({rad[k], side[k], -rad[(k + 1) % 4], -arc[k]});
    ogrid.push_back(geo::addPlaneSurface({loop}));
  }
  std::vector<int> outer;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      if (i == 1 && j == 1) continue;
      int loop = geo::addCurveLoop({H[i][j], V[i + 1][j], -H[i][j + 1], -V[i][j]});
      outer.push_back(geo::addPlaneSurface({loop}));
    }
  // Mesh constraints go through geo::mesh (not model::mesh): the geo kernel keeps them across
  // the extrusion and synchronize() would discard constraints set on the model.
  namespace mesh = geo::mesh;
  for (int k = 0; k < 4; ++k) {
    mesh::setTransfiniteCurve(arc[k], nq + 1);
    mesh::setTransfiniteCurve(rad[k], nrad + 1, "Progression", r_rad);
  }
  for (int j = 0; j < 4; ++j) {
    mesh::setTransfiniteCurve(H[0][j], nleft + 1, "Progression", 1 / r_left);  // fine at x = -a
    mesh::setTransfiniteCurve(H[1][j], nq + 1);
    mesh::setTransfiniteCurve(H[2][j], nwake + 1, "Progression", r_wake);
  }
  for (int i = 0; i < 4; ++i) {
    mesh::setTransfiniteCurve(V[i][0], nside + 1, "Progression", 1 / r_side);  // fine at y = -a
    mesh::setTransfiniteCurve(V[i][1], nq + 1);
    mesh::setTransfiniteCurve(V[i][2], nside + 1, "Progression", r_side);
  }
  for (int s : ogrid) {
    mesh::setTransfiniteSurface(s);
    mesh::setRecombine(2, s);
  }
  const bool tri_far = o.mixed && !three_d;
  if (o.mixed && three_d) throw UserError("mesh cylinder3d: --mixed is for cylinder2d only");
  for (int s : outer) {
    if (tri_far) continue;  // unstructured triangles, sized by the curves
    mesh::setTransfiniteSurface(s);
    mesh::setRecombine(2, s);
  }
  surfaces = ogrid;
  surfaces.insert(surfaces.end(), outer.begin(), outer.end());

  const double e = 1e-3;
  if (!three_d) {
    geo::synchronize();
    physical(2, surfaces, "fluid");
    physical(1, in_box(1, -R - e, -R - e, -e, R + e, R + e, e), "cylinder");
    std::vector<int> far;
    for (auto v : {in_box(1, XMIN - e, YMIN - e, -e, XMIN + e, YMAX + e, e),
                   in_box(1, XMAX - e, YMIN - e, -e, XMAX + e, YMAX + e, e),
                   in_box(1, XMIN - e, YMIN - e, -e, XMAX + e, YMIN + e, e),
                   in_box(1, XMIN - e, YMAX - e, -e, XMAX + e, YMAX + e, e)})
      far.insert(far.end(), v.begin(), v.end());
    physical(1, far, "farfield");
    gmsh::model::mesh::generate(2);
  } else {
    gmsh::vectorpair in, out;
    for (int s : surfaces) in.push_back({2, s});
    geo::extrude(in, 0, 0, span, out, {nspan}, {}, true);
    geo::synchronize();
    std::vector<int> vols;
    for (auto [d, t] : out)
      if (d == 3) vols.push_back(t);
    physical(3, vols, "fluid");
    physical(2, in_box(2, -R - e, -R - e, -e, R + e, R + e, span + e), "cylinder");
    std::vector<int> far;
    for (auto v : {in_box(2, XMIN - e, YMIN - e, -e, XMIN + e, YMAX + e, span + e),
                   in_box(2, XMAX - e, YMIN - e, -e, XMAX + e, YMAX + e, span + e),
                   in_box(2, XMIN - e, YMIN - e, -e, XMAX + e, YMIN + e, span + e),
                   in_box(2, XMIN - e, YMAX - e, -e, XMAX + e, YMAX + e, span + e)})
      far.insert(far.end(), v.begin(), v.end());
    physical(2, far, "farfield");
    physical(2, in_box(2, XMIN - e, YMIN - e, -e, XMAX + e, YMAX + e, e), "periodic_span_l");
    physical(2, in_box(2, XMIN - e, YMIN - e, span - e, XMAX + e, YMAX + e, span + e),
             "periodic_span_r");
    gmsh::model::mesh::generate(3);
  }
  gmsh::model::mesh::setOrder(o.order ? o.order : 2);
  if (three_d) layer_major(span / nspan);
}

}  // namespace frmini::meshes::gen
