#pragma once
/// \file
/// Small helpers shared by the test suites: reading golden files from tests/data.

#include <QFile>
#include <QString>
#include <string>

namespace byoc::testing {

/// The content of `tests/data/<relativePath>`; fails the calling test if it is missing.
inline std::string readTestData(const QString& relativePath) {
  QFile file(QStringLiteral(BYOC_TEST_DATA_DIR "/") + relativePath);
  if (!file.open(QIODevice::ReadOnly)) qFatal("missing test data file %s", qPrintable(file.fileName()));
  return file.readAll().toStdString();
}

/// Replaces `tests/data/<relativePath>` with `content`.
inline void writeTestData(const QString& relativePath, const std::string& content) {
  QFile file(QStringLiteral(BYOC_TEST_DATA_DIR "/") + relativePath);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) qFatal("cannot write %s", qPrintable(file.fileName()));
  file.write(content.data(), static_cast<qint64>(content.size()));
}

/// Absolute path of `tests/data/<relativePath>`.
inline std::string testDataPath(const QString& relativePath) {
  return (QStringLiteral(BYOC_TEST_DATA_DIR "/") + relativePath).toStdString();
}

}  // namespace byoc::testing
