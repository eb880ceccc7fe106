#pragma once
// The overload-set helper for std::visit over the command variant.

namespace samara::runtime {

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

}  // namespace samara::runtime
