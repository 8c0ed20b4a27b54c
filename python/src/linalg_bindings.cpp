// Products: matmul (and ndarray's @, reflected and in-place), tensordot, vecdot, and NumPy's
// dot, inner, outer, vdot; plus _blas_info() describing the CPU BLAS.
#include "accel/backend/cpu/cpu.h"
#include "bindings.h"

namespace accel::py {
namespace {

using ProductFn = Array (*)(const Array&, const Array&);

template <ProductFn F> nb::object product(nb::handle x1, nb::handle x2, nb::handle out, const char* op) {
  Device device = device_of({x1, x2});
  return finish_out(F(to_operand(x1, device), to_operand(x2, device)), out, op);
}

// tensordot's axes: an int N, or a pair (axes of x1, axes of x2) of ints or sequences.
std::pair<std::vector<int64_t>, std::vector<int64_t>> axis_pair(nb::handle axes) {
  if (nb::len(axes) != 2)
    throw ValueError("[tensordot] axes must be an int or a pair of axis sequences");
  auto side = [](nb::handle h) {
    std::vector<int64_t> v;
    if (PyLong_Check(h.ptr())) v.push_back(nb::cast<int64_t>(h));
    else
      for (nb::handle a : h) v.push_back(nb::cast<int64_t>(a));
    return v;
  };
  return {side(axes[0]), side(axes[1])};
}

}  // namespace

void init_linalg(nb::module_& m) {
  using namespace nb::literals;
  m.def("matmul", [](nb::handle x1, nb::handle x2, nb::handle out) {
    return product<&matmul>(x1, x2, out, "matmul");
  }, "x1"_a, "x2"_a, nb::kw_only(), "out"_a = nb::none(),
     "Matrix product with NumPy's rules: 1-d operands are promoted, leading axes broadcast. "
     "Float and complex products run on OpenBLAS; integer and bool ones in a plain loop (not "
     "BLAS-accelerated) that wraps around like NumPy's.");
  m.def("dot", [](nb::handle x1, nb::handle x2, nb::handle out) {
    return product<&dot>(x1, x2, out, "dot");
  }, "a"_a, "b"_a, "out"_a = nb::none());
  m.def("inner", [](nb::handle x1, nb::handle x2) { return product<&inner>(x1, x2, nb::none(), "inner"); },
        "a"_a, "b"_a);
  m.def("outer", [](nb::handle x1, nb::handle x2, nb::handle out) {
    return product<&outer>(x1, x2, out, "outer");
  }, "a"_a, "b"_a, "out"_a = nb::none());
  m.def("vdot", [](nb::handle x1, nb::handle x2) { return product<&vdot>(x1, x2, nb::none(), "vdot"); },
        "a"_a, "b"_a);
  m.def("vecdot", [](nb::handle x1, nb::handle x2, int64_t axis) {
    Device device = device_of({x1, x2});
    return vecdot(to_operand(x1, device), to_operand(x2, device), axis);
  }, "x1"_a, "x2"_a, nb::kw_only(), "axis"_a = -1, "sum(conj(x1) * x2) along axis.");
  m.def("tensordot", [](nb::handle x1, nb::handle x2, nb::handle axes) {
    Device device = device_of({x1, x2});
    Array a = to_operand(x1, device), b = to_operand(x2, device);
    if (PyLong_Check(axes.ptr())) return tensordot(a, b, nb::cast<int64_t>(axes));
    auto [a1, a2] = axis_pair(axes);
    return tensordot(a, b, a1, a2);
  }, "a"_a, "b"_a, "axes"_a = 2);  // NumPy's names (the Array API's are positional-only)

  nb::handle cls = nb::type<Array>();
  // The operators of every other binary op's kind (operator_slots.cpp binds `@` as a C slot
  // too): NotImplemented for what is not array-like and for foreign arrays that handle it.
  nb::cpp_function_def([](const Array& self, nb::handle other) {
    return binary_operator(&matmul, self, other, false);
  }, nb::scope(cls), nb::name("__matmul__"), nb::is_method());
  nb::cpp_function_def([](const Array& self, nb::handle other) {
    return binary_operator(&matmul, self, other, true);
  }, nb::scope(cls), nb::name("__rmatmul__"), nb::is_method());
  // a @= b: NumPy allows it when the product has a's shape and casts to a's dtype.
  nb::cpp_function_def([](nb::handle self_h, nb::handle other) -> nb::object {
    const Array& self = nb::cast<const Array&>(self_h);
    assign_inplace(self, matmul(self, to_operand(other, self.device())), "matmul");
    return nb::borrow(self_h);
  }, nb::scope(cls), nb::name("__imatmul__"), nb::is_method());

  m.def("_blas_info", [] {
    cpu::BlasInfo info = cpu::blas_info();
    nb::dict d;
    d["loaded"] = info.loaded;
    d["path"] = info.path;
    d["source"] = info.source;
    d["flavour"] = info.flavour;
    d["symbol"] = info.symbol;
    d["config"] = info.config;
    d["core"] = info.core;
    d["threads"] = info.threads;
    d["coretype"] = info.coretype;
    d["coretype_set_by_accel"] = info.coretype_set_by_accel;
    d["problem"] = info.problem;
    d["attempts"] = info.attempts;
    return d;
  }, "The CPU BLAS (loading it if needed): which library from where, its integer flavour, "
     "OpenBLAS's build, core type and threads; or why there is none and what was tried.");
  m.def("_add_blas_candidate", [](const std::string& path) { cpu::add_blas_candidate(path); },
        nb::arg("path"), "Try this BLAS library before the system ones (before first use).");
}

}  // namespace accel::py
