#include "run/run_plugins.h"

#include <QSettings>

#include "plugin/plugin_registry.h"

namespace byoc::ui {

std::vector<Diagnostic> findAppPlugins(const QStringList& files) {
  std::vector<Diagnostic> problems;
  for (const QString& file : files)
    if (Status added = addWaitingPlugin(file.toStdString()); !added) problems.push_back(added.error());
  const QString setting = QSettings().value(QString::fromLatin1(kPluginPathSetting)).toString();
  addPluginPath(setting.toStdString(), PluginDiscovery::WhenNamed);
  addDefaultPlugins(PluginDiscovery::WhenNamed);
  return problems;
}

QStringList takePluginArguments(int& argc, char** argv, std::string& missing) {
  QStringList paths;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    bool taken = false;
    for (const std::string option : {"--codegen-plugin", "--plugin"}) {
      if (arg == option) {
        if (i + 1 == argc) {
          missing = option;
          return {};
        }
        paths << QString::fromLocal8Bit(argv[++i]);
      } else if (arg.starts_with(option + "=")) {
        paths << QString::fromLocal8Bit(arg.substr(option.size() + 1));
      } else {
        continue;
      }
      taken = true;
      break;
    }
    if (!taken) argv[kept++] = argv[i];
  }
  argc = kept;
  argv[argc] = nullptr;
  return paths;
}

QString loadedPluginsText() {
  QStringList lines;
  for (const PluginDescription& plugin : addedPlugins())
    lines << QString::fromStdString(plugin.codegenName() + " " + plugin.version + " (" + plugin.path + ")");
  return lines.join(QLatin1Char('\n'));
}

}  // namespace byoc::ui
