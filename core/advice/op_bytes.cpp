// SPDX-License-Identifier: MIT
#include "advice/op_bytes.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

namespace sutra {
namespace {

// The element size of a type as the profiler names it ("float", "c10::BFloat16" ...), 0 where it
// is not a tensor's dtype.
std::int64_t elementBytes(const std::string& type) {
  if (type == "double" || type == "long int" || type == "c10::complex<float>") return 8;
  if (type == "float" || type == "int") return 4;
  if (type == "c10::BFloat16" || type == "c10::Half" || type == "short int") return 2;
  if (type == "bool" || type == "unsigned char" || type == "signed char" ||
      type.rfind("c10::Float8", 0) == 0)
    return 1;
  return 0;
}

bool isReduction(std::string_view name) {
  static constexpr std::string_view kReductions[] = {"aten::mean",      "aten::sum",
                                                     "aten::amax",      "aten::amin",
                                                     "aten::max",       "aten::min",
                                                     "aten::var",       "aten::std",
                                                     "aten::norm",      "aten::prod",
                                                     "aten::argmax",    "aten::argmin",
                                                     "aten::logsumexp", "aten::linalg_vector_norm"};
  return std::find(std::begin(kReductions), std::end(kReductions), name) != std::end(kReductions);
}

}  // namespace

std::int64_t TensorShape::bytes() const {
  if (elementBytes == 0) return 0;
  std::int64_t n = 1;
  for (auto d : dims) n *= std::max<std::int64_t>(d, 0);
  return n * elementBytes;
}

std::vector<TensorShape> inputShapes(const Trace& trace, EventId op) {
  std::vector<TensorShape> shapes;
  const auto text = trace.argsJson(trace.events[op]);
  if (text.empty()) return shapes;
  const auto args = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!args.is_object()) return shapes;
  const auto dims = args.find("Input Dims");
  const auto types = args.find("Input type");
  if (dims == args.end() || types == args.end() || !dims->is_array() || !types->is_array())
    return shapes;
  for (std::size_t i = 0; i < dims->size() && i < types->size(); ++i) {
    const auto& d = (*dims)[i];
    const auto& t = (*types)[i];
    if (!d.is_array() || !t.is_string()) continue;
    TensorShape shape;
    shape.elementBytes = elementBytes(t.get<std::string>());
    bool numbers = true;
    for (const auto& x : d) {
      if (!x.is_number_integer()) {
        numbers = false;
        break;
      }
      shape.dims.push_back(x.get<std::int64_t>());
    }
    // A 0-d tensor has [] dims and a dtype; a scalar argument has [] and "Scalar".
    if (numbers && shape.elementBytes > 0) shapes.push_back(std::move(shape));
  }
  return shapes;
}

bool broadcastsTo(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& to) {
  if (shape.size() > to.size()) return false;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const auto a = shape[shape.size() - 1 - i], b = to[to.size() - 1 - i];
    if (a != b && a != 1) return false;
  }
  return true;
}

OpBytes opBytes(const Trace& trace, EventId op) {
  OpBytes bytes;
  const auto shapes = inputShapes(trace, op);
  std::vector<std::int64_t> broadcast;
  std::int64_t elementSize = 0;
  for (const auto& s : shapes) {
    bytes.read += s.bytes();
    bytes.largestInput = std::max(bytes.largestInput, s.bytes());
    elementSize = std::max(elementSize, s.elementBytes);
    if (s.dims.size() > broadcast.size())
      broadcast.insert(broadcast.begin(), s.dims.size() - broadcast.size(), 1);
    for (std::size_t i = 0; i < s.dims.size(); ++i) {
      auto& b = broadcast[broadcast.size() - 1 - i];
      b = std::max(b, s.dims[s.dims.size() - 1 - i]);
    }
  }
  if (!shapes.empty() && !isReduction(trace.name(trace.events[op]))) {
    TensorShape out{broadcast, elementSize};
    bytes.written = out.bytes();
  }
  return bytes;
}

}  // namespace sutra
