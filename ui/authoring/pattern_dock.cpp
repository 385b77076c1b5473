/// \file
/// PatternDock: wiring of the table, editor, sketch, live matches and "Why not here?".

#include "authoring/pattern_dock.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStringBuilder>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "authoring/pattern_match_job.h"
#include "authoring/pattern_match_model.h"
#include "authoring/pattern_name_delegate.h"
#include "authoring/pattern_sketch.h"
#include "authoring/pattern_sketch_view.h"
#include "authoring/pattern_table_model.h"
#include "authoring/pattern_text_edit.h"
#include "authoring/rewrite_preview.h"
#include "authoring/target_document.h"
#include "graph/graph_page.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "panels/row_table.h"
#include "pattern/indexed_graph.h"
#include "target/target.h"

namespace byoc::ui {

namespace {

QToolButton* toolButton(const QString& text, const QString& tip, QWidget* parent) {
  auto* button = new QToolButton(parent);
  button->setText(text);
  button->setToolTip(tip);
  button->setAutoRaise(true);
  return button;
}

/// `line:column: message` of a parse error (the location's file name is left out).
QString errorLine(const Diagnostic& error) {
  const QString message = QString::fromStdString(error.message);
  if (error.location.line <= 0) return message;
  return QString::number(error.location.line) % u':' % QString::number(error.location.column) % QStringLiteral(": ") %
         message;
}

}  // namespace

PatternDock::PatternDock(TargetDocument* document, QWidget* parent)
    : QWidget(parent), document_(document) {
  table_ = new PatternTableModel(document_, this);
  matches_ = new PatternMatchModel(this);
  job_ = new PatternMatchJob(this);
  reparseTimer_.setSingleShot(true);
  reparseTimer_.setInterval(kPatternReparseDelayMs);
  connect(&reparseTimer_, &QTimer::timeout, this, &PatternDock::reparse);
  connect(job_, &PatternMatchJob::finished, this, &PatternDock::showMatches);

  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(buildTable());
  splitter->addWidget(buildEditor());
  sketch_ = new PatternSketchView(splitter);
  sketch_->setToolTip(tr("The pattern as a graph: inputs on top, the root (outlined) at the bottom"));
  splitter->addWidget(sketch_);
  splitter->addWidget(buildMatches());
  splitter->setStretchFactor(0, 2);
  splitter->setStretchFactor(1, 5);
  splitter->setStretchFactor(2, 2);
  splitter->setStretchFactor(3, 2);
  splitter->setSizes({260, 420, 200, 190});
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(splitter);

  connect(tableView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) { onRowChanged(current.isValid() ? current.row() : -1); });
  connect(table_, &QAbstractItemModel::modelReset, this, [this] { selectRow(table_->rowCount() > 0 ? 0 : -1); });
  // An undo or redo changes the shown row under the editor: show it again (not while typing).
  connect(table_, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex& first, const QModelIndex& last) {
    if (currentRow_ < first.row() || currentRow_ > last.row() || reparseTimer_.isActive()) return;
    const auto& check = document_->target().patterns[currentRow_].check;
    if (editor_->toPlainText() != table_->editorText(currentRow_) ||
        check_->text().trimmed() != (check ? QString::fromStdString(check->text()) : QString()))
      onRowChanged(currentRow_);
  });
  connect(table_, &QAbstractItemModel::rowsMoved, this, &PatternDock::updateButtons);
  connect(table_, &QAbstractItemModel::rowsRemoved, this, [this] {
    if (table_->rowCount() == 0) onRowChanged(-1);
    updateButtons();
  });
  selectRow(table_->rowCount() > 0 ? 0 : -1);
}

PatternDock::~PatternDock() {
  job_->cancel();
  if (page_) page_->setMatchHighlights({});
}

QWidget* PatternDock::buildTable() {
  auto* box = new QWidget(this);
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->setSpacing(2);
  tableView_ = makeRowTable(table_, box);
  tableView_->setObjectName(QStringLiteral("patternTable"));
  tableView_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
  tableView_->horizontalHeader()->setSectionResizeMode(PatternTableModel::NameColumn, QHeaderView::Interactive);
  tableView_->setColumnWidth(PatternTableModel::NameColumn, 150);
  tableView_->setItemDelegateForColumn(PatternTableModel::NameColumn, new PatternNameDelegate(table_, tableView_));
  tableView_->setToolTip(tr("Rows in priority order: the first pattern that matches wins. Double-click a name to rename it."));
  auto* buttons = new QHBoxLayout;
  buttons->setSpacing(0);
  addButton_ = toolButton(QStringLiteral("+"), tr("Add a pattern (from the selected node's op, if any)"), box);
  removeButton_ = toolButton(QStringLiteral("\u2212"), tr("Remove the selected pattern"), box);
  upButton_ = toolButton(QStringLiteral("\u25b2"), tr("Raise the priority"), box);
  downButton_ = toolButton(QStringLiteral("\u25bc"), tr("Lower the priority"), box);
  addButton_->setObjectName(QStringLiteral("addPattern"));
  removeButton_->setObjectName(QStringLiteral("removePattern"));
  upButton_->setObjectName(QStringLiteral("raisePattern"));
  downButton_->setObjectName(QStringLiteral("lowerPattern"));
  for (QToolButton* button : {addButton_, removeButton_, upButton_, downButton_}) buttons->addWidget(button);
  buttons->addStretch();
  layout->addWidget(tableView_, 1);
  layout->addLayout(buttons);

  connect(addButton_, &QToolButton::clicked, this, [this] {
    QString text = QStringLiteral("*");
    QString op;
    if (page_ && page_->scene()->selectedNode() >= 0) {
      const GraphNode& node = page_->model().nodes()[page_->scene()->selectedNode()];
      if (node.kind == GraphNodeKind::Op) {
        op = node.title;
        text = op % QStringLiteral("(..)");
      }
    }
    if (Result<int> row = addPattern(text, op); !row) setStatus(errorLine(row.error()), true);
    editor_->setFocus();
  });
  connect(removeButton_, &QToolButton::clicked, this, [this] {
    const int row = currentRow_;
    if (!table_->removePattern(row)) return;
    selectRow(std::min(row, table_->rowCount() - 1));
  });
  auto move = [this](int delta) {
    const int row = currentRow_;
    if (table_->movePattern(row, delta)) selectRow(row + delta);
  };
  connect(upButton_, &QToolButton::clicked, this, [move] { move(-1); });
  connect(downButton_, &QToolButton::clicked, this, [move] { move(1); });
  return box;
}

QWidget* PatternDock::buildEditor() {
  auto* box = new QWidget(this);
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->setSpacing(3);
  editor_ = new PatternTextEdit(box);
  editor_->setObjectName(QStringLiteral("patternEditor"));
  status_ = new QLabel(box);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  status_->setWordWrap(true);
  auto* checkRow = new QHBoxLayout;
  checkRow->addWidget(new QLabel(tr("Check"), box));
  check_ = new QLineEdit(box);
  check_->setObjectName(QStringLiteral("patternCheck"));
  check_->setPlaceholderText(tr("optional condition on the matched root, e.g. groups == 1"));
  check_->setClearButtonEnabled(true);
  checkRow->addWidget(check_, 1);
  checkStatus_ = new QLabel(box);
  checkStatus_->setWordWrap(true);
  checkStatus_->setStyleSheet(QStringLiteral("color: #d32f2f"));
  checkStatus_->hide();
  rewrite_ = new RewritePreview(box);
  layout->addWidget(editor_, 1);
  layout->addWidget(status_);
  layout->addLayout(checkRow);
  layout->addWidget(checkStatus_);
  layout->addWidget(rewrite_);

  connect(editor_, &QPlainTextEdit::textChanged, this, [this] {
    if (!loading_) reparseTimer_.start();
  });
  connect(check_, &QLineEdit::textEdited, this, [this](const QString& text) {
    Status checked = table_->setCheck(currentRow_, text);
    checkStatus_->setText(checked ? QString() : QString::fromStdString(checked.error().message));
    checkStatus_->setVisible(!checked);
  });
  return box;
}

QWidget* PatternDock::buildMatches() {
  auto* box = new QWidget(this);
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->setSpacing(3);
  matchView_ = makeRowTable(matches_, box);
  matchView_->setObjectName(QStringLiteral("patternMatches"));
  matchView_->horizontalHeader()->setSectionResizeMode(PatternMatchModel::RootColumn, QHeaderView::Stretch);
  matchView_->horizontalHeader()->setStretchLastSection(false);
  matchView_->horizontalHeader()->setSectionResizeMode(PatternMatchModel::NodesColumn, QHeaderView::ResizeToContents);
  whyButton_ = new QPushButton(tr("Why not here?"), box);
  whyButton_->setToolTip(tr("Explain why the pattern does not match at the node selected on the graph"));
  whyText_ = new QLabel(box);
  whyText_->setWordWrap(true);
  whyText_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(matchView_, 1);
  layout->addWidget(whyButton_);
  layout->addWidget(whyText_);
  connect(matchView_, &QTableView::clicked, this, [this](const QModelIndex& index) { showMatch(index.row()); });
  connect(whyButton_, &QPushButton::clicked, this, &PatternDock::explainSelectedNode);
  return box;
}

void PatternDock::setPage(GraphPage* page) {
  if (page == page_) return;
  if (page_) {
    page_->setMatchHighlights({});
    disconnect(pageSelection_);
  }
  page_ = page;
  whyText_->clear();
  if (page_) pageSelection_ = connect(page_, &GraphPage::nodeSelected, this, &PatternDock::onNodeSelected);
  startMatching();
}

Result<int> PatternDock::addPattern(const QString& text, const QString& op) {
  BYOC_ASSIGN_OR_RETURN(int row, table_->addPattern(table_->freshName(op), text));
  selectRow(row);
  return row;
}

void PatternDock::selectRow(int row) {
  if (row < 0 || row >= table_->rowCount()) {
    tableView_->selectionModel()->clearSelection();
    onRowChanged(-1);
    return;
  }
  tableView_->selectionModel()->setCurrentIndex(table_->index(row, 0),
                                                QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  // Selecting the row already current emits nothing; open it anyway.
  if (currentRow_ != row) onRowChanged(row);
  updateButtons();
}

void PatternDock::onRowChanged(int row) {
  reparseTimer_.stop();
  currentRow_ = row;
  loading_ = true;
  editor_->setPlainText(row >= 0 ? table_->editorText(row) : QString());
  loading_ = false;
  editor_->setEnabled(row >= 0);
  check_->setEnabled(row >= 0);
  {
    const QSignalBlocker block(check_);
    const auto& patterns = document_->target().patterns;
    check_->setText(row >= 0 && patterns[row].check ? QString::fromStdString(patterns[row].check->text()) : QString());
  }
  checkStatus_->hide();
  whyText_->clear();
  updateButtons();
  if (row < 0) {
    editor_->clearError();
    pattern_ = {};
    sketch_->setSketch({});
    clearMatches();
    setStatus(tr("Add a pattern with + to edit it here."), false);
    return;
  }
  reparse();
}

void PatternDock::reparseNow() {
  if (reparseTimer_.isActive()) reparseTimer_.stop();
  reparse();
}

void PatternDock::reparse() {
  if (currentRow_ < 0) return;
  Status written = table_->setPatternText(currentRow_, editor_->toPlainText());
  if (!written) {
    const Diagnostic& error = written.error();
    editor_->setError(error.location.line, error.location.column, QString::fromStdString(error.message));
    setStatus(errorLine(error), true);
    job_->cancel();
    pattern_ = {};
    sketch_->setSketch({});
    clearMatches();
    refreshWhy();
    emit parsed(false);
    return;
  }
  editor_->clearError();
  pattern_ = document_->target().patterns[currentRow_].compiled;
  sketch_->setSketch(sketchPattern(pattern_.get()));
  refreshWhy();
  emit parsed(true);
  startMatching();
}

void PatternDock::startMatching() {
  updateRewritePreview();
  if (!pattern_ || !page_ || !page_->model().function()) {
    job_->cancel();
    clearMatches();
    if (pattern_) setStatus(tr("Open a model to see where the pattern matches."), false);
    return;
  }
  setStatus(tr("Matching…"), false);
  job_->start(pattern_, page_->model().function());
}

void PatternDock::showMatches(const std::vector<PatternMatch>& found) {
  if (!page_) return;
  std::vector<GraphMatch> shown = graphMatches(found, page_->model());
  outlines_.clear();
  outlines_.reserve(shown.size());
  for (const GraphMatch& match : shown) outlines_.push_back({match.nodes, match.inputs});
  drawOutlines();
  matches_->setMatches(std::move(shown));
  setStatus(tr("%n match(es) on %1", nullptr, matches_->rowCount()).arg(page_->model().name()), false);
  emit matchesUpdated();
}

void PatternDock::updateRewritePreview() {
  rewrite_->setPattern(pattern_);
  rewrite_->setFunction(page_ ? page_->model().function() : Function(), page_ ? page_->model().name() : QString());
}

void PatternDock::clearMatches() {
  updateRewritePreview();
  matches_->setMatches({});
  outlines_.clear();
  drawOutlines();
  emit matchesUpdated();
}

void PatternDock::drawOutlines() {
  if (page_) page_->setMatchHighlights(outlinesShown_ ? outlines_ : std::vector<MatchHighlight>{});
}

void PatternDock::setOutlinesShown(bool shown) {
  outlinesShown_ = shown;
  drawOutlines();
}

void PatternDock::showMatch(int row) {
  if (!page_ || row < 0 || row >= matches_->rowCount()) return;
  const GraphMatch& match = matches_->matches()[row];
  GraphScene* scene = page_->scene();
  scene->selectNode(match.root);
  QRectF area;
  for (int node : match.nodes) {
    if (NodeItem* item = scene->itemOf(node)) area = area.united(item->sceneBoundingRect());
  }
  if (!area.isNull()) page_->view()->ensureVisible(area, 40, 40);
}

void PatternDock::onNodeSelected(int node) {
  refreshWhy();
  // The first match covering the node is selected in the list (without moving the graph).
  const auto& found = matches_->matches();
  for (std::size_t row = 0; row < found.size(); ++row) {
    if (std::find(found[row].nodes.begin(), found[row].nodes.end(), node) != found[row].nodes.end()) {
      matchView_->selectRow(static_cast<int>(row));
      return;
    }
  }
  matchView_->clearSelection();
}

QString PatternDock::whyText() const { return whyText_->text(); }

void PatternDock::refreshWhy() {
  const bool shown = !whyText_->text().isEmpty();
  const bool selected = page_ && page_->scene()->selectedNode() >= 0;
  if (shown && selected && pattern_) {
    explainSelectedNode();
  } else {
    whyText_->clear();
  }
}

QString PatternDock::explainSelectedNode() {
  QString text;
  const int node = page_ ? page_->scene()->selectedNode() : -1;
  if (!pattern_) {
    text = tr("The pattern does not parse; fix it first.");
  } else if (node < 0) {
    text = tr("Select a node on the graph first.");
  } else {
    const GraphNode& graphNode = page_->model().nodes()[node];
    // Match against the whole function's index, as the live matches do (dominators need it).
    IndexedGraph graph{Expr(page_->model().function())};
    PatternMatcher matcher(graph);
    matcher.setExplain(true);
    if (matcher.match(pattern_.get(), graphNode.expr)) {
      text = tr("The pattern matches at %1.").arg(QString::fromStdString(describeExpr(graphNode.expr)));
    } else if (matcher.failure()) {
      text = QString::fromStdString(describeMismatch(*matcher.failure()));
    } else {
      text = tr("The pattern does not match at %1.").arg(QString::fromStdString(describeExpr(graphNode.expr)));
    }
  }
  whyText_->setText(text);
  return text;
}

void PatternDock::updateButtons() {
  const int rows = table_->rowCount();
  removeButton_->setEnabled(currentRow_ >= 0);
  upButton_->setEnabled(currentRow_ > 0);
  downButton_->setEnabled(currentRow_ >= 0 && currentRow_ + 1 < rows);
}

void PatternDock::setStatus(const QString& text, bool error) {
  status_->setText(text);
  status_->setStyleSheet(error ? QStringLiteral("color: #d32f2f") : QString());
}

QString PatternDock::statusText() const { return status_->text(); }

QString PatternDock::checkStatusText() const { return checkStatus_->isHidden() ? QString() : checkStatus_->text(); }

void PatternDock::setTheme(Theme theme) {
  editor_->setDark(theme == Theme::Dark);
  sketch_->setTheme(theme);
}

}  // namespace byoc::ui
