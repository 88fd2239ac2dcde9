// CUDA graphs for the work a step enqueues, without the solver knowing: with graphs on, the
// backend defers every launch (kernels, and library calls such as cuBLAS's) into a segment
// and runs the segment at the next point where the host waits or moves data (a download, an
// upload, a synchronize, a timing). A segment seen before, op for op (the same functions,
// launch shapes and library calls), is replayed as one graph launch, after the kernel nodes
// whose arguments changed (a time, a step size, another register) are updated in place; a
// segment seen for the second time is captured (the first run is direct, so that libraries
// finish their lazy set-up outside a capture). A step of an explicit scheme is one or two
// segments, so the GPU runs it without the gaps of one host launch a kernel.
//
// This file is the bookkeeping alone, apart from the driver (Executor), so that it is tested
// on any machine; backend.cpp gives it the driver's stream, capture and graph calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace frmini::kernels::cuda {

// One launch as the backend was asked for it.
struct GraphOp {
  // A kernel: its function (a CUfunction), launch shape and parameters' bytes back to back.
  const void* func = nullptr;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  std::vector<unsigned char> params;
  std::vector<std::size_t> sizes;  // each parameter's size in `params`
  // A library call (func == nullptr): a key naming it with every operand (two calls with one
  // key must do the same work), and the call, made on the backend's stream.
  std::string key;
  std::function<void()> call;

  bool is_kernel() const { return func != nullptr; }
};

class StepGraphs {
 public:
  // What the bookkeeping needs from the driver. Graph ids are the executor's own.
  class Executor {
   public:
    virtual ~Executor() = default;
    // Runs the op on the stream now (while capturing: records it).
    virtual void issue(const GraphOp& op) = 0;
    virtual void begin_capture() = 0;
    // Ends the capture and instantiates it; its kernel nodes in the order of the kernel ops
    // issued since begin_capture.
    virtual std::size_t end_capture() = 0;
    // Ends a capture that failed, discarding it.
    virtual void abort_capture() = 0;
    // Kernel node `node` (among the kernel ops, in order) of graph `graph` takes op's
    // function, shape and parameters.
    virtual void set_params(std::size_t graph, std::size_t node, const GraphOp& op) = 0;
    virtual void launch(std::size_t graph) = 0;
    virtual void destroy(std::size_t graph) = 0;
  };

  struct Stats {
    int64_t ops = 0;          // launches asked for
    int64_t direct = 0;       // of them issued one by one
    int64_t replays = 0;      // graph launches
    int64_t captures = 0;     // graphs captured
    int64_t updates = 0;      // kernel nodes updated before a replay
    int64_t graph_ops = 0;    // launches that ran inside a graph
  };

  StepGraphs(Executor& x, bool enabled) : x_(x), enabled_(enabled) {}
  ~StepGraphs();
  StepGraphs(const StepGraphs&) = delete;
  StepGraphs& operator=(const StepGraphs&) = delete;

  bool enabled() const { return enabled_; }
  // Graphs on: the op joins the segment; off: it is issued now.
  void add(GraphOp op);
  // Runs the segment: as a graph when seen before, else op by op.
  void flush();
  // Forgets every graph (a module unloaded: its functions may be reused by others).
  void clear();
  const Stats& stats() const { return stats_; }
  // Why graphs were turned off after a failed capture ("" while they work).
  const std::string& disabled_reason() const { return why_off_; }

  // A segment's graphs: variants of one op sequence captured with other arguments.
  static constexpr std::size_t kMaxVariants = 4;
  static constexpr std::size_t kMaxSegments = 32;

 private:
  struct Variant {
    std::size_t graph;
    std::vector<std::vector<unsigned char>> params;  // per kernel op, as the graph has them
  };
  struct Segment {
    int seen = 0;
    std::vector<Variant> variants;
    int64_t used = 0;  // for evicting the least recently used
  };
  static std::string signature(const std::vector<GraphOp>& ops);
  void capture(Segment& s, const std::vector<GraphOp>& ops);
  void replay(Segment& s, const std::vector<GraphOp>& ops);
  void issue_all(const std::vector<GraphOp>& ops);
  void evict();

  Executor& x_;
  bool enabled_;
  std::string why_off_;
  std::vector<GraphOp> pending_;
  std::map<std::string, Segment> segments_;
  int64_t clock_ = 0;
  Stats stats_;
};

}  // namespace frmini::kernels::cuda
