// accel::random::Generator as _core._PhiloxStream: the stream (key, counter), spawn, and draws
// by distribution number (device_src/philox.h). python/accel/random.py builds NumPy's
// Generator API (seeds, sizes, loc/scale, out=, checks) on top.
#include <nanobind/stl/vector.h>

#include "bindings.h"

namespace accel::py {
namespace {

using namespace nb::literals;
using random::Generator;

philox::Distribution distribution_of(int d) {
  if (d < philox::kUniform || d > philox::kGamma)
    throw ValueError("[random] unknown distribution " + std::to_string(d));
  return static_cast<philox::Distribution>(d);
}

}  // namespace

void init_random(nb::module_& m) {
  nb::class_<Generator>(m, "_PhiloxStream")
      .def("__init__",
           [](Generator* g, uint64_t key, uint64_t counter) {
             new (g) Generator(Generator::from_key(key, counter));
           },
           "key"_a, "counter"_a = 0)
      .def_static("key_from_words",
                  [](const std::vector<uint64_t>& words) { return random::key_from_words(words); })
      .def_prop_ro("key", &Generator::key)
      .def_prop_ro("counter", &Generator::counter)
      .def("spawn", &Generator::spawn)
      .def(
          "draw",
          [](Generator& g, nb::handle shape, nb::handle dtype, nb::handle device, int distribution,
             int64_t low, uint64_t range, double param) {
            const philox::Distribution d = distribution_of(distribution);
            const Dtype dt = to_dtype(dtype);
            const Device dev = to_optional_device(device).value_or(default_device());
            const Shape s = to_shape(shape);
            if (d == philox::kIntegers) return g.integers(low, range, s, dt, dev);
            if (d == philox::kGamma) return g.standard_gamma(param, s, dt, dev);
            if (d == philox::kNormal) return g.standard_normal(s, dt, dev);
            if (d == philox::kExponential) return g.standard_exponential(s, dt, dev);
            return g.random(s, dt, dev);
          },
          "shape"_a, "dtype"_a, "device"_a.none(), "distribution"_a, "low"_a = 0, "range"_a = 0,
          "param"_a = 0.0)
      .def(
          "scaled",
          [](Generator& g, nb::handle shape, nb::handle dtype, nb::handle device, int distribution,
             double scale, double shift, double param) {
            return g.scaled(distribution_of(distribution), scale, shift, to_shape(shape),
                            to_dtype(dtype), to_optional_device(device).value_or(default_device()),
                            param);
          },
          "shape"_a, "dtype"_a, "device"_a.none(), "distribution"_a, "scale"_a, "shift"_a,
          "param"_a = 0.0)
      .def(
          "fill",
          [](Generator& g, const Array& out, int distribution, int64_t low, uint64_t range,
             double param) { g.fill(out, distribution_of(distribution), low, range, param); },
          "out"_a, "distribution"_a, "low"_a = 0, "range"_a = 0, "param"_a = 0.0)
      // Counts, and draws whose parameters are arrays (one per element, broadcast to `shape`,
      // drawn on the arrays' device).
      .def(
          "poisson",
          [](Generator& g, double lam, nb::handle shape, nb::handle device) {
            return g.poisson(lam, to_shape(shape),
                             to_optional_device(device).value_or(default_device()));
          },
          "lam"_a, "shape"_a, "device"_a.none())
      .def(
          "poisson_per_element",
          [](Generator& g, const Array& lam, nb::handle shape) {
            return g.poisson(lam, to_shape(shape));
          },
          "lam"_a, "shape"_a)
      .def(
          "binomial",
          [](Generator& g, double n, double p, nb::handle shape, nb::handle device) {
            return g.binomial(n, p, to_shape(shape),
                              to_optional_device(device).value_or(default_device()));
          },
          "n"_a, "p"_a, "shape"_a, "device"_a.none())
      .def(
          "binomial_per_element",
          [](Generator& g, const Array& n, const Array& p, nb::handle shape) {
            return g.binomial(n, p, to_shape(shape));
          },
          "n"_a, "p"_a, "shape"_a)
      .def(
          "standard_gamma_per_element",
          [](Generator& g, const Array& a, nb::handle shape, nb::handle dtype) {
            return g.standard_gamma(a, to_shape(shape), to_dtype(dtype));
          },
          "a"_a, "shape"_a, "dtype"_a);
}

}  // namespace accel::py
