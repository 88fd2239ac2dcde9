#include "meshes/gmsh_envelope.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <unordered_set>
#include <utility>
#include <vector>

#include "base/error.hpp"

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

// Gmsh's MSH 4.1 reader takes a physical name's dimension on trust: a name of dimension 4 or
// -1 (found by tests/fuzz/fuzz_gmsh) made `frmini import` die of a segmentation fault in
// GModel::setPhysicalName. $PhysicalNames is text in binary files too, so in every file each
// such section must begin with its count, and each of that many lines with a dimension from 0
// to 3 and a tag.
void check_physical_names(const std::string& path, const std::string& f) {
  auto bad = [&](const std::string& what) {
    return UserError(path + ": malformed Gmsh file: $PhysicalNames " + what);
  };
  const std::string marker = "\n$PhysicalNames";
  for (std::size_t at = f.find(marker); at != std::string::npos; at = f.find(marker, at + 1)) {
    const std::size_t after = at + marker.size();
    if (after < f.size() && f[after] != '\n' && f[after] != '\r') continue;  // another section
    std::istringstream sec(f.substr(after));
    std::string line;
    std::getline(sec, line);  // the rest of the marker's line
    long long count = -1;
    if (!std::getline(sec, line) || !(std::istringstream(line) >> count) || count < 0)
      throw bad("does not begin with its count");
    for (long long k = 0; k < count; ++k) {
      long long dim = -1, tag = 0;
      if (!std::getline(sec, line) || !(std::istringstream(line) >> dim >> tag))
        throw bad("announces " + std::to_string(count) + " names but its line " +
                  std::to_string(k + 1) + " is not a dimension, a tag and a name");
      if (dim < 0 || dim > 3)
        throw bad("names a physical group of dimension " + std::to_string(dim) +
                  " (tag " + std::to_string(tag) + "); dimensions are 0 to 3");
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
  std::string section;                 // "Nodes" or "Elements" while inside one, else empty
  long long announced = -1, held = 0;  // the section's count, and the lines it holds
  auto blank = [](const std::string& l) {
    return std::all_of(l.begin(), l.end(), [](unsigned char c) { return std::isspace(c); });
  };
  // Gmsh reads as many lines as the count says and takes the next ones on trust: with one node
  // more than announced (found by tests/fuzz/fuzz_gmsh) an element's node was read from past the
  // nodes it had stored, and `frmini import` died of a segmentation fault.
  auto count_line = [&] {
    if (announced >= 0) return ++held, false;
    std::istringstream ls(line);
    if (!(ls >> announced) || announced < 0)
      throw UserError(path + ": malformed Gmsh file: line " + std::to_string(n) + " is not the count of $" +
                      section);
    held = 0;
    return true;
  };
  std::unordered_set<long long> nodes;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line[0] == '$') {  // section markers (check_sections pairs them)
      for (const auto& [name, what] : {std::pair<std::string, std::string>{"Nodes", "nodes"}, {"Elements", "elements"}}) {
        if (line.rfind("$" + name, 0) == 0) section = name, announced = -1;
        if (line.rfind("$End" + name, 0) != 0) continue;
        if (announced != held)
          throw UserError(path + ": malformed Gmsh file: $" + name + " announces " + std::to_string(announced) +
                          " " + what + " but holds " + std::to_string(held) + " lines");
        section.clear();
      }
      continue;
    }
    if (section.empty() || blank(line) || count_line()) continue;
    if (section == "Nodes") {
      long long tag;
      if (std::istringstream(line) >> tag) nodes.insert(tag);
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
void check_msh2_binary(const std::string& path, const std::string& f, int dsize) {
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
  // This walk checks the first $Nodes and $Elements; Gmsh reads every one (a second copy of
  // both, found by tests/fuzz/fuzz_gmsh, had it allocate 15 GB).
  for (const std::string name : {"$Nodes", "$Elements"}) {
    const std::size_t first = f.find("\n" + name + "\n");
    if (first != std::string::npos && f.find("\n" + name + "\n", first + 1) != std::string::npos)
      throw bad("section " + name + " appears twice");
  }
  std::size_t at = 0;
  const int64_t nnodes = count_after("$Nodes", 0, at);
  // Without nodes Gmsh reports the file, unless elements follow: it sized a block of them from
  // their count before it noticed (13 GB for a "$Nodes" line with bytes inside, found by
  // tests/fuzz/fuzz_gmsh).
  if (nnodes < 0) {
    if (f.find("\n$Elements\n") != std::string::npos) throw bad("$Elements without a $Nodes section before it");
    return;
  }
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

// Gmsh's MSH 4.1 reader sizes its arrays from the counts in the $Nodes and $Elements headers
// and block headers before it reads a value: a block announcing 2.7e16 nodes (found by
// tests/fuzz/fuzz_gmsh) ended the import in std::bad_alloc, and blocks holding more than the
// header's total would be written past the end of its cache of that size. So in an ASCII MSH
// 4.1 file every count must fit in the bytes left in its section, and the blocks must add up to
// the header's total. Gmsh reads a node as whitespace-separated numbers (its tag, x y z, and one
// parametric coordinate per dimension of its entity in a parametric block) and an element as
// its tag and the rest of that line; the walk below reads them the same way. An element's nodes
// must be whole numbers among the $Nodes blocks' tags: Gmsh 4.8 read "7-8" as nodes 7 and -8
// and died of a segmentation fault in gmsh::model::mesh::getElements (found by fuzz_gmsh).
class SectionCursor {
 public:
  SectionCursor(const std::string& f, std::size_t at, std::size_t end) : f_(f), at_(at), end_(end) {}
  std::size_t left() const { return end_ - at_; }
  bool skip_token() {
    while (at_ < end_ && std::isspace(static_cast<unsigned char>(f_[at_]))) ++at_;
    if (at_ == end_) return false;
    while (at_ < end_ && !std::isspace(static_cast<unsigned char>(f_[at_]))) ++at_;
    return true;
  }
  bool number(long long& v) {
    while (at_ < end_ && std::isspace(static_cast<unsigned char>(f_[at_]))) ++at_;
    const std::size_t from = at_;
    if (!skip_token()) return false;
    const std::string tok = f_.substr(from, at_ - from);
    char* stop = nullptr;
    errno = 0;
    v = std::strtoll(tok.c_str(), &stop, 10);
    return errno == 0 && stop == tok.c_str() + tok.size();
  }
  // The numbers of the next line that holds any (from the next token to its line's end);
  // false when one is not a whole number.
  bool line_numbers(std::vector<long long>& out) {
    out.clear();
    while (at_ < end_ && std::isspace(static_cast<unsigned char>(f_[at_]))) ++at_;
    for (;;) {
      while (at_ < end_ && f_[at_] != '\n' && std::isspace(static_cast<unsigned char>(f_[at_]))) ++at_;
      if (at_ == end_ || f_[at_] == '\n') break;
      long long v = 0;
      if (!number(v)) return false;
      out.push_back(v);
    }
    if (at_ < end_) ++at_;
    return true;
  }
  bool skip_line() {
    // The section's end is the newline before "$End...", which ends its last line.
    const std::size_t nl = f_.find('\n', at_);
    if (nl == std::string::npos || nl > end_) return false;
    at_ = std::min(nl + 1, end_);
    return true;
  }

 private:
  const std::string& f_;
  std::size_t at_, end_;
};

void check_msh4_blocks(const std::string& path, const std::string& f) {
  auto bad = [&](const std::string& what) { return UserError(path + ": malformed Gmsh file: " + what); };
  // The text between "$Name" and "$EndName" (both at the start of a line), if the file has one.
  auto section = [&](const std::string& name, std::size_t& b, std::size_t& e) {
    for (std::size_t at = f.find("\n$" + name); at != std::string::npos; at = f.find("\n$" + name, at + 1)) {
      const std::size_t after = at + 2 + name.size();
      if (after < f.size() && f[after] != '\n' && f[after] != '\r') continue;
      b = after;
      e = f.find("\n$End" + name, b);
      return e != std::string::npos;
    }
    return false;
  };
  std::unordered_set<long long> node_tags;
  bool have_nodes = false;
  for (const bool nodes : {true, false}) {
    const std::string name = nodes ? "Nodes" : "Elements", what = nodes ? "nodes" : "elements";
    std::size_t b = 0, e = 0;
    if (!section(name, b, e)) continue;  // no such section: Gmsh reports it
    have_nodes = have_nodes || nodes;
    SectionCursor c(f, b, e);
    long long nblocks = 0, total = 0, tag = 0;
    if (!c.number(nblocks) || !c.number(total) || !c.number(tag) || !c.number(tag))
      throw bad("$" + name + " does not begin with four counts");
    // Each block header takes at least 8 bytes, each node or element at least 2 a number.
    const auto room = static_cast<long long>(c.left() / 8);
    if (nblocks < 0 || total < 0 || nblocks > room || total > room)
      throw bad("$" + name + " announces " + std::to_string(total) + " " + what + " in " +
                std::to_string(nblocks) + " blocks, more than its " + std::to_string(c.left()) +
                " bytes can hold");
    long long sum = 0;
    for (long long k = 0; k < nblocks; ++k) {
      long long dim = 0, entity = 0, kind = 0, n = 0;
      const std::string block = "$" + name + " block " + std::to_string(k + 1);
      if (!c.number(dim) || !c.number(entity) || !c.number(kind) || !c.number(n))
        throw bad(block + " does not begin with four numbers");
      if (dim < 0 || dim > 3) throw bad(block + ": entity dimension " + std::to_string(dim));
      // Numbers per node (tag, x y z, parametric coordinates); an element is a line.
      const long long per = nodes ? 4 + (kind ? dim : 0) : 1;
      const std::string announces = block + " announces " + std::to_string(n) + " " + what;
      if (n < 0 || n > static_cast<long long>(c.left() / std::size_t(2 * per)))
        throw bad(announces + ", more than the " + std::to_string(c.left()) +
                  " bytes left in the section can hold");
      if (n > total - sum)
        throw bad(announces + ", more than the " + std::to_string(total - sum) + " left of the " +
                  std::to_string(total) + " its header announces");
      // A node block lists its n tags, then their coordinates.
      std::vector<long long> line;
      for (long long i = 0; i < n; ++i) {
        bool ok = true;
        if (nodes) {
          long long t = 0;
          ok = c.number(t);
          if (ok) node_tags.insert(t);
        } else {
          if (!c.line_numbers(line))
            throw bad(block + ": its element line " + std::to_string(i + 1) +
                      " holds something other than whole numbers");
          ok = !line.empty();
          if (ok && have_nodes)
            for (std::size_t j = 1; j < line.size(); ++j)
              if (!node_tags.count(line[j]))
                throw bad(block + ": element " + std::to_string(line[0]) + " names node " +
                          std::to_string(line[j]) + ", which $Nodes does not hold");
        }
        if (!ok) throw bad(block + " ends after " + std::to_string(i) + " of its " + std::to_string(n) + " " + what);
      }
      if (nodes)
        for (long long i = 0; i < n * (per - 1); ++i)
          if (!c.skip_token())
            throw bad(block + " ends before the coordinates of its " + std::to_string(n) + " nodes");
      sum += n;
    }
    if (sum != total)
      throw bad("$" + name + " announces " + std::to_string(total) + " " + what + " but its blocks hold " +
                std::to_string(sum));
  }
  // $Periodic: per link its dimension and two entity tags, a count of affine values and the
  // values, a count of node pairs and the pairs, each a tag of the $Nodes blocks (Gmsh 4.8 read
  // the pair "4-1" as nodes 4 and -1 and died of a segmentation fault in getPeriodicNodes;
  // found by fuzz_gmsh).
  std::size_t b = 0, e = 0;
  if (!section("Periodic", b, e)) return;
  SectionCursor c(f, b, e);
  long long nlinks = 0;
  if (!c.number(nlinks) || nlinks < 0 || nlinks > static_cast<long long>(c.left() / 8))
    throw bad("$Periodic does not begin with a count of links that fits in it");
  for (long long k = 0; k < nlinks; ++k) {
    const std::string link = "$Periodic link " + std::to_string(k + 1);
    long long dim = 0, tag = 0, master = 0, naffine = 0, npairs = 0;
    if (!c.number(dim) || !c.number(tag) || !c.number(master) || dim < 0 || dim > 3)
      throw bad(link + " does not begin with a dimension from 0 to 3 and two entity tags");
    if (!c.number(naffine) || naffine < 0 || naffine > 16)
      throw bad(link + ": its count of affine values is not 0 to 16");
    for (long long i = 0; i < naffine; ++i)
      if (!c.skip_token()) throw bad(link + " ends inside its affine transform");
    if (!c.number(npairs) || npairs < 0 || npairs > static_cast<long long>(c.left() / 4))
      throw bad(link + ": its count of node pairs does not fit in the section");
    for (long long i = 0; i < 2 * npairs; ++i) {
      long long node = 0;
      if (!c.number(node))
        throw bad(link + ": its node pair " + std::to_string(i / 2 + 1) + " is not two whole numbers");
      if (have_nodes && !node_tags.count(node))
        throw bad(link + ": its node pair " + std::to_string(i / 2 + 1) + " names node " +
                  std::to_string(node) + ", which $Nodes does not hold");
    }
  }
}

// Gmsh's binary MSH 4.1 reader takes every count on trust: a text file marked binary (found by
// tests/fuzz/fuzz_gmsh) had it read "8 12 6 1" as entity counts and ask for 145 PB. So the
// file is walked section by section as Gmsh reads it: $Entities, $Nodes, $Elements and
// $Periodic (binary), $PhysicalNames (text, checked above); every count must fit in the bytes
// left, entity dimensions are 0 to 3, element types known, and the blocks add up to the
// headers' totals. Any other section is refused: frmini reads meshes, and a section it cannot
// walk could hold anything. Files in the other byte order are refused too.
class BinaryWalk {
 public:
  BinaryWalk(const std::string& path, const std::string& f, std::size_t at) : path_(path), f_(f), at_(at) {}
  UserError bad(const std::string& what) const {
    return UserError(path_ + ": malformed Gmsh file: " + what + " (binary MSH 4.1, byte " + std::to_string(at_) + ")");
  }
  template <class T> T get() {
    if (f_.size() - at_ < sizeof(T)) throw bad("binary data runs past the end of the file");
    T v;
    std::memcpy(&v, f_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return v;
  }
  // A count of items of at least `bytes` each, which must fit in what is left of the file.
  uint64_t count(std::size_t bytes, const std::string& what) {
    const uint64_t n = get<uint64_t>();
    if (n > (f_.size() - at_) / bytes) throw bad(what + " announces " + std::to_string(n) + ", more than the file holds");
    return n;
  }
  void skip(uint64_t n, std::size_t bytes) {
    if (n > (f_.size() - at_) / bytes) throw bad("binary data runs past the end of the file");
    at_ += std::size_t(n) * bytes;
  }
  int dim() {
    const int32_t d = get<int32_t>();
    if (d < 0 || d > 3) throw bad("entity dimension " + std::to_string(d));
    return d;
  }
  // The next line's text (after blank ones), and the position moved past it.
  bool line(std::string& l) {
    while (at_ < f_.size() && std::isspace(static_cast<unsigned char>(f_[at_]))) ++at_;
    if (at_ == f_.size()) return false;
    const std::size_t nl = std::min(f_.find('\n', at_), f_.size());
    l = f_.substr(at_, nl - at_);
    while (!l.empty() && std::isspace(static_cast<unsigned char>(l.back()))) l.pop_back();
    at_ = std::min(nl + 1, f_.size());
    return true;
  }
  void text_section(const std::string& name) {
    const std::size_t e = f_.find("\n$End" + name, at_);
    if (e == std::string::npos) throw bad("section $" + name + " is not closed");
    at_ = e;
  }
  void entities() {
    const uint64_t n[4] = {count(36, "$Entities"), count(64, "$Entities"), count(64, "$Entities"), count(64, "$Entities")};
    for (int d = 0; d < 4; ++d)
      for (uint64_t i = 0; i < n[d]; ++i) {
        skip(1, d == 0 ? 28 : 52);  // the tag, then a point or a bounding box
        skip(count(4, "an entity's physical tags"), 4);
        if (d > 0) skip(count(4, "an entity's bounding entities"), 4);
      }
  }
  void nodes() {
    const uint64_t blocks = count(20, "$Nodes"), total = count(32, "$Nodes");
    skip(2, 8);  // the smallest and largest tags
    uint64_t sum = 0;
    for (uint64_t b = 0; b < blocks; ++b) {
      const int d = dim();
      get<int32_t>();
      const int32_t parametric = get<int32_t>();
      const std::size_t per = 8 + 8 * std::size_t(3 + (parametric ? d : 0));
      const uint64_t k = count(per, "a $Nodes block");
      if (k > total - sum) throw bad("$Nodes blocks hold more than the " + std::to_string(total) + " nodes its header announces");
      skip(k, per);
      sum += k;
    }
    if (sum != total) throw bad("$Nodes announces " + std::to_string(total) + " nodes but its blocks hold " + std::to_string(sum));
  }
  void elements() {
    const uint64_t blocks = count(20, "$Elements"), total = count(16, "$Elements");
    skip(2, 8);
    uint64_t sum = 0;
    for (uint64_t b = 0; b < blocks; ++b) {
      dim();
      get<int32_t>();
      const int32_t type = get<int32_t>();
      const int nn = msh_type_nodes(type);
      if (!nn) throw bad("element type " + std::to_string(type));
      const std::size_t per = 8 * std::size_t(1 + nn);
      const uint64_t k = count(per, "an $Elements block");
      if (k > total - sum) throw bad("$Elements blocks hold more than the " + std::to_string(total) + " elements its header announces");
      skip(k, per);
      sum += k;
    }
    if (sum != total) throw bad("$Elements announces " + std::to_string(total) + " elements but its blocks hold " + std::to_string(sum));
  }
  void periodic() {
    const uint64_t links = count(28, "$Periodic");
    for (uint64_t i = 0; i < links; ++i) {
      dim();
      skip(2, 4);
      skip(count(8, "a periodic link's transform"), 8);
      skip(count(16, "a periodic link's nodes"), 16);
    }
  }

 private:
  const std::string& path_;
  const std::string& f_;
  std::size_t at_;
};

void check_msh4_binary(const std::string& path, const std::string& f) {
  const std::size_t one = f.find('\n', f.find("$MeshFormat") + 12);
  BinaryWalk w(path, f, one == std::string::npos ? f.size() : one + 1);
  if (w.get<int32_t>() != 1) throw w.bad("the header's binary 1 is not 1 in this machine's byte order");
  std::string l;
  if (!w.line(l) || l != "$EndMeshFormat") throw w.bad("$MeshFormat does not end after its binary 1");
  while (w.line(l)) {
    const std::string name = l.substr(1);
    if (name == "PhysicalNames") w.text_section(name);
    else if (name == "Entities") w.entities();
    else if (name == "Nodes") w.nodes();
    else if (name == "Elements") w.elements();
    else if (name == "Periodic") w.periodic();
    else throw w.bad("section '" + l + "', which frmini does not read");
    if (!w.line(l) || l != "$End" + name) throw w.bad("section $" + name + " does not end where its counts say");
  }
}

}  // namespace

// Gmsh guesses formats from extensions and parses anything else as a .geo script, and it
// reads empty or truncated .msh files without complaint. So frmini checks the envelope itself:
// a $MeshFormat header with a version it supports, a final $End... line, and the structure
// checks above.

std::streamoff check_gmsh_envelope(const std::string& path) {
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
  // Gmsh knows a section by its name's first letters, so "$MeshFormat@" and a second header
  // further on are headers to it, which the walks below would not see: a binary MSH 2.2 file
  // beginning "$MeshFormat@" with another header after it had Gmsh 4.8 ask for 13.8 GB (found
  // by fuzz_gmsh). The header line is the name alone, and there is one.
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
  if (line != "$MeshFormat")
    throw UserError(path + ": malformed Gmsh file: its first line is '" + line.substr(0, 40) +
                    "', not $MeshFormat");
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
  // Most checks below walk the whole file as bytes: it is read once for all of them.
  in.clear();
  in.seekg(0);
  const std::string f((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (f.find("\n$MeshFormat", f.find("$MeshFormat") + 11) != std::string::npos)
    throw UserError(path + ": malformed Gmsh file: a second $MeshFormat header");
  check_physical_names(path, f);
  if (filetype == 0 && ver == "2.2") check_msh2_elements(path, in);
  if (filetype == 1 && ver == "2.2") check_msh2_binary(path, f, dsize);
  if (filetype == 0 && ver == "4.1") check_msh4_blocks(path, f);
  if (filetype == 1 && ver == "4.1") check_msh4_binary(path, f);
  return lead;
}

}  // namespace frmini::meshes
