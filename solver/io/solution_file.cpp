#include "solver/io/solution_file.hpp"

#include "frmini_config.hpp"
#include "meshes/h5util.hpp"
#include "operators/atomic_file.hpp"
#include "operators/error.hpp"

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
  });
}

SolutionFile read_solution(const std::string& path) {
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
  s.order = int(h5::read_attr_int(r, "order", path));
  s.ndims = int(h5::read_attr_int(r, "ndims", path));
  s.nvars = int(h5::read_attr_int(r, "nvars", path));
  // Files written before the attribute existed hold conserved variables.
  if (H5Aexists(r, "variables") > 0) s.variables = h5::read_attr_string(r, "variables", path);
  if (s.variables != "conserved" && s.variables != "primitive-mean")
    throw UserError(path + ": unknown variables '" + s.variables + "'");
  std::vector<hsize_t> dims;
  auto stats = h5::read_doubles(r, "stats", dims, path);
  if (stats.size() != 5) throw UserError(path + ": malformed /stats");
  s.state = {stats[0], stats[1], stats[2], int64_t(stats[3]), int64_t(stats[4])};
  auto g = h5::open_group(r, "soln", path);
  const std::string prefix = "p" + std::to_string(s.order) + "-";
  for (const auto& name : h5::children(g.id(), path)) {
    if (name.rfind(prefix, 0) != 0) throw UserError(path + ": unexpected dataset /soln/" + name);
    auto data = h5::read_doubles(g.id(), name, dims, path);
    if (dims.size() != 3 || int(dims[1]) != s.nvars)
      throw UserError(path + ": /soln/" + name + " has the wrong shape");
    s.etypes.push_back(name.substr(prefix.size()));
    s.shapes.push_back({std::size_t(dims[0]), std::size_t(dims[1]), std::size_t(dims[2])});
    s.soln.push_back(std::move(data));
  }
  return s;
}

}  // namespace frmini::solver
