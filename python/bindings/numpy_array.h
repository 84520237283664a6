// SPDX-License-Identifier: MIT
#pragma once
// A column handed to NumPy without a copy: the vector moves into a capsule the array owns.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <utility>
#include <vector>

namespace sutra::python {

template <class T>
using Array = nanobind::ndarray<nanobind::numpy, T, nanobind::ndim<1>>;

// The vector handed to NumPy, which frees it with the array.
template <class T>
Array<T> toNumpy(std::vector<T>&& values) {
  auto* owned = new std::vector<T>(std::move(values));
  nanobind::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return Array<T>(owned->data(), {owned->size()}, owner);
}

}  // namespace sutra::python
