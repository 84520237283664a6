// SPDX-License-Identifier: MIT
#include "link/linked_trace.h"

#include <gtest/gtest.h>

namespace sutra {
namespace {

TEST(LinkedTrace, FindsOpsByIdAfterReindex) {
  LinkedTrace linked;
  LinkedOp cpu;
  cpu.id = 3;
  cpu.name = "aten::mm";
  LinkedOp kernel;
  kernel.id = 7;
  kernel.kind = LinkedOpKind::DeviceOp;
  kernel.parent = 3;
  linked.ops = {cpu, kernel};
  linked.reindex();
  ASSERT_NE(linked.find(7), nullptr);
  EXPECT_TRUE(linked.find(7)->isDevice());
  EXPECT_EQ(linked.find(linked.find(7)->parent)->name, "aten::mm");
  EXPECT_EQ(linked.find(5), nullptr);
  EXPECT_EQ(linked.etNode(cpu), nullptr);         // no ET attached
  EXPECT_EQ(linked.kinetoEventOf(cpu), nullptr);  // no Kineto match
}

}  // namespace
}  // namespace sutra
