// User expressions (initial conditions, boundary states, source terms) such as
//     rho = "1 - 0.1*exp(-(x*x + y*y)/Rc^2)"
// are parsed once on the host, checked (unknown names, bad syntax, wrong argument counts), and
// then either evaluated on the host or rendered as C source that every backend compiles —
// constants are substituted as literals, the way GiMMiK embeds matrix entries.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kernels/precision.hpp"

namespace frmini::config {

class BoundExpression;

struct ExprNode;

class Expression {
 public:
  // Parses `text`. Names may be the `variables` (rendered as themselves, bound at evaluation)
  // or keys of `constants` (substituted by value), plus the built-in constant `pi`.
  // Errors throw UserError("<where>: <problem> in '<text>'").
  static Expression parse(const std::string& text, const std::vector<std::string>& variables,
                          const std::map<std::string, double>& constants,
                          const std::string& where);

  // Evaluates with the variables bound in `vars` (missing variables are an internal error).
  double eval(const std::map<std::string, double>& vars) const;
  // The same expression with each variable resolved once to its index in `slots`, for
  // evaluating at many points without looking names up (a variable not in `slots` is an
  // internal error).
  BoundExpression bind(const std::vector<std::string>& slots) const;
  // C source (valid in C99 with <math.h>, OpenCL C and CUDA): variables appear by name,
  // numbers as literals of precision `p`, functions as the C library's (double names; the
  // backends' preludes make them type-generic where the data is float).
  std::string to_c(kernels::Precision p) const;
  const std::string& text() const { return text_; }
  // True when the expression uses variable `name`.
  bool uses(const std::string& name) const;

 private:
  std::shared_ptr<const ExprNode> root_;
  std::string text_;
};

// An expression as a postfix program over a value array (Expression::bind): evaluates to the
// same value as Expression::eval with the same bindings.
class BoundExpression {
 public:
  double operator()(const double* values) const;

  struct Op {
    int kind;      // ExprNode::Kind
    double value;  // number
    int slot;      // variable
    int nargs;     // call
    const void* fn;  // call: the function's evaluator
  };

 private:
  friend class Expression;
  std::vector<Op> prog_;
};

}  // namespace frmini::config
