// SPDX-License-Identifier: MIT
// The compact ET model (issue 21): nodes hold views into storage their trace owns and its copies
// share; no node keeps its JSON, which readEtNodeTexts reads again from the file for the ET+
// writer, refusing a file that changed since it was read.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "io/readers.h"
#include "link/et_plus_writer.h"
#include "link/linked_trace.h"
#include "test_support.h"

namespace sutra {
namespace {

// Two nodes named alike, a device node of an ET+ ("cat" at its top level) and a node whose
// attribute value merely contains the text "cat"; node 4 is written twice (the later is kept).
constexpr const char* kEt = R"JSON({"schema": "1.0.3-chakra.0.0.4", "pid": 7, "nodes": [
{"id": 1, "name": "[pytorch|profiler|execution_trace|process]", "ctrl_deps": 1, "inputs": {"values": [], "shapes": [], "types": []}, "outputs": {"values": [], "shapes": [], "types": []}, "attrs": []},
{"id": 2, "name": "aten::add", "ctrl_deps": 1, "inputs": {"values": [[5, 6, 0, 4, 4, "cuda:0"], 1], "shapes": [[2, 2], []], "types": ["Tensor(float)", "Int"]}, "outputs": {"values": [], "shapes": [], "types": []}, "attrs": [{"name": "note", "type": "string", "value": "\"cat\": \"kernel\""}]},
{"id": 3, "name": "aten::add", "ctrl_deps": 1, "cat": "kernel", "inputs": {"values": [[5, 6, 0, 4, 4, "cuda:0"]], "shapes": [[2, 2]], "types": ["Tensor(float)"]}, "outputs": {"values": [], "shapes": [], "types": []}, "attrs": []},
{"id": 4, "name": "first", "ctrl_deps": 1, "inputs": {"values": [], "shapes": [], "types": []}, "outputs": {"values": [], "shapes": [], "types": []}, "attrs": []},
{"id": 4, "name": "second", "ctrl_deps": 1, "inputs": {"values": [], "shapes": [], "types": []}, "outputs": {"values": [], "shapes": [], "types": []}, "attrs": []}
]})JSON";

std::string writeEt(const std::string& name) {
  const std::string path = test::tempPath(name);
  std::ofstream(path) << kEt;
  return path;
}

TEST(EtCompactModel, CategoryIsTheTopLevelCatOnly) {
  auto et = readPytorchEt(writeEt("compact_category.json"));
  ASSERT_TRUE(et.ok()) << et.error().message;
  EXPECT_EQ(et->find(2)->category(), "");  // "cat" inside an attribute's string is no category
  EXPECT_EQ(et->find(3)->category(), "kernel");
  EXPECT_EQ(et->find(4)->name, "second");
}

TEST(EtCompactModel, RepeatedStringsAreStoredOnceAndCopiesShareTheStorage) {
  EtTrace copy;
  {
    auto et = readPytorchEt(writeEt("compact_share.json"));
    ASSERT_TRUE(et.ok()) << et.error().message;
    const EtNode& a = *et->find(2);
    const EtNode& b = *et->find(3);
    EXPECT_EQ(a.name.data(), b.name.data());
    EXPECT_EQ(a.inputs.types()[0].data(), b.inputs.types()[0].data());
    EXPECT_EQ(a.inputs.tensors[0].device.data(), b.inputs.tensors[0].device.data());
    copy = *et;
  }  // the trace read is gone: the copy's views still point into the storage they share
  const EtNode& n = *copy.find(2);
  EXPECT_EQ(n.name, "aten::add");
  ASSERT_EQ(n.inputs.types().size(), 2u);
  EXPECT_EQ(n.inputs.types()[1], "Int");
  ASSERT_EQ(n.inputs.shapes().size(), 2u);
  EXPECT_EQ(std::vector<std::int64_t>(n.inputs.shapes()[0].begin(), n.inputs.shapes()[0].end()),
            (std::vector<std::int64_t>{2, 2}));
  EXPECT_TRUE(n.inputs.shapes()[1].empty());
  EXPECT_EQ(n.inputs.valuesJson, R"([[5,6,0,4,4,"cuda:0"],1])");
  ASSERT_EQ(n.inputs.tensors.size(), 1u);
  EXPECT_EQ(n.inputs.tensors[0].device, "cuda:0");
  EXPECT_EQ(n.inputs.tensors[0].numel, 4);
}

TEST(EtCompactModel, ArgumentsSeenShortlyBeforeAreStoredOnce) {
  auto et = readPytorchEt(writeEt("compact_recent.json"));
  ASSERT_TRUE(et.ok()) << et.error().message;
  // Nodes 2 and 3 hold the same tensor (their values texts differ: node 2 adds a scalar).
  EXPECT_EQ(et->find(2)->inputs.tensors.data(), et->find(3)->inputs.tensors.data());
  EXPECT_NE(et->find(2)->inputs.valuesJson, et->find(3)->inputs.valuesJson);
}

TEST(EtCompactModel, CopyRecentSharesAnEqualCopyAndKeepsEveryText) {
  EtStorage storage;
  const std::string first = R"([[5,6,0,4,4,"cuda:0"],1])";
  const std::string_view kept = storage.copyRecent(std::string_view(first));
  EXPECT_EQ(kept, first);
  EXPECT_NE(kept.data(), first.data());
  EXPECT_EQ(storage.copyRecent(std::string_view(std::string(first))).data(), kept.data());
  // Far more texts than the table has slots: each copy holds its own text whatever it evicted,
  // and equal texts share one copy while the table still has it.
  std::vector<std::pair<std::string, std::string_view>> copies;
  for (std::size_t i = 0; i < 3 * EtStorage::kRecentSlots; ++i) {
    std::string text = "[" + std::to_string(i) + "]";
    const std::string_view copy = storage.copyRecent(std::string_view(text));
    EXPECT_EQ(copy.data(), storage.copyRecent(std::string_view(text)).data());
    copies.emplace_back(std::move(text), copy);
  }
  for (const auto& [text, copy] : copies) ASSERT_EQ(copy, text);
  EXPECT_EQ(kept, first);
  // Lists compare by their bytes and come back aligned for their items.
  const std::int64_t dims[] = {2, 3, 4};
  const auto a = storage.copyRecent(std::span<const std::int64_t>(dims));
  storage.copyRecent(std::string_view("x"));  // the next block byte is unaligned
  const auto b = storage.copyRecent(std::span<const std::int64_t>(dims));
  EXPECT_EQ(a.data(), b.data());
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % alignof(std::int64_t), 0u);
  // Empty in, empty out; after forgetShared() it still copies.
  EXPECT_TRUE(storage.copyRecent(std::string_view()).empty());
  storage.forgetShared();
  EXPECT_EQ(storage.copyRecent(std::string_view(first)), first);
}

TEST(EtCompactModel, SidesWithTheSameTypesAndShapesShareOneSignature) {
  auto et = readPytorchEt(writeEt("compact_signature.json"));
  ASSERT_TRUE(et.ok()) << et.error().message;
  // Nodes 1 and 4: empty lists on both sides; their outputs too; node 2's inputs differ.
  EXPECT_EQ(et->find(1)->inputs.signature, et->find(4)->inputs.signature);
  EXPECT_EQ(et->find(1)->inputs.signature, et->find(4)->outputs.signature);
  EXPECT_NE(et->find(2)->inputs.signature, et->find(1)->inputs.signature);
  EXPECT_EQ(et->find(1)->inputs.shapesJson(), "[]");
  EXPECT_EQ(et->find(2)->inputs.shapesJson(), "[[2,2],[]]");
  // A node without an inputs member keeps the shared empty signature.
  EtNode bare;
  EXPECT_EQ(bare.inputs.signature, &kNoEtArgsSignature);
  EXPECT_TRUE(bare.inputs.types().empty());
}

TEST(EtCompactModel, NodeTextsAreReadAgainFromTheFile) {
  const std::string path = writeEt("compact_texts.json");
  auto et = readPytorchEt(path);
  ASSERT_TRUE(et.ok()) << et.error().message;
  std::map<std::int64_t, std::string> texts;
  auto read = readEtNodeTexts(*et, [&](std::int64_t id, std::string_view json) {
    texts.insert_or_assign(id, std::string(json));
  });
  ASSERT_TRUE(read.ok()) << read.error().message;
  ASSERT_EQ(texts.size(), 4u);
  EXPECT_TRUE(texts[3].starts_with(R"({"id": 3, "name": "aten::add", "ctrl_deps": 1, "cat")"));
  EXPECT_TRUE(texts[3].ends_with(R"("attrs": []})"));
  EXPECT_NE(texts[4].find("\"second\""), std::string::npos);  // the later of the two
}

TEST(EtCompactModel, AFileChangedOrGoneSinceItWasReadIsRefusedNamingIt) {
  const std::string path = writeEt("compact_changed.json");
  auto et = readPytorchEt(path);
  ASSERT_TRUE(et.ok()) << et.error().message;
  // One byte more: the size tells the change (no wait for the clock to move the mtime on).
  std::ofstream(path, std::ios::app) << "\n";
  auto read = readEtNodeTexts(*et, [](std::int64_t, std::string_view) {});
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().message.find(path), std::string::npos);
  EXPECT_NE(read.error().message.find("changed since it was read"), std::string::npos);

  // The ET+ writer says so too, and writes nothing.
  std::filesystem::remove(path);
  LinkedTrace linked;
  linked.et = std::make_shared<EtTrace>(std::move(*et));
  const std::string out = test::tempPath("compact_changed_plus.json");
  std::filesystem::remove(out);
  auto written = writeEtPlus(linked, out);
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.error().message.find("no longer there"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace sutra
