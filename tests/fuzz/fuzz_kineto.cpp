// SPDX-License-Identifier: MIT
// libFuzzer target: the Kineto reader on arbitrary bytes must return a trace or an error, never
// crash, hang or leak. It also reads each input a second time in 64-byte chunks, where a small
// input takes the paths of a large one (batches cut by guessing a boundary, buffers handed over),
// and the two models must agree field by field (problem examples aside: they name batch offsets).
// A third read parses every batch with simdjson alone, without the fast scanner: its model must be
// the default read's exactly, examples included, and so must its error. A fourth read keeps no
// event's args (compare's): the same model but for them, or the same error.
#include <cstdlib>

#include "fuzz_input.h"
#include "io/kineto_reader.h"
#include "support/trace_digest.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = sutra::fuzz::writeInput(data, size);
  auto whole = sutra::readKinetoTrace(path);
  auto chunked = sutra::readKinetoTraceInChunks(path, 64);
  if (whole.ok() != chunked.ok()) std::abort();
  if (whole.ok() &&
      sutra::test::traceDigest(*whole, false) != sutra::test::traceDigest(*chunked, false))
    std::abort();
  sutra::KinetoReadOptions simdjsonOnly;
  simdjsonOnly.fastScanner = false;
  auto general = sutra::readKinetoTrace(path, simdjsonOnly);
  if (whole.ok() != general.ok()) std::abort();
  if (whole.ok() ? sutra::test::traceDigest(*whole) != sutra::test::traceDigest(*general)
                 : whole.error().message != general.error().message)
    std::abort();
  sutra::KinetoReadOptions noEventArgs;
  noEventArgs.eventArgs = false;
  auto lean = sutra::readKinetoTrace(path, noEventArgs);
  if (whole.ok() != lean.ok()) std::abort();
  if (whole.ok() ? sutra::test::traceDigest(*whole, true, false) !=
                       sutra::test::traceDigest(*lean, true, false)
                 : whole.error().message != lean.error().message)
    std::abort();
  return 0;
}
