// Atomic VTK XML writers: each file goes to a temporary name and is renamed when complete.
#include <charconv>

#include <vtkIndent.h>
#include <vtkCallbackCommand.h>
#include <vtkCommand.h>
#include <vtkErrorCode.h>
#include <vtkExecutive.h>
#include <vtkNew.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLPolyDataWriter.h>
#include <vtkXMLUnstructuredGridWriter.h>
#include <vtkXMLUtilities.h>

#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "solver/export/export_vtk.hpp"

namespace frmini::solver::exporter {

namespace {

template <class Writer, class Data>
void write_xml(const std::string& path, Data* data) {
  write_atomically(path, [&](const std::filesystem::path& tmp) {
    vtkNew<Writer> w;
    // A failed write (a full disk) is said below in one line; VTK's own report of it, several
    // lines from the writer and its executive, is observed and dropped.
    vtkNew<vtkCallbackCommand> quiet;
    for (vtkObject* o : {static_cast<vtkObject*>(w.Get()), static_cast<vtkObject*>(w->GetExecutive())})
      o->AddObserver(vtkCommand::ErrorEvent, quiet);
    w->SetFileName(tmp.string().c_str());
    w->SetInputData(data);
    w->SetDataModeToAppended();
    w->EncodeAppendedDataOff();  // raw binary: smaller and faster than base64
    w->SetCompressorTypeToZLib();
    if (w->Write() != 1 || w->GetErrorCode() != vtkErrorCode::NoError)
      throw UserError(path + ": cannot write the VTK file (" +
                      vtkErrorCode::GetStringFromErrorCode(w->GetErrorCode()) + ")");
  });
}

}  // namespace

bool have_vtk() { return true; }

void write_vtu(const std::string& path, vtkUnstructuredGrid* grid) {
  write_xml<vtkXMLUnstructuredGridWriter>(path, grid);
}

void write_vtp(const std::string& path, vtkPolyData* poly) {
  write_xml<vtkXMLPolyDataWriter>(path, poly);
}

void write_pvd(const std::string& path, const std::vector<PvdEntry>& entries) {
  vtkNew<vtkXMLDataElement> root;
  root->SetName("VTKFile");
  root->SetAttribute("type", "Collection");
  root->SetAttribute("version", "0.1");
  root->SetAttribute("byte_order", "LittleEndian");
  vtkNew<vtkXMLDataElement> coll;
  coll->SetName("Collection");
  for (const auto& en : entries) {
    vtkNew<vtkXMLDataElement> ds;
    ds->SetName("DataSet");
    char t[32];
    // Shortest text that reads back as the same double: the solution's exact time.
    *std::to_chars(t, t + sizeof t - 1, en.time).ptr = '\0';
    ds->SetAttribute("timestep", t);
    ds->SetAttribute("group", "");
    ds->SetAttribute("part", "0");
    ds->SetAttribute("file", en.file.c_str());
    coll->AddNestedElement(ds);
  }
  root->AddNestedElement(coll);
  write_atomically(path, [&](const std::filesystem::path& tmp) {
    vtkIndent indent;  // one element per line, for people reading the file
    if (!vtkXMLUtilities::WriteElementToFile(root, tmp.string().c_str(), &indent))
      throw UserError(path + ": cannot write the collection file");
  });
}

}  // namespace frmini::solver::exporter
