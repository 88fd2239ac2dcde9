#include "solver/config/expression.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <numbers>
#include <stdexcept>

#include "base/error.hpp"
#include "base/literal.hpp"
#include "kernels/matmul/analysis.hpp"

namespace frmini::config {

// A tiny AST: numbers, variables, unary minus, binary operators and calls.
struct ExprNode {
  enum Kind { number, variable, negate, add, sub, mul, div, pow, call } kind;
  double value = 0;
  std::string name;  // variable or function
  std::vector<std::shared_ptr<const ExprNode>> args;
};

namespace {
// a^b. Squares are the common power in expressions (kinetic energy, enstrophy) and are
// evaluated at every point of a mesh by the plugins: one multiplication, not a pow call.
double power(double a, double b) { return b == 2.0 ? a * a : std::pow(a, b); }


using Node = std::shared_ptr<const ExprNode>;

struct Function {
  int nargs;
  std::function<double(const std::vector<double>&)> eval;
  const char* c_name;
};

const std::map<std::string, Function>& functions() {
  static const std::map<std::string, Function> f = {
      {"sin", {1, [](auto& a) { return std::sin(a[0]); }, "sin"}},
      {"cos", {1, [](auto& a) { return std::cos(a[0]); }, "cos"}},
      {"tan", {1, [](auto& a) { return std::tan(a[0]); }, "tan"}},
      {"asin", {1, [](auto& a) { return std::asin(a[0]); }, "asin"}},
      {"acos", {1, [](auto& a) { return std::acos(a[0]); }, "acos"}},
      {"atan", {1, [](auto& a) { return std::atan(a[0]); }, "atan"}},
      {"atan2", {2, [](auto& a) { return std::atan2(a[0], a[1]); }, "atan2"}},
      {"sinh", {1, [](auto& a) { return std::sinh(a[0]); }, "sinh"}},
      {"cosh", {1, [](auto& a) { return std::cosh(a[0]); }, "cosh"}},
      {"tanh", {1, [](auto& a) { return std::tanh(a[0]); }, "tanh"}},
      {"exp", {1, [](auto& a) { return std::exp(a[0]); }, "exp"}},
      {"log", {1, [](auto& a) { return std::log(a[0]); }, "log"}},
      {"log10", {1, [](auto& a) { return std::log10(a[0]); }, "log10"}},
      {"sqrt", {1, [](auto& a) { return std::sqrt(a[0]); }, "sqrt"}},
      {"abs", {1, [](auto& a) { return std::fabs(a[0]); }, "fabs"}},
      {"floor", {1, [](auto& a) { return std::floor(a[0]); }, "floor"}},
      {"ceil", {1, [](auto& a) { return std::ceil(a[0]); }, "ceil"}},
      {"pow", {2, [](auto& a) { return std::pow(a[0], a[1]); }, "pow"}},
      {"min", {2, [](auto& a) { return std::fmin(a[0], a[1]); }, "fmin"}},
      {"max", {2, [](auto& a) { return std::fmax(a[0], a[1]); }, "fmax"}},
  };
  return f;
}

Node make(ExprNode::Kind k, std::vector<Node> args = {}, double v = 0, std::string name = "") {
  auto n = std::make_shared<ExprNode>();
  n->kind = k;
  n->value = v;
  n->name = std::move(name);
  n->args = std::move(args);
  return n;
}

// Recursive descent over
//   expr  := term (('+'|'-') term)*
//   term  := unary (('*'|'/') unary)*
//   unary := ('-'|'+') unary | power
//   power := primary (('^'|'**') unary)?        (right-associative, binds tighter than unary
//                                                on its left: -x^2 = -(x^2))
//   primary := number | name | name '(' expr (',' expr)* ')' | '(' expr ')'
class Parser {
 public:
  Parser(const std::string& s, const std::vector<std::string>& vars,
         const std::map<std::string, double>& consts, const std::string& where)
      : s_(s), vars_(vars), consts_(consts), where_(where) {}

  Node parse() {
    if (s_.find_first_not_of(" \t") == std::string::npos) fail("empty expression");
    Node n = expr();
    skip();
    if (i_ < s_.size()) fail(std::string("unexpected '") + s_[i_] + "'");
    return n;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw UserError(where_ + ": " + what + " at column " + std::to_string(i_ + 1) + " in '" +
                    s_ + "'");
  }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(const char* tok) {
    skip();
    size_t n = std::char_traits<char>::length(tok);
    if (s_.compare(i_, n, tok) == 0) {
      // '*' must not swallow the first half of '**'
      if (n == 1 && tok[0] == '*' && s_.compare(i_, 2, "**") == 0) return false;
      i_ += n;
      return true;
    }
    return false;
  }
  Node expr() {
    Node l = term();
    for (;;) {
      if (eat("+")) l = make(ExprNode::add, {l, term()});
      else if (eat("-")) l = make(ExprNode::sub, {l, term()});
      else return l;
    }
  }
  Node term() {
    Node l = unary();
    for (;;) {
      if (eat("*")) l = make(ExprNode::mul, {l, unary()});
      else if (eat("/")) l = make(ExprNode::div, {l, unary()});
      else return l;
    }
  }
  Node unary() {
    if (eat("-")) return make(ExprNode::negate, {unary()});
    if (eat("+")) return unary();
    return power();
  }
  Node power() {
    Node b = primary();
    if (eat("**") || eat("^")) return make(ExprNode::pow, {b, unary()});
    return b;
  }
  Node primary() {
    skip();
    if (i_ >= s_.size()) fail("expression ends too early");
    char c = s_[i_];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      const char* begin = s_.c_str() + i_;
      char* end = nullptr;
      double v = std::strtod(begin, &end);
      if (end == begin) fail("bad number");
      i_ += size_t(end - begin);
      return make(ExprNode::number, {}, v);
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t b = i_;
      while (i_ < s_.size() &&
             (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_'))
        ++i_;
      std::string name = s_.substr(b, i_ - b);
      if (eat("(")) return call(name, b);
      if (std::find(vars_.begin(), vars_.end(), name) != vars_.end())
        return make(ExprNode::variable, {}, 0, name);
      if (auto it = consts_.find(name); it != consts_.end())
        return make(ExprNode::number, {}, it->second);
      if (name == "pi") return make(ExprNode::number, {}, std::numbers::pi);
      i_ = b;
      std::string known;
      for (const auto& v : vars_) known += (known.empty() ? "" : ", ") + v;
      fail("unknown name '" + name + "' (variables: " + known +
           "; constants come from [constants])");
    }
    if (eat("(")) {
      Node n = expr();
      if (!eat(")")) fail("missing ')'");
      return n;
    }
    fail(std::string("unexpected '") + c + "'");
  }
  Node call(const std::string& name, size_t at) {
    auto it = functions().find(name);
    if (it == functions().end()) {
      i_ = at;
      fail("unknown function '" + name + "'");
    }
    std::vector<Node> args;
    if (!eat(")")) {
      do args.push_back(expr());
      while (eat(","));
      if (!eat(")")) fail("missing ')' after the arguments of " + name);
    }
    if (int(args.size()) != it->second.nargs) {
      i_ = at;
      fail(name + "() takes " + std::to_string(it->second.nargs) + " argument(s), got " +
           std::to_string(args.size()));
    }
    return make(ExprNode::call, std::move(args), 0, name);
  }

  const std::string& s_;
  const std::vector<std::string>& vars_;
  const std::map<std::string, double>& consts_;
  std::string where_;
  size_t i_ = 0;
};

double eval_node(const ExprNode& n, const std::map<std::string, double>& vars) {
  auto a = [&](size_t i) { return eval_node(*n.args[i], vars); };
  switch (n.kind) {
    case ExprNode::number: return n.value;
    case ExprNode::variable: {
      auto it = vars.find(n.name);
      if (it == vars.end()) throw std::logic_error("expression variable unbound: " + n.name);
      return it->second;
    }
    case ExprNode::negate: return -a(0);
    case ExprNode::add: return a(0) + a(1);
    case ExprNode::sub: return a(0) - a(1);
    case ExprNode::mul: return a(0) * a(1);
    case ExprNode::div: return a(0) / a(1);
    case ExprNode::pow: return power(a(0), a(1));
    case ExprNode::call: {
      std::vector<double> v;
      for (size_t i = 0; i < n.args.size(); ++i) v.push_back(a(i));
      return functions().at(n.name).eval(v);
    }
  }
  return 0;
}

std::string c_node(const ExprNode& n, kernels::Precision p) {
  auto a = [&](size_t i) { return c_node(*n.args[i], p); };
  switch (n.kind) {
    case ExprNode::number:
      return "(" + frmini::literal(n.value, p == kernels::Precision::single) + ")";
    case ExprNode::variable: return n.name;
    case ExprNode::negate: return "(-" + a(0) + ")";
    case ExprNode::add: return "(" + a(0) + " + " + a(1) + ")";
    case ExprNode::sub: return "(" + a(0) + " - " + a(1) + ")";
    case ExprNode::mul: return "(" + a(0) + " * " + a(1) + ")";
    case ExprNode::div: return "(" + a(0) + " / " + a(1) + ")";
    case ExprNode::pow: return "pow(" + a(0) + ", " + a(1) + ")";
    case ExprNode::call: {
      std::string s = std::string(functions().at(n.name).c_name) + "(";
      for (size_t i = 0; i < n.args.size(); ++i) s += (i ? ", " : "") + a(i);
      return s + ")";
    }
  }
  return "";
}

bool uses_node(const ExprNode& n, const std::string& name) {
  if (n.kind == ExprNode::variable && n.name == name) return true;
  for (const auto& c : n.args)
    if (uses_node(*c, name)) return true;
  return false;
}

}  // namespace

Expression Expression::parse(const std::string& text, const std::vector<std::string>& variables,
                             const std::map<std::string, double>& constants,
                             const std::string& where) {
  Expression e;
  e.text_ = text;
  e.root_ = Parser(text, variables, constants, where).parse();
  return e;
}

double Expression::eval(const std::map<std::string, double>& vars) const {
  return eval_node(*root_, vars);
}

namespace {
using Evaluator = std::function<double(const std::vector<double>&)>;

void emit(const ExprNode& n, const std::vector<std::string>& slots,
          std::vector<BoundExpression::Op>& prog);
}  // namespace

BoundExpression Expression::bind(const std::vector<std::string>& slots) const {
  BoundExpression b;
  emit(*root_, slots, b.prog_);
  return b;
}

double BoundExpression::operator()(const double* values) const {
  double stack[64];
  int sp = 0;
  for (const auto& op : prog_) {
    switch (op.kind) {
      case ExprNode::number: stack[sp++] = op.value; break;
      case ExprNode::variable: stack[sp++] = values[op.slot]; break;
      case ExprNode::negate: stack[sp - 1] = -stack[sp - 1]; break;
      case ExprNode::add: --sp, stack[sp - 1] += stack[sp]; break;
      case ExprNode::sub: --sp, stack[sp - 1] -= stack[sp]; break;
      case ExprNode::mul: --sp, stack[sp - 1] *= stack[sp]; break;
      case ExprNode::div: --sp, stack[sp - 1] /= stack[sp]; break;
      case ExprNode::pow: --sp, stack[sp - 1] = power(stack[sp - 1], stack[sp]); break;
      case ExprNode::call: {
        std::vector<double> a(stack + sp - op.nargs, stack + sp);
        sp -= op.nargs;
        stack[sp++] = (*static_cast<const Evaluator*>(op.fn))(a);
        break;
      }
    }
  }
  return stack[0];
}

namespace {
// Postfix order: arguments first. The stack depth is the tree's, checked here against the
// evaluator's fixed stack.
int emit_node(const ExprNode& n, const std::vector<std::string>& slots,
              std::vector<BoundExpression::Op>& prog) {
  int depth = 0, i = 0;
  for (const auto& c : n.args) depth = std::max(depth, i++ + emit_node(*c, slots, prog));
  BoundExpression::Op op{int(n.kind), n.value, -1, int(n.args.size()), nullptr};
  if (n.kind == ExprNode::variable) {
    auto it = std::find(slots.begin(), slots.end(), n.name);
    if (it == slots.end()) throw std::logic_error("expression variable unbound: " + n.name);
    op.slot = int(it - slots.begin());
  }
  if (n.kind == ExprNode::call) op.fn = &functions().at(n.name).eval;
  prog.push_back(op);
  return std::max(depth, 1);
}

void emit(const ExprNode& n, const std::vector<std::string>& slots,
          std::vector<BoundExpression::Op>& prog) {
  if (emit_node(n, slots, prog) > 64)
    throw std::runtime_error("expression nested too deeply to evaluate (over 64 levels)");
}
}  // namespace

std::string Expression::to_c(kernels::Precision p) const { return c_node(*root_, p); }

bool Expression::uses(const std::string& name) const { return uses_node(*root_, name); }

}  // namespace frmini::config
