#include "meshes/mesh.hpp"

#include <cstdio>
#include <cstring>

namespace frmini::meshes {

int Mesh::group_index(const std::string& etype) const {
  for (size_t i = 0; i < groups.size(); ++i)
    if (groups[i].etype == etype) return int(i);
  return -1;
}

int64_t Mesh::total_elements() const {
  int64_t n = 0;
  for (const auto& g : groups) n += g.neles;
  return n;
}

FaceCounts count_faces(const Mesh& m) {
  FaceCounts c;
  c.boundary.assign(m.boundaries.size(), 0);
  for (const auto& g : m.groups)
    for (const auto& l : g.faces) {
      if (l.kind == FaceLink::internal) ++c.internal;
      else if (l.kind == FaceLink::periodic) ++c.periodic;
      else if (l.kind == FaceLink::boundary) ++c.boundary.at(l.index);
      else ++c.unset;
    }
  c.internal /= 2;  // each pair was seen from both sides
  c.periodic /= 2;
  return c;
}

namespace {
// FNV-1a, 64 bit; two differently seeded streams give the 128 bits of the UUID.
struct Fnv {
  uint64_t h;
  void add(const void* p, size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) {
      h ^= b[i];
      h *= 0x100000001b3ULL;
    }
  }
};
}  // namespace

std::string mesh_uuid(const Mesh& m) {
  Fnv a{0xcbf29ce484222325ULL}, b{0x84222325cbf29ce4ULL};
  auto add = [&](const void* p, size_t n) {
    a.add(p, n);
    b.add(p, n);
  };
  add(&m.ndims, sizeof m.ndims);
  for (const auto& g : m.groups) {
    add(g.etype.data(), g.etype.size());
    add(&g.order, sizeof g.order);
    add(&g.neles, sizeof g.neles);
    add(g.nodes.data(), g.nodes.size() * sizeof(double));
    add(g.faces.data(), g.faces.size() * sizeof(FaceLink));
  }
  for (const auto& s : m.boundaries) add(s.data(), s.size() + 1);
  for (const auto& t : m.transforms) add(t.data(), sizeof t);
  uint64_t x = a.h, y = b.h;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%08x-%04x-%04x-%04x-%012llx", unsigned(x >> 32),
                unsigned((x >> 16) & 0xffff), unsigned(x & 0xffff), unsigned(y >> 48),
                static_cast<unsigned long long>(y & 0xffffffffffffULL));
  return buf;
}

}  // namespace frmini::meshes
