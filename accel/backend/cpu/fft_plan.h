// accel's own FFT (no FFTW, no pocketfft): plans for one transform length, built once and
// cached per (length, precision, kind). A plan holds everything that depends only on the length
// (factorisation, twiddles, Bluestein's chirp) and runs on caller-supplied buffers, so one plan
// serves any number of threads at once.
//
//   ComplexPlan<T>  complex -> complex, any n >= 1: mixed-radix Stockham passes (fft_kernels.h)
//                   when n's prime factors are small, Bluestein's chirp-z through a smooth
//                   length otherwise.
//   RealPlan<T>     real <-> Hermitian half spectrum: even n through a complex plan of n/2 and a
//                   pass that separates the even and odd samples; odd n through the complex plan.
#pragma once
#include <complex>
#include <cstdint>
#include <memory>
#include <vector>

namespace accel::cpu::fft {

// One Stockham pass: radix p over sub-sequences of length m (fft_kernels.h has the passes).
struct Stage {
  int radix;
  int64_t m;         // length of each sub-transform after this pass
  int64_t stride;    // number of interleaved sequences before this pass
  int64_t twiddle0;  // offset of this pass's twiddles (m * (radix - 1) of them) in the table
  int64_t generic0;  // offset of the generic radix's cos/sin table, -1 for 2, 3, 4, 5
};

template <class T>
class ComplexPlan {
 public:
  using C = std::complex<T>;
  explicit ComplexPlan(int64_t n);
  int64_t size() const { return n_; }
  // Elements of scratch execute() needs beside the data.
  int64_t scratch_size() const { return scratch_; }
  // The unnormalised transform of data[0, n) in place: forward multiplies by exp(-2 pi i jk/n),
  // backward by exp(+2 pi i jk/n).
  void execute(C* data, C* scratch, bool forward) const;
  // Whether execute_interleaved() is available: Stockham plans, and Bluestein plans through
  // their (Stockham) inner plan.
  bool interleaves() const { return algorithm_ == Algorithm::stockham || inner_->interleaves(); }
  // `batch` transforms at once, interleaved: element k of sequence b at data[k * batch + b]
  // (scratch: batch * scratch_size()). The passes' inner loops then run over the batch, which is
  // how blocks of lines are transformed. The result is left in data or in scratch, whichever the
  // last pass wrote (saving a copy): the returned pointer says which.
  C* execute_interleaved(C* data, C* scratch, int64_t batch, bool forward) const;
  // Which algorithm the plan chose, for tests and messages: "stockham" or "bluestein".
  const char* algorithm() const;

 private:
  enum class Algorithm { stockham, bluestein };
  void plan_stockham(const std::vector<int>& radices);
  void plan_bluestein();
  C* run_stockham(C* data, C* scratch, int64_t batch, bool forward) const;
  void run_bluestein(C* data, C* scratch, int64_t batch, bool forward) const;

  int64_t n_;
  int64_t scratch_ = 0;
  Algorithm algorithm_ = Algorithm::stockham;
  // Stockham: passes, their twiddles w_L^{jr} and the generic radices' cos/sin tables.
  std::vector<Stage> stages_;
  std::vector<C> twiddles_;
  std::vector<T> generic_;
  // Bluestein: the chirp exp(-pi i k^2/n) and the transformed, 1/m-scaled conjugate chirp of
  // the smooth length m >= 2n - 1 it convolves through.
  std::shared_ptr<const ComplexPlan<T>> inner_;
  std::vector<C> chirp_, chirp_hat_;
};

template <class T>
class RealPlan {
 public:
  using C = std::complex<T>;
  explicit RealPlan(int64_t n);
  int64_t size() const { return n_; }
  int64_t scratch_size() const { return scratch_; }
  // Whether batch > 1 is available (the inner complex plan interleaves).
  bool interleaves() const { return complex_->interleaves(); }
  // out[0, n/2] = the first n/2 + 1 terms of the forward transform of the real in[0, n).
  // With batch > 1, `batch` interleaved lines (element k of line b at k * batch + b) in and out,
  // and batch * scratch_size() of scratch.
  void forward(const T* in, C* out, C* scratch, int64_t batch = 1) const;
  // out[0, n) = the unnormalised backward transform of the Hermitian spectrum whose first
  // n/2 + 1 terms are in[0, n/2] (in's imaginary parts that a real signal cannot have, at 0 and
  // at n/2 for even n, are ignored, as NumPy does). `in` is not modified. batch as forward's.
  void backward(const C* in, T* out, C* scratch, int64_t batch = 1) const;

 private:
  void run_complex(C* data, C* scratch, int64_t batch, bool forward) const;

  int64_t n_;
  int64_t scratch_ = 0;
  std::shared_ptr<const ComplexPlan<T>> complex_;  // of n/2 (even n) or n (odd n)
  std::vector<C> twiddles_;                        // exp(-2 pi i k/n), k < n/2 (even n)
};

// The cached plans (a bounded process-wide cache; thread-safe). n >= 1.
template <class T>
std::shared_ptr<const ComplexPlan<T>> complex_plan(int64_t n);
template <class T>
std::shared_ptr<const RealPlan<T>> real_plan(int64_t n);

// exp(-2 pi i k / n) in double, reduced to the first octant so that large k/n lose no accuracy.
std::complex<double> unit_root(int64_t k, int64_t n);

}  // namespace accel::cpu::fft
