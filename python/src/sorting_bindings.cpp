// sort, argsort and searchsorted with the Array API's keywords (descending=, stable=, side=,
// sorter=) and NumPy's (kind=, axis=None for the flattened array), as module functions and as
// ndarray methods (ndarray.sort sorts in place, as NumPy's).
#include <string>

#include "bindings.h"

namespace accel::py {
namespace {

using namespace nb::literals;

// NumPy's kind= names one of its algorithms; every accel sort is stable, which satisfies them
// all, so the name is only checked.
void check_kind(nb::handle kind, nb::handle order, const char* op) {
  if (!order.is_none())
    throw nb::type_error((std::string("[") + op + "] order= sorts structured arrays by field; "
                          "accel has no structured dtypes").c_str());
  if (kind.is_none()) return;
  const std::string k = nb::cast<std::string>(kind);
  if (k != "quicksort" && k != "mergesort" && k != "heapsort" && k != "stable")
    throw ValueError(std::string("[") + op + "] kind must be one of 'quicksort', 'mergesort', "
                     "'heapsort' or 'stable', got '" + k + "'");
}

// axis=None sorts the flattened array (NumPy); an integer axis is used as it is.
template <Array (*Fn)(const Array&, int64_t, bool, bool)>
Array sort_like(nb::handle a, nb::handle axis, nb::handle kind, nb::handle order, bool descending,
                nb::handle stable, const char* op) {
  check_kind(kind, order, op);
  Array x = to_array(a);
  const bool is_stable = stable.is_none() || nb::cast<bool>(stable);
  if (axis.is_none()) return Fn(reshape(x, {x.size()}), 0, descending, is_stable);
  return Fn(x, index_int(axis), descending, is_stable);
}

bool side_right(const std::string& side) {
  if (side == "left") return false;
  if (side == "right") return true;
  throw ValueError("[searchsorted] side must be 'left' or 'right', got '" + side + "'");
}

Array searchsorted_of(nb::handle a, nb::handle v, const std::string& side, nb::handle sorter) {
  Array sorted = to_array(a);
  Array values = to_operand(v, sorted.device());
  std::optional<Array> order;
  if (!sorter.is_none()) order = to_operand(sorter, sorted.device());
  return searchsorted(sorted, values, side_right(side), order);
}

}  // namespace

void init_sorting(nb::module_& m) {
  nb::handle cls = m.attr("ndarray");
  m.def(
      "sort",
      [](nb::handle a, nb::handle axis, nb::handle kind, nb::handle order, bool descending,
         nb::handle stable) {
        return sort_like<&accel::sort>(a, axis, kind, order, descending, stable, "sort");
      },
      "a"_a, "axis"_a.none() = -1, "kind"_a.none() = nb::none(), "order"_a.none() = nb::none(), nb::kw_only(),
      "descending"_a = false, "stable"_a.none() = nb::none());
  m.def(
      "argsort",
      [](nb::handle a, nb::handle axis, nb::handle kind, nb::handle order, bool descending,
         nb::handle stable) {
        return sort_like<&accel::argsort>(a, axis, kind, order, descending, stable, "argsort");
      },
      "a"_a, "axis"_a.none() = -1, "kind"_a.none() = nb::none(), "order"_a.none() = nb::none(), nb::kw_only(),
      "descending"_a = false, "stable"_a.none() = nb::none());
  m.def("searchsorted", &searchsorted_of, "a"_a, "v"_a, "side"_a = "left", "sorter"_a.none() = nb::none());

  // ndarray.sort is NumPy's in-place sort: the sorted values are written back into the array.
  nb::cpp_function_def<void>(
      [](nb::handle self, nb::handle axis, nb::handle kind, nb::handle order, nb::handle stable) {
        write_into(self, sort_like<&accel::sort>(self, axis, kind, order, false, stable, "sort"),
                   false, "sort");
      },
      nb::scope(cls), nb::name("sort"), nb::is_method(), "axis"_a.none() = -1, "kind"_a.none() = nb::none(),
      "order"_a.none() = nb::none(), nb::kw_only(), "stable"_a.none() = nb::none());
  nb::cpp_function_def<Array>(
      [](nb::handle self, nb::handle axis, nb::handle kind, nb::handle order, nb::handle stable) {
        return sort_like<&accel::argsort>(self, axis, kind, order, false, stable, "argsort");
      },
      nb::scope(cls), nb::name("argsort"), nb::is_method(), "axis"_a.none() = -1, "kind"_a.none() = nb::none(),
      "order"_a.none() = nb::none(), nb::kw_only(), "stable"_a.none() = nb::none());
  nb::cpp_function_def<Array>(
      [](nb::handle self, nb::handle v, const std::string& side, nb::handle sorter) {
        return searchsorted_of(self, v, side, sorter);
      },
      nb::scope(cls), nb::name("searchsorted"), nb::is_method(), "v"_a, "side"_a = "left",
      "sorter"_a.none() = nb::none());
}

}  // namespace accel::py
