SetFactory("OpenCASCADE");
Disk(1) = {0,0,0, 0.5};
Mesh.CharacteristicLengthMax = 0.4;
Physical Surface("fluid") = {1};
Physical Curve("wall") = {1};
