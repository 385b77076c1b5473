#pragma once
/// \file
/// An imported ONNX model as its golden text: what the import tests compare with their
/// tests/data/frontend/onnx/*.expected files.

#include <QtTest>

#include <string>

#include "frontend/onnx/onnx_import.h"
#include "pass/infer_type.h"
#include "test_files.h"
#include "text/printer.h"

namespace byoc::testing {

/// `bytes` imported as `file`, type-checked and printed with types; or the first error, so that a
/// comparison with the golden text shows it.
inline std::string importedText(const std::string& bytes, const std::string& file) {
  Result<Module> module = importOnnxModel(bytes, file, "");
  if (!module) return "error: " + module.error().str();
  Result<Module> typed = inferTypes(*module);
  if (!typed) return "error: " + typed.error().str();
  return printModule(*typed, {.showTypes = true, .showMetadata = false});
}

/// Compares the model `bytes` imported as `<name>.onnx` with its golden file
/// tests/data/frontend/onnx/<name>.expected; BYOC_UPDATE_GOLDENS=1 rewrites the file instead (to
/// be reviewed before it is committed).
inline void compareWithOnnxGolden(const std::string& bytes, const QString& name) {
  const std::string printed = importedText(bytes, name.toStdString() + ".onnx");
  const QString golden = QStringLiteral("frontend/onnx/") + name + QStringLiteral(".expected");
  if (qEnvironmentVariableIsSet("BYOC_UPDATE_GOLDENS")) writeTestData(golden, printed);
  QCOMPARE(printed, readTestData(golden));
}

/// The rows of a data-driven golden test over `cases` (a map from a case's name to the function
/// building its model): each row's name.
template <typename Cases>
void addGoldenRows(const Cases& cases) {
  QTest::addColumn<QString>("name");
  for (const auto& [name, build] : cases) QTest::newRow(qPrintable(name)) << name;
}

/// Compares the current row's model of `cases` with its golden file, named `prefix` + its name.
template <typename Cases>
void checkGoldenRow(const Cases& cases, const QString& prefix = {}) {
  QFETCH(QString, name);
  compareWithOnnxGolden(cases.at(name)().bytes(), prefix + name);
}

}  // namespace byoc::testing
