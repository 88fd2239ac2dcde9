// The one-rank communicator: collectives are identities, a message to oneself is a copy.
#pragma once

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/comm/comm.hpp"

namespace frmini::solver::comm {

class SingleRank : public Comm {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void sum(double*, std::size_t) override {}
  void max(double*, std::size_t) override {}
  void broadcast(std::string&, int) override {}
  std::vector<std::string> gather(const std::string& bytes) override { return {bytes}; }
  void post(const std::vector<Message>& sends, const std::vector<Message>& recvs) override {
    if (sends.size() != recvs.size()) throw std::logic_error("comm: one rank sends only to itself");
    for (std::size_t k = 0; k < sends.size(); ++k) {
      if (sends[k].peer != 0 || recvs[k].peer != 0 || sends[k].bytes != recvs[k].bytes)
        throw std::logic_error("comm: one rank sends only to itself, as much as it receives");
      std::memcpy(recvs[k].data, sends[k].data, sends[k].bytes);
    }
  }
  void wait() override {}
  void barrier() override {}
  [[noreturn]] void abort(int status) override { std::exit(status); }
};

}  // namespace frmini::solver::comm
