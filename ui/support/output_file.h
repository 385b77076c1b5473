#pragma once
/// \file
/// Writing a file the user named from the GUI: the core's one writer of outputs
/// (`writeFileAtomic`, support/file_io.h) for Qt's types, so that the app's images and targets are
/// written as the command line's outputs are.

#include <QByteArray>
#include <QString>

namespace byoc::ui {

/// Writes `content` to `path`; on failure returns false and sets `error` to the reason.
bool writeOutputFile(const QString& path, const QByteArray& content, QString* error);

}  // namespace byoc::ui
