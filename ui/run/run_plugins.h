#pragma once
/// \file
/// Codegen plugins in the app. At startup the app finds, running none of their code, the plugin
/// files of its command line (`--codegen-plugin PATH`, or `--plugin PATH`), the plugin path of its
/// settings (`plugins/path`: files and folders separated by ':', as `$BYOC_PLUGIN_PATH`),
/// `$BYOC_PLUGIN_PATH` and the installed plugins. Once the window is up they are described (in
/// plugin hosts, never in the app's process: plugin_process.h) off the GUI thread, so a plugin
/// that stalls delays nothing; a target naming a plugin codegen before then has its plugin
/// described at once. A plugin that does not load becomes a diagnostic; the app goes on without
/// it. Loaded plugins appear as `plugin:<name>` codegens in the target settings, and the Run dock
/// runs their regions.

#include <QString>
#include <QStringList>
#include <string>
#include <vector>

#include "support/diagnostic.h"

namespace byoc::ui {

/// The settings key of the plugin path.
inline constexpr const char* kPluginPathSetting = "plugins/path";

/// Finds the plugins of `files`, of the plugin path setting and of the default places, to be
/// described later (plugin_registry.h: describeWaitingPlugins); returns one diagnostic per file
/// of `files` that does not exist.
std::vector<Diagnostic> findAppPlugins(const QStringList& files);

/// Takes every `--codegen-plugin PATH` and `--plugin PATH` (or `…=PATH`) out of `argv` (argc
/// and argv updated), before QApplication reads it: Qt takes `--plugin` as its own `-plugin`
/// option. Returns the paths, or nothing with `missing` set to an option given without a path.
QStringList takePluginArguments(int& argc, char** argv, std::string& missing);

/// One line per loaded plugin: `plugin:ccompiler 1.0.0 (/usr/lib/byoc/plugins/libbyoc_ccompiler.so)`.
QString loadedPluginsText();

}  // namespace byoc::ui
