#include "support/output_file.h"

#include <QFile>
#include <string_view>

#include "support/file_io.h"

namespace byoc::ui {

bool writeOutputFile(const QString& path, const QByteArray& content, QString* error) {
  const std::string_view bytes(content.constData(), static_cast<std::size_t>(content.size()));
  const Status written = writeFileAtomic(QFile::encodeName(path).toStdString(), bytes);
  if (!written) *error = QString::fromStdString(written.error().message);
  return static_cast<bool>(written);
}

}  // namespace byoc::ui
