// SPDX-License-Identifier: MIT
#pragma once
// The window's names for a run (session/run_naming.h, for the QStrings the window holds): its
// title says the run's name, and the save dialogs start in its folder with file names made from
// it, so that every sample's window and export is told apart by the run and not by
// "rank0.kineto.json.gz".
#include <QString>
#include <QStringList>

namespace sutra::gui {

// "allreduce_2ranks" for that folder, "rank0.kineto.json.gz" for that file; files opened together
// from one folder are that folder's run. Empty for no paths.
QString runName(const QStringList& paths);

// runName() without a file's extensions (.json, .json.gz, .et), to begin file names with:
// "allreduce_2ranks", "rank0.kineto".
QString runStem(const QStringList& paths);

// The run's folder: the folder opened, or the one holding the files; empty for no paths.
QString runFolder(const QStringList& paths);

}  // namespace sutra::gui
