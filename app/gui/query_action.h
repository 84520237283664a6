// SPDX-License-Identifier: MIT
#pragma once
// Analysis > SQL Query (Ctrl+Shift+Q): the query dock (widgets/query_view.h) beside the operator
// table, its queries run by a QueryRunner (query_runner.h) over a query session (core/sql) opened
// for each run once it has loaded and dropped when another replaces it. A result row that holds a
// slice id, activated, selects that event on the timeline and reveals it (on its rank: in the
// all-ranks view in place, else that rank shown).
namespace sutra::gui {

class MainWindow;

void installQueryDock(MainWindow* window);

}  // namespace sutra::gui
