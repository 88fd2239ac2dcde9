// PyFR's 2D Couette flow channel for the distributed runs' tests (tests/solver/comm/mpi-run.sh):
// [-1, 1] x [0, 1], periodic in x (PyFR's periodic_<id>_l/_r naming), isothermal walls
// 'bottom' (at rest) and 'top' (moving); quads in the lower half, triangles in the upper, so
// the parts' shared faces join quads to quads, triangles to triangles and quads to triangles.
// Regenerate with: gmsh -2 -format msh41 couette.geo -o couette.msh
SetFactory("Built-in");
Point(1) = {-1, 0, 0}; Point(2) = {1, 0, 0}; Point(3) = {1, 0.5, 0};
Point(4) = {-1, 0.5, 0}; Point(5) = {1, 1, 0}; Point(6) = {-1, 1, 0};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};
Line(5) = {3, 5}; Line(6) = {5, 6}; Line(7) = {6, 4};
Curve Loop(1) = {1, 2, 3, 4};
Curve Loop(2) = {5, 6, 7, -3};
Plane Surface(1) = {1};
Plane Surface(2) = {2};
Transfinite Curve{1, 3, 6} = 9;
Transfinite Curve{2, 4, 5, 7} = 4;
Transfinite Surface{1};
Recombine Surface{1};
Physical Surface("fluid") = {1, 2};
Physical Curve("bottom") = {1};
Physical Curve("top") = {6};
Physical Curve("periodic_0_l") = {4, 7};
Physical Curve("periodic_0_r") = {2, 5};
