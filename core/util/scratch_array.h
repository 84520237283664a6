// SPDX-License-Identifier: MIT
#pragma once
// The working arrays of an analysis that keeps one value per event (the operator table's nesting,
// self times and rows): in anonymous memory for a trace of ordinary size, and for one of tens of
// millions of events in an unnamed file of Sutra's cache folder (mapped_array.h's file-backed
// arrays), whose pages the kernel writes out under memory pressure instead of the process being
// killed. A trace bigger than memory, mapped from its cache (io/trace_cache.h), is so analysed in
// bounded memory.
#include <cstddef>
#include <exception>
#include <string>

#include "util/mapped_array.h"

namespace sutra {

// $SUTRA_CACHE_DIR, else $XDG_CACHE_HOME/sutra, else ~/.cache/sutra (the trace caches' folder).
std::string sutraCacheFolder();

// Arrays of at least this many values go to a file: 8 M by default (an array of a 2 GB trace's
// events), SUTRA_SCRATCH_ON_DISK_FROM (a count of values; 0: every array, for tests) otherwise.
std::size_t scratchOnDiskFrom();

// sutraCacheFolder(), made where it is missing.
std::string scratchFolderMade();

// `count` copies of `value`, in memory or in a file as above. Where the folder takes no file (no
// room, read-only), in memory.
template <typename T>
MappedArray<T> scratchArray(std::size_t count, const T& value) {
  MappedArray<T> values;
  if (count >= scratchOnDiskFrom()) {
    try {
      values = MappedArray<T>::fileBacked(scratchFolderMade());
      values.assign(count, value);
      return values;
    } catch (const std::exception&) {
      values = MappedArray<T>();
    }
  }
  values.assign(count, value);
  return values;
}

}  // namespace sutra
