#include "kernels/pointwise/render.hpp"
#include "kernels/pointwise/render_parts.hpp"

#include <cctype>
#include <set>
#include <sstream>
#include <stdexcept>

namespace frmini::kernels::pointwise {

namespace parts {


bool is_staged(const Arg& g, Contig c) {
  return g.kind == ArgKind::view && (c == Contig::staged || (c == Contig::staged_far && g.far));
}

// Value (a, b) of a view in its staging array: one row of SOA_S lanes per value.
std::string staged_ref(const Arg& g, int a, int b) {
  return "_sg_" + g.name + "[" + std::to_string(a * extent_b(g) + b) + "][_lane]";
}

// Value (a, b) of a view in piece `piece` ('a' or 'b') of a split chunk.
std::string split_ref(const Arg& g, int a, int b, char piece) {
  const std::string& n = g.name;
  std::ostringstream o;
  o << n << "_p[" << n << "_s" << piece << " + _lane";
  if (a) o << " + " << a << "*" << n << "_rs[_j0]";
  if (b) o << " + " << b << "*SOA_S";
  o << "]";
  return o.str();
}

std::string address(const Arg& g, int a, int b, Space space, Contig contig) {
  if (is_staged(g, contig)) return staged_ref(g, a, b);
  const bool contiguous =
      contig == Contig::all || ((contig == Contig::near || contig == Contig::staged_far) && !g.far);
  const std::string& n = g.name;
  int B = extent_b(g);
  std::ostringstream o;
  switch (g.kind) {
    case ArgKind::field:
      o << n << "_p[(" << a << "*" << point_stride(g) << (g.uniform ? "" : " + _i") << ")*" << n << "_ld + _blk*"
        << B * 1 << "*SOA_S + " << b << "*SOA_S + _lane]";
      break;
    case ArgKind::view:
      if (contiguous) {
        o << n << "_p[" << n << "_ix[_j0] + _lane";
        if (a) o << " + " << a << "*" << n << "_rs[_j0]";
        if (b) o << " + " << b << "*SOA_S";
        o << "]";
        break;
      }
      o << n << "_p[" << n << "_ix[_j]";
      if (a) o << " + " << a << "*" << n << "_rs[_j]";
      if (b) o << " + " << b << "*SOA_S";
      o << "]";
      break;
    case ArgKind::array:
      o << n << "_p[" << (a * B + b) << "*" << n << "_ld + _j]";
      break;
    default:
      throw std::logic_error("address of a non-memory argument");
  }
  (void)space;
  return o.str();
}

// Loads, body, stores: the same text in every dialect.
std::string point_block(const Spec& s, const std::string& body, const std::string& indent,
                        Contig contiguous) {
  std::ostringstream o;
  for (const auto& g : s.args) {
    if (!is_memory(g)) continue;
    o << indent << local_decl(g) << "\n";
    const bool split = contiguous == Contig::split && g.kind == ArgKind::view;
    if (loads(g))
      for (int a = 0; a < extent_a(g); ++a)
        for (int b = 0; b < extent_b(g); ++b)
          o << indent << local_ref(g, a, b) << " = "
            << (split ? "_lane < " + g.name + "_k ? " + split_ref(g, a, b, 'a') + " : " + split_ref(g, a, b, 'b')
                      : address(g, a, b, s.space, contiguous))
            << ";\n";
  }
  o << indent << "{\n" << body << "\n" << indent << "}\n";
  for (const auto& g : s.args) {
    if (!is_memory(g) || !stores(g)) continue;
    const bool split = contiguous == Contig::split && g.kind == ArgKind::view;
    for (int a = 0; a < extent_a(g); ++a)
      for (int b = 0; b < extent_b(g); ++b) {
        if (split)
          o << indent << "if (_lane < " << g.name << "_k) " << split_ref(g, a, b, 'a') << " = "
            << local_ref(g, a, b) << "; else " << split_ref(g, a, b, 'b') << " = " << local_ref(g, a, b) << ";\n";
        else
          o << indent << address(g, a, b, s.space, contiguous) << " = " << local_ref(g, a, b) << ";\n";
      }
  }
  return o.str();
}

bool has_views(const Spec& s) {
  for (const auto& g : s.args)
    if (g.kind == ArgKind::view) return true;
  return false;
}

// Whether a near-only variant differs from both the all-vector and the all-gather ones.
bool has_near_and_far(const Spec& s) {
  bool nearv = false, farv = false;
  for (const auto& g : s.args)
    if (g.kind == ArgKind::view) (g.far ? farv : nearv) = true;
  return nearv && farv;
}

std::string slot_param(const Slot& sl, const Dialect& d, const Spec& s) {
  const Dialect::Words w = d.words();
  const Arg& g = s.args[sl.arg];
  // Views may alias each other (both sides of an interface live in one arena): no restrict.
  bool may_alias = g.kind == ArgKind::view;
  switch (sl.type) {
    case SlotType::fp_buffer:
      return std::string(w.global) + (loads(g) && !stores(g) ? "const " : "") + "fpscal_t* " +
             (may_alias ? "" : std::string(w.restrict_) + " ") + sl.name;
    case SlotType::idx_buffer:
      return std::string(w.global) + "const " + w.i64 + "* " + w.restrict_ + " " + sl.name;
    case SlotType::int64: return std::string("const ") + w.i64 + " " + sl.name;
    case SlotType::fp_scalar: return "const fpscal_t " + sl.name;
  }
  return "";
}

// A kernel of one work-item a point over the range: the GPUs', and OpenCL's where it renders
// no block vectors.
std::string device_kernel(const Spec& s, const std::vector<Slot>& sl, const std::string& body,
                          bool blocks, const Dialect& d, const DeviceSpelling& k) {
  const Dialect::Words w = d.words();
  std::ostringstream o;
  o << k.qualifier << " " << s.name << "(" << w.i64 << " _ib, " << w.i64 << " _ie";
  // Buffers the host cannot offset (OpenCL's cl_mem): each buffer slot is a (base, offset)
  // pair and the kernel forms the pointer.
  std::ostringstream derive;
  for (const auto& x : sl) {
    bool buf = x.type == SlotType::fp_buffer || x.type == SlotType::idx_buffer;
    if (k.buffer_offsets && buf) {
      std::string decl = slot_param(x, d, s);
      std::string base = decl;
      base.insert(base.rfind(x.name) + x.name.size(), "_base");
      // No restrict on the parameter: only the derived pointer carries it.
      for (std::size_t q; (q = base.find("restrict ")) != std::string::npos;) base.erase(q, 9);
      o << ",\n    " << base << ", const long " << x.name << "_off";
      derive << "  " << decl << " = " << x.name << "_base + " << x.name << "_off;\n";
    } else {
      o << ",\n    " << slot_param(x, d, s);
    }
  }
  o << ")\n{\n" << derive.str();
  const bool elem = s.space == Space::element_points;
  if (blocks) {
    o << (elem ? opencl_block_elements(s, body) : opencl_block_points(s, body));
  } else if (elem) {
    o << "  const " << w.i64 << " _e = _ib + " << k.gx << ";\n"
      << "  const int _i = (int)" << k.gy << ";\n"
      << "  if (_e >= _ie || _i >= NPTS) return;\n"
      << "  const " << w.i64 << " _blk = _e / SOA_S;\n"
      << "  const int _lane = (int)(_e % SOA_S);\n"
      << point_block(s, body, "  ");
  } else {
    o << "  const " << w.i64 << " _j = _ib + " << k.gx << ";\n"
      << "  if (_j >= _ie) return;\n"
      << point_block(s, body, "  ");
  }
  o << "}\n";
  return o.str();
}

}  // namespace parts

using namespace parts;

std::vector<Slot> slots(const Spec& spec) {
  std::vector<Slot> out;
  for (std::size_t k = 0; k < spec.args.size(); ++k) {
    const Arg& g = spec.args[k];
    switch (g.kind) {
      case ArgKind::field:
      case ArgKind::array:
        out.push_back({SlotType::fp_buffer, g.name + "_p", k});
        out.push_back({SlotType::int64, g.name + "_ld", k});
        break;
      case ArgKind::view:
        out.push_back({SlotType::fp_buffer, g.name + "_p", k});
        out.push_back({SlotType::idx_buffer, g.name + "_ix", k});
        if (extent_a(g) > 1) out.push_back({SlotType::idx_buffer, g.name + "_rs", k});
        break;
      case ArgKind::scalar: out.push_back({SlotType::fp_scalar, g.name, k}); break;
      case ArgKind::index: out.push_back({SlotType::int64, g.name, k}); break;
    }
  }
  return out;
}

bool c_fast_chunks(const Spec& s) { return s.space == Space::points && has_views(s); }

std::size_t c_chunk_record(const Spec& s) {
  std::size_t n = 1;
  for (const auto& g : s.args) n += g.kind == ArgKind::view;
  return n;
}

void validate(const Spec& s) {
  std::set<std::string> names;
  for (const auto& g : s.args) {
    if (!names.insert(g.name).second)
      throw std::logic_error(s.name + ": argument '" + g.name + "' declared twice");
    bool scalar = g.kind == ArgKind::scalar || g.kind == ArgKind::index;
    if (scalar != g.shape.empty() || g.shape.size() > 2)
      throw std::logic_error(s.name + ": argument '" + g.name + "' has a bad shape");
    for (int e : g.shape)
      if (e < 1) throw std::logic_error(s.name + ": argument '" + g.name + "' has extent < 1");
    if (scalar && g.intent != Intent::in)
      throw std::logic_error(s.name + ": scalar '" + g.name + "' must be an input");
    if (s.space == Space::points && g.kind == ArgKind::field)
      throw std::logic_error(s.name + ": field '" + g.name + "' in a points kernel");
    if (s.space == Space::element_points && (g.kind == ArgKind::view || g.kind == ArgKind::array))
      throw std::logic_error(s.name + ": '" + g.name + "' must be a field in an element kernel");
  }
  if (s.space == Space::element_points && !s.defines.count("NPTS"))
    throw std::logic_error(s.name + ": element kernels need the define NPTS");
}

std::string single_literals(const std::string& src) {
  std::string out;
  out.reserve(src.size() + src.size() / 8);
  std::size_t i = 0, n = src.size();
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  while (i < n) {
    char c = src[i];
    if (c == '/' && i + 1 < n && src[i + 1] == '/') {  // line comment: copy verbatim
      std::size_t e = src.find('\n', i);
      e = e == std::string::npos ? n : e;
      out.append(src, i, e - i);
      i = e;
      continue;
    }
    if (ident(c) && !std::isdigit(static_cast<unsigned char>(c))) {  // identifier
      while (i < n && ident(src[i])) out += src[i++];
      continue;
    }
    bool starts_number = std::isdigit(static_cast<unsigned char>(c)) ||
                         (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(src[i + 1])));
    if (!starts_number) {
      out += src[i++];
      continue;
    }
    std::size_t b = i;
    bool floating = false;
    while (i < n && (std::isdigit(static_cast<unsigned char>(src[i])) || src[i] == '.')) {
      floating = floating || src[i] == '.';
      ++i;
    }
    if (i < n && (src[i] == 'e' || src[i] == 'E')) {
      std::size_t j = i + 1;
      if (j < n && (src[j] == '+' || src[j] == '-')) ++j;
      if (j < n && std::isdigit(static_cast<unsigned char>(src[j]))) {
        floating = true;
        i = j;
        while (i < n && std::isdigit(static_cast<unsigned char>(src[i]))) ++i;
      }
    }
    out.append(src, b, i - b);
    bool suffixed = i < n && (src[i] == 'f' || src[i] == 'F' || ident(src[i]));
    if (floating && !suffixed) out += 'f';
  }
  return out;
}

std::string Dialect::reduce_macros(Precision) const {
  throw std::logic_error(std::string("the ") + name() + " dialect has no device reduction");
}

bool renders_block_vectors(const Spec& s, const Dialect& d, std::size_t soa, bool blocks) {
  return blocks && s.block_vectors && d.block_vectors(soa);
}

std::string render(const Spec& s, const Dialect& d, Precision p, std::size_t soa, bool blocks) {
  validate(s);
  blocks = renders_block_vectors(s, d, soa, blocks);
  const bool single = p == Precision::single;
  const std::string body = single ? single_literals(s.body) : s.body;
  const std::string funcs = single ? single_literals(s.functions) : s.functions;

  std::ostringstream o;
  o << "// Generated by frmini (kernels/pointwise): do not edit.\n" << d.prelude(p);
  // Memory holds fpscal_t; the body computes in fpdtype_t, the same type unless it runs on
  // block vectors (the OpenCL vector type of SOA_S lanes).
  o << "typedef " << c_type(p) << " fpscal_t;\n"
    << "typedef " << c_type(p) << (blocks ? std::to_string(soa) : "") << " fpdtype_t;\n";
  if (blocks)
    o << "#define FRMINI_VLOAD vload" << soa << "\n#define FRMINI_VSTORE vstore" << soa << "\n";
  o << "#define FRMINI_FUNC " << d.words().func << "\n"
    << "#define SOA_S " << soa << "\n";
  for (const auto& [k, v] : s.defines) o << "#define " << k << " " << (single ? single_literals(v) : v) << "\n";
  if (!funcs.empty()) o << funcs << "\n";
  o << d.kernel(s, slots(s), body, blocks);
  return o.str();
}

}  // namespace frmini::kernels::pointwise
