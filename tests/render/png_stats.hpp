// Test support for render/: what a PNG holds, read back with VTK's reader.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>

#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPNGReader.h>
#include <vtkPointData.h>
#include <vtkUnsignedCharArray.h>

namespace frmini::test {

struct PngStats {
  int width = 0, height = 0;
  std::size_t colours = 0;  // distinct RGB values
  double coloured = 0;      // fraction of pixels with max - min channel > 60 (not grey/white)
  double reddish = 0;       // fraction with r > b + 60
  double bluish = 0;        // fraction with b > r + 60
  double dark_grey = 0;     // fraction of grey pixels darker than 100 (a body drawn dark)
};

inline PngStats png_stats(const std::string& path) {
  vtkNew<vtkPNGReader> reader;
  reader->SetFileName(path.c_str());
  reader->Update();
  PngStats s;
  auto* img = reader->GetOutput();
  int dims[3];
  img->GetDimensions(dims);
  s.width = dims[0];
  s.height = dims[1];
  auto* px = vtkUnsignedCharArray::SafeDownCast(img->GetPointData()->GetScalars());
  if (!px || px->GetNumberOfComponents() < 3) return s;
  std::set<int> colours;
  const vtkIdType n = px->GetNumberOfTuples();
  for (vtkIdType i = 0; i < n; ++i) {
    const int r = px->GetValue(i * px->GetNumberOfComponents());
    const int g = px->GetValue(i * px->GetNumberOfComponents() + 1);
    const int b = px->GetValue(i * px->GetNumberOfComponents() + 2);
    colours.insert((r << 16) | (g << 8) | b);
    const int hi = std::max({r, g, b}), lo = std::min({r, g, b});
    if (hi - lo > 60) s.coloured += 1;
    if (r > b + 60) s.reddish += 1;
    if (b > r + 60) s.bluish += 1;
    if (hi - lo < 20 && hi < 100) s.dark_grey += 1;
  }
  s.colours = colours.size();
  s.coloured /= double(n);
  s.reddish /= double(n);
  s.bluish /= double(n);
  s.dark_grey /= double(n);
  return s;
}

}  // namespace frmini::test
