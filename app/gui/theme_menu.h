// SPDX-License-Identifier: MIT
#pragma once
// The user's theme: View > Theme > System / Light / Dark, remembered in QSettings ("view/theme"),
// and `sutra --theme light|dark|system` for one run.
#include <QString>
#include <optional>

#include "theme.h"

class QLabel;
class QMenu;
class QWidget;

namespace sutra::gui {

inline constexpr char kThemeSettingsKey[] = "view/theme";

// The choice saved by the menu; System when none is saved or it is not one of the three.
widgets::ThemeChoice savedThemeChoice();
// The theme to start with: `option` (the --theme value) when given, else the saved choice.
// nullopt with `error` set when `option` names no theme.
std::optional<widgets::ThemeChoice> startupThemeChoice(const std::optional<QString>& option,
                                                       QString* error);
// System / Light / Dark as exclusive checkable actions, checked at the current choice; picking
// one applies it and saves it.
QMenu* createThemeMenu(QWidget* parent);
// Bold text in the theme's warning colour, kept in step when the theme changes.
void styleAsWarning(QLabel* label);

}  // namespace sutra::gui
