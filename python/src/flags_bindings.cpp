// ndarray.flags, NumPy's flagsobj: the layout facts of an array and whether it may be written, by
// attribute (x.flags.c_contiguous) or NumPy's keys (x.flags['C_CONTIGUOUS']). Live, as NumPy's:
// x.flags.writeable = False (or x.flags['WRITEABLE'] = False) freezes x, True thaws an array
// frozen so. In C++ because libraries read x.flags in their argument checks: as a Python object
// it cost 0.5 us per read, NumPy's 0.08.
#include <array>
#include <string>
#include <string_view>

#include "bindings.h"

namespace accel::py {
namespace {

struct Flags {
  nb::object array;  // the accel array: the flags read it at each access
};

enum class Flag { c_contiguous, f_contiguous, writeable, aligned, fnc, forc };

const Array& array_of(const Flags& f) { return nb::cast<const Array&>(f.array); }

bool value_of(const Array& a, Flag f) {
  const bool empty = a.size() == 0;  // NumPy's empty arrays are both C and F contiguous
  const bool c = empty || a.is_contiguous(), fortran = empty || a.is_f_contiguous();
  switch (f) {
    case Flag::c_contiguous: return c;
    case Flag::f_contiguous: return fortran;
    case Flag::writeable: return !is_read_only(a);
    case Flag::aligned: return true;  // every accel view starts on a whole item
    case Flag::fnc: return fortran && !c;
    case Flag::forc: return fortran || c;
  }
  return false;
}

struct Key {
  std::string_view name;
  Flag flag;
};
constexpr std::array<Key, 12> kKeys{{{"C_CONTIGUOUS", Flag::c_contiguous},
                                     {"C", Flag::c_contiguous},
                                     {"CONTIGUOUS", Flag::c_contiguous},
                                     {"F_CONTIGUOUS", Flag::f_contiguous},
                                     {"F", Flag::f_contiguous},
                                     {"FORTRAN", Flag::f_contiguous},
                                     {"WRITEABLE", Flag::writeable},
                                     {"W", Flag::writeable},
                                     {"ALIGNED", Flag::aligned},
                                     {"A", Flag::aligned},
                                     {"FNC", Flag::fnc},
                                     {"FORC", Flag::forc}}};

Flag flag_of_key(nb::handle key) {
  if (nb::isinstance<nb::str>(key)) {
    const std::string k = nb::cast<std::string>(key);
    for (const Key& entry : kKeys)
      if (entry.name == k) return entry.flag;
  }
  std::string known;
  for (const Key& entry : kKeys) known += (known.empty() ? "" : ", ") + std::string(entry.name);
  throw nb::key_error(("unknown flag " + nb::cast<std::string>(nb::repr(key)) +
                       "; accel's flags are " + known).c_str());
}

// Freezes or thaws the array of a Python object in place.
void set_writeable_in_place(Array& a, bool writeable) {
  Array r = accel::set_writeable(a, writeable);
  if (!r.is(a)) a = std::move(r);  // x's Python object holds the frozen (or thawed) handle
}

void set_writeable(const Flags& f, nb::handle value) {
  const int truth = PyObject_IsTrue(value.ptr());
  if (truth < 0) throw nb::python_error();
  set_writeable_in_place(nb::cast<Array&>(f.array), truth == 1);
}

[[noreturn]] void refuse(const char* name) {
  throw nb::attribute_error(
      (std::string("[flags] '") + name + "' cannot be set: only writeable can").c_str());
}

template <Flag F> bool get(const Flags& f) { return value_of(array_of(f), F); }

PyObject* get_flags(PyObject* x, void*) {
  try {
    return nb::cast(Flags{nb::borrow(x)}).release().ptr();
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "[flags] could not make the flags object");
    return nullptr;
  }
}

PyGetSetDef flags_getter{"flags", get_flags, nullptr,
                         "NumPy's flags: C_CONTIGUOUS, F_CONTIGUOUS, WRITEABLE (settable), "
                         "ALIGNED, FNC, FORC, by attribute or key.",
                         nullptr};

}  // namespace

void init_flags(nb::module_& m) {
  auto cls = nb::class_<Flags>(m, "flagsobj", "ndarray.flags (NumPy's flagsobj).");
  auto fixed = [&](const char* name, bool (*getter)(const Flags&)) {
    cls.def_prop_rw(name, getter, [name](const Flags&, nb::handle) { refuse(name); });
  };
  fixed("c_contiguous", &get<Flag::c_contiguous>);
  fixed("f_contiguous", &get<Flag::f_contiguous>);
  fixed("contiguous", &get<Flag::c_contiguous>);
  fixed("fortran", &get<Flag::f_contiguous>);
  fixed("aligned", &get<Flag::aligned>);
  fixed("fnc", &get<Flag::fnc>);
  fixed("forc", &get<Flag::forc>);
  cls.def_prop_rw("writeable", &get<Flag::writeable>,
                  [](const Flags& f, nb::handle v) { set_writeable(f, v); });
  cls.def("__getitem__", [](const Flags& f, nb::handle key) {
    return value_of(array_of(f), flag_of_key(key));
  });
  cls.def("__setitem__", [](const Flags& f, nb::handle key, nb::handle v) {
    if (flag_of_key(key) != Flag::writeable) refuse(nb::cast<std::string>(key).c_str());
    set_writeable(f, v);
  });
  cls.def("__repr__", [](const Flags& f) {
    const Array& a = array_of(f);
    std::string s;
    for (auto [name, flag] : {std::pair{"C_CONTIGUOUS", Flag::c_contiguous},
                              std::pair{"F_CONTIGUOUS", Flag::f_contiguous},
                              std::pair{"WRITEABLE", Flag::writeable},
                              std::pair{"ALIGNED", Flag::aligned}})
      s += std::string(s.empty() ? "" : "\n") + "  " + name + " : " +
           (value_of(a, flag) ? "True" : "False");
    return s;
  });
  // The same facts for the Python layer (einsum, ascontiguousarray, setflags).
  m.def("_layout_flags", [](const Array& a) {
    return nb::make_tuple(value_of(a, Flag::c_contiguous), value_of(a, Flag::f_contiguous),
                          value_of(a, Flag::writeable));
  }, nb::arg("x"), "(C-contiguous, Fortran-contiguous, writeable): ndarray.flags' facts.");
  m.def("_set_writeable", &set_writeable_in_place, nb::arg("x"), nb::arg("writeable"),
        "NumPy's x.flags.writeable = writeable.");
  nb::handle array_cls = nb::type<Array>();
  nb::object descr = nb::steal(PyDescr_NewGetSet(ndarray_type, &flags_getter));
  if (!descr.is_valid() || PyObject_SetAttrString(array_cls.ptr(), "flags", descr.ptr()) != 0)
    throw nb::python_error();
}

}  // namespace accel::py
