// SPDX-License-Identifier: MIT
#pragma once
// Reading a large trace fills hundreds of megabytes of fresh memory, page by page: with 4 KiB
// pages a third of the ET reader's time went to page faults. Where transparent huge pages are in
// "madvise" mode (Debian's default), glibc's malloc asks for them only when its tunable
// glibc.malloc.hugetlb=1 is set, and it reads tunables once, at start-up.

namespace sutra {

// Called first thing in main(): re-executes the program (/proc/self/exe, same arguments) with
// GLIBC_TUNABLES extended by glibc.malloc.hugetlb=1 where huge pages are in madvise mode and the
// tunable is not set yet, and returns where it need not or cannot (the program goes on as it
// is). SUTRA_NO_HUGE_PAGES=1 turns it off.
void useHugePagesForMalloc(char** argv);

}  // namespace sutra
