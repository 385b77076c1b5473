/// \file
/// sketchPattern: post-order, op callees folded into their calls, longest-path layering.

#include "authoring/pattern_sketch.h"

#include <QStringBuilder>
#include <QStringList>
#include <algorithm>
#include <unordered_map>

#include "ir/dtype.h"
#include "pattern/pattern_printer.h"

namespace byoc::ui {

namespace {

QString fromStd(const std::string& text) { return QString::fromStdString(text); }

/// The op name when `pattern` is an op (as `nn.conv2d` is written), else empty.
QString opName(const PatternNode& pattern) {
  const auto* expr = pattern.as<ExprPatternNode>();
  const auto* op = expr ? expr->expr->as<OpNode>() : nullptr;
  return op ? fromStd(op->name()) : QString();
}

QString labelOf(const PatternNode& node) {
  switch (node.kind()) {
    case PatternKind::Wildcard: {
      const auto& wildcard = *node.as<WildcardPatternNode>();
      return wildcard.redirect() ? QStringLiteral("\u21ba") : QStringLiteral("*");
    }
    case PatternKind::Expr: {
      const QString op = opName(node);
      if (!op.isEmpty()) return op;
      const std::string text = printPattern(Pattern(&node));
      return fromStd(text.substr(text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1));
    }
    case PatternKind::Var: {
      const auto& var = *node.as<VarPatternNode>();
      return var.varName.empty() ? QStringLiteral("var") : u'%' % fromStd(var.varName);
    }
    case PatternKind::Constant: return QStringLiteral("const");
    case PatternKind::Call: {
      const auto& call = *node.as<CallPatternNode>();
      QString callee = opName(*call.callee);
      if (callee.isEmpty()) callee = QStringLiteral("call");
      return call.args ? callee : callee % QStringLiteral("(..)");
    }
    case PatternKind::Function: return QStringLiteral("fn");
    case PatternKind::Tuple:
      return node.as<TuplePatternNode>()->fields ? QStringLiteral("tuple") : QStringLiteral("(..)");
    case PatternKind::TupleGetItem: {
      const int index = node.as<TupleGetItemPatternNode>()->index;
      return index < 0 ? QStringLiteral(".*") : u'.' % QString::number(index);
    }
    case PatternKind::Alt: return QStringLiteral("|");
    case PatternKind::Attr: {
      QStringList pairs;
      for (const auto& [key, value] : node.as<AttrPatternNode>()->attrs.entries())
        pairs << fromStd(key) % u'=' % fromStd(value.str());
      return u'{' % pairs.join(QStringLiteral(", ")) % u'}';
    }
    case PatternKind::Type: return QStringLiteral("has_type");
    case PatternKind::DType:
      return QStringLiteral("has_dtype ") % QString::fromUtf8(dtypeName(node.as<DTypePatternNode>()->dtype));
    case PatternKind::Shape: return QStringLiteral("has_shape");
    case PatternKind::Dominator: return QStringLiteral("dominates");
    case PatternKind::If: return QStringLiteral("if");
    case PatternKind::Let: return QStringLiteral("let");
  }
  return QString::fromLatin1(patternKindName(node.kind()));
}

/// The children drawn under `node`: an op callee is folded into its call.
std::vector<Pattern> drawnChildren(const PatternNode& node) {
  std::vector<Pattern> children = patternChildren(node);
  if (const auto* call = node.as<CallPatternNode>(); call && !opName(*call->callee).isEmpty())
    children.erase(children.begin());
  return children;
}

}  // namespace

PatternSketch sketchPattern(const Pattern& pattern) {
  PatternSketch sketch;
  if (!pattern) return sketch;
  const std::vector<Pattern> order = patternPostOrder(pattern);
  // Op patterns used only as callees are folded away.
  std::unordered_map<const PatternNode*, int> uses;
  for (const Pattern& node : order)
    for (const Pattern& child : drawnChildren(*node)) ++uses[child.get()];
  std::unordered_map<const PatternNode*, int> index;
  for (const Pattern& node : order) {
    if (node != pattern && !uses.contains(node.get())) continue;
    index[node.get()] = static_cast<int>(sketch.nodes.size());
    QString label = labelOf(*node);
    if (!node->name().empty()) label = fromStd(node->name()) % QStringLiteral(": ") % label;
    sketch.nodes.push_back({label, 0, 0});
  }
  // Children come first in post-order, so an input's layer is known when its user is placed,
  // except along the back edge of a recursive pattern, which is ignored for layering.
  std::vector<bool> placed(sketch.nodes.size(), false);
  for (const Pattern& node : order) {
    auto user = index.find(node.get());
    if (user == index.end()) continue;
    int layer = 0;
    for (const Pattern& child : drawnChildren(*node)) {
      const int input = index.at(child.get());
      sketch.edges.emplace_back(input, user->second);
      if (placed[input]) layer = std::max(layer, sketch.nodes[input].layer + 1);
    }
    sketch.nodes[user->second].layer = layer;
    placed[user->second] = true;
  }
  std::vector<int> columns;
  for (PatternSketch::Node& node : sketch.nodes) {
    if (node.layer >= static_cast<int>(columns.size())) columns.resize(node.layer + 1, 0);
    node.column = columns[node.layer]++;
  }
  sketch.layerCount = static_cast<int>(columns.size());
  return sketch;
}

QString PatternSketch::dump() const {
  QString text;
  for (const Node& node : nodes)
    text += QString::number(node.layer) % u'.' % QString::number(node.column) % u' ' % node.label % u'\n';
  for (const auto& [from, to] : edges) text += QString::number(from) % QStringLiteral(" -> ") % QString::number(to) % u'\n';
  return text;
}

}  // namespace byoc::ui
