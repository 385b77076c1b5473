/// \file
/// WelcomePage: a centred column of labels and buttons.

#include "window/welcome_page.h"

#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace byoc::ui {

WelcomePage::WelcomePage(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->addStretch(2);
  auto* icon = new QLabel(this);
  icon->setPixmap(QIcon(QStringLiteral(":/icons/byoc-studio.svg")).pixmap(96, 96));
  icon->setAlignment(Qt::AlignCenter);
  auto* title = new QLabel(tr("BYOC Studio"), this);
  QFont titleFont = title->font();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 2);
  titleFont.setWeight(QFont::Light);
  title->setFont(titleFont);
  title->setAlignment(Qt::AlignCenter);
  auto* subtitle = new QLabel(tr("See how your backend's patterns and rules partition a model, pass by pass."), this);
  subtitle->setAlignment(Qt::AlignCenter);
  subtitle->setEnabled(false);
  auto* open = new QPushButton(tr("Open Model…"), this);
  auto* demo = new QPushButton(tr("Open the Demo"), this);
  connect(open, &QPushButton::clicked, this, &WelcomePage::openRequested);
  connect(demo, &QPushButton::clicked, this, &WelcomePage::demoRequested);
  auto* buttons = new QHBoxLayout;
  buttons->addStretch();
  buttons->addWidget(open);
  buttons->addWidget(demo);
  buttons->addStretch();
  auto* hint = new QLabel(tr("or drop a .relay, .json or .onnx file here"), this);
  hint->setAlignment(Qt::AlignCenter);
  hint->setEnabled(false);
  layout->addWidget(icon);
  layout->addWidget(title);
  layout->addWidget(subtitle);
  layout->addSpacing(16);
  layout->addLayout(buttons);
  layout->addWidget(hint);
  layout->addStretch(3);
}

}  // namespace byoc::ui
