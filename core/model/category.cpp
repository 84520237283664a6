// SPDX-License-Identifier: MIT
#include "model/category.h"

#include <array>
#include <utility>

namespace sutra {

CategoryClass classifyCategory(std::string_view c) {
  // PyTorch <= 1.12 (Kineto before its categories were renamed) writes "Operator", "Runtime",
  // "Kernel", "Memcpy" and "Memset": those are the same classes.
  static constexpr std::array<std::pair<std::string_view, CategoryClass>, 29> kTable{{
      {"cpu_op", CategoryClass::CpuOp},
      {"operator", CategoryClass::CpuOp},
      {"Operator", CategoryClass::CpuOp},
      {"hpu_op", CategoryClass::CpuOp},
      {"user_annotation", CategoryClass::UserAnnotation},
      {"python_function", CategoryClass::PythonFunction},
      {"cuda_runtime", CategoryClass::Runtime},
      {"runtime", CategoryClass::Runtime},
      {"Runtime", CategoryClass::Runtime},
      {"mtia_runtime", CategoryClass::Runtime},
      {"privateuse1_runtime", CategoryClass::Runtime},
      {"xpu_runtime", CategoryClass::Runtime},
      {"cuda_driver", CategoryClass::Driver},
      {"privateuse1_driver", CategoryClass::Driver},
      {"xpu_driver", CategoryClass::Driver},
      {"kernel", CategoryClass::Kernel},
      {"Kernel", CategoryClass::Kernel},
      {"mtia_ccp_events", CategoryClass::Kernel},
      {"gpu_memcpy", CategoryClass::Memcpy},
      {"Memcpy", CategoryClass::Memcpy},
      {"gpu_memset", CategoryClass::Memset},
      {"Memset", CategoryClass::Memset},
      {"gpu_user_annotation", CategoryClass::DeviceAnnotation},
      {"cuda_sync", CategoryClass::Sync},
      {"cuda_event", CategoryClass::DeviceEvent},
      {"collective_comm", CategoryClass::Collective},
      {"Trace", CategoryClass::TraceSpan},
      {"overhead", CategoryClass::TraceSpan},
      {"cpu_instant_event", CategoryClass::Other},
  }};
  for (const auto& [name, klass] : kTable)
    if (name == c) return klass;
  return CategoryClass::Other;
}

bool isKnownCategory(std::string_view c) {
  return classifyCategory(c) != CategoryClass::Other || c == "cpu_instant_event" ||
         c.starts_with("chakra_");
}

std::string_view categoryClassName(CategoryClass c) {
  switch (c) {
    case CategoryClass::Other:
      return "other";
    case CategoryClass::CpuOp:
      return "cpu_op";
    case CategoryClass::UserAnnotation:
      return "user_annotation";
    case CategoryClass::PythonFunction:
      return "python_function";
    case CategoryClass::Runtime:
      return "runtime";
    case CategoryClass::Driver:
      return "driver";
    case CategoryClass::Kernel:
      return "kernel";
    case CategoryClass::Memcpy:
      return "memcpy";
    case CategoryClass::Memset:
      return "memset";
    case CategoryClass::DeviceAnnotation:
      return "device_annotation";
    case CategoryClass::Sync:
      return "sync";
    case CategoryClass::DeviceEvent:
      return "device_event";
    case CategoryClass::Collective:
      return "collective";
    case CategoryClass::TraceSpan:
      return "trace_span";
  }
  return "other";
}

}  // namespace sutra
