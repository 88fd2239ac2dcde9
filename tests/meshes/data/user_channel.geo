// A user's mesh, written by hand for the gmsh binary (not by frmini): a channel
// [0,4] x [0,2] with a round hole of radius 0.25 at (1,1); triangles around the hole, quads in
// the right half; second order, so the hole is curved. Area: 8 - pi/16.
// Regenerate with: gmsh -2 -order 2 -format msh41 user_channel.geo -o user_channel.msh
SetFactory("Built-in");
h = 0.2;
Point(1) = {0, 0, 0, h}; Point(2) = {2, 0, 0, h}; Point(3) = {4, 0, 0, h};
Point(4) = {4, 2, 0, h}; Point(5) = {2, 2, 0, h}; Point(6) = {0, 2, 0, h};
Point(10) = {1, 1, 0, h}; Point(11) = {1.25, 1, 0, h/3}; Point(12) = {1, 1.25, 0, h/3};
Point(13) = {0.75, 1, 0, h/3}; Point(14) = {1, 0.75, 0, h/3};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 5}; Line(5) = {5, 6};
Line(6) = {6, 1}; Line(7) = {2, 5};
Circle(11) = {11, 10, 12}; Circle(12) = {12, 10, 13}; Circle(13) = {13, 10, 14};
Circle(14) = {14, 10, 11};
Curve Loop(1) = {1, 7, 5, 6}; Curve Loop(2) = {11, 12, 13, 14}; Curve Loop(3) = {2, 3, 4, -7};
Plane Surface(1) = {1, 2};
Plane Surface(2) = {3};
Transfinite Curve{2, 4} = 11; Transfinite Curve{3, 7} = 11;
Transfinite Surface{2};
Recombine Surface{2};
Physical Surface("Fluid") = {1, 2};
Physical Curve("Inlet") = {6};
Physical Curve("Outlet") = {3};
Physical Curve("Walls") = {1, 2, 4, 5};
Physical Curve("Hole") = {11, 12, 13, 14};
