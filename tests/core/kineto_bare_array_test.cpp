// SPDX-License-Identifier: MIT
// PyTorch up to about 1.12 could write a trace as a bare top-level array of events instead of
// {"traceEvents": [...]}. The reader takes that form and reads it exactly as the same events
// wrapped in an object; an array that is no trace stays refused where files are told apart.
#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <string>

#include "io/discover.h"
#include "io/kineto_reader.h"
#include "support/trace_digest.h"
#include "test_support.h"

namespace sutra {
namespace {

std::string gunzip(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  std::string out;
  if (!f) return out;
  char buf[1 << 16];
  for (int n; (n = gzread(f, buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  gzclose(f);
  return out;
}

std::string written(const std::string& name, const std::string& text) {
  const std::string path = test::tempPath(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// The bare array and the same bytes wrapped as {"traceEvents": ...} give the same model, read
// whole and in small chunks (batches cut by guessing, elements across chunk ends).
void expectReadAsWrapped(const std::string& bareText, const std::string& name) {
  const std::string bare = written(name + ".json", bareText);
  const std::string wrapped =
      written(name + "_wrapped.json", "{\"traceEvents\": " + bareText + "}");
  for (const std::size_t chunk : {std::size_t{512} << 10, std::size_t{4096}}) {
    KinetoReadOptions options;
    options.chunkBytes = chunk;
    auto a = readKinetoTrace(bare, options);
    auto b = readKinetoTrace(wrapped, options);
    ASSERT_TRUE(a.ok()) << a.error().message;
    ASSERT_TRUE(b.ok()) << b.error().message;
    EXPECT_GT(a->events.size(), 0u);
    EXPECT_EQ(test::traceDigest(*a, false), test::traceDigest(*b, false))
        << name << " in chunks of " << chunk;
  }
}

TEST(KinetoBareArray, RealPyTorch18TraceReadsAsWrapped) {
  SUTRA_REQUIRE_SHARED_TRACES();
  const std::string text =
      gunzip(test::sharedTrace("kineto/resnet50_2020_top_level_array.pt.trace.json.gz"));
  ASSERT_EQ(text.substr(0, 3), "[\n\n");  // torch's own layout: the document is the array
  expectReadAsWrapped(text, "resnet50_2020");
}

TEST(KinetoBareArray, ManyBatchesReadAsWrapped) {
  std::string text = "[\n";
  for (int i = 0; i < 20000; ++i) {
    if (i > 0) text += ",\n";
    text += R"(  {"ph": "X", "cat": "Operator", "name": "aten::conv2d", "pid": 1, "tid": ")" +
            std::to_string(i % 3) + R"(", "ts": )" + std::to_string(1000 + 10 * i) +
            R"(, "dur": 5, "args": {"External id": )" + std::to_string(i) + "}}";
  }
  text += "\n]\n";
  ASSERT_GT(text.size(), 1u << 20);  // several 512 KB batches
  expectReadAsWrapped(text, "bare_many_batches");
}

TEST(KinetoBareArray, AnArrayOfEventsWithoutPhStaysBad) {
  // Taken for no trace at all when files are told apart, as before the bare form was tested.
  auto sniffed = sniffTraceFile(test::fixture("bad/array_without_ph.json"));
  ASSERT_TRUE(sniffed.ok());
  EXPECT_EQ(sniffed->kind, FileKind::Unknown);
  // The reader, asked directly, reads no event from it and says why.
  auto trace = readKinetoTrace(test::fixture("bad/array_without_ph.json"));
  ASSERT_TRUE(trace.ok());
  EXPECT_EQ(trace->events.size(), 0u);
  EXPECT_EQ(trace->problems.count("event phase Sutra does not use, skipped"), 1u);
}

}  // namespace
}  // namespace sutra
