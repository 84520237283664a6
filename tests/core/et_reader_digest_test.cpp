// SPDX-License-Identifier: MIT
// The ET and ET+ readers give, field by field, the model the readers of commit 971d40f gave (before
// their speed work, issue 21) on every ET in ../shared/traces and on the fixtures: the digests
// below (support/et_digest.h: every EtNode and LinkedOp field, argument and attribute JSON texts,
// id index, problems; an error's message) were recorded with the readers of 0a92551, whose model
// was 971d40f's, once the node's own JSON text (no longer kept: issue 21's compact model) was left
// out of the digest. SUTRA_RECORD_ET_DIGESTS=1 prints the table.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "et_digest.h"
#include "io/readers.h"
#include "link/et_plus_reader.h"
#include "test_support.h"

namespace sutra {
namespace {

struct Expected {
  const char* file;      // under tests/ (fixtures) or ../shared/traces (shared/...)
  std::uint64_t et;      // readPytorchEt
  std::uint64_t etPlus;  // readLinkedEt
};

// The path out of messages and the model, so the digest is the same in every checkout.
std::string withoutPath(std::string text, const std::string& path) {
  for (std::size_t at; (at = text.find(path)) != std::string::npos;)
    text.replace(at, path.size(), "FILE");
  return text;
}

std::uint64_t errorDigest(const std::string& message, const std::string& path) {
  test::Digest d;
  d.text("error");
  d.text(withoutPath(message, path));
  return d.result();
}

std::uint64_t etResultDigest(const std::string& path) {
  auto et = readPytorchEt(path);
  if (!et) return errorDigest(et.error().message, path);
  EXPECT_EQ(et->path, path);
  et->path.clear();
  return test::etDigest(*et);
}

std::uint64_t etPlusResultDigest(const std::string& path) {
  auto linked = readLinkedEt(path);
  if (!linked) return errorDigest(linked.error().message, path);
  auto et = std::make_shared<EtTrace>(*linked->et);
  EXPECT_EQ(et->path, path);
  et->path.clear();
  linked->et = et;
  ProblemLog problems;
  for (Problem p : linked->problems.all())
    problems.add(p.severity, p.what, p.count, withoutPath(p.example, path));
  linked->problems = problems;
  return test::linkedDigest(*linked);
}

const Expected kExpected[] = {
#include "et_reader_digests.inc"
};

std::string pathOf(const std::string& file) {
  if (file.starts_with("shared/")) return test::sharedTrace(file.substr(7));
  return std::string(SUTRA_SOURCE_DIR) + "/tests/" + file;
}

TEST(EtReaderDigest, SameModelAsBeforeOnEveryFixtureAndSharedEt) {
  const bool record = std::getenv("SUTRA_RECORD_ET_DIGESTS") != nullptr;
  int checked = 0;
  for (const Expected& e : kExpected) {
    const std::string file = e.file;
    if (file.starts_with("shared/") && !test::sharedTracesPresent()) continue;
    const std::string path = pathOf(file);
    const std::uint64_t et = etResultDigest(path), etPlus = etPlusResultDigest(path);
    if (record) {
      std::printf("    {\"%s\", 0x%016llxULL, 0x%016llxULL},\n", e.file,
                  static_cast<unsigned long long>(et), static_cast<unsigned long long>(etPlus));
      continue;
    }
    EXPECT_EQ(et, e.et) << file << " (ET reader)";
    EXPECT_EQ(etPlus, e.etPlus) << file << " (ET+ reader)";
    ++checked;
  }
  if (!record) {
    EXPECT_GE(checked, 30);
  }
}

}  // namespace
}  // namespace sutra
