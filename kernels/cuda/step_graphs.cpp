#include "kernels/cuda/step_graphs.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <limits>

namespace frmini::kernels::cuda {

StepGraphs::~StepGraphs() {
  // The segment left is run (a backend going away still owes its work), then the graphs go.
  try {
    flush();
  } catch (const std::exception&) {  // a failing device at exit: nothing left to tell
  }
  clear();
}

void StepGraphs::add(GraphOp op) {
  ++stats_.ops;
  if (!enabled_) {
    ++stats_.direct;
    x_.issue(op);
    return;
  }
  pending_.push_back(std::move(op));
}

std::string StepGraphs::signature(const std::vector<GraphOp>& ops) {
  std::string s;
  char b[160];
  for (const auto& op : ops) {
    if (!op.is_kernel()) {
      s += "L" + op.key + "\n";
      continue;
    }
    std::snprintf(b, sizeof b, "K%p %u %u %u %u %u %u", op.func, op.grid[0], op.grid[1], op.grid[2],
                  op.block[0], op.block[1], op.block[2]);
    s += b;
    for (std::size_t z : op.sizes) s += " " + std::to_string(z);
    s += "\n";
  }
  return s;
}

void StepGraphs::issue_all(const std::vector<GraphOp>& ops) {
  for (const auto& op : ops) x_.issue(op);
  stats_.direct += int64_t(ops.size());
}

void StepGraphs::flush() {
  if (pending_.empty()) return;
  std::vector<GraphOp> ops;
  ops.swap(pending_);
  if (ops.size() < 2) {  // a graph of one launch saves nothing
    issue_all(ops);
    return;
  }
  Segment& s = segments_[signature(ops)];
  s.used = ++clock_;
  if (++s.seen == 1) {  // first time: direct, so libraries set themselves up outside a capture
    issue_all(ops);
    evict();
    return;
  }
  if (s.variants.empty()) capture(s, ops);
  else replay(s, ops);
  if (enabled_) evict();
}

void StepGraphs::capture(Segment& s, const std::vector<GraphOp>& ops) {
  std::size_t g = 0;
  try {
    x_.begin_capture();
    for (const auto& op : ops) x_.issue(op);
    g = x_.end_capture();
  } catch (const std::exception& e) {
    // A launch the driver cannot capture: no graphs from here on, and this segment's work
    // done op by op (nothing of it ran during the capture).
    try {
      x_.abort_capture();
    } catch (const std::exception&) {
    }
    why_off_ = e.what();
    clear();
    enabled_ = false;
    issue_all(ops);
    return;
  }
  Variant v{g, {}};
  for (const auto& op : ops)
    if (op.is_kernel()) v.params.push_back(op.params);
  s.variants.push_back(std::move(v));
  ++stats_.captures;
  x_.launch(g);
  ++stats_.replays;
  stats_.graph_ops += int64_t(ops.size());
}

void StepGraphs::replay(Segment& s, const std::vector<GraphOp>& ops) {
  // The variant whose kernel arguments differ least from this segment's.
  std::vector<const GraphOp*> kernels;
  for (const auto& op : ops)
    if (op.is_kernel()) kernels.push_back(&op);
  std::size_t best = 0, best_diff = std::numeric_limits<std::size_t>::max();
  for (std::size_t v = 0; v < s.variants.size(); ++v) {
    std::size_t d = 0;
    for (std::size_t k = 0; k < kernels.size(); ++k) d += s.variants[v].params[k] != kernels[k]->params;
    if (d < best_diff) best = v, best_diff = d;
  }
  // Many nodes to change (another register rotation, say): a variant of its own, while there
  // is room; a few (a time, a step size): updated in place.
  const std::size_t few = std::max<std::size_t>(2, kernels.size() / 8);
  if (best_diff > few && s.variants.size() < kMaxVariants) {
    capture(s, ops);
    return;
  }
  Variant& v = s.variants[best];
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    if (v.params[k] == kernels[k]->params) continue;
    x_.set_params(v.graph, k, *kernels[k]);
    v.params[k] = kernels[k]->params;
    ++stats_.updates;
  }
  x_.launch(v.graph);
  ++stats_.replays;
  stats_.graph_ops += int64_t(ops.size());
}

void StepGraphs::evict() {
  while (segments_.size() > kMaxSegments) {
    auto oldest = segments_.begin();
    for (auto it = segments_.begin(); it != segments_.end(); ++it)
      if (it->second.used < oldest->second.used) oldest = it;
    for (const auto& v : oldest->second.variants) x_.destroy(v.graph);
    segments_.erase(oldest);
  }
}

void StepGraphs::clear() {
  for (auto& [sig, s] : segments_)
    for (const auto& v : s.variants) x_.destroy(v.graph);
  segments_.clear();
}

}  // namespace frmini::kernels::cuda
