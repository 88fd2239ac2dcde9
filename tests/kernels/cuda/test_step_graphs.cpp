// StepGraphs' bookkeeping against a fake driver that records what it is asked to do and
// "executes" ops and graphs by appending what they compute to a log: a segment's first run is
// direct, its second is captured and launched, later ones replayed with only the changed
// kernel nodes updated, a different op sequence is a segment of its own, many changed nodes
// make a variant, a failed capture turns graphs off and still does the work, and the work done
// (the log) is the same as with graphs off in every case. Runs without a GPU.
#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cuda/step_graphs.hpp"
#include "tests/frmini_catch.hpp"

using frmini::kernels::cuda::GraphOp;
using frmini::kernels::cuda::StepGraphs;

namespace {

// Kernel ops carry one int parameter; "executing" one appends "f<func>(<param>)" to the log.
class FakeDriver : public StepGraphs::Executor {
 public:
  std::vector<std::string> log;  // what ran, in order, as the device would see it
  int issued = 0, captures = 0, launches = 0, updates = 0, destroyed = 0;
  bool fail_capture = false;

  static std::string run(const GraphOp& op) {
    if (!op.is_kernel()) return "lib(" + op.key + ")";
    int v = 0;
    std::memcpy(&v, op.params.data(), sizeof v);
    return "f" + std::to_string(reinterpret_cast<std::uintptr_t>(op.func)) + "(" + std::to_string(v) + ")";
  }
  void issue(const GraphOp& op) override {
    ++issued;
    if (capturing_) {
      if (fail_capture) throw std::runtime_error("cannot capture");
      graph_.push_back(op);
      return;
    }
    log.push_back(run(op));
  }
  void begin_capture() override {
    capturing_ = true;
    graph_.clear();
  }
  std::size_t end_capture() override {
    capturing_ = false;
    ++captures;
    graphs_[++next_] = graph_;
    return next_;
  }
  void abort_capture() override { capturing_ = false; }
  void set_params(std::size_t g, std::size_t node, const GraphOp& op) override {
    ++updates;
    std::size_t k = 0;
    for (auto& o : graphs_.at(g))
      if (o.is_kernel() && k++ == node) {
        REQUIRE(o.func == op.func);
        o.params = op.params;
        return;
      }
    FAIL("no kernel node " << node);
  }
  void launch(std::size_t g) override {
    ++launches;
    for (const auto& op : graphs_.at(g)) log.push_back(run(op));
  }
  void destroy(std::size_t g) override {
    ++destroyed;
    graphs_.erase(g);
  }
  std::size_t live() const { return graphs_.size(); }

 private:
  bool capturing_ = false;
  std::vector<GraphOp> graph_;
  std::map<std::size_t, std::vector<GraphOp>> graphs_;
  std::size_t next_ = 0;
};

GraphOp kernel(std::uintptr_t f, int v) {
  GraphOp op;
  op.func = reinterpret_cast<const void*>(f);
  op.params.resize(sizeof v);
  std::memcpy(op.params.data(), &v, sizeof v);
  op.sizes = {sizeof v};
  return op;
}

GraphOp library(const std::string& key) {
  GraphOp op;
  op.key = key;
  op.call = [] {};
  return op;
}

// A "step": kernels 1..4 and a library call, kernel 2 taking the time `t`.
void step(StepGraphs& g, int t, int reg = 0) {
  g.add(kernel(1, 10 + reg));
  g.add(kernel(2, t));
  g.add(library("gemm r" + std::to_string(reg)));
  g.add(kernel(3, 30 + reg));
  g.add(kernel(4, 40 + reg));
  g.flush();
}

}  // namespace

TEST_CASE("step graphs: first run direct, second captured, then replayed with updated nodes") {
  FakeDriver on, off;
  StepGraphs g(on, true), plain(off, false);
  for (int t = 0; t < 6; ++t) {
    step(g, t);
    step(plain, t);
    if (t == 0) CHECK(on.captures == 0);  // direct: set-up outside a capture
    if (t == 1) CHECK(on.captures == 1);
  }
  CHECK(on.log == off.log);  // the same work, in the same order
  CHECK(on.captures == 1);
  CHECK(on.launches == 5);
  CHECK(on.updates == 4);  // kernel 2's time, steps 2 to 5; nothing else changed
  CHECK(g.stats().replays == 5);
  CHECK(g.stats().graph_ops == 25);
  CHECK(g.stats().ops == 30);
  CHECK(off.captures == 0);
  CHECK(plain.stats().direct == 30);
}

TEST_CASE("step graphs: other sequences are other segments, register rotations get variants") {
  FakeDriver on, off;
  StepGraphs g(on, true), plain(off, false);
  for (int t = 0; t < 12; ++t) {
    step(g, t, t % 2);  // even and odd steps on other registers: every kernel node differs
    step(plain, t, t % 2);
    // A plugin's segment now and then: another op sequence.
    if (t % 3 == 0)
      for (auto* s : {&g, &plain}) {
        s->add(kernel(7, t));
        s->add(kernel(8, t));
        s->flush();
      }
  }
  CHECK(on.log == off.log);
  // The two register patterns differ by their library key: two segments, each captured once.
  // The plugin segment: once direct, then captured.
  CHECK(on.captures == 3);
  // The time in the four replays of each step segment; both plugin kernels in its two replays.
  CHECK(on.updates == 4 + 4 + 2 * 2);
}

TEST_CASE("step graphs: many changed nodes make a variant, up to the limit") {
  FakeDriver on, off;
  StepGraphs g(on, true), plain(off, false);
  // 16 kernels whose parameters all change from one round to the next in a cycle of 6.
  for (int r = 0; r < 20; ++r)
    for (auto* s : {&g, &plain}) {
      for (int k = 0; k < 16; ++k) s->add(kernel(100 + std::uintptr_t(k), k + 100 * (r % 6)));
      s->flush();
    }
  CHECK(on.log == off.log);
  CHECK(on.captures == int(StepGraphs::kMaxVariants));
  CHECK(on.live() == StepGraphs::kMaxVariants);
}

TEST_CASE("step graphs: a failed capture turns graphs off and the work is still done") {
  FakeDriver on, off;
  on.fail_capture = true;
  StepGraphs g(on, true), plain(off, false);
  for (int t = 0; t < 4; ++t) {
    step(g, t);
    step(plain, t);
  }
  CHECK(on.log == off.log);
  CHECK_FALSE(g.enabled());
  CHECK(g.disabled_reason() == "cannot capture");
  CHECK(on.launches == 0);
}

TEST_CASE("step graphs: single launches run direct, clear() and eviction destroy graphs") {
  FakeDriver on;
  {
    StepGraphs g(on, true);
    for (int i = 0; i < 3; ++i) {
      g.add(kernel(9, i));
      g.flush();
    }
    CHECK(on.captures == 0);
    CHECK(g.stats().direct == 3);
    // More segments than the cache keeps: the least recently used go.
    for (std::uintptr_t f = 0; f < StepGraphs::kMaxSegments + 5; ++f)
      for (int rep = 0; rep < 2; ++rep) {
        g.add(kernel(1000 + f, 1));
        g.add(kernel(2000 + f, 2));
        g.flush();
      }
    CHECK(on.live() <= StepGraphs::kMaxSegments);
    CHECK(on.destroyed >= 5);
    g.add(kernel(5, 1));
    g.add(kernel(6, 1));  // left pending: the destructor runs it
  }
  CHECK(on.log.back() == "f6(1)");
  CHECK(on.live() == 0);
}
