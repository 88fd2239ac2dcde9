// Parsing the user's "field=value" isosurface specs and "field[:component]" colour choices.
// Pure C++ (no VTK), so it is compiled in every build and a malformed option is reported the
// same way with or without VTK.
#pragma once

#include <string>
#include <string_view>

namespace frmini::render {

// A scalar taken from a point-data array: the array itself when it has one component; for a
// vector, its magnitude (component -1, the default) or one component ("velocity:y").
struct FieldChoice {
  std::string array;   // point-data array name, e.g. "velocity"
  int component = -1;  // 0, 1, 2 for :x :y :z; -1 for the magnitude (or a scalar array)
  std::string label() const;  // "velocity (magnitude)", "vorticity (z)", "rho"
};

// "name", "name:x|y|z", "name:mag". `what` starts the one-line UserError: the option and its
// value as the user wrote them, e.g. "--color-by 'mach:q'".
FieldChoice parse_field_choice(std::string_view text, std::string_view what);

// One isosurface request: the field (as in FieldChoice) and the value.
struct IsoSpec {
  FieldChoice field;
  double value = 0;
  std::string text;  // the spec as given, "qcrit=0.5", for messages and the file's spec list
};

// "field=value" (e.g. "qcrit=0.5", "velocity=0.3", "vorticity:z=-1e-2"); UserError when
// malformed.
IsoSpec parse_iso_spec(std::string_view spec);

}  // namespace frmini::render
