#pragma once
/// \file
/// Help → the user guide and the references of the pattern language and of target files, read in
/// the app: the documents ship inside it (`:/docs`), links between them stay inside the viewer.

#include <QString>

class QWidget;

namespace byoc::ui {

/// The documents of the Help menu: file name under `:/docs` and menu title.
struct HelpDocument {
  const char* file;
  const char* title;
};
inline constexpr HelpDocument kHelpDocuments[] = {
    {"app.md", "BYOC Studio &Guide"},
    {"patterns.md", "&Pattern Language"},
    {"targets.md", "&Targets and Op-Support Rules"},
};

/// Shows `document` (a file under `:/docs`) in a window of its own over `parent`; returns it.
QWidget* showHelpDocument(const QString& document, QWidget* parent);

}  // namespace byoc::ui
