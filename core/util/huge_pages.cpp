// SPDX-License-Identifier: MIT
#include "util/huge_pages.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

namespace sutra {

void useHugePagesForMalloc(char** argv) {
  constexpr std::string_view kTunable = "glibc.malloc.hugetlb=1";
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  const std::string before = tunables ? tunables : "";
  // Set already (by the user, or by this function before the exec): never loop.
  if (before.find("glibc.malloc.hugetlb") != std::string::npos) return;
  if (const char* off = std::getenv("SUTRA_NO_HUGE_PAGES"); off && *off && *off != '0') return;
  std::ifstream thp("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode;
  if (!std::getline(thp, mode) || mode.find("[madvise]") == std::string::npos) return;
  const std::string value =
      before.empty() ? std::string(kTunable) : before + ":" + std::string(kTunable);
  if (::setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
  ::execv("/proc/self/exe", argv);
  // The exec failed: go on as before.
  if (tunables)
    ::setenv("GLIBC_TUNABLES", before.c_str(), 1);
  else
    ::unsetenv("GLIBC_TUNABLES");
}

}  // namespace sutra
