// SPDX-License-Identifier: MIT
#pragma once
// What an opened run is called and where it lives, from the paths it was opened from: a run folder
// by the folder's name, a single file by its own. The window's title and save dialogs, the compare
// window's panes and `sutra-cli compare`'s story all name runs so, and so alike.
#include <string>
#include <vector>

namespace sutra {

// "allreduce_2ranks" for that folder (also written with a trailing slash), "rank0.kineto.json.gz"
// for that file; files opened together from one folder are that folder's run, files from several
// "first.json (+2 more)". Empty for no paths.
std::string runName(const std::vector<std::string>& paths);

// runName() without a file's extensions (.json, .json.gz, .et), to begin file names with:
// "allreduce_2ranks", "rank0.kineto".
std::string runStem(const std::vector<std::string>& paths);

// The run's folder: the folder opened, or the one holding the files; empty for no paths.
std::string runFolder(const std::vector<std::string>& paths);

// The labels of runs shown side by side, one path each (a run folder or a trace file): each run's
// name, but where two different files have the same name (two recordings laid out alike,
// rank0.kineto.json.gz in two folders) every file is "folder/file".
std::vector<std::string> runLabels(const std::vector<std::string>& runPaths);

}  // namespace sutra
