#include "run/run_plugins.h"

#include <QSettings>

#include "plugin/plugin_registry.h"

namespace byoc::ui {

std::vector<Diagnostic> loadAppPlugins(const QStringList& files) {
  std::vector<Diagnostic> problems;
  for (const QString& file : files)
    if (auto added = addPlugin(file.toStdString()); !added) problems.push_back(added.error());
  const QString setting = QSettings().value(QString::fromLatin1(kPluginPathSetting)).toString();
  for (Diagnostic& problem : addPluginPath(setting.toStdString())) problems.push_back(std::move(problem));
  for (Diagnostic& problem : addDefaultPlugins()) problems.push_back(std::move(problem));
  return problems;
}

QString loadedPluginsText() {
  QStringList lines;
  for (const auto& plugin : addedPlugins())
    lines << QString::fromStdString(plugin->codegenName() + " " + plugin->version() + " (" + plugin->path() + ")");
  return lines.join(QLatin1Char('\n'));
}

}  // namespace byoc::ui
