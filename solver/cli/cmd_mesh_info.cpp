// frmini mesh-info mesh.h5: counts, boundaries, partitionings, volume and Jacobians.
#include <cstdio>
#include <iostream>
#include <sstream>

#include "meshes/geometry.hpp"
#include "meshes/mesh_file.hpp"
#include "solver/cli/args.hpp"
#include "solver/cli/commands.hpp"

namespace frmini::cli {

namespace {

std::string num(double x) {
  char b[40];
  std::snprintf(b, sizeof b, "%.15g", x);
  return b;
}

std::string quoted(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o + "\"";
}

int run_mesh_info(const std::vector<std::string>& argv) {
  ArgParser p("mesh-info", "Describe a frmini mesh file.");
  p.positional("mesh.h5", "the frmini mesh file")
      .option("format", "text|json", "output format", "text")
      .epilog("json keys: file, mesh_uuid, ndims, elements, orders, curved, boundaries,\n"
              "internal_faces, periodic_faces, partitionings, volume, min_jacobian.");
  Args a = p.parse(argv);
  const std::string fmt = a.get_choice("format", {"text", "json"});
  const std::string path = a.get("mesh.h5");
  meshes::Mesh m = meshes::read_mesh(path);
  auto fc = meshes::count_faces(m);
  double vol = 0, jmin = 1e300;
  for (const auto& g : m.groups) {
    auto geo = meshes::analyse_group(g, m.ndims);
    vol += geo.volume;
    jmin = std::min(jmin, geo.min_jacobian);
  }
  auto curved = [](const meshes::ElementGroup& g) {
    long n = 0;
    for (auto c : g.curved) n += c;
    return n;
  };
  std::ostringstream o;
  if (fmt == "json") {
    o << "{\n  \"file\": " << quoted(path) << ",\n  \"mesh_uuid\": " << quoted(m.uuid)
      << ",\n  \"ndims\": " << m.ndims << ",\n  \"elements\": {";
    for (size_t i = 0; i < m.groups.size(); ++i)
      o << (i ? ", " : "") << quoted(m.groups[i].etype) << ": " << m.groups[i].neles;
    o << "},\n  \"orders\": {";
    for (size_t i = 0; i < m.groups.size(); ++i)
      o << (i ? ", " : "") << quoted(m.groups[i].etype) << ": " << m.groups[i].order;
    o << "},\n  \"curved\": {";
    for (size_t i = 0; i < m.groups.size(); ++i)
      o << (i ? ", " : "") << quoted(m.groups[i].etype) << ": " << curved(m.groups[i]);
    o << "},\n  \"boundaries\": {";
    for (size_t b = 0; b < m.boundaries.size(); ++b)
      o << (b ? ", " : "") << quoted(m.boundaries[b]) << ": " << fc.boundary[b];
    o << "},\n  \"internal_faces\": " << fc.internal << ",\n  \"periodic_faces\": " << fc.periodic
      << ",\n  \"partitionings\": [";
    for (size_t i = 0; i < m.partitionings.size(); ++i) o << (i ? ", " : "") << m.partitionings[i].nparts;
    o << "],\n  \"volume\": " << num(vol) << ",\n  \"min_jacobian\": " << num(jmin) << "\n}\n";
  } else {
    o << path << "\n  mesh uuid       " << m.uuid << "\n  dimensions      " << m.ndims
      << "\n  elements       ";
    for (const auto& g : m.groups)
      o << " " << g.etype << " " << g.neles << " (order " << g.order << ", " << curved(g) << " curved)";
    o << "\n  boundaries     ";
    if (m.boundaries.empty()) o << " none";
    for (size_t b = 0; b < m.boundaries.size(); ++b) o << " " << m.boundaries[b] << " " << fc.boundary[b];
    o << "\n  internal faces  " << fc.internal << "\n  periodic faces  " << fc.periodic
      << "\n  partitionings  ";
    if (m.partitionings.empty()) o << " none";
    for (const auto& q : m.partitionings) o << " " << q.nparts;
    o << "\n  volume          " << num(vol) << "\n  min jacobian    " << num(jmin) << "\n";
  }
  std::cout << o.str();
  return 0;
}

}  // namespace

FRMINI_COMMAND("mesh-info", "describe a frmini mesh file (text or json)", run_mesh_info, 12);

}  // namespace frmini::cli
