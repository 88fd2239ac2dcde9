#include "operators/quadrules.hpp"

#include <algorithm>
#include <charconv>
#include <regex>
#include <sstream>

#include "base/error.hpp"
#include "operators/bases.hpp"
#include "operators/quadrules_embed.hpp"

namespace frmini::operators {

namespace {

struct Entry {
  QuadRuleInfo info;
  const char* text;
};

// Parsed once: the catalogue of embedded tables (names only; points are parsed on demand).
const std::vector<Entry>& catalogue() {
  static const std::vector<Entry> cat = [] {
    std::vector<Entry> out;
    const std::regex re(R"(([a-zA-Z0-9\-~+]+)-n(\d+)(?:-d(\d+))?(?:-([pstu]+))?\.txt)");
    for (std::size_t i = 0; i < detail::embedded_quadrules_count; ++i) {
      const auto& t = detail::embedded_quadrules[i];
      std::cmatch m;
      if (!std::regex_match(t.file, m, re)) continue;
      QuadRuleInfo q;
      q.shape = t.shape;
      q.name = m[1].str();
      q.npts = std::stoi(m[2].str());
      q.degree = m[3].matched ? std::stoi(m[3].str()) : -1;
      q.flags = m[4].matched ? m[4].str() : "";
      q.file = t.file;
      out.push_back({q, t.text});
    }
    std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) {
      if (a.info.shape != b.info.shape) return a.info.shape < b.info.shape;
      if (a.info.name != b.info.name) return a.info.name < b.info.name;
      if (a.info.npts != b.info.npts) return a.info.npts < b.info.npts;
      return a.info.degree < b.info.degree;
    });
    return out;
  }();
  return cat;
}

QuadRule parse(const Entry& e) {
  const std::size_t nd = shape_ndims(e.info.shape);
  std::vector<double> pts, wts;
  std::istringstream in(e.text);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<double> args;
    const char* p = line.data();
    const char* end = p + line.size();
    while (true) {
      while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
      if (p == end) break;
      double v = 0.0;
      auto [q, ec] = std::from_chars(p, end, v);
      if (ec != std::errc()) throw std::runtime_error("quadrules: bad number in " + e.info.file);
      args.push_back(v);
      p = q;
    }
    if (args.empty()) continue;
    if (args.size() == nd) {
      pts.insert(pts.end(), args.begin(), args.end());
    } else if (args.size() == nd + 1) {
      pts.insert(pts.end(), args.begin(), args.end() - 1);
      wts.push_back(args.back());
    } else {
      throw std::runtime_error("quadrules: bad point in " + e.info.file);
    }
  }
  QuadRule r;
  r.info = e.info;
  r.pts = Matrix(pts.size() / nd, nd);
  r.pts.data = std::move(pts);
  if (!wts.empty() && wts.size() != r.pts.rows)
    throw std::runtime_error("quadrules: invalid number of weights in " + e.info.file);
  r.wts = std::move(wts);
  if (static_cast<int>(r.pts.rows) != e.info.npts)
    throw std::runtime_error("quadrules: point count differs from name in " + e.info.file);
  return r;
}

bool has_flags(const std::string& have, const std::string& want) {
  return std::all_of(want.begin(), want.end(),
                     [&](char c) { return have.find(c) != std::string::npos; });
}

}  // namespace

std::vector<QuadRuleInfo> list_quadrules(const std::string& shape, const std::string& name) {
  std::vector<QuadRuleInfo> out;
  for (const auto& e : catalogue())
    if (e.info.shape == shape && (name.empty() || e.info.name == name)) out.push_back(e.info);
  return out;
}

QuadRule get_quadrule(const std::string& shape, const std::string& name, int npts) {
  const Entry* best = nullptr;
  for (const auto& e : catalogue())
    if (e.info.shape == shape && e.info.name == name && e.info.npts == npts &&
        (!best || e.info.degree > best->info.degree))
      best = &e;
  if (!best)
    throw UserError("operators: no " + name + " table with " + std::to_string(npts) +
                    " points for " + shape);
  return parse(*best);
}

QuadRule get_quadrule_deg(const std::string& shape, const std::string& name, int qdeg,
                          const std::string& flags) {
  const Entry* best = nullptr;
  for (const auto& e : catalogue())
    if (e.info.shape == shape && (name.empty() || e.info.name == name) &&
        e.info.degree >= qdeg && has_flags(e.info.flags, flags) &&
        (!best || e.info.npts < best->info.npts))
      best = &e;
  if (!best)
    throw UserError("operators: no " + (name.empty() ? std::string("quadrature") : name) +
                    " rule of degree " + std::to_string(qdeg) + " for " + shape);
  return parse(*best);
}

}  // namespace frmini::operators
