#include "fluid/fft2.h"

#include <fftw3.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/thread_pool.h"

namespace samara::fluid {

namespace {
/// FFTW's planner is not thread-safe; the execute calls are.
std::mutex& plannerMutex() {
  static std::mutex m;
  return m;
}
constexpr int kBlocks = 16;  ///< rows/columns are split into this many tasks
}  // namespace

struct Fft2::Plans {
  fftw_plan r2c = nullptr;
  fftw_plan c2r = nullptr;
  fftw_plan colForward = nullptr;
  fftw_plan colBackward = nullptr;
  mutable std::vector<std::vector<Complex>> columnBuffers;  ///< one per block
  mutable std::vector<Complex> work;                        ///< inverse's copy of the input
};

Fft2::Fft2(int nx, int ny, core::ThreadPool* pool)
    : nx_(nx), ny_(ny), nxh_(nx / 2 + 1), pool_(pool), plans_(std::make_unique<Plans>()) {
  if (nx < 4 || ny < 4 || nx % 2 || ny % 2) {
    throw std::invalid_argument("Fft2: the grid must be even and at least 4 x 4 (got " +
                                std::to_string(nx) + " x " + std::to_string(ny) + ")");
  }
  std::vector<double> real(static_cast<std::size_t>(nx));
  std::vector<Complex> half(static_cast<std::size_t>(nxh_));
  std::vector<Complex> column(static_cast<std::size_t>(ny));
  auto* h = reinterpret_cast<fftw_complex*>(half.data());
  auto* c = reinterpret_cast<fftw_complex*>(column.data());
  const unsigned flags = FFTW_ESTIMATE | FFTW_UNALIGNED;
  {
    std::lock_guard<std::mutex> lock(plannerMutex());
    plans_->r2c = fftw_plan_dft_r2c_1d(nx, real.data(), h, flags);
    plans_->c2r = fftw_plan_dft_c2r_1d(nx, h, real.data(), flags);
    plans_->colForward = fftw_plan_dft_1d(ny, c, c, FFTW_FORWARD, flags);
    plans_->colBackward = fftw_plan_dft_1d(ny, c, c, FFTW_BACKWARD, flags);
  }
  if (!plans_->r2c || !plans_->c2r || !plans_->colForward || !plans_->colBackward) {
    throw std::runtime_error("Fft2: FFTW could not plan the transforms");
  }
  plans_->columnBuffers.assign(kBlocks, std::vector<Complex>(static_cast<std::size_t>(ny)));
  plans_->work.resize(static_cast<std::size_t>(ny) * nxh_);
}

Fft2::~Fft2() {
  std::lock_guard<std::mutex> lock(plannerMutex());
  fftw_destroy_plan(plans_->r2c);
  fftw_destroy_plan(plans_->c2r);
  fftw_destroy_plan(plans_->colForward);
  fftw_destroy_plan(plans_->colBackward);
}

namespace {

/// Calls body(lo, hi) for kBlocks consecutive ranges covering [0, n), on the pool.
template <class F>
void blocks(core::ThreadPool* pool, int n, const F& body) {
  auto task = [&](int b) {
    const int lo = static_cast<int>(static_cast<long long>(n) * b / kBlocks);
    const int hi = static_cast<int>(static_cast<long long>(n) * (b + 1) / kBlocks);
    body(b, lo, hi);
  };
  if (pool) {
    pool->run(kBlocks, task);
  } else {
    for (int b = 0; b < kBlocks; ++b) task(b);
  }
}

/// 1D transforms along the columns of a ny × nxh spectrum, in place.
void columns(core::ThreadPool* pool, fftw_plan plan, int nxh, int ny, Complex* data,
             std::vector<std::vector<Complex>>& buffers) {
  blocks(pool, nxh, [&](int b, int lo, int hi) {
    Complex* buf = buffers[static_cast<std::size_t>(b)].data();
    auto* fb = reinterpret_cast<fftw_complex*>(buf);
    for (int m = lo; m < hi; ++m) {
      for (int n = 0; n < ny; ++n) buf[n] = data[static_cast<std::size_t>(n) * nxh + m];
      fftw_execute_dft(plan, fb, fb);
      for (int n = 0; n < ny; ++n) data[static_cast<std::size_t>(n) * nxh + m] = buf[n];
    }
  });
}

}  // namespace

void Fft2::forward(const double* in, Complex* out) const {
  blocks(pool_, ny_, [&](int, int lo, int hi) {
    for (int j = lo; j < hi; ++j) {
      // An out-of-place r2c transform leaves its input as it was (FFTW manual, §4.3.2).
      fftw_execute_dft_r2c(
          plans_->r2c, const_cast<double*>(in) + static_cast<std::size_t>(j) * nx_,
          reinterpret_cast<fftw_complex*>(out + static_cast<std::size_t>(j) * nxh_));
    }
  });
  columns(pool_, plans_->colForward, nxh_, ny_, out, plans_->columnBuffers);
}

void Fft2::inverse(const Complex* in, double* out) const {
  Complex* work = plans_->work.data();
  std::copy(in, in + static_cast<std::size_t>(ny_) * nxh_, work);
  columns(pool_, plans_->colBackward, nxh_, ny_, work, plans_->columnBuffers);
  const double scale = 1.0 / (static_cast<double>(nx_) * ny_);
  blocks(pool_, ny_, [&](int, int lo, int hi) {
    for (int j = lo; j < hi; ++j) {
      double* row = out + static_cast<std::size_t>(j) * nx_;
      fftw_execute_dft_c2r(
          plans_->c2r, reinterpret_cast<fftw_complex*>(work + static_cast<std::size_t>(j) * nxh_),
          row);
      for (int i = 0; i < nx_; ++i) row[i] *= scale;
    }
  });
}

}  // namespace samara::fluid
