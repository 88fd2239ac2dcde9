#include "meshes/mesh_file.hpp"

#include <algorithm>
#include <filesystem>
#include <tuple>

#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "frmini_config.hpp"
#include "meshes/element_types.hpp"
#include "meshes/h5util.hpp"

namespace frmini::meshes {

namespace {

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  size_t a = 0;
  while (a < s.size()) {
    size_t b = s.find(',', a);
    if (b == std::string::npos) b = s.size();
    out.push_back(s.substr(a, b - a));
    a = b + 1;
  }
  return out;
}

void write_contents(const std::string& tmp, const std::string& file, const Mesh& m) {
  auto f = h5::create_file(tmp, file);
  hid_t root = f.id();
  h5::write_attr(root, "format", std::string("frmini-mesh"), file);
  h5::write_attr(root, "version", int64_t(mesh_file_version), file);
  h5::write_attr(root, "creator", std::string("frmini ") + config::version, file);
  h5::write_attr(root, "ndims", int64_t(m.ndims), file);
  h5::write_attr(root, "mesh_uuid", m.uuid, file);
  std::vector<std::string> etypes;
  for (const auto& g : m.groups) etypes.push_back(g.etype);
  h5::write_attr(root, "etypes", join(etypes), file);
  h5::write_attr(root, "boundaries", join(m.boundaries), file);

  auto eles = h5::create_group(root, "eles", file);
  std::vector<std::vector<int32_t>> bcs(m.boundaries.size());
  std::vector<int32_t> pairs;
  for (size_t gi = 0; gi < m.groups.size(); ++gi) {
    const auto& g = m.groups[gi];
    auto grp = h5::create_group(eles.id(), g.etype, file);
    h5::write_attr(grp.id(), "order", int64_t(g.order), file);
    const hsize_t ne = hsize_t(g.neles);
    h5::write_doubles(grp.id(), "nodes", {ne, hsize_t(g.nnodes), hsize_t(m.ndims)}, g.nodes.data(), file);
    h5::write_bytes(grp.id(), "curved", {ne}, g.curved.data(), file);
    static_assert(sizeof(FaceLink) == 5 * sizeof(int32_t));
    h5::write_ints(grp.id(), "faces", {ne, hsize_t(g.nfaces), 5},
                   reinterpret_cast<const int32_t*>(g.faces.data()), file);
    for (int64_t e = 0; e < g.neles; ++e)
      for (int f = 0; f < g.nfaces; ++f) {
        const auto& l = g.link(e, f);
        if (l.kind == FaceLink::boundary)
          bcs[size_t(l.index)].insert(bcs[size_t(l.index)].end(), {int32_t(gi), int32_t(e), f});
        // Each pair once: from the side that comes first in (group, element, face) order.
        if (l.kind == FaceLink::periodic &&
            std::tuple(int(gi), e, f) < std::tuple(l.index, int64_t(l.elem), l.face))
          pairs.insert(pairs.end(), {int32_t(gi), int32_t(e), f, l.index, l.elem, l.face});
      }
  }
  auto bgrp = h5::create_group(root, "bcs", file);
  for (size_t b = 0; b < m.boundaries.size(); ++b)
    h5::write_ints(bgrp.id(), m.boundaries[b], {bcs[b].size() / 3, 3}, bcs[b].data(), file);
  auto pgrp = h5::create_group(root, "periodic", file);
  h5::write_ints(pgrp.id(), "pairs", {pairs.size() / 6, 6}, pairs.data(), file);
  std::vector<double> tr;
  for (const auto& t : m.transforms) tr.insert(tr.end(), t.begin(), t.end());
  h5::write_doubles(pgrp.id(), "transforms", {m.transforms.size(), 4, 4}, tr.data(), file);

  auto parts = h5::create_group(root, "partitionings", file);
  for (const auto& p : m.partitionings) {
    auto pg = h5::create_group(parts.id(), std::to_string(p.nparts), file);
    h5::write_attr(pg.id(), "nparts", int64_t(p.nparts), file);
    h5::write_attr(pg.id(), "weights", p.weights, file);
    for (size_t gi = 0; gi < m.groups.size(); ++gi)
      h5::write_ints(pg.id(), m.groups[gi].etype, {p.parts[gi].size()}, p.parts[gi].data(), file);
  }
  h5::write_image(root, tmp, file);
}

}  // namespace

void write_mesh(const std::string& path, const Mesh& m) {
  write_atomically(path, [&](const std::filesystem::path& tmp) { write_contents(tmp, path, m); });
}

Mesh read_mesh(const std::string& path) {
  const std::string& file = path;
  if (!std::filesystem::exists(path)) throw UserError(file + ": no such file");
  auto f = h5::open_file(path, file);
  hid_t root = f.id();
  if (!H5Aexists(root, "format") || h5::read_attr_string(root, "format", file) != "frmini-mesh")
    throw UserError(file + ": not a frmini mesh file (no format = \"frmini-mesh\" attribute)");
  int64_t version = h5::read_attr_int(root, "version", file);
  if (version != mesh_file_version)
    throw UserError(file + ": mesh file version " + std::to_string(version) +
                    " is not supported (this frmini reads version " +
                    std::to_string(mesh_file_version) + ")");
  Mesh m;
  auto bad = [&](const std::string& what) { return UserError(file + ": corrupt mesh file: " + what); };
  // Range-checked as read, before narrowing: 2^32 + 2 is not 2.
  const int64_t ndims = h5::read_attr_int(root, "ndims", file);
  if (ndims != 2 && ndims != 3) throw bad("attribute ndims = " + std::to_string(ndims));
  m.ndims = int(ndims);
  m.uuid = h5::read_attr_string(root, "mesh_uuid", file);
  m.boundaries = split(h5::read_attr_string(root, "boundaries", file));

  auto eles = h5::open_group(root, "eles", file);
  for (const auto& et : split(h5::read_attr_string(root, "etypes", file))) {
    const auto* s = find_shape(et);
    if (!s || s->ndims != m.ndims) throw bad("element type '" + et + "'");
    auto grp = h5::open_group(eles.id(), et, file);
    ElementGroup g;
    g.etype = et;
    const int64_t order = h5::read_attr_int(grp.id(), "order", file);
    if (order < 1 || order > 8)
      throw bad("attribute order of /eles/" + et + " = " + std::to_string(order));
    g.order = int(order);
    g.nnodes = lattice_size(et, g.order);
    g.nfaces = int(s->faces.size());
    std::vector<hsize_t> d;
    g.nodes = h5::read_doubles(grp.id(), "nodes", d, file);
    if (d.size() != 3 || d[1] != hsize_t(g.nnodes) || d[2] != hsize_t(m.ndims))
      throw bad("dataset /eles/" + et + "/nodes has the wrong shape (expected (neles, " +
                std::to_string(g.nnodes) + ", " + std::to_string(m.ndims) + "))");
    g.neles = int64_t(d[0]);
    g.curved = h5::read_bytes(grp.id(), "curved", d, file);
    if (d.size() != 1 || d[0] != hsize_t(g.neles))
      throw bad("dataset /eles/" + et + "/curved has the wrong shape (expected (neles))");
    auto faces = h5::read_ints(grp.id(), "faces", d, file);
    if (d.size() != 3 || d[0] != hsize_t(g.neles) || d[1] != hsize_t(g.nfaces) || d[2] != 5)
      throw bad("dataset /eles/" + et + "/faces has the wrong shape (expected (neles, " +
                std::to_string(g.nfaces) + ", 5))");
    g.faces.resize(size_t(g.neles) * g.nfaces);
    std::copy(faces.begin(), faces.end(), reinterpret_cast<int32_t*>(g.faces.data()));
    m.groups.push_back(std::move(g));
  }
  if (m.groups.empty()) throw bad("no element types");
  if (h5::exists(root, "periodic") && h5::exists(root, "periodic/transforms")) {
    std::vector<hsize_t> d;
    auto tr = h5::read_doubles(root, "periodic/transforms", d, file);
    if (d.size() != 3 || d[1] != 4 || d[2] != 4)
      throw bad("dataset /periodic/transforms has the wrong shape (expected (ntransforms, 4, 4))");
    for (size_t i = 0; i + 16 <= tr.size(); i += 16) {
      Affine a;
      std::copy(tr.begin() + long(i), tr.begin() + long(i) + 16, a.begin());
      m.transforms.push_back(a);
    }
  }
  // Validate the links once here, so that the solver can trust them.
  for (const auto& g : m.groups)
    for (const auto& l : g.faces) {
      bool ok = false;
      if (l.kind == FaceLink::boundary) ok = l.index >= 0 && size_t(l.index) < m.boundaries.size();
      else if (l.kind == FaceLink::internal || l.kind == FaceLink::periodic)
        ok = l.index >= 0 && size_t(l.index) < m.groups.size() && l.elem >= 0 &&
             l.elem < m.groups[size_t(l.index)].neles && l.face >= 0 &&
             l.face < m.groups[size_t(l.index)].nfaces &&
             (l.kind == FaceLink::internal ||
              (l.transform >= 0 && size_t(l.transform) < m.transforms.size()));
      if (!ok) throw bad("face links of " + g.etype);
    }
  if (h5::exists(root, "partitionings")) {
    auto parts = h5::open_group(root, "partitionings", file);
    for (const auto& name : h5::children(parts.id(), file)) {
      auto pg = h5::open_group(parts.id(), name, file);
      Partitioning p;
      const int64_t nparts = h5::read_attr_int(pg.id(), "nparts", file);
      if (nparts < 1 || nparts > (int64_t(1) << 30)) throw bad("partitioning " + name + ": nparts");
      p.nparts = int(nparts);
      p.weights = h5::read_attr_string(pg.id(), "weights", file);
      for (const auto& g : m.groups) {
        std::vector<hsize_t> d;
        p.parts.push_back(h5::read_ints(pg.id(), g.etype, d, file));
        if (d.size() != 1 || d[0] != hsize_t(g.neles))
          throw bad("dataset /partitionings/" + name + "/" + g.etype +
                    " has the wrong shape (expected (neles))");
        for (int32_t x : p.parts.back())
          if (x < 0 || x >= p.nparts) throw bad("partitioning " + name);
      }
      m.partitionings.push_back(std::move(p));
    }
    std::sort(m.partitionings.begin(), m.partitionings.end(),
              [](const auto& a, const auto& b) { return a.nparts < b.nparts; });
  }
  return m;
}

}  // namespace frmini::meshes
