#include "cli/terminal.h"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <iostream>

#include "io/text_format.h"

namespace samara::cli {

bool showsProgress(const std::ostream& err) {
  return &err == &std::cerr && ::isatty(STDERR_FILENO) == 1;
}

ProgressLine::~ProgressLine() {
  if (shown_) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }
}

bool ProgressLine::due() {
  if (!enabled_) return false;
  const Clock::time_point now = Clock::now();
  if (now - start_ < std::chrono::seconds(1) || now - last_ < std::chrono::milliseconds(200)) {
    return false;
  }
  last_ = now;
  return true;
}

double ProgressLine::elapsed() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

void ProgressLine::show(const std::string& text) {
  shown_ = true;
  std::fputs(("\r" + text).c_str(), stderr);
  std::fflush(stderr);
}

void RunProgress::step(const core::World& world, long long k, const core::StepReport&) {
  if (!line_.due()) return;
  const double t = world.time();
  const double wall = line_.elapsed();
  const double fraction = duration_ > 0.0 ? std::min(1.0, t / duration_) : 1.0;
  line_.show(io::strf("samara: t = %.3f / %g s  %3.0f%%  %.0f steps/s  ETA %s ", t, duration_,
                      100.0 * fraction, static_cast<double>(k) / wall,
                      io::clockText(ProgressLine::eta(wall, fraction)).c_str()));
}

namespace {

std::atomic<bool> gInterrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void onInterrupt(int sig) {
  gInterrupted.store(true, std::memory_order_relaxed);
  std::signal(sig, SIG_DFL);  // a second signal ends the process at once
}

void install(struct sigaction* oldInt, struct sigaction* oldTerm) {
  struct sigaction sa = {};
  sa.sa_handler = onInterrupt;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, oldInt);
  ::sigaction(SIGTERM, &sa, oldTerm);
}

}  // namespace

const std::atomic<bool>& interruptFlag() { return gInterrupted; }

void installInterruptHandler() { install(nullptr, nullptr); }

InterruptScope::InterruptScope() { install(&oldInt_, &oldTerm_); }

InterruptScope::~InterruptScope() {
  ::sigaction(SIGINT, &oldInt_, nullptr);
  ::sigaction(SIGTERM, &oldTerm_, nullptr);
}

}  // namespace samara::cli
