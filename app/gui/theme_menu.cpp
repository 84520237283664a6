// SPDX-License-Identifier: MIT
#include "theme_menu.h"

#include <QActionGroup>
#include <QLabel>
#include <QMenu>
#include <QSettings>

namespace sutra::gui {

using widgets::ThemeChoice;

ThemeChoice savedThemeChoice() {
  const QString saved = QSettings().value(kThemeSettingsKey).toString();
  return widgets::parseThemeChoice(saved).value_or(ThemeChoice::System);
}

std::optional<ThemeChoice> startupThemeChoice(const std::optional<QString>& option,
                                              QString* error) {
  if (!option) return savedThemeChoice();
  const auto choice = widgets::parseThemeChoice(*option);
  if (!choice && error)
    *error = QObject::tr("--theme wants light, dark or system, not \"%1\"").arg(*option);
  return choice;
}

QMenu* createThemeMenu(QWidget* parent) {
  auto* menu = new QMenu(QObject::tr("&Theme"), parent);
  auto* group = new QActionGroup(menu);
  const std::pair<ThemeChoice, QString> entries[] = {{ThemeChoice::System, QObject::tr("&System")},
                                                     {ThemeChoice::Light, QObject::tr("&Light")},
                                                     {ThemeChoice::Dark, QObject::tr("&Dark")}};
  for (const auto& [choice, text] : entries) {
    QAction* action = menu->addAction(text);
    action->setCheckable(true);
    action->setChecked(choice == widgets::currentThemeChoice());
    action->setData(widgets::themeChoiceName(choice));
    group->addAction(action);
    QObject::connect(action, &QAction::triggered, menu, [choice] {
      widgets::applyTheme(choice);
      QSettings().setValue(kThemeSettingsKey, widgets::themeChoiceName(choice));
    });
  }
  return menu;
}

void styleAsWarning(QLabel* label) {
  auto apply = [label] {
    label->setStyleSheet(QStringLiteral("QLabel { color: %1; font-weight: bold; }")
                             .arg(widgets::applicationTheme().warningText.name()));
  };
  apply();
  QObject::connect(&widgets::themeNotifier(), &widgets::ThemeNotifier::themeChanged, label, apply);
}

}  // namespace sutra::gui
