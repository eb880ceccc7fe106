#pragma once
// A real two-dimensional FFT over a periodic nx × ny grid (FFTW 3, Debian's libfftw3-dev),
// for the reference Navier–Stokes solver. A field is row-major with x fastest (index
// j·nx + i); its half spectrum is ny rows of nx/2 + 1 complex modes (index n·(nx/2+1) + m,
// kx = 2π m/Lx, ky = 2π n'/Ly with n' = n or n − ny).
// The 2D transform is done as 1D transforms along the rows, then along the columns, one
// row or column at a time, split over a thread pool: every row and column sees the same
// arithmetic whatever the thread count, so results are the same bits for 1 or N threads.
#include <complex>
#include <memory>

namespace samara::core {
class ThreadPool;
}

namespace samara::fluid {

using Complex = std::complex<double>;

class Fft2 {
 public:
  /// nx, ny ≥ 4 and even. `pool` (may be null: the calling thread alone) must outlive this.
  Fft2(int nx, int ny, core::ThreadPool* pool);
  ~Fft2();
  Fft2(const Fft2&) = delete;
  Fft2& operator=(const Fft2&) = delete;

  int nx() const { return nx_; }
  int ny() const { return ny_; }
  /// nx/2 + 1: complex modes per spectrum row.
  int nxh() const { return nxh_; }

  /// Half spectrum of the real field `in` (nx·ny values), unnormalised: F = Σ f e^{−ik·x}.
  void forward(const double* in, Complex* out) const;
  /// The real field of the half spectrum `in` (ny·nxh values), with the 1/(nx·ny) factor,
  /// so inverse(forward(f)) = f to round-off. `in` is not changed.
  void inverse(const Complex* in, double* out) const;

 private:
  struct Plans;
  int nx_, ny_, nxh_;
  core::ThreadPool* pool_;
  std::unique_ptr<Plans> plans_;
};

}  // namespace samara::fluid
