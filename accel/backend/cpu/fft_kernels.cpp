// The butterflies and Stockham passes of accel's FFT. Complex products are written out by hand:
// std::complex's operator* checks for NaN/inf and calls __mulsc3 (Annex G), which would cost more
// than the whole butterfly; the transform's NaN and inf follow plain IEEE arithmetic instead.
#include "accel/backend/cpu/fft_kernels.h"

#include <cmath>

namespace accel::cpu::fft {
namespace {

template <class T>
using C = std::complex<T>;

template <class T>
inline C<T> mul(C<T> a, C<T> b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}
// a * conj(b): the backward transform uses the conjugate twiddles of the same table.
template <class T>
inline C<T> mul_conj(C<T> a, C<T> b) {
  return {a.real() * b.real() + a.imag() * b.imag(), a.imag() * b.real() - a.real() * b.imag()};
}
template <class T>
inline C<T> scale(C<T> a, T f) {
  return {a.real() * f, a.imag() * f};
}
// a * (-i) forward, a * (+i) backward: the quarter-turn root in the transform's direction.
template <bool Fwd, class T>
inline C<T> quarter(C<T> a) {
  return Fwd ? C<T>{a.imag(), -a.real()} : C<T>{-a.imag(), a.real()};
}

// Lanes<T>: kLanes complex numbers as separate real and imaginary arrays. The fixed-radix
// butterflies below are written once for a value type Z that is either one std::complex or
// Lanes; on Lanes each operation is a short loop over the lanes, which the compiler vectorises
// (complex numbers stored interleaved do not vectorise on their own).
constexpr int kLanes = 8;
template <class T>
struct Lanes {
  T re[kLanes], im[kLanes];
};
template <class T>
inline Lanes<T> operator+(const Lanes<T>& a, const Lanes<T>& b) {
  Lanes<T> r;
  for (int v = 0; v < kLanes; ++v) r.re[v] = a.re[v] + b.re[v], r.im[v] = a.im[v] + b.im[v];
  return r;
}
template <class T>
inline Lanes<T> operator-(const Lanes<T>& a, const Lanes<T>& b) {
  Lanes<T> r;
  for (int v = 0; v < kLanes; ++v) r.re[v] = a.re[v] - b.re[v], r.im[v] = a.im[v] - b.im[v];
  return r;
}
template <class T>
inline Lanes<T>& operator+=(Lanes<T>& a, const Lanes<T>& b) {
  return a = a + b;
}
template <class T>
inline Lanes<T> scale(const Lanes<T>& a, T f) {
  Lanes<T> r;
  for (int v = 0; v < kLanes; ++v) r.re[v] = a.re[v] * f, r.im[v] = a.im[v] * f;
  return r;
}
template <bool Fwd, class T>
inline Lanes<T> quarter(const Lanes<T>& a) {
  Lanes<T> r;
  for (int v = 0; v < kLanes; ++v) {
    r.re[v] = Fwd ? a.im[v] : -a.im[v];
    r.im[v] = Fwd ? -a.re[v] : a.re[v];
  }
  return r;
}

// In-place DFT of length P on a[0, P) in the direction Fwd; Z is std::complex<T> or Lanes<T>.
template <class T, bool Fwd, int P>
struct Butterfly;

template <class T, bool Fwd>
struct Butterfly<T, Fwd, 2> {
  template <class Z>
  void operator()(Z* a) const {
    const Z d = a[0] - a[1];
    a[0] += a[1];
    a[1] = d;
  }
};

template <class T, bool Fwd>
struct Butterfly<T, Fwd, 3> {
  template <class Z>
  void operator()(Z* a) const {
    const T h = static_cast<T>(0.86602540378443864676);  // sin(2 pi / 3)
    const Z t = a[1] + a[2];
    const Z m = a[0] - scale(t, T(0.5));
    const Z u = scale(quarter<Fwd>(a[1] - a[2]), h);
    a[0] += t;
    a[1] = m + u;
    a[2] = m - u;
  }
};

template <class T, bool Fwd>
struct Butterfly<T, Fwd, 4> {
  template <class Z>
  void operator()(Z* a) const {
    const Z t0 = a[0] + a[2], t1 = a[0] - a[2];
    const Z t2 = a[1] + a[3], t3 = quarter<Fwd>(a[1] - a[3]);
    a[0] = t0 + t2;
    a[2] = t0 - t2;
    a[1] = t1 + t3;
    a[3] = t1 - t3;
  }
};

template <class T, bool Fwd>
struct Butterfly<T, Fwd, 5> {
  template <class Z>
  void operator()(Z* a) const {
    const T c1 = static_cast<T>(0.30901699437494742410);   // cos(2 pi / 5)
    const T c2 = static_cast<T>(-0.80901699437494742410);  // cos(4 pi / 5)
    const T s1 = static_cast<T>(0.95105651629515357212);   // sin(2 pi / 5)
    const T s2 = static_cast<T>(0.58778525229247312917);   // sin(4 pi / 5)
    const Z t1 = a[1] + a[4], t2 = a[2] + a[3];
    const Z u1 = a[1] - a[4], u2 = a[2] - a[3];
    const Z m1 = a[0] + scale(t1, c1) + scale(t2, c2);
    const Z m2 = a[0] + scale(t1, c2) + scale(t2, c1);
    const Z n1 = quarter<Fwd>(scale(u1, s1) + scale(u2, s2));
    const Z n2 = quarter<Fwd>(scale(u1, s2) - scale(u2, s1));
    a[0] += t1 + t2;
    a[1] = m1 + n1;
    a[4] = m1 - n1;
    a[2] = m2 + n2;
    a[3] = m2 - n2;
  }
};

// Any odd prime p <= kMaxGenericRadix: pairs k, p - k share a cosine and an opposite sine, so
// b_r = a_0 + sum_k (a_k + a_{p-k}) cos(2 pi rk/p) -/+ i sum_k (a_k - a_{p-k}) sin(2 pi rk/p).
// `cs` holds cos and sin of 2 pi idx/p at 2 idx and 2 idx + 1.
template <class T, bool Fwd>
struct GenericButterfly {
  int p;
  const T* cs;
  void operator()(C<T>* a) const {
    const int h = (p - 1) / 2;
    C<T> t[kMaxGenericRadix / 2 + 1], u[kMaxGenericRadix / 2 + 1], b[kMaxGenericRadix];
    C<T> b0 = a[0];
    for (int k = 1; k <= h; ++k) {
      t[k] = a[k] + a[p - k];
      u[k] = a[k] - a[p - k];
      b0 += t[k];
    }
    for (int r = 1; r <= h; ++r) {
      C<T> re = a[0], im{};
      int idx = 0;
      for (int k = 1; k <= h; ++k) {
        idx += r;
        if (idx >= p) idx -= p;
        re += scale(t[k], cs[2 * idx]);
        im += scale(u[k], cs[2 * idx + 1]);
      }
      im = quarter<Fwd>(im);
      b[r] = re + im;
      b[p - r] = re - im;
    }
    a[0] = b0;
    for (int r = 1; r < p; ++r) a[r] = b[r];
  }
};

// One column j of a fixed-radix pass for q in [q0, q0 + kLanes): loaded into lanes, through
// the butterfly, times the twiddles w (null for j == 0), stored interleaved again.
template <class T, bool Fwd, int P, class B>
inline void column_lanes(const C<T>* __restrict in, C<T>* __restrict out, int64_t q0,
                         int64_t in_step, int64_t out_step, const C<T>* w, const B& butterfly) {
  Lanes<T> a[P];
  for (int k = 0; k < P; ++k)
    for (int v = 0; v < kLanes; ++v) {
      const C<T> z = in[q0 + v + k * in_step];
      a[k].re[v] = z.real();
      a[k].im[v] = z.imag();
    }
  butterfly(a);
  for (int r = 0; r < P; ++r) {
    C<T>* o = out + q0 + r * out_step;
    if (r == 0 || !w) {
      for (int v = 0; v < kLanes; ++v) o[v] = C<T>{a[r].re[v], a[r].im[v]};
      continue;
    }
    const T wr = w[r - 1].real(), wi = Fwd ? w[r - 1].imag() : -w[r - 1].imag();
    for (int v = 0; v < kLanes; ++v)
      o[v] = C<T>{a[r].re[v] * wr - a[r].im[v] * wi, a[r].re[v] * wi + a[r].im[v] * wr};
  }
}

// One column j for q in [q0, s), one complex number at a time (the generic radix, and what is
// left after the lanes).
template <class T, bool Fwd, int P, class B>
inline void column_scalar(int p, const C<T>* __restrict in, C<T>* __restrict out, int64_t q0,
                          int64_t s, int64_t in_step, int64_t out_step, const C<T>* w,
                          const B& butterfly) {
  C<T> a[P > 0 ? P : kMaxGenericRadix];
  for (int64_t q = q0; q < s; ++q) {
    for (int k = 0; k < p; ++k) a[k] = in[q + k * in_step];
    butterfly(a);
    out[q] = a[0];
    for (int r = 1; r < p; ++r)
      out[q + r * out_step] = !w ? a[r] : Fwd ? mul(a[r], w[r - 1]) : mul_conj(a[r], w[r - 1]);
  }
}

// P > 0 fixes the radix at compile time (the loops over k and r unroll, and the q loop runs
// kLanes at a time); P == 0 is the generic butterfly with stage.radix. The j == 0 column has
// unit twiddles and skips the products.
template <class T, bool Fwd, int P, class B>
void pass(const Stage& st, const C<T>* tw, const C<T>* x, C<T>* y, const B& butterfly) {
  const int p = P > 0 ? P : st.radix;
  const int64_t m = st.m, s = st.stride;
  const int64_t lanes_end = P > 0 ? s - s % kLanes : 0;
  for (int64_t j = 0; j < m; ++j) {
    const C<T>* w = j == 0 ? nullptr : tw + j * (p - 1);
    const C<T>* in = x + s * j;
    C<T>* out = y + s * p * j;
    if constexpr (P > 0)
      for (int64_t q0 = 0; q0 < lanes_end; q0 += kLanes)
        column_lanes<T, Fwd, P>(in, out, q0, s * m, s, w, butterfly);
    column_scalar<T, Fwd, P>(p, in, out, lanes_end, s, s * m, s, w, butterfly);
  }
}

template <class T, bool Fwd>
void run_pass_in(const Stage& st, const C<T>* tw, const T* generic, const C<T>* x, C<T>* y) {
  switch (st.radix) {
    case 2:
      return pass<T, Fwd, 2>(st, tw, x, y, Butterfly<T, Fwd, 2>{});
    case 3:
      return pass<T, Fwd, 3>(st, tw, x, y, Butterfly<T, Fwd, 3>{});
    case 4:
      return pass<T, Fwd, 4>(st, tw, x, y, Butterfly<T, Fwd, 4>{});
    case 5:
      return pass<T, Fwd, 5>(st, tw, x, y, Butterfly<T, Fwd, 5>{});
    default:
      return pass<T, Fwd, 0>(st, tw, x, y, GenericButterfly<T, Fwd>{st.radix, generic});
  }
}

}  // namespace

template <class T>
void run_pass(const Stage& stage, const std::complex<T>* twiddles, const T* generic,
              const std::complex<T>* x, std::complex<T>* y, bool forward) {
  if (forward)
    run_pass_in<T, true>(stage, twiddles, generic, x, y);
  else
    run_pass_in<T, false>(stage, twiddles, generic, x, y);
}

template void run_pass<float>(const Stage&, const std::complex<float>*, const float*,
                              const std::complex<float>*, std::complex<float>*, bool);
template void run_pass<double>(const Stage&, const std::complex<double>*, const double*,
                               const std::complex<double>*, std::complex<double>*, bool);

}  // namespace accel::cpu::fft
