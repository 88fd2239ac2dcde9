#include "meshes/gmsh_import.hpp"

#include <gmsh.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <unordered_map>
#include <vector>

#include "base/error.hpp"
#include "meshes/element_types.hpp"
#include "meshes/gmsh_envelope.hpp"
#include "meshes/gmsh_nodemap.hpp"
#include "meshes/gmsh_session.hpp"
#include "meshes/periodic.hpp"

namespace frmini::meshes {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

class Reader {
 public:
  explicit Reader(std::string source) : src_(std::move(source)) {}
  RawMesh read(const std::string& gmsh_path);

 private:
  void read_nodes();
  const double* node(size_t tag) const {
    auto it = index_.find(tag);
    if (it == index_.end())
      throw UserError(src_ + ": element refers to node " + std::to_string(tag) + ", which does not exist");
    return coords_.data() + 3 * it->second;
  }
  void read_groups();
  void read_fluid(const std::set<int>& entities);
  void read_boundary(const std::string& name, const std::vector<int>& entities);
  void read_entity_periodic();

  std::string src_;
  RawMesh raw_;
  int dim_ = 0;
  std::vector<double> coords_;
  std::unordered_map<size_t, size_t> index_;
  std::map<std::string, size_t> group_of_type_;
};

void Reader::read_nodes() {
  std::vector<size_t> tags;
  std::vector<double> param;
  gmsh::model::mesh::getNodes(tags, coords_, param, -1, -1, false, false);
  index_.reserve(tags.size());
  for (size_t i = 0; i < tags.size(); ++i) index_[tags[i]] = i;
  // A NaN or an infinity (a binary file's bytes, found by tests/fuzz/fuzz_gmsh) would reach
  // the face matching's spatial hash and every geometric quantity after it.
  for (size_t i = 0; i < coords_.size(); ++i)
    if (!std::isfinite(coords_[i]))
      throw UserError(src_ + ": node " + std::to_string(tags[i / 3]) + " has a coordinate that is not a finite number");
}

void Reader::read_fluid(const std::set<int>& entities) {
  for (int ent : entities) {
    std::vector<int> types;
    std::vector<std::vector<size_t>> etags, ntags;
    gmsh::model::mesh::getElements(types, etags, ntags, dim_, ent);
    for (size_t k = 0; k < types.size(); ++k) {
      GmshType t;
      try {
        t = gmsh_type(types[k], src_);
      } catch (const std::string&) {
        // Gmsh 4.8 reads some types it cannot describe (prisms of order 3, 4).
        t = gmsh_type_from_elements(types[k], ntags[k], etags[k].size(),
                                    [this](size_t tag) { return node(tag); }, dim_, src_);
      }
      if (t.etype.empty() || t.dim != dim_) continue;
      auto [it, fresh] = group_of_type_.try_emplace(t.etype, raw_.groups.size());
      if (fresh) raw_.groups.push_back({t.etype, t.order, {}, {}});
      auto& g = raw_.groups[it->second];
      if (g.order != t.order)
        throw UserError(src_ + ": " + t.etype + " elements of geometric orders " +
                        std::to_string(g.order) + " and " + std::to_string(t.order) +
                        " in one mesh (frmini needs one order per element type)");
      const size_t ne = etags[k].size(), nn = size_t(t.nnodes), nd = size_t(dim_);
      const size_t n0 = g.nodes.size();
      g.nodes.resize(n0 + ne * nn * nd);
      for (size_t e = 0; e < ne; ++e) {
        const size_t* en = ntags[k].data() + e * nn;
        for (size_t i = 0; i < nn; ++i) {
          const double* x = node(en[i]);
          double* dst = g.nodes.data() + n0 + (e * nn + size_t(t.perm[i])) * nd;
          for (size_t c = 0; c < nd; ++c) dst[c] = x[c];
        }
        for (int v : t.vert_local) g.verts.push_back(int64_t(en[v]));
      }
    }
  }
}

void Reader::read_boundary(const std::string& name, const std::vector<int>& entities) {
  RawMesh::Boundary b{name, {}};
  for (int ent : entities) {
    std::vector<int> types;
    std::vector<std::vector<size_t>> etags, ntags;
    gmsh::model::mesh::getElements(types, etags, ntags, dim_ - 1, ent);
    for (size_t k = 0; k < types.size(); ++k) {
      std::string tname;
      int d, order, nn, np;
      std::vector<double> local;
      gmsh::model::mesh::getElementProperties(types[k], tname, d, order, nn, local, np);
      for (size_t e = 0; e < etags[k].size(); ++e) {
        const size_t* en = ntags[k].data() + e * size_t(nn);
        b.faces.emplace_back(en, en + np);
      }
    }
  }
  raw_.boundaries.push_back(std::move(b));
}

void Reader::read_groups() {
  gmsh::vectorpair groups;
  gmsh::model::getPhysicalGroups(groups);
  std::set<std::string> names;
  std::set<int> fluid;
  bool have_fluid_group = false;
  static const std::regex periodic_re("^periodic[ _-]([a-z0-9]+)[ _-](l|r)$");
  std::map<std::string, std::array<std::string, 2>> pnames;
  for (auto [d, tag] : groups) {
    std::string name;
    gmsh::model::getPhysicalName(d, tag, name);
    name = lower(name);
    if (name.empty()) name = std::to_string(tag);  // unnamed groups are known by their tag
    if (!names.insert(name).second)
      throw UserError(src_ + ": duplicate physical name '" + name + "' (names are lower-cased "
                      "and must be unique)");
    std::vector<int> ents;
    gmsh::model::getEntitiesForPhysicalGroup(d, tag, ents);
    if (d == dim_) {
      have_fluid_group = true;
      fluid.insert(ents.begin(), ents.end());
    } else if (d == dim_ - 1) {
      std::smatch m;
      if (std::regex_match(name, m, periodic_re)) pnames[m[1]][m[2] == "l" ? 0 : 1] = name;
      read_boundary(name, ents);
    }
  }
  for (const auto& [id, lr] : pnames) {
    if (lr[0].empty() || lr[1].empty())
      throw UserError(src_ + ": periodic boundary '" + (lr[0].empty() ? lr[1] : lr[0]) +
                      "' has no partner (need both periodic_" + id + "_l and periodic_" + id + "_r)");
    raw_.named_periodic.push_back({id, lr[0], lr[1]});
  }
  // Without any physical group of the top dimension every element is fluid (Gmsh then saves
  // all elements anyway).
  if (!have_fluid_group) {
    gmsh::vectorpair ents;
    gmsh::model::getEntities(ents, dim_);
    for (auto [d, t] : ents) fluid.insert(t);
  }
  read_fluid(fluid);
}

void Reader::read_entity_periodic() {
  gmsh::vectorpair ents;
  gmsh::model::getEntities(ents, dim_ - 1);
  for (auto [d, tag] : ents) {
    int master = tag;
    std::vector<size_t> nodes, mnodes;
    std::vector<double> affine;
    gmsh::model::mesh::getPeriodicNodes(d, tag, master, nodes, mnodes, affine, false);
    if (master == tag || nodes.size() != mnodes.size()) continue;
    // Gmsh records no node pairs for independently meshed (e.g. transfinite) periodic
    // entities, only the transform; the face matching is geometric, so that is enough.
    if (nodes.empty() && affine.size() != 16) continue;
    // The transform should map master onto slave; check it on the nodes rather than trust the
    // convention (and fall back to the mean translation when the file has no transform).
    auto maps = [&](const Affine& t) {
      for (size_t i = 0; i < nodes.size(); ++i) {
        const double *s = node(nodes[i]), *m = node(mnodes[i]);
        Point3 p = apply(t, {m[0], m[1], m[2]});
        double scale = 1e-8 * (1 + std::abs(s[0]) + std::abs(s[1]) + std::abs(s[2]));
        for (int c = 0; c < 3; ++c)
          if (std::abs(p[c] - s[c]) > 1e3 * scale) return false;
      }
      return true;
    };
    Affine t{};
    bool ok = false;
    if (affine.size() == 16) {
      if (!std::all_of(affine.begin(), affine.end(), [](double v) { return std::isfinite(v); }))
        throw UserError(src_ + ": periodic entity " + std::to_string(tag) +
                        ": its transform holds a value that is not a finite number");
      std::copy(affine.begin(), affine.end(), t.begin());
      ok = maps(t);
      if (!ok && !nodes.empty()) {
        try {
          t = inverse(t);
          ok = maps(t);
        } catch (const std::runtime_error&) {
        }
      }
    }
    if (!ok) {
      Point3 off{0, 0, 0};
      for (size_t i = 0; i < nodes.size(); ++i)
        for (int c = 0; c < 3; ++c) off[c] += (node(nodes[i])[c] - node(mnodes[i])[c]) / double(nodes.size());
      t = translation(off);
      if (nodes.empty() || !maps(t))
        throw UserError(src_ + ": periodic entity " + std::to_string(tag) +
                        ": its nodes are not an affine image of master entity " + std::to_string(master));
    }
    if (raw_.ndims == 2) t[2] = t[6] = t[8] = t[9] = t[11] = 0, t[10] = 1;
    // Face matching pairs both ways, so it needs the inverse: a transform that flattens the
    // master entity (it can still map a flat entity's nodes onto the slave's) is the file's
    // fault, not ours.
    try {
      (void)inverse(t);
    } catch (const std::runtime_error&) {
      throw UserError(src_ + ": periodic entity " + std::to_string(tag) + ": its transform from master entity " +
                      std::to_string(master) + " is singular (it has no inverse)");
    }
    bool dup = false;
    for (const auto& u : raw_.entity_periodic) dup = dup || nearly_equal(u, t, 1e-9);
    if (!dup) raw_.entity_periodic.push_back(t);
  }
}

RawMesh Reader::read(const std::string& gmsh_path) {
  raw_.source = src_;
  gmsh_guarded(src_, [&] {
    gmsh::open(gmsh_path);
    std::string err;
    gmsh::logger::getLastError(err);
    if (!err.empty()) throw err;
    read_nodes();
    if (coords_.empty()) throw UserError(src_ + ": the file holds no mesh nodes (empty or corrupt)");
    for (int d = 3; d >= 2 && dim_ == 0; --d) {
      std::vector<int> types;
      std::vector<std::vector<size_t>> et, nt;
      gmsh::model::mesh::getElements(types, et, nt, d, -1);
      if (!types.empty()) dim_ = d;
    }
    if (dim_ == 0) throw UserError(src_ + ": the file holds no 2D or 3D elements");
    raw_.ndims = dim_;
    read_groups();
    read_entity_periodic();
  });
  if (raw_.groups.empty())
    throw UserError(src_ + ": no elements in the fluid (physical groups of dimension " +
                    std::to_string(dim_) + ")");
  return std::move(raw_);
}

}  // namespace

RawMesh read_gmsh(const std::string& path) {
  const std::streamoff lead = check_gmsh_envelope(path);
  // Gmsh picks its reader by extension: give it one it reads as MSH, whatever the user's name;
  // and a copy without the blank lines before the header, which it does not read.
  fs::path gpath = path;
  fs::path link;
  if (gpath.extension() != ".msh" || lead > 0) {
    link = fs::temp_directory_path() / ("frmini-import-" + std::to_string(::getpid()) + ".msh");
    std::error_code ec;
    fs::remove(link, ec);
    if (lead > 0) {
      std::ifstream in(path, std::ios::binary);
      in.seekg(lead);
      std::ofstream out(link, std::ios::binary);
      out << in.rdbuf();
      if (!out) throw UserError(path + ": cannot write a temporary copy to " + link.string());
    } else {
      fs::create_symlink(fs::absolute(gpath), link, ec);
      if (ec) throw UserError(path + ": cannot create a temporary link: " + ec.message());
    }
    gpath = link;
  }
  struct Cleanup {
    fs::path p;
    ~Cleanup() {
      std::error_code ec;
      if (!p.empty()) fs::remove(p, ec);
    }
  } cleanup{link};
  GmshSession session;
  return Reader(path).read(gpath.string());
}

}  // namespace frmini::meshes
