#pragma once
/// \file
/// The target being authored in the app: one `Target` value, where it came from, and whether it has
/// changed since it was loaded or saved.
///
/// Editors (the pattern table, the op-support rules) read `target()` and hand back an edited copy
/// with `update`; every change emits `changed`, which the graph, the live matches and the partition
/// follow. Saving writes the target JSON the CLI reads (`byoc … --target FILE.json`), atomically.

#include <QObject>
#include <QString>

#include "support/result.h"
#include "target/target.h"

namespace byoc::ui {

/// The target the app edits.
class TargetDocument : public QObject {
  Q_OBJECT
 public:
  explicit TargetDocument(QObject* parent = nullptr);

  const Target& target() const { return target_; }
  /// The file it was loaded from or saved to; empty for a built-in or a new target.
  const QString& path() const { return path_; }
  /// True when there are edits not yet saved.
  bool isModified() const { return modified_; }

  /// Loads a built-in target by name or a target file (see `loadTarget`); on failure nothing changes.
  Status load(const QString& nameOrPath);
  /// Starts a new, empty target called `name` (no rules, no patterns, no codegen).
  void createNew(const QString& name);
  /// Takes `target` as the loaded, unmodified target from `path`.
  void reset(Target target, const QString& path);
  /// Replaces the target by an edited version of it and marks it modified.
  void update(Target edited);
  /// Writes the target JSON to `path` atomically; on success `path` becomes the document's path and
  /// the document is unmodified.
  Status saveAs(const QString& path);

 signals:
  /// The target changed: loaded, created or edited.
  void changed();
  /// Whether there are unsaved edits changed.
  void modifiedChanged(bool modified);

 private:
  void setModified(bool modified);

  Target target_;
  QString path_;
  bool modified_ = false;
};

}  // namespace byoc::ui
