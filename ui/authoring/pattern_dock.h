#pragma once
/// \file
/// The "Patterns" dock: the edited target's ordered pattern table, the pattern editor of the
/// selected row, the pattern drawn as a small graph, the live matches on the graph tab in front,
/// and "Why not here?" for the selected node.
///
/// Editing: the text is re-parsed 250 ms after the last keystroke. A parse error is underlined
/// at its line:column and shown under the editor (`line:column: message`); the text stays in the
/// editor but the target keeps the last pattern that parsed. A valid text goes into the target
/// (`TargetDocument::update`) and is matched on a worker against the front tab's function; the
/// matches are outlined on the graph and listed (click one to select and show it). Stale match
/// results are dropped. An answer of "Why not here?" follows the selection and the pattern: it is
/// given again for the node selected next and the pattern parsed next, and goes with the selection.
/// Under the check, "Replace with" previews a rewrite of the matches (see RewritePreview).

#include <QPointer>
#include <QTimer>
#include <QWidget>

#include "overlay/graph_overlay.h"
#include "pattern/find_matches.h"
#include "pattern/owned_pattern.h"
#include "support/result.h"
#include "theme.h"

class QLabel;
class QLineEdit;
class QTableView;
class QToolButton;
class QPushButton;

namespace byoc::ui {

class GraphPage;
class PatternMatchJob;
class PatternMatchModel;
class PatternSketchView;
class PatternTableModel;
class PatternTextEdit;
class RewritePreview;
class TargetDocument;

/// Delay between the last keystroke and the re-parse.
inline constexpr int kPatternReparseDelayMs = 250;

/// The pattern editor dock's widget.
class PatternDock : public QWidget {
  Q_OBJECT
 public:
  /// Edits `document`'s pattern table (the document must outlive the dock).
  explicit PatternDock(TargetDocument* document, QWidget* parent = nullptr);
  ~PatternDock() override;

  /// Matches on `page` (the tab in front; null: none) from now on; the previous tab's outlines go.
  void setPage(GraphPage* page);
  /// Appends a row named `PatternTableModel::freshName(op)` holding `text` (a pattern rooted at the
  /// op `op`, when given), selects it and matches it.
  Result<int> addPattern(const QString& text, const QString& op = {});
  /// Selects `row` of the table and opens it in the editor.
  void selectRow(int row);
  /// The row in the editor, or -1.
  int currentRow() const { return currentRow_; }
  /// Parses the editor's text now instead of after the delay.
  void reparseNow();
  /// For the node selected on the front tab: whether the current pattern matches there and, if
  /// not, the first pattern node that failed and why. Also shown in the dock.
  QString explainSelectedNode();
  /// The answer shown under "Why not here?", empty when none.
  QString whyText() const;
  /// Whether the live matches are outlined on the graph: only while the dock can be seen (the
  /// window follows its dock's visibility), so a hidden editor leaves the picture alone.
  void setOutlinesShown(bool shown);
  /// Switches the editor's and the drawing's colours.
  void setTheme(Theme theme);

  /// The pattern table.
  PatternTableModel* tableModel() const { return table_; }
  /// The live matches listed.
  PatternMatchModel* matchModel() const { return matches_; }
  /// The code editor.
  PatternTextEdit* editor() const { return editor_; }
  /// The drawing of the pattern.
  PatternSketchView* sketchView() const { return sketch_; }
  /// The line under the editor: the parse error, or how many matches were found.
  QString statusText() const;
  /// The line under the check field: its error, or empty.
  QString checkStatusText() const;
  /// The field of the check.
  QLineEdit* checkEdit() const { return check_; }
  /// The view of the live matches.
  QTableView* matchView() const { return matchView_; }
  /// The "Replace with" row: previews rewriting the pattern's matches in the tab in front.
  RewritePreview* rewritePreview() const { return rewrite_; }

 signals:
  /// The editor's text was parsed; `ok` is false on a syntax error.
  void parsed(bool ok);
  /// New live matches are shown (possibly none).
  void matchesUpdated();

 private:
  QWidget* buildTable();
  QWidget* buildEditor();
  QWidget* buildMatches();
  void onRowChanged(int row);
  /// Clears the last explanation and selects the first match covering `node` in the list.
  void onNodeSelected(int node);
  /// Keeps the answer of "Why not here?" true: asked again for the node now selected and the
  /// pattern now parsed, or cleared when there is none.
  void refreshWhy();
  void reparse();
  void startMatching();
  void showMatches(const std::vector<PatternMatch>& found);
  void showMatch(int row);
  void clearMatches();
  /// Gives the rewrite preview the pattern and the front tab's function.
  void updateRewritePreview();
  /// Outlines `outlines_` on the page when `outlinesShown_`, nothing otherwise.
  void drawOutlines();
  void updateButtons();
  void setStatus(const QString& text, bool error);

  TargetDocument* document_;
  PatternTableModel* table_;
  PatternMatchModel* matches_;
  PatternMatchJob* job_;
  QTableView* tableView_;
  QToolButton* addButton_;
  QToolButton* removeButton_;
  QToolButton* upButton_;
  QToolButton* downButton_;
  PatternTextEdit* editor_;
  QLabel* status_;
  QLineEdit* check_;
  QLabel* checkStatus_;
  RewritePreview* rewrite_;
  PatternSketchView* sketch_;
  QTableView* matchView_;
  QPushButton* whyButton_;
  QLabel* whyText_;
  QTimer reparseTimer_;
  QPointer<GraphPage> page_;
  QMetaObject::Connection pageSelection_;
  /// The pattern being matched: the current row's, once its text parses.
  OwnedPattern pattern_;
  /// The graph nodes of each live match.
  std::vector<MatchHighlight> outlines_;
  bool outlinesShown_ = true;
  int currentRow_ = -1;
  bool loading_ = false;
};

}  // namespace byoc::ui
