#pragma once
/// \file
/// byoc-studio's command line: its options declared on a QCommandLineParser, and read back as
/// values once checked (an error is one line and exit status 2).

#include <QCommandLineParser>
#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>

#include "support/result.h"

namespace byoc::studio {

/// What the command line asks for.
struct StudioOptions {
  /// The model or export to open; empty for none (or the demo).
  QString file;
  bool demo = false;
  /// Render the window to this PNG and exit; empty for a window.
  QString screenshot;
  QSize size;
  QString theme;
  /// With --screenshot: the first node matching this is selected.
  QString find;
  /// With --screenshot: the function shown in its own tab.
  QString function;
  /// Saved pass steps to show, or targets to partition for (never both), with the flow.
  QStringList stepFiles;
  QStringList targets;
  QString pipeline;
  /// The step shown first; -1 for the last.
  int firstStep = -1;
  bool showRules = false;
  bool run = false;
  /// `NAME=DIMS` for the Run panel's random inputs.
  QStringList inputShapes;
  /// A pattern to add to the target's table.
  std::optional<QString> pattern;
};

/// Declares every option of byoc-studio on `parser`.
void declareStudioOptions(QCommandLineParser& parser);

/// The options `parser` (processed) holds, checked against each other.
Result<StudioOptions> readStudioOptions(const QCommandLineParser& parser);

}  // namespace byoc::studio
