#pragma once
// A lossless multi-producer channel: the producer appends, the consumer takes everything
// published so far. A short lock guards only the append and the swap, never a step.
#include <cstddef>
#include <mutex>
#include <vector>

namespace samara::runtime {

template <typename T>
class SampleChannel {
 public:
  /// Appends every element of `items` (producer).
  void push(const std::vector<T>& items) {
    if (items.empty()) return;
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.insert(queue_.end(), items.begin(), items.end());
  }
  /// Appends everything pushed since the last call to `out` (consumer). Returns the count.
  std::size_t take(std::vector<T>* out) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      spare_.swap(queue_);
    }
    const std::size_t n = spare_.size();
    out->insert(out->end(), spare_.begin(), spare_.end());
    spare_.clear();  // keeps the capacity for the next swap
    return n;
  }
  /// Number of elements waiting.
  std::size_t pending() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return queue_.size();
  }

 private:
  mutable std::mutex mutex_;
  std::vector<T> queue_;
  std::vector<T> spare_;  // consumer only
};

}  // namespace samara::runtime
