#pragma once
// A single-producer single-consumer triple buffer: the writer never waits for the reader
// and the reader always gets the latest complete value (older ones are skipped).
#include <array>
#include <atomic>
#include <cstdint>

namespace samara::runtime {

template <typename T>
class TripleBuffer {
 public:
  TripleBuffer() = default;
  TripleBuffer(const TripleBuffer&) = delete;
  TripleBuffer& operator=(const TripleBuffer&) = delete;

  /// Writer thread: the slot to fill. Keeps its contents (and allocations) from the value
  /// written three publications ago, so fill every field.
  T& back() { return slots_[back_]; }
  /// Writer thread: makes back() the latest value.
  void publish() {
    const std::uint32_t old = middle_.exchange(back_ | kFresh, std::memory_order_acq_rel);
    back_ = old & kIndexMask;
  }
  /// Reader thread: takes the latest published value if there is a new one. Returns true
  /// if front() changed.
  bool update() {
    if ((middle_.load(std::memory_order_relaxed) & kFresh) == 0) return false;
    const std::uint32_t old = middle_.exchange(front_, std::memory_order_acq_rel);
    front_ = old & kIndexMask;
    return true;
  }
  /// Reader thread: the value taken by the last update().
  const T& front() const { return slots_[front_]; }

 private:
  static constexpr std::uint32_t kFresh = 4;
  static constexpr std::uint32_t kIndexMask = 3;
  std::array<T, 3> slots_{};
  std::uint32_t back_ = 0;   // writer only
  std::uint32_t front_ = 1;  // reader only
  std::atomic<std::uint32_t> middle_{2};
};

}  // namespace samara::runtime
