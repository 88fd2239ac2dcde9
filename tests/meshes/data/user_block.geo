// A user's 3D mesh, written by hand for the gmsh binary (not by frmini): the block
// [0,2] x [0,1] x [0,0.5] with a round hole of radius 0.2 along z at (0.6, 0.5); curved
// second-order tets, MSH 2.2. Volume: 1 - 0.5 pi 0.2^2.
// Regenerate with: gmsh -3 -order 2 -format msh22 user_block.geo -o user_block.msh
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 2, 1, 0.5};
Cylinder(2) = {0.6, 0.5, 0, 0, 0, 0.5, 0.2};
BooleanDifference(3) = { Volume{1}; Delete; }{ Volume{2}; Delete; };
Mesh.MeshSizeMax = 0.25;
Mesh.MeshSizeFromCurvature = 12;  // elements per 2 pi around the hole
Mesh.HighOrderOptimize = 2;        // untangle curved tets (gmsh can invert some)
e = 1e-6;
Physical Volume("Solid Block") = {3};
Physical Surface("Hole") = Surface In BoundingBox{0.4 - e, 0.3 - e, -e, 0.8 + e, 0.7 + e, 0.5 + e};
Physical Surface("Inflow") = Surface In BoundingBox{-e, -e, -e, e, 1 + e, 0.5 + e};
Physical Surface("Outflow") = Surface In BoundingBox{2 - e, -e, -e, 2 + e, 1 + e, 0.5 + e};
Physical Surface("Sides") = {Surface In BoundingBox{-e, -e, -e, 2 + e, e, 0.5 + e},
                             Surface In BoundingBox{-e, 1 - e, -e, 2 + e, 1 + e, 0.5 + e}};
Physical Surface("Bottom") = Surface In BoundingBox{-e, -e, -e, 2 + e, 1 + e, e};
Physical Surface("Top") = Surface In BoundingBox{-e, -e, 0.5 - e, 2 + e, 1 + e, 0.5 + e};
