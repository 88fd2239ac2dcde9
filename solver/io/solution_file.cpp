#include "solver/io/solution_file.hpp"

#include <algorithm>
#include <cmath>

#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "frmini_config.hpp"
#include "meshes/element_types.hpp"
#include "meshes/h5util.hpp"

namespace frmini::solver {

namespace h5 = meshes::h5;

void write_solution(const std::string& path, const SolutionFile& s) {
  write_atomically(path, [&](const std::filesystem::path& tmp) {
    h5::silence_errors();
    auto f = h5::create_file(tmp.string(), path);
    hid_t r = f.id();
    h5::write_attr(r, "creator", std::string("frmini ") + config::version, path);
    h5::write_attr(r, "format", "frmini-solution-1", path);
    h5::write_attr(r, "config", s.config_text, path);
    h5::write_attr(r, "config-name", s.config_name, path);
    h5::write_attr(r, "flags", s.flags, path);
    h5::write_attr(r, "mesh-uuid", s.mesh_uuid, path);
    h5::write_attr(r, "system", s.system, path);
    h5::write_attr(r, "order", int64_t(s.order), path);
    h5::write_attr(r, "ndims", int64_t(s.ndims), path);
    h5::write_attr(r, "nvars", int64_t(s.nvars), path);
    h5::write_attr(r, "variables", s.variables, path);
    if (s.variables == "primitive-mean" && std::isfinite(s.window_start)) {
      const double w = s.window_start;
      h5::write_doubles(r, "window-start", {1}, &w, path);
    }
    // The integrator state as doubles: exact for times and steps alike.
    const auto& st = s.state;
    std::vector<double> stats = {st.t, st.dt, st.errprev, double(st.nsteps), double(st.nrejected)};
    h5::write_doubles(r, "stats", {hsize_t(stats.size())}, stats.data(), path);
    auto g = h5::create_group(r, "soln", path);
    for (std::size_t i = 0; i < s.etypes.size(); ++i) {
      const auto& sh = s.shapes[i];
      h5::write_doubles(g.id(), "p" + std::to_string(s.order) + "-" + s.etypes[i],
                        {hsize_t(sh[0]), hsize_t(sh[1]), hsize_t(sh[2])}, s.soln[i].data(), path);
    }
    if (!s.moment_names.empty()) {
      std::string names;
      for (const auto& n : s.moment_names) names += (names.empty() ? "" : ",") + n;
      h5::write_attr(r, "moments", names, path);
      auto m = h5::create_group(r, "moments", path);
      for (std::size_t i = 0; i < s.etypes.size(); ++i) {
        const hsize_t neles = s.shapes[i][0], nm = s.moment_names.size();
        h5::write_doubles(m.id(), "p" + std::to_string(s.order) + "-" + s.etypes[i],
                          {neles, nm, hsize_t(s.shapes[i][2])}, s.moments[i].data(), path);
      }
    }
    h5::write_image(r, tmp.string(), path);
  });
}

namespace {

// /moments holds one dataset per /soln dataset, of shape (neles, number of moments, nupts).
void read_moments(hid_t r, const std::string& path, SolutionFile& s) {
  auto g = h5::open_group(r, "moments", path);
  std::vector<hsize_t> dims;
  for (std::size_t i = 0; i < s.etypes.size(); ++i) {
    const std::string name = "p" + std::to_string(s.order) + "-" + s.etypes[i];
    auto data = h5::read_doubles(g.id(), name, dims, path);
    const auto& sh = s.shapes[i];
    if (dims.size() != 3 || dims[0] != sh[0] || dims[1] != s.moment_names.size() || dims[2] != sh[2])
      throw UserError(path + ": dataset /moments/" + name + " has the wrong shape (expected (" +
                      std::to_string(sh[0]) + ", " + std::to_string(s.moment_names.size()) + ", " +
                      std::to_string(sh[2]) + "))");
    s.moments.push_back(std::move(data));
  }
}

}  // namespace

SolutionFile read_solution(const std::string& path, bool data) {
  h5::silence_errors();
  auto f = h5::open_file(path, path);
  hid_t r = f.id();
  SolutionFile s;
  if (h5::read_attr_string(r, "format", path) != "frmini-solution-1")
    throw UserError(path + ": not a frmini solution file");
  s.config_text = h5::read_attr_string(r, "config", path);
  s.config_name = h5::read_attr_string(r, "config-name", path);
  s.flags = h5::read_attr_string(r, "flags", path);
  s.mesh_uuid = h5::read_attr_string(r, "mesh-uuid", path);
  s.system = h5::read_attr_string(r, "system", path);
  // Range-checked as read, before narrowing (2^32 + 1 is not 1): the shapes below and every
  // reader after this one size arrays by them.
  auto small_int = [&](const char* name, int64_t lo, int64_t hi) {
    const int64_t v = h5::read_attr_int(r, name, path);
    if (v < lo || v > hi)
      throw UserError(path + ": attribute " + name + " = " + std::to_string(v) + " is out of range (" +
                      std::to_string(lo) + " to " + std::to_string(hi) + ")");
    return int(v);
  };
  s.order = small_int("order", 0, 8);
  s.ndims = small_int("ndims", 2, 3);
  s.nvars = small_int("nvars", 1, 16);
  // Files written before the attribute existed hold conserved variables.
  if (H5Aexists(r, "variables") > 0) s.variables = h5::read_attr_string(r, "variables", path);
  if (s.variables != "conserved" && s.variables != "primitive-mean")
    throw UserError(path + ": unknown variables '" + s.variables + "'");
  std::vector<hsize_t> dims;
  auto stats = h5::read_doubles(r, "stats", dims, path);
  if (dims.size() != 1 || stats.size() != 5)
    throw UserError(path + ": dataset /stats has the wrong shape (expected 5 values)");
  // Step counts are stored as doubles; converting a NaN or 1e300 to an integer is undefined.
  for (int i : {3, 4})
    if (!(stats[i] >= 0 && stats[i] <= 9007199254740992.0 && stats[i] == std::floor(stats[i])))
      throw UserError(path + ": dataset /stats holds a step count that is not a whole number (" +
                      std::to_string(stats[i]) + ")");
  s.state = {stats[0], stats[1], stats[2], int64_t(stats[3]), int64_t(stats[4])};
  if (s.variables == "primitive-mean" && H5Lexists(r, "window-start", H5P_DEFAULT) > 0) {
    auto w = h5::read_doubles(r, "window-start", dims, path);
    if (w.size() != 1 || !std::isfinite(w[0]) || w[0] > s.state.t)
      throw UserError(path + ": dataset /window-start is not one time before the file's");
    s.window_start = w[0];
  }
  if (s.variables == "primitive-mean" && H5Aexists(r, "moments") > 0) {
    std::string names = h5::read_attr_string(r, "moments", path);
    for (std::size_t a = 0, b; a <= names.size(); a = b + 1) {
      b = std::min(names.find(',', a), names.size());
      if (b == a) throw UserError(path + ": attribute moments has an empty name ('" + names + "')");
      s.moment_names.push_back(names.substr(a, b - a));
    }
    if (s.moment_names.size() > 16)
      throw UserError(path + ": attribute moments names " + std::to_string(s.moment_names.size()) +
                      " products (at most 16)");
  }
  if (!data) return s;
  auto g = h5::open_group(r, "soln", path);
  const std::string prefix = "p" + std::to_string(s.order) + "-";
  for (const auto& name : h5::children(g.id(), path)) {
    if (name.rfind(prefix, 0) != 0) throw UserError(path + ": unexpected dataset /soln/" + name);
    auto data = h5::read_doubles(g.id(), name, dims, path);
    // The element type names the point count: (order + 1)^2 on a quad, as its node lattice.
    const std::string etype = name.substr(prefix.size());
    const auto* shape = meshes::find_shape(etype);
    if (!shape || shape->ndims != s.ndims)
      throw UserError(path + ": dataset /soln/" + name + " names no " + std::to_string(s.ndims) +
                      "D element type");
    const int nupts = meshes::lattice_size(etype, s.order);
    if (dims.size() != 3 || dims[1] != hsize_t(s.nvars) || dims[2] != hsize_t(nupts))
      throw UserError(path + ": dataset /soln/" + name +
                      " has the wrong shape (expected (neles, nvars = " + std::to_string(s.nvars) +
                      ", nupts = " + std::to_string(nupts) + "))");
    s.etypes.push_back(etype);
    s.shapes.push_back({std::size_t(dims[0]), std::size_t(dims[1]), std::size_t(dims[2])});
    s.soln.push_back(std::move(data));
  }
  if (!s.moment_names.empty()) read_moments(r, path, s);
  return s;
}

}  // namespace frmini::solver
