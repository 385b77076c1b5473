#pragma once
/// \file
/// The edited target's ordered pattern table as an item model: one row per pattern (name,
/// pattern text, check), in priority order (row 0 wins).
///
/// Every edit goes through the model, which validates it and writes the edited target back
/// with `TargetDocument::update`. A pattern text that does not parse is kept as the row's
/// *draft* (shown by the editor, flagged in the table) and not written into the target until it
/// parses. When the target changes elsewhere the drafts survive as long as the pattern names do;
/// loading another target drops them. Each edit is one undoable step of the document; the
/// keystrokes of one row's pattern text are one step until another edit comes between.

#include <QAbstractTableModel>
#include <optional>
#include <string>
#include <vector>

#include "support/result.h"

namespace byoc::ui {

class TargetDocument;

/// Item model of the pattern table of a TargetDocument.
class PatternTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  /// The columns.
  enum Column { NameColumn, PatternColumn, CheckColumn, ColumnCount };
  /// Extra roles.
  enum Role {
    /// The text an editor shows for the row: its draft if it has one, else the pattern as written.
    EditorTextRole = Qt::UserRole + 1,
    /// True when the row has a draft that does not parse.
    HasDraftRole,
    /// Why the target's codegen cannot build the row's composite (empty when it can).
    CodegenProblemRole,
  };

  /// A model of `document`'s pattern table (the document must outlive the model).
  explicit PatternTableModel(TargetDocument* document, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  /// Edits a cell as `rename`, `setPatternText` or `setCheck` do; false when refused.
  bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

  /// Appends a row (lowest priority) named `name` with the pattern `text`; returns its row.
  /// Errors: an invalid name (see `rename`) or a pattern that does not parse (nothing is added).
  Result<int> addPattern(const QString& name, const QString& text);
  /// A name for a new row. For a pattern rooted at `op` (`nn.conv2d`), the composite the target's
  /// codegen builds from that op (`<target>.conv2d`) while no row has it; else
  /// `<target>.pattern_<n>` with the first n not yet used.
  QString freshName(const QString& op = {}) const;
  /// The names a row may take for its codegen to build it: `<target>.<composite>` for each
  /// composite the codegen lists (see Codegen::composites), empty when it lists none.
  QStringList codegenCompositeNames() const;
  /// Removes `row`; false if there is no such row.
  bool removePattern(int row);
  /// Moves `row` by `delta` places (negative: higher priority); false if it cannot move.
  bool movePattern(int row, int delta);
  /// Renames `row`. Errors: "a pattern needs a name", "another pattern is already called 'X'".
  Status rename(int row, const QString& name);
  /// Sets the pattern text of `row`. If it parses, the target gets it and the draft is dropped;
  /// otherwise the text is kept as the draft and the parse error returned (with line:column).
  Status setPatternText(int row, const QString& text);
  /// Sets the check of `row` in the rule language (empty: no check); an error leaves it unchanged.
  Status setCheck(int row, const QString& text);
  /// What an editor shows for `row` (see EditorTextRole).
  QString editorText(int row) const;
  /// Whether `row` has a draft that does not parse.
  bool hasDraft(int row) const;
  /// Why the target's codegen cannot build the composite of `row`, or nothing.
  QString codegenProblem(int row) const;

 private:
  void onDocumentChanged();
  /// Writes `edit` of the target back through the document, as the undoable step `text` (merged
  /// with the previous one when both have `mergeKey`), without resetting the model.
  template <typename Edit>
  void updateTarget(const QString& text, Edit&& edit, const QString& mergeKey = {});

  TargetDocument* document_;
  /// Per row: the text that does not parse yet, if any.
  std::vector<std::optional<QString>> drafts_;
  /// Pattern names as the model last saw them, to tell an edit elsewhere from another target.
  std::vector<std::string> names_;
  bool updating_ = false;
};

}  // namespace byoc::ui
