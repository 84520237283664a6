// SPDX-License-Identifier: MIT
#include "chakra/op_cost.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace sutra::chakra {
namespace {

using Shape = EtShape;

std::int64_t numel(const Shape& s) {
  std::int64_t n = 1;
  for (auto d : s) n *= std::max<std::int64_t>(d, 0);
  return n;
}

const Shape* shapeAt(const EtArgs& args, std::size_t i) {
  return i < args.shapes().size() && !args.shapes()[i].empty() ? &args.shapes()[i] : nullptr;
}

// "aten::add_" -> "add": the in-place and out variants cost the same.
std::string_view baseName(std::string_view name) {
  if (auto p = name.rfind("::"); p != std::string_view::npos) name.remove_prefix(p + 2);
  while (!name.empty() && name.back() == '_') name.remove_suffix(1);
  if (!name.empty() && name.front() == '_') name.remove_prefix(1);
  return name;
}

// 2*m*k*n per batch for A[..., m, k] x B[..., k, n]; a 1-D operand is a row or column vector.
std::int64_t matmulFlops(const Shape& a, const Shape& b) {
  if (a.empty() || b.empty()) return 0;
  const std::int64_t k = a.back();
  const std::int64_t m = a.size() >= 2 ? a[a.size() - 2] : 1;
  const std::int64_t n = b.size() >= 2 ? b.back() : 1;
  const std::int64_t batchA = a.size() > 2 ? numel(Shape(a.begin(), a.end() - 2)) : 1;
  const std::int64_t batchB = b.size() > 2 ? numel(Shape(b.begin(), b.end() - 2)) : 1;
  return 2 * std::max(batchA, batchB) * m * k * n;
}

constexpr std::array<std::string_view, 44> kElementwise = {"add",
                                                           "sub",
                                                           "rsub",
                                                           "mul",
                                                           "div",
                                                           "neg",
                                                           "abs",
                                                           "relu",
                                                           "gelu",
                                                           "silu",
                                                           "sigmoid",
                                                           "tanh",
                                                           "exp",
                                                           "log",
                                                           "sqrt",
                                                           "rsqrt",
                                                           "pow",
                                                           "reciprocal",
                                                           "clamp",
                                                           "clamp_min",
                                                           "clamp_max",
                                                           "threshold",
                                                           "threshold_backward",
                                                           "gelu_backward",
                                                           "silu_backward",
                                                           "sigmoid_backward",
                                                           "tanh_backward",
                                                           "hardtanh",
                                                           "leaky_relu",
                                                           "elu",
                                                           "where",
                                                           "maximum",
                                                           "minimum",
                                                           "addcmul",
                                                           "addcdiv",
                                                           "lerp",
                                                           "sin",
                                                           "cos",
                                                           "erf",
                                                           "sign",
                                                           "square",
                                                           "floor",
                                                           "ceil",
                                                           "round"};

bool isElementwise(std::string_view base) {
  return std::find(kElementwise.begin(), kElementwise.end(), base) != kElementwise.end();
}

bool isConvolution(std::string_view base) {
  return base.find("transpose") == std::string_view::npos &&
         (base == "convolution" || base == "conv1d" || base == "conv2d" || base == "conv3d" ||
          base == "cudnn_convolution" || base == "miopen_convolution" ||
          base == "mkldnn_convolution" || base == "convolution_overrideable");
}

std::int64_t itemsizeOfType(std::string_view type) {
  if (type.find("double") != std::string_view::npos ||
      type.find("long") != std::string_view::npos || type.find("int64") != std::string_view::npos ||
      type.find("ComplexFloat") != std::string_view::npos)
    return 8;
  if (type.find("Half") != std::string_view::npos || type.find("half") != std::string_view::npos ||
      type.find("BFloat16") != std::string_view::npos ||
      type.find("short") != std::string_view::npos)
    return 2;
  if (type.find("bool") != std::string_view::npos ||
      type.find("unsigned char") != std::string_view::npos ||
      type.find("signed char") != std::string_view::npos ||
      type.find("int8") != std::string_view::npos)
    return 1;
  return 4;
}

std::uint64_t bytesOf(const EtArgs& args) {
  std::uint64_t bytes = 0;
  if (!args.tensors.empty()) {
    for (const auto& t : args.tensors)
      bytes += static_cast<std::uint64_t>(std::max<std::int64_t>(t.numel, 0)) *
               static_cast<std::uint64_t>(std::max<std::int64_t>(t.itemsize, 0));
    return bytes;
  }
  // Writers without tensor tuples: the shapes and the element type in "Tensor(float)".
  for (std::size_t i = 0; i < args.shapes().size() && i < args.types().size(); ++i)
    if (args.types()[i].starts_with("Tensor") && !args.shapes()[i].empty())
      bytes +=
          static_cast<std::uint64_t>(numel(args.shapes()[i]) * itemsizeOfType(args.types()[i]));
  return bytes;
}

}  // namespace

bool isComputeOp(const EtNode& node) {
  const std::string_view base = baseName(node.name);
  return base == "mm" || base == "matmul" || base == "bmm" || base == "addmm" ||
         base == "baddbmm" || base == "linear" || isConvolution(base) || isElementwise(base);
}

OpCost estimateOpCost(const EtNode& node) {
  OpCost cost;
  cost.tensorBytes = bytesOf(node.inputs) + bytesOf(node.outputs);
  const std::string_view base = baseName(node.name);
  const EtArgs& in = node.inputs;
  const Shape* out0 = shapeAt(node.outputs, 0);
  if (base == "mm" || base == "matmul") {
    cost.computeOp = true;
    if (shapeAt(in, 0) && shapeAt(in, 1)) cost.flops = matmulFlops(in.shapes()[0], in.shapes()[1]);
  } else if (base == "bmm") {
    cost.computeOp = true;
    if (shapeAt(in, 0) && shapeAt(in, 1)) cost.flops = matmulFlops(in.shapes()[0], in.shapes()[1]);
  } else if (base == "addmm" || base == "baddbmm") {
    cost.computeOp = true;  // self + mat1 @ mat2: the product plus one add per output element
    if (shapeAt(in, 1) && shapeAt(in, 2)) {
      cost.flops = matmulFlops(in.shapes()[1], in.shapes()[2]);
      if (out0) cost.flops += numel(*out0);
    }
  } else if (base == "linear") {
    cost.computeOp = true;  // input[..., k] x weight[n, k]^T (+ bias)
    if (shapeAt(in, 0) && shapeAt(in, 1) && in.shapes()[1].size() == 2) {
      const Shape& x = in.shapes()[0];
      const std::int64_t rows = numel(Shape(x.begin(), x.end() - 1));
      const std::int64_t k = x.back(), n = in.shapes()[1][0];
      cost.flops = 2 * rows * k * n + (shapeAt(in, 2) ? rows * n : 0);
    }
  } else if (isConvolution(base)) {
    cost.computeOp = true;  // 2 x output elements x (Cin/groups x kernel elements), + bias
    if (shapeAt(in, 1) && out0 && in.shapes()[1].size() >= 2) {
      const Shape& w = in.shapes()[1];
      cost.flops = 2 * numel(*out0) * numel(Shape(w.begin() + 1, w.end())) +
                   (shapeAt(in, 2) ? numel(*out0) : 0);
    }
  } else if (isElementwise(base)) {
    cost.computeOp = true;  // one operation per output element
    std::int64_t elems = out0 ? numel(*out0) : 0;
    if (elems == 0)
      for (const auto& s : in.shapes())
        if (!s.empty()) elems = std::max(elems, numel(s));
    cost.flops = elems;
  }
  return cost;
}

}  // namespace sutra::chakra
