// The transforms of accel::fft as private module functions (_fft_fft, _fft_rfftn, ...);
// python/accel/fft.py gives them NumPy's names and signatures. Sizes and axes are read through
// __index__; out= follows ufunc rules (same_kind casting, exact shape).
#include <string>

#include "bindings.h"

namespace accel::py {
namespace {

using namespace nb::literals;

using OneAxis = Array (*)(const Array&, std::optional<int64_t>, int64_t, fft::Norm);
using ManyAxes = Array (*)(const Array&, const fft::Sizes&, const fft::Sizes&, fft::Norm);

fft::Norm norm_of(nb::handle norm) {
  if (norm.is_none()) return fft::Norm::backward;
  if (!nb::isinstance<nb::str>(norm))
    throw ValueError("[fft] norm must be \"backward\", \"ortho\", \"forward\" or None, got " +
                     nb::cast<std::string>(nb::repr(norm)));
  return fft::norm_from_string(nb::cast<std::string>(norm));
}

// `name` is the module function (_fft_<op>), `op` the name errors give.
void def_one_axis(nb::module_& m, const char* name, const char* op, OneAxis f) {
  m.def(
      name,
      [f, op](nb::handle x, nb::handle n, nb::handle axis, nb::handle norm, nb::handle out) {
        std::optional<int64_t> length;
        if (!n.is_none()) length = index_int(n);
        return finish_out(f(to_array(x), length, index_int(axis), norm_of(norm)), out, op, true);
      },
      "x"_a, "n"_a.none() = nb::none(), "axis"_a = -1, "norm"_a.none() = nb::none(),
      "out"_a.none() = nb::none());
}

void def_many_axes(nb::module_& m, const char* name, const char* op, ManyAxes f) {
  m.def(
      name,
      [f, op](nb::handle x, nb::handle s, nb::handle axes, nb::handle norm, nb::handle out) {
        return finish_out(f(to_array(x), to_axes(s), to_axes(axes), norm_of(norm)), out, op, true);
      },
      "x"_a, "s"_a.none() = nb::none(), "axes"_a.none() = nb::none(), "norm"_a.none() = nb::none(),
      "out"_a.none() = nb::none());
}

}  // namespace

void init_fft(nb::module_& m) {
  def_one_axis(m, "_fft_fft", "fft", &fft::fft);
  def_one_axis(m, "_fft_ifft", "ifft", &fft::ifft);
  def_one_axis(m, "_fft_rfft", "rfft", &fft::rfft);
  def_one_axis(m, "_fft_irfft", "irfft", &fft::irfft);
  def_one_axis(m, "_fft_hfft", "hfft", &fft::hfft);
  def_one_axis(m, "_fft_ihfft", "ihfft", &fft::ihfft);
  def_many_axes(m, "_fft_fftn", "fftn", &fft::fftn);
  def_many_axes(m, "_fft_ifftn", "ifftn", &fft::ifftn);
  def_many_axes(m, "_fft_rfftn", "rfftn", &fft::rfftn);
  def_many_axes(m, "_fft_irfftn", "irfftn", &fft::irfftn);
}

}  // namespace accel::py
