#pragma once
/// \file
/// Import errors for the ONNX tests: the message importing a model gives, and a table of models
/// the importer refuses, each with its exact message, run as one data-driven test.

#include <QtTest>

#include <functional>
#include <string>
#include <vector>

#include "frontend/onnx/onnx_import.h"
#include "test_onnx_builder.h"

namespace byoc::testing {

/// The error importing `bytes` (as model.onnx) gives, or "(imported without error)".
inline std::string importError(const std::string& bytes) {
  Result<Module> module = importOnnxModel(bytes, "model.onnx", "");
  return module ? "(imported without error)" : module.error().str();
}

/// A model the importer refuses, and the message it must give.
struct BadModel {
  const char* name;
  std::function<OnnxModelBuilder()> build;
  std::string error;
};

/// The rows of a data-driven test over `models`: each row's index.
inline void addBadModelRows(const std::vector<BadModel>& models) {
  QTest::addColumn<int>("index");
  for (std::size_t i = 0; i < models.size(); ++i) QTest::newRow(models[i].name) << static_cast<int>(i);
}

/// Checks that the current row's model of `models` gives its message.
inline void checkBadModelRow(const std::vector<BadModel>& models) {
  QFETCH(int, index);
  const BadModel& bad = models[static_cast<std::size_t>(index)];
  QCOMPARE(QString::fromStdString(importError(bad.build().bytes())), QString::fromStdString(bad.error));
}

}  // namespace byoc::testing
