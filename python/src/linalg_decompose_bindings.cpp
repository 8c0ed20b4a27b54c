// accel.linalg's decompositions and solvers (accel/ops/linalg_decompose.h) as private _core
// functions; python/accel/linalg.py gives them the Array API's signatures and named tuples.
#include <string>

#include "accel/ops/qr_raw.h"
#include "bindings.h"

namespace accel::py {
namespace {

using namespace nb::literals;

// An optional tolerance: None, a Python number (weak, so it keeps x's precision) or an array.
std::optional<Array> tolerance(nb::handle t, const Array& x) {
  if (t.is_none()) return std::nullopt;
  return to_operand(t, x.device());
}

linalg::QRMode qr_mode(const std::string& mode) {
  if (mode == "reduced") return linalg::QRMode::reduced;
  if (mode == "complete") return linalg::QRMode::complete;
  if (mode == "r") return linalg::QRMode::r;
  throw ValueError("[qr] mode must be 'reduced', 'complete', 'r' or 'raw', got '" + mode + "'");
}

}  // namespace

void init_linalg_decompose(nb::module_& m) {
  m.def("_linalg_cholesky", [](nb::handle x, bool upper) {
    return linalg::cholesky(to_array(x), upper);
  }, "x"_a, "upper"_a);
  m.def("_linalg_inv", [](nb::handle x) { return linalg::inv(to_array(x)); }, "x"_a);
  m.def("_linalg_solve", [](nb::handle a, nb::handle b) {
    return linalg::solve(to_array(a), to_array(b));
  }, "a"_a, "b"_a);
  m.def("_linalg_det", [](nb::handle x) { return linalg::det(to_array(x)); }, "x"_a);
  m.def("_linalg_slogdet", [](nb::handle x) {
    linalg::SlogdetResult r = linalg::slogdet(to_array(x));
    return nb::make_tuple(r.sign, r.logabsdet);
  }, "x"_a);
  m.def("_linalg_eigh", [](nb::handle x) {
    linalg::EighResult r = linalg::eigh(to_array(x));
    return nb::make_tuple(r.eigenvalues, r.eigenvectors);
  }, "x"_a);
  m.def("_linalg_eigvalsh", [](nb::handle x) { return linalg::eigvalsh(to_array(x)); }, "x"_a);
  m.def("_linalg_eig", [](nb::handle x) {
    linalg::EigResult r = linalg::eig(to_array(x));
    return nb::make_tuple(r.eigenvalues, r.eigenvectors);
  }, "x"_a);
  m.def("_linalg_eigvals", [](nb::handle x) { return linalg::eigvals(to_array(x)); }, "x"_a);
  m.def("_linalg_svd", [](nb::handle x, bool full_matrices) {
    linalg::SVDResult r = linalg::svd(to_array(x), full_matrices);
    return nb::make_tuple(r.U, r.S, r.Vh);
  }, "x"_a, "full_matrices"_a);
  m.def("_linalg_svdvals", [](nb::handle x) { return linalg::svdvals(to_array(x)); }, "x"_a);
  m.def("_linalg_pinv", [](nb::handle x, nb::handle rtol) {
    Array a = to_array(x);
    return linalg::pinv(a, tolerance(rtol, a));
  }, "x"_a, "rtol"_a.none());
  m.def("_linalg_matrix_rank", [](nb::handle x, nb::handle rtol, nb::handle atol) {
    Array a = to_array(x);
    return linalg::matrix_rank(a, tolerance(rtol, a), tolerance(atol, a));
  }, "x"_a, "rtol"_a.none(), "atol"_a.none());
  m.def("_linalg_qr", [](nb::handle x, const std::string& mode) -> nb::object {
    if (mode == "raw") {
      linalg::QRRawResult raw = linalg::qr_raw(to_array(x));
      return nb::make_tuple(raw.h, raw.tau);  // a plain tuple, as NumPy's
    }
    linalg::QRResult r = linalg::qr(to_array(x), qr_mode(mode));
    if (!r.Q.valid()) return nb::cast(r.R);
    return nb::make_tuple(r.Q, r.R);
  }, "x"_a, "mode"_a);
}

}  // namespace accel::py
