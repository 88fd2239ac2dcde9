// Jacobi polynomials P_n^{(a,b)}(z) by PyFR's three-term recurrence (pyfr/polys.py `jacobi`),
// and their analytic derivatives d/dz P_n^{(a,b)} = (n+a+b+1)/2 · P_{n−1}^{(a+1,b+1)}.
// Same arithmetic order as PyFR so the bases agree to the last bits.
#pragma once

#include <vector>

namespace frmini::operators {

// {P_0, ..., P_n} at z; empty for n < 0.
std::vector<double> jacobi(int n, double a, double b, double z);
// {P_0', ..., P_n'} at z; empty for n < 0.
std::vector<double> jacobi_diff(int n, double a, double b, double z);

}  // namespace frmini::operators
