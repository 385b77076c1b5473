#pragma once
/// \file
/// Target files in the app: the Target menu (New…, Open…, Settings…, Save, Save As…, Export as TVM Python…),
/// the prompt that keeps unsaved changes from being lost, and the recovery copy.
///
/// Contract:
/// - files are the target JSON the CLI reads (`serializeTarget`), written atomically;
/// - before the edited target is replaced (New, Open, another target picked) or the window closes,
///   unsaved changes are offered Save / Discard / Cancel; Cancel (or a failed save) stops it;
/// - after each edit (debounced by `kRecoveryDelayMs`) the modified target is written to
///   `recoveryDir()/target.json`, with the path it belongs to in `target.path`; both are removed
///   when the target is saved, discarded or replaced, and `offerRecovery` offers them on the next start.
/// Dialogs go through `Dialogs`, which tests replace.

#include <QObject>
#include <QString>
#include <QTimer>
#include <functional>
#include <optional>

#include "target/target.h"

class QMenu;
class QWidget;

namespace byoc::ui {

class TargetDocument;

/// Delay between the last edit and writing the recovery copy.
inline constexpr int kRecoveryDelayMs = 1000;

/// The Target menu and the unsaved-changes guard of a TargetDocument.
class TargetFiles : public QObject {
  Q_OBJECT
 public:
  /// What to do with unsaved changes.
  enum class Choice { Save, Discard, Cancel };

  /// The questions asked of the user; the defaults are modal dialogs over the window.
  struct Dialogs {
    /// Save / Discard / Cancel for the unsaved target named in the text.
    std::function<Choice(const QString& text)> unsaved;
    /// A target file to open, or empty.
    std::function<QString()> openPath;
    /// Where to save (`suggested` is a file name), or empty.
    std::function<QString(const QString& suggested)> savePath;
    /// Where to write the TVM Python module (`suggested` is a file name), or empty.
    std::function<QString(const QString& suggested)> pythonPath;
    /// A new target: its name and settings (see target_settings.h), or nothing when cancelled.
    std::function<std::optional<Target>()> newTarget;
    /// `target` with its settings edited, or nothing when cancelled.
    std::function<std::optional<Target>(const Target& target)> settings;
    /// Whether to restore the recovered target described in the text.
    std::function<bool(const QString& text)> restore;
    /// Shows an error.
    std::function<void(const QString& message)> error;
  };

  /// Guards `document`; dialogs are parented to `window`.
  TargetFiles(TargetDocument* document, QWidget* window);

  /// The Target menu (owned by the window).
  QMenu* menu() const { return menu_; }
  /// Replaces the dialogs (for tests).
  void setDialogs(Dialogs dialogs) { dialogs_ = std::move(dialogs); }

  /// If the target has unsaved changes, asks Save / Discard / Cancel; true when it may be replaced.
  bool confirmReplace();
  /// New…: asks for a name, codegen and the other settings and starts a target without rules or
  /// patterns; false if cancelled.
  bool newTarget();
  /// Settings…: edits the target's name, codegen, prepare pipeline and prune list; false if
  /// cancelled or nothing changed.
  bool editSettings();
  /// Open…: asks for a file and loads it; false if cancelled or it failed (the error is shown).
  bool open();
  /// Loads `path` after `confirmReplace`; false if cancelled or it failed (the error is shown).
  bool openPath(const QString& path);
  /// Save: to the target's file, or Save As… when it has none; false if not saved.
  bool save();
  /// Save As…: asks for a path and saves there; false if not saved.
  bool saveAs();

  /// Export as TVM Python…: asks for a path and writes the target as a TVM contrib module there
  /// (what `byoc export-tvm` writes), atomically; false if cancelled or it failed (the error is
  /// shown, and nothing is written).
  bool exportTvmPython();
  /// Where the recovery copy is kept (AppDataLocation + `/recovery`).
  static QString recoveryDir();
  /// If a recovery copy exists, asks whether to restore it: yes makes it the edited, modified
  /// target (belonging to its original file, if any); either way the copy is then removed unless
  /// restored. False when there was nothing to offer or it was declined.
  bool offerRecovery();
  /// Writes the recovery copy now (normally done `kRecoveryDelayMs` after an edit).
  void writeRecovery();

  /// The target's name, with `*` when modified (for titles).
  QString displayName() const;

 signals:
  /// `displayName()` changed.
  void displayNameChanged();

 private:
  void onChanged();
  void removeRecovery();
  bool saveTo(const QString& path);
  Dialogs defaultDialogs();

  TargetDocument* document_;
  QWidget* window_;
  QMenu* menu_;
  QTimer recoveryTimer_;
  Dialogs dialogs_;
  /// A recovery copy from an earlier run exists and has not been offered yet.
  bool recoveryUnoffered_ = false;
};

}  // namespace byoc::ui
