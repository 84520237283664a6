// SPDX-License-Identifier: MIT
#pragma once
// What an event's Kineto category means for Sutra, independent of the backend: CUDA, ROCm (which
// Kineto also files under cuda_*), MTIA, XPU, HPU and PrivateUse1 backends (Neuron, Gaudi, ...)
// all map onto the same few classes. Unknown categories are kept as data (Other).
#include <cstdint>
#include <string_view>

namespace sutra {

enum class CategoryClass : std::uint8_t {
  Other,
  CpuOp,             // cpu_op, hpu_op, operator, Operator (PyTorch <= 1.12)
  UserAnnotation,    // user_annotation (ProfilerStep#N, record_function)
  PythonFunction,    // python_function
  Runtime,           // cuda_runtime, mtia_runtime, privateuse1_runtime, xpu_runtime, Runtime
  Driver,            // cuda_driver, privateuse1_driver, xpu_driver
  Kernel,            // kernel, Kernel, mtia_ccp_events
  Memcpy,            // gpu_memcpy, Memcpy
  Memset,            // gpu_memset, Memset
  DeviceAnnotation,  // gpu_user_annotation
  Sync,              // cuda_sync
  DeviceEvent,       // cuda_event
  Collective,        // collective_comm
  TraceSpan,         // Trace (pid "Spans"), overhead
};

CategoryClass classifyCategory(std::string_view category);
// A category Sutra knows (including those it knows to be Other: cpu_instant_event, the chakra_*
// node kinds of a Chakra timeline). Events of any other category are data no analysis reads.
bool isKnownCategory(std::string_view category);
std::string_view categoryClassName(CategoryClass c);

// Framework band: ops, annotations, Python frames.
inline bool isFramework(CategoryClass c) {
  return c == CategoryClass::CpuOp || c == CategoryClass::UserAnnotation ||
         c == CategoryClass::PythonFunction;
}
// Runtime band: host-side calls into the device runtime or driver (launches, syncs, copies).
inline bool isRuntime(CategoryClass c) {
  return c == CategoryClass::Runtime || c == CategoryClass::Driver || c == CategoryClass::Sync;
}
// Work executed on a device stream.
inline bool isDeviceOp(CategoryClass c) {
  return c == CategoryClass::Kernel || c == CategoryClass::Memcpy || c == CategoryClass::Memset;
}
inline bool isDeviceSide(CategoryClass c) {
  return isDeviceOp(c) || c == CategoryClass::DeviceAnnotation;
}

}  // namespace sutra
