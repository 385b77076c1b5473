#pragma once
/// \file
/// Codegen plugins in the app. At startup the app loads the plugin files of its command line
/// (`--plugin PATH`), the plugin path of its settings (`plugins/path`: files and folders separated
/// by ':', as `$BYOC_PLUGIN_PATH`), `$BYOC_PLUGIN_PATH` and the installed plugins. A plugin that
/// does not load becomes a diagnostic; the app goes on without it. Loaded plugins appear as
/// `plugin:<name>` codegens in the target settings, and the Run dock runs their regions.

#include <QString>
#include <QStringList>
#include <vector>

#include "support/diagnostic.h"

namespace byoc::ui {

/// The settings key of the plugin path.
inline constexpr const char* kPluginPathSetting = "plugins/path";

/// Loads the plugins of `files`, of the plugin path setting and the default places; returns one
/// diagnostic per plugin that did not load.
std::vector<Diagnostic> loadAppPlugins(const QStringList& files);

/// One line per loaded plugin: `plugin:ccompiler 1.0.0 (/usr/lib/byoc/plugins/libbyoc_ccompiler.so)`.
QString loadedPluginsText();

}  // namespace byoc::ui
