// SPDX-License-Identifier: MIT
#pragma once
// A flag shared between whoever starts a long job and the job itself: the job asks canceled()
// between its stages; cancel() may come from any thread. Copies share the one flag.
#include <atomic>
#include <memory>

namespace sutra {

class CancelToken {
 public:
  CancelToken() : flag_(std::make_shared<std::atomic<bool>>(false)) {}
  void cancel() const { flag_->store(true); }
  bool canceled() const { return flag_->load(); }

 private:
  std::shared_ptr<std::atomic<bool>> flag_;
};

}  // namespace sutra
