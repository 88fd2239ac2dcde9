// Internal to render/: VTK reports failures through its output window (several lines on stderr)
// and carries on. An ErrorWatch observes the error events of the objects it is given, which
// also keeps VTK from printing them, and turns the first one into a one-line UserError.
#pragma once

#include <algorithm>
#include <string>

#include <vtkAlgorithm.h>
#include <vtkCallbackCommand.h>
#include <vtkCommand.h>
#include <vtkExecutive.h>
#include <vtkSmartPointer.h>

#include "base/error.hpp"

namespace frmini::render::detail {

class ErrorWatch {
 public:
  ErrorWatch() {
    cb_->SetClientData(this);
    cb_->SetCallback([](vtkObject*, unsigned long, void* self, void* msg) {
      auto* w = static_cast<ErrorWatch*>(self);
      if (w->message_.empty()) w->message_ = msg ? static_cast<const char*>(msg) : "VTK error";
    });
  }
  ErrorWatch(const ErrorWatch&) = delete;
  ErrorWatch& operator=(const ErrorWatch&) = delete;

  void watch(vtkObject* o) {
    o->AddObserver(vtkCommand::ErrorEvent, cb_);
    o->AddObserver(vtkCommand::WarningEvent, quiet_);
  }
  // An algorithm and its executive (which reports "returned failure" on its own).
  void watch(vtkAlgorithm* a) {
    watch(static_cast<vtkObject*>(a));
    watch(static_cast<vtkObject*>(a->GetExecutive()));
  }
  bool failed() const { return !message_.empty(); }
  // UserError "<what>: <VTK's first error, on one line>" if any was seen.
  void check(const std::string& what) const {
    if (message_.empty()) return;
    std::string m = message_;
    std::replace(m.begin(), m.end(), '\n', ' ');
    if (m.size() > 300) m = m.substr(0, 300) + "...";
    throw UserError(what + ": " + m);
  }

 private:
  vtkSmartPointer<vtkCallbackCommand> cb_ = vtkSmartPointer<vtkCallbackCommand>::New();
  vtkSmartPointer<vtkCallbackCommand> quiet_ = vtkSmartPointer<vtkCallbackCommand>::New();
  std::string message_;
};

}  // namespace frmini::render::detail
