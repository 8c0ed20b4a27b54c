// Plans of accel's FFT: factorisation, twiddles (always computed in double, then rounded once to
// the transform's precision), Bluestein's chirp, the real transforms' split, and the plan cache.
#include "accel/backend/cpu/fft_plan.h"

#include <algorithm>
#include <cmath>
#include <list>
#include <mutex>
#include <utility>

#include "accel/backend/cpu/fft_kernels.h"

namespace accel::cpu::fft {

std::complex<double> unit_root(int64_t k, int64_t n) {
  k %= n;
  if (k < 0) k += n;
  // The angle is 2 pi a / d with d = 8n; three reflections bring it into [0, pi/4], where sin
  // and cos of a small argument are accurate to the last bit.
  const unsigned __int128 d = static_cast<unsigned __int128>(n) * 8;
  unsigned __int128 a = static_cast<unsigned __int128>(k) * 8;
  bool negate_sin = false, negate_cos = false, swap = false;
  if (2 * a > d) a = d - a, negate_sin = true;      // theta -> 2 pi - theta
  if (4 * a > d) a = d / 2 - a, negate_cos = true;  // theta -> pi - theta
  if (8 * a > d) a = d / 4 - a, swap = true;        // theta -> pi/2 - theta
  const double theta = 2 * M_PI * static_cast<double>(a) / static_cast<double>(d);
  double c = std::cos(theta), s = std::sin(theta);
  if (swap) std::swap(c, s);
  if (negate_cos) c = -c;
  if (negate_sin) s = -s;
  return {c, -s};
}

namespace {

// Radix 4 while it divides, then 2, 3, 5, then the odd primes (each prime once per power).
std::vector<int> radices_of(int64_t n) {
  std::vector<int> r;
  while (n % 4 == 0) r.push_back(4), n /= 4;
  if (n % 2 == 0) r.push_back(2), n /= 2;
  for (int64_t p = 3; p * p <= n; p += 2)
    while (n % p == 0) r.push_back(static_cast<int>(p)), n /= p;
  if (n > 1) r.push_back(n > (int64_t{1} << 30) ? -1 : static_cast<int>(n));  // -1: huge prime
  return r;
}

// Work per element of a mixed-radix transform: each pass of radix p costs about p operations.
double stockham_cost(int64_t n, const std::vector<int>& radices) {
  double sum = 0;
  for (int p : radices) sum += p;
  return static_cast<double>(n) * sum;
}

// The smallest 2^a 3^b 5^c >= target: Bluestein's convolution length.
int64_t smooth_length(int64_t target) {
  int64_t best = 1;
  while (best < target) best *= 2;
  for (int64_t p5 = 1; p5 < best; p5 *= 5)
    for (int64_t p35 = p5; p35 < best; p35 *= 3) {
      int64_t v = p35;
      while (v < target) v *= 2;
      best = std::min(best, v);
    }
  return best;
}

bool needs_bluestein(int64_t n, const std::vector<int>& radices) {
  if (std::any_of(radices.begin(), radices.end(),
                  [](int p) { return p < 0 || p > kMaxGenericRadix; }))
    return true;
  const int64_t m = smooth_length(2 * n - 1);
  // Two transforms of length m plus the chirp products, against the direct passes.
  const double bluestein = 2 * stockham_cost(m, radices_of(m)) + 6.0 * static_cast<double>(m);
  return bluestein < stockham_cost(n, radices);
}

template <class T>
std::complex<T> narrow(std::complex<double> z) {
  return {static_cast<T>(z.real()), static_cast<T>(z.imag())};
}

}  // namespace

template <class T>
ComplexPlan<T>::ComplexPlan(int64_t n) : n_(n) {
  const std::vector<int> radices = radices_of(n);
  if (n > 1 && needs_bluestein(n, radices))
    plan_bluestein();
  else
    plan_stockham(radices);
}

template <class T>
const char* ComplexPlan<T>::algorithm() const {
  return algorithm_ == Algorithm::bluestein ? "bluestein" : "stockham";
}

template <class T>
void ComplexPlan<T>::plan_stockham(const std::vector<int>& radices) {
  algorithm_ = Algorithm::stockham;
  int64_t stride = 1;
  for (int p : radices) {
    const int64_t length = n_ / stride, m = length / p;
    Stage st{p, m, stride, static_cast<int64_t>(twiddles_.size()), -1};
    for (int64_t j = 0; j < m; ++j)
      for (int r = 1; r < p; ++r) twiddles_.push_back(narrow<T>(unit_root(j * r, length)));
    if (p > 5) {
      st.generic0 = static_cast<int64_t>(generic_.size());
      for (int idx = 0; idx < p; ++idx) {
        const std::complex<double> w = unit_root(idx, p);  // cos - i sin
        generic_.push_back(static_cast<T>(w.real()));
        generic_.push_back(static_cast<T>(-w.imag()));
      }
    }
    stages_.push_back(st);
    stride *= p;
  }
  scratch_ = n_;
}

template <class T>
void ComplexPlan<T>::plan_bluestein() {
  algorithm_ = Algorithm::bluestein;
  const int64_t m = smooth_length(2 * n_ - 1);
  inner_ = complex_plan<T>(m);
  chirp_.resize(n_);
  // b: the conjugate chirp, wrapped cyclically (b[m - k] = b[k]) for the convolution. Its
  // transform is taken in double whatever T is, then rounded once.
  std::vector<std::complex<double>> b(m), work(m);
  for (int64_t k = 0; k < n_; ++k) {
    const auto k2 = static_cast<int64_t>(static_cast<unsigned __int128>(k) * k % (2 * n_));
    const std::complex<double> c = unit_root(k2, 2 * n_);  // exp(-pi i k^2 / n)
    chirp_[k] = narrow<T>(c);
    b[k] = std::conj(c);
    if (k > 0) b[m - k] = b[k];
  }
  complex_plan<double>(m)->execute(b.data(), work.data(), true);
  chirp_hat_.resize(m);
  for (int64_t k = 0; k < m; ++k) chirp_hat_[k] = narrow<T>(b[k] / static_cast<double>(m));
  scratch_ = m + inner_->scratch_size();
}

template <class T>
void ComplexPlan<T>::execute(C* data, C* scratch, bool forward) const {
  if (algorithm_ == Algorithm::bluestein) return run_bluestein(data, scratch, 1, forward);
  C* result = run_stockham(data, scratch, 1, forward);
  if (result != data) std::copy(result, result + n_, data);
}

template <class T>
std::complex<T>* ComplexPlan<T>::execute_interleaved(C* data, C* scratch, int64_t batch,
                                                     bool forward) const {
  if (algorithm_ == Algorithm::stockham) return run_stockham(data, scratch, batch, forward);
  run_bluestein(data, scratch, batch, forward);
  return data;
}

// `batch` interleaved sequences are one Stockham transform whose every stride is batch times
// larger: the passes never mix elements whose index differs modulo the initial stride.
template <class T>
std::complex<T>* ComplexPlan<T>::run_stockham(C* data, C* scratch, int64_t batch,
                                              bool forward) const {
  C* x = data;
  C* y = scratch;
  for (Stage st : stages_) {
    st.stride *= batch;
    run_pass<T>(st, twiddles_.data() + st.twiddle0,
                st.generic0 < 0 ? nullptr : generic_.data() + st.generic0, x, y, forward);
    std::swap(x, y);
  }
  return x;
}

// X_k = c_k sum_j (x_j c_j) conj(c_{k-j}) with c_k = exp(-pi i k^2/n): a cyclic convolution of
// length m done by two transforms. The backward transform conjugates the chirp; its transform
// is then the conjugate of chirp_hat_ (b is symmetric, so is its transform).
template <class T>
void ComplexPlan<T>::run_bluestein(C* data, C* scratch, int64_t batch, bool forward) const {
  const int64_t m = inner_->size(), nb = batch;
  C* a = scratch;
  C* work = scratch + m * nb;
  auto chirp = [&](int64_t k) { return forward ? chirp_[k] : std::conj(chirp_[k]); };
  auto times = [](C u, C v) {
    return C{u.real() * v.real() - u.imag() * v.imag(), u.real() * v.imag() + u.imag() * v.real()};
  };
  for (int64_t k = 0; k < n_; ++k) {
    const C c = chirp(k);
    for (int64_t b = 0; b < nb; ++b) a[k * nb + b] = times(data[k * nb + b], c);
  }
  std::fill(a + n_ * nb, a + m * nb, C{});
  C* spectrum = inner_->execute_interleaved(a, work, nb, true);
  for (int64_t k = 0; k < m; ++k) {
    const C h = forward ? chirp_hat_[k] : std::conj(chirp_hat_[k]);
    for (int64_t b = 0; b < nb; ++b) spectrum[k * nb + b] = times(spectrum[k * nb + b], h);
  }
  const C* conv = inner_->execute_interleaved(spectrum, spectrum == a ? work : a, nb, false);
  for (int64_t k = 0; k < n_; ++k) {
    const C c = chirp(k);
    for (int64_t b = 0; b < nb; ++b) data[k * nb + b] = times(conv[k * nb + b], c);
  }
}

// Even n: z_k = x_{2k} + i x_{2k+1} has Z = E + i O (E, O: transforms of the even and odd
// samples, length h = n/2), and X_k = E_k + w^k O_k with w = exp(-2 pi i/n); E_k and O_k come
// from Z_k and conj(Z_{h-k}).
template <class T>
RealPlan<T>::RealPlan(int64_t n) : n_(n) {
  if (n % 2 == 0) {
    const int64_t h = n / 2;
    complex_ = complex_plan<T>(h);
    twiddles_.resize(h);
    for (int64_t k = 0; k < h; ++k) twiddles_[k] = narrow<T>(unit_root(k, n));
    scratch_ = h + complex_->scratch_size();
  } else {
    complex_ = complex_plan<T>(n);
    scratch_ = n + complex_->scratch_size();
  }
}

template <class T>
void RealPlan<T>::run_complex(C* data, C* scratch, int64_t batch, bool forward) const {
  if (batch == 1) return complex_->execute(data, scratch, forward);
  const C* result = complex_->execute_interleaved(data, scratch, batch, forward);
  if (result != data) std::copy(result, result + complex_->size() * batch, data);
}

template <class T>
void RealPlan<T>::forward(const T* in, C* out, C* scratch, int64_t batch) const {
  const int64_t nb = batch;
  if (n_ % 2 != 0) {
    C* full = scratch;
    for (int64_t i = 0; i < n_ * nb; ++i) full[i] = C{in[i], T(0)};
    run_complex(full, scratch + n_ * nb, nb, true);
    std::copy(full, full + (n_ / 2 + 1) * nb, out);
    return;
  }
  const int64_t h = n_ / 2;
  T* packed = reinterpret_cast<T*>(out);  // std::complex<T> is two T's (C++ [complex.numbers])
  for (int64_t k = 0; k < h; ++k)
    for (int64_t b = 0; b < nb; ++b) {
      packed[2 * (k * nb + b)] = in[2 * k * nb + b];
      packed[2 * (k * nb + b) + 1] = in[(2 * k + 1) * nb + b];
    }
  // z: the half-length transform, in out or in scratch; X is written to out (pairs k, h - k
  // are read before they are written, so z may be out).
  const C* z = out;
  if (nb == 1)
    complex_->execute(out, scratch, true);
  else
    z = complex_->execute_interleaved(out, scratch, nb, true);
  for (int64_t b = 0; b < nb; ++b) {
    const C z0 = z[b];
    out[b] = C{z0.real() + z0.imag(), T(0)};
    out[h * nb + b] = C{z0.real() - z0.imag(), T(0)};
  }
  const T half = T(0.5);
  for (int64_t k = 1; 2 * k <= h; ++k) {
    const T wr = twiddles_[k].real(), wi = twiddles_[k].imag();
    const T* zl = reinterpret_cast<const T*>(z + k * nb);
    const T* zh = reinterpret_cast<const T*>(z + (h - k) * nb);
    T* lo = reinterpret_cast<T*>(out + k * nb);
    T* hi = reinterpret_cast<T*>(out + (h - k) * nb);
    // Real and imaginary parts as plain T so that the loop over the batch vectorises.
    for (int64_t b = 0; b < nb; ++b) {
      const T zr = zl[2 * b], zi = zl[2 * b + 1], cr = zh[2 * b], ci = -zh[2 * b + 1];
      const T er = (zr + cr) * half, ei = (zi + ci) * half;
      const T o_r = (zi - ci) * half, o_i = -(zr - cr) * half;  // o = -i (zk - conj z_{h-k}) / 2
      const T wor = wr * o_r - wi * o_i, woi = wr * o_i + wi * o_r;
      lo[2 * b] = er + wor;
      lo[2 * b + 1] = ei + woi;
      hi[2 * b] = er - wor;
      hi[2 * b + 1] = woi - ei;
    }
  }
}

template <class T>
void RealPlan<T>::backward(const C* in, T* out, C* scratch, int64_t batch) const {
  const int64_t nb = batch;
  if (n_ % 2 != 0) {
    C* full = scratch;
    for (int64_t b = 0; b < nb; ++b) full[b] = C{in[b].real(), T(0)};
    for (int64_t k = 1; 2 * k < n_; ++k)
      for (int64_t b = 0; b < nb; ++b) {
        full[k * nb + b] = in[k * nb + b];
        full[(n_ - k) * nb + b] = std::conj(in[k * nb + b]);
      }
    run_complex(full, scratch + n_ * nb, nb, false);
    for (int64_t i = 0; i < n_ * nb; ++i) out[i] = full[i].real();
    return;
  }
  // Z_k = (X_k + conj X_{h-k}) + i (X_k - conj X_{h-k}) conj(w^k): twice E + i O, so the
  // unnormalised backward transform of length h gives n x_{2k} + i n x_{2k+1}.
  const int64_t h = n_ / 2;
  C* z = scratch;
  for (int64_t k = 0; k < h; ++k) {
    const C w = std::conj(twiddles_[k]);
    for (int64_t b = 0; b < nb; ++b) {
      const C xk = k == 0 ? C{in[b].real(), T(0)} : in[k * nb + b];
      const C xc = k == 0 ? C{in[h * nb + b].real(), T(0)} : std::conj(in[(h - k) * nb + b]);
      const C s = xk + xc, d = xk - xc;
      const C dw{d.real() * w.real() - d.imag() * w.imag(),
                 d.real() * w.imag() + d.imag() * w.real()};
      z[k * nb + b] = C{s.real() - dw.imag(), s.imag() + dw.real()};
    }
  }
  run_complex(z, scratch + h * nb, nb, false);
  for (int64_t k = 0; k < h; ++k)
    for (int64_t b = 0; b < nb; ++b) {
      out[2 * k * nb + b] = z[k * nb + b].real();
      out[(2 * k + 1) * nb + b] = z[k * nb + b].imag();
    }
}

namespace {

// A bounded cache of the most recently used plans of one kind. Plans are built outside the lock
// (a Bluestein plan asks the cache for its inner plan); if two threads build the same plan at
// once, the first one inserted is kept.
template <class Plan>
class PlanCache {
 public:
  static constexpr size_t kCapacity = 32;

  std::shared_ptr<const Plan> get(int64_t n) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto found = find(n)) return found;
    }
    auto plan = std::make_shared<const Plan>(n);
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto found = find(n)) return found;
    entries_.emplace_front(n, plan);
    if (entries_.size() > kCapacity) entries_.pop_back();
    return plan;
  }

 private:
  // Moves a hit to the front (most recently used).
  std::shared_ptr<const Plan> find(int64_t n) {
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
      if (it->first == n) {
        entries_.splice(entries_.begin(), entries_, it);
        return entries_.front().second;
      }
    return nullptr;
  }

  std::mutex mutex_;
  std::list<std::pair<int64_t, std::shared_ptr<const Plan>>> entries_;
};

}  // namespace

template <class T>
std::shared_ptr<const ComplexPlan<T>> complex_plan(int64_t n) {
  static PlanCache<ComplexPlan<T>> cache;
  return cache.get(n);
}

template <class T>
std::shared_ptr<const RealPlan<T>> real_plan(int64_t n) {
  static PlanCache<RealPlan<T>> cache;
  return cache.get(n);
}

template class ComplexPlan<float>;
template class ComplexPlan<double>;
template class RealPlan<float>;
template class RealPlan<double>;
template std::shared_ptr<const ComplexPlan<float>> complex_plan<float>(int64_t);
template std::shared_ptr<const ComplexPlan<double>> complex_plan<double>(int64_t);
template std::shared_ptr<const RealPlan<float>> real_plan<float>(int64_t);
template std::shared_ptr<const RealPlan<double>> real_plan<double>(int64_t);

}  // namespace accel::cpu::fft
