// SPDX-License-Identifier: MIT
// sutra._core: the Python package's binding of core's run API (python/src/sutra/__init__.py is
// what users import).
#include "run_handle.h"

NB_MODULE(_core, m) {
  namespace nb = nanobind;
  m.doc() = "Sutra's core, bound for the sutra package: runs, their columns and analyses.";
  nb::exception<sutra::python::CoreError>(m, "SutraError", PyExc_ValueError);
  sutra::python::bindRun(m);
  sutra::python::bindColumns(m);
  sutra::python::bindAnalyses(m);
  sutra::python::bindRankOverview(m);
  sutra::python::bindExports(m);
  sutra::python::bindQuery(m);
  sutra::python::bindAdvice(m);
  sutra::python::bindTimeline(m);
}
