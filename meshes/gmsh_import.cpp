#include "meshes/gmsh_import.hpp"

#include <gmsh.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "meshes/element_types.hpp"
#include "meshes/gmsh_nodemap.hpp"
#include "meshes/gmsh_session.hpp"
#include "meshes/periodic.hpp"
#include "operators/error.hpp"

namespace frmini::meshes {

namespace fs = std::filesystem;

namespace {

// Gmsh's reader writes out of bounds on a section that another one's end closes ($Nodes ...
// $EndPeriodic, found by tests/fuzz/fuzz_gmsh), and the process then aborts in
// gmsh::finalize. In an ASCII file every line that begins with '$' is a section marker, so
// they must pair up, $Name ... $EndName, one section after another. (In a binary file such a
// line may be data, so those are left to Gmsh.)
void check_sections(const std::string& path, std::istream& in) {
  in.clear();
  in.seekg(0);
  std::string line, open;
  long n = 0, open_at = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty() || line[0] != '$') continue;
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    const bool end = line.rfind("$End", 0) == 0;
    if (open.empty() && end)
      throw UserError(path + ": malformed Gmsh file: " + line + " at line " + std::to_string(n) +
                      " closes no section");
    if (open.empty()) {
      open = line.substr(1);
      open_at = n;
    } else if (line == "$End" + open) {
      open.clear();
    } else {
      throw UserError(path + ": malformed Gmsh file: section $" + open + " (line " +
                      std::to_string(open_at) + ") is not closed before " + line + " (line " +
                      std::to_string(n) + ")");
    }
  }
}

// Nodes per element of each MSH element type (Gmsh's numbering, the types a mesh of lines,
// triangles, quadrangles, tetrahedra, hexahedra, prisms and pyramids of order 1-4 uses, and
// the order-5 line, triangle and quadrangle).
int msh_type_nodes(int type) {
  static const std::map<int, int> n = {
      {1, 2},   {2, 3},   {3, 4},   {4, 4},   {5, 8},   {6, 6},   {7, 5},   {8, 3},
      {9, 6},   {10, 9},  {11, 10}, {12, 27}, {13, 18}, {14, 14}, {15, 1},  {16, 8},
      {17, 20}, {18, 15}, {19, 13}, {20, 9},  {21, 10}, {22, 12}, {23, 15}, {24, 15},
      {25, 21}, {26, 4},  {27, 5},  {28, 6},  {29, 20}, {30, 35}, {31, 56}, {36, 16},
      {37, 25}, {38, 36}, {90, 40}, {91, 75}, {92, 64}, {93, 125}, {118, 30}, {119, 55}};
  auto it = n.find(type);
  return it == n.end() ? 0 : it->second;
}

// Gmsh's MSH 2.2 reader takes an element's tags on trust: with more tags announced than the line
// holds, it reads on into the next lines and the third tag becomes a partition count, and the
// conversion of old-style partitions then dereferences a wild pointer (a segmentation fault in
// `frmini import`, found by tests/fuzz/fuzz_gmsh). So in an ASCII MSH 2.2 file every element
// line must hold its number, type, tag count, the tags and at least one node, and a partition
// count (the third tag) must leave room for its partition ids among the tags. Its nodes are
// read the same way, so a line must be numbers only, as many as its type has nodes, each one
// of $Nodes's (garbage in place of a node made Gmsh dereference a missing vertex).
void check_msh2_elements(const std::string& path, std::istream& in) {
  in.clear();
  in.seekg(0);
  std::string line;
  long n = 0;
  bool inside = false, counted = false, in_nodes = false, nodes_counted = false;
  std::unordered_set<long long> nodes;
  while (std::getline(in, line)) {
    ++n;
    if (line.rfind("$Nodes", 0) == 0) {
      in_nodes = true;
      nodes_counted = false;
      continue;
    }
    if (line.rfind("$EndNodes", 0) == 0) in_nodes = false;
    if (in_nodes) {
      long long tag;
      if (nodes_counted && std::istringstream(line) >> tag) nodes.insert(tag);
      nodes_counted = true;
      continue;
    }
    if (line.rfind("$Elements", 0) == 0) {
      inside = true;
      counted = false;
      continue;
    }
    if (line.rfind("$EndElements", 0) == 0) inside = false;
    if (!inside) continue;
    if (!counted) {  // the element count
      counted = true;
      continue;
    }
    std::istringstream ls(line);
    std::vector<long long> v;
    long long x;
    while (ls >> x) v.push_back(x);
    ls.clear();
    std::string rest;
    const bool numbers_only = !(ls >> rest);
    const int nn = v.size() >= 2 && v[1] > 0 && v[1] < 1000 ? msh_type_nodes(int(v[1])) : 0;
    bool ok = numbers_only && nn > 0 && v.size() >= 4 && v[2] >= 0 && v[2] <= 64 &&
              static_cast<long long>(v.size()) == 3 + v[2] + nn &&
              (v[2] < 3 || (v[5] >= 0 && v[5] <= v[2] - 3));
    for (std::size_t k = v.size() - std::size_t(ok ? nn : 0); ok && k < v.size(); ++k)
      ok = nodes.count(v[k]) > 0;
    if (!ok)
      throw UserError(path + ": malformed Gmsh file: element line " + std::to_string(n) +
                      " does not hold its number, type, tags and nodes (each a node of $Nodes)");
  }
}

// The binary MSH 2.2 element blocks, which Gmsh's reader also takes on trust (an unknown type,
// a block longer than the count, or a node that does not exist made `frmini import` die of a
// segmentation fault in MElementFactory, found by tests/fuzz/fuzz_gmsh): every block's type must
// be known, its elements within the announced count and the file, its tag count sane, and
// every node one of $Nodes's. Byte-swapped files (written on a machine of the other
// endianness) are left to Gmsh.
void check_msh2_binary(const std::string& path, std::istream& in, int dsize) {
  in.clear();
  in.seekg(0);
  const std::string f((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto bad = [&](const std::string& what) {
    return UserError(path + ": malformed Gmsh file: " + what);
  };
  auto read_int = [&](std::size_t at) {
    if (at + 4 > f.size()) throw bad("binary data runs past the end of the file");
    int32_t v;
    std::memcpy(&v, f.data() + at, 4);
    return v;
  };
  // The header's binary 1 says whether the file is in this machine's byte order.
  const std::size_t one = f.find("\n", f.find("$MeshFormat") + 12);
  if (one == std::string::npos || read_int(one + 1) != 1) return;
  if (dsize != 8 && dsize != 4) throw bad("data size " + std::to_string(dsize));
  auto count_after = [&](const std::string& marker, std::size_t from, std::size_t& data) {
    const std::size_t at = f.find("\n" + marker + "\n", from);
    if (at == std::string::npos) return int64_t(-1);
    const std::size_t line = at + marker.size() + 2, nl = f.find('\n', line);
    if (nl == std::string::npos) throw bad(marker + " has no count");
    char* end = nullptr;
    const long long n = std::strtoll(f.c_str() + line, &end, 10);
    if (end == f.c_str() + line || n < 0 || n > (1LL << 40)) throw bad(marker + " count");
    data = nl + 1;
    return int64_t(n);
  };
  std::size_t at = 0;
  const int64_t nnodes = count_after("$Nodes", 0, at);
  if (nnodes < 0) return;  // no nodes: Gmsh reports it
  std::unordered_set<int32_t> tags;
  const std::size_t rec = 4 + 3 * std::size_t(dsize);
  if (at + std::size_t(nnodes) * rec > f.size()) throw bad("$Nodes runs past the end of the file");
  for (int64_t i = 0; i < nnodes; ++i) tags.insert(read_int(at + std::size_t(i) * rec));
  const int64_t nelem = count_after("$Elements", at + std::size_t(nnodes) * rec, at);
  if (nelem < 0) return;
  for (int64_t done = 0; done < nelem;) {
    const int type = read_int(at), follow = read_int(at + 4), ntags = read_int(at + 8);
    at += 12;
    const int nn = msh_type_nodes(type);
    if (!nn) throw bad("element type " + std::to_string(type) + " in a binary $Elements block");
    if (follow < 1 || follow > nelem - done || ntags < 0 || ntags > 64)
      throw bad("a binary $Elements block announces " + std::to_string(follow) + " elements of " +
                std::to_string(ntags) + " tags (" + std::to_string(nelem - done) + " left)");
    for (int e = 0; e < follow; ++e) {
      if (ntags >= 3) {
        const int32_t npart = read_int(at + 4 + 8);
        if (npart < 0 || npart > ntags - 3) throw bad("an element's partition count");
      }
      for (int k = 0; k < nn; ++k) {
        const int32_t node = read_int(at + 4 * std::size_t(1 + ntags + k));
        if (!tags.count(node))
          throw bad("an element refers to node " + std::to_string(node) + ", which $Nodes lacks");
      }
      at += 4 * std::size_t(1 + ntags + nn);
    }
    done += follow;
  }
  if (f.compare(at, 13, "\n$EndElements") != 0 && f.compare(at, 12, "$EndElements") != 0)
    throw bad("$Elements holds more than its count announces");
}

// Gmsh guesses formats from extensions and parses anything else as a .geo script, and it
// reads empty or truncated .msh files without complaint. So frmini checks the envelope itself:
// a $MeshFormat header with a version it supports, and a final $End... line. Returns the
// number of bytes of blank lines before the header.
std::streamoff check_envelope(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw UserError(path + ": no such file");
  if (!fs::is_regular_file(path, ec)) throw UserError(path + ": not a regular file");
  auto size = fs::file_size(path, ec);
  if (ec || size == 0) throw UserError(path + ": empty file, not a Gmsh mesh");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(path + ": cannot open for reading");
  std::string line, ver;
  // Blank lines before the header are accepted, as PyFR accepts them (its own
  // 3d-taylor-green mesh begins with one); Gmsh does not, so read_gmsh hands it a copy
  // without them.
  auto blank = [](const std::string& l) {
    return std::all_of(l.begin(), l.end(), [](unsigned char c) { return std::isspace(c); });
  };
  std::streamoff lead = 0;
  while (std::getline(in, line) && blank(line)) lead = in.tellg();
  if (line.rfind("$MeshFormat", 0) != 0)
    throw UserError(path + ": not a Gmsh mesh file (no $MeshFormat header)");
  int filetype = -1, dsize = 8;
  in >> ver >> filetype >> dsize;
  if (ver != "2.2" && ver != "4.1")
    throw UserError(path + ": MSH format version '" + ver +
                    "' is not supported (frmini reads MSH 2.2 and 4.1)");
  const std::streamoff tail = std::min<std::streamoff>(std::streamoff(size), 256);
  in.clear();
  in.seekg(-tail, std::ios::end);
  std::string end(size_t(tail), '\0');
  in.read(end.data(), tail);
  while (!end.empty() && std::isspace(static_cast<unsigned char>(end.back()))) end.pop_back();
  auto nl = end.find_last_of('\n');
  std::string last = nl == std::string::npos ? end : end.substr(nl + 1);
  if (last.rfind("$End", 0) != 0)
    throw UserError(path + ": truncated Gmsh file (the last line is not an $End... line)");
  if (filetype == 0) check_sections(path, in);
  if (filetype == 0 && ver == "2.2") check_msh2_elements(path, in);
  if (filetype == 1 && ver == "2.2") check_msh2_binary(path, in, dsize);
  return lead;
}

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
  const std::streamoff lead = check_envelope(path);
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
