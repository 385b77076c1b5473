#pragma once
/// \file
/// The target being authored in the app: one `Target` value, where it came from, and whether it has
/// changed since it was loaded or saved.
///
/// Editors (the pattern table, the op-support rules, the settings) read `target()` and hand back an
/// edited copy with `update`, which goes on the undo stack as one step; every change (an edit, an
/// undo or redo, a load) emits `changed`, which the graph, the live matches and the partition
/// follow. The document is modified while the stack is away from where it was loaded or saved.
/// Saving writes the target JSON the CLI reads (`byoc … --target FILE.json`), atomically.

#include <QObject>
#include <QString>
#include <QUndoStack>

#include "support/result.h"
#include "target/target.h"

namespace byoc::ui {

/// The target the app edits.
class TargetDocument : public QObject {
  Q_OBJECT
 public:
  explicit TargetDocument(QObject* parent = nullptr);
  ~TargetDocument() override;

  const Target& target() const { return target_; }
  /// The file it was loaded from or saved to; empty for a built-in or a new target.
  const QString& path() const { return path_; }
  /// What the target chooser calls it: its file, else the built-in it was loaded from (tvm-dnnl's
  /// target is named "dnnl"), else its name.
  QString label() const;
  /// True when there are edits not yet saved.
  bool isModified() const { return modified_; }

  /// Loads a built-in target by name or a target file (see `loadTarget`); on failure nothing changes.
  Status load(const QString& nameOrPath);
  /// Takes `target` as the loaded, unmodified target from `path` (or the built-in `builtin`); the
  /// undo stack starts empty.
  void reset(Target target, const QString& path, const QString& builtin = {});
  /// Replaces the target by an edited version of it, as one undoable step named `text` ("Support
  /// nn.relu"; "Edit Target" when empty). Consecutive edits with the same non-empty `mergeKey` are
  /// one step (the keystrokes of one pattern's text).
  void update(Target edited, const QString& text = {}, const QString& mergeKey = {});
  /// Every edit since the target was loaded: Edit → Undo / Redo.
  QUndoStack* undoStack() const { return undoStack_; }
  /// Writes the target JSON to `path` atomically; on success `path` becomes the document's path and
  /// the document is unmodified.
  Status saveAs(const QString& path);

 signals:
  /// The target changed: loaded, created or edited.
  void changed();
  /// Whether there are unsaved edits changed.
  void modifiedChanged(bool modified);

 private:
  friend class TargetEdit;
  void setModified(bool modified);
  /// The stack moved (an edit, undo or redo): modified unless it is back where it was saved.
  void onStackMoved();

  Target target_;
  QUndoStack* undoStack_;
  /// Set while `reset` clears the stack: it announces the change itself.
  bool resetting_ = false;
  QString path_;
  QString builtin_;
  bool modified_ = false;
};

}  // namespace byoc::ui
