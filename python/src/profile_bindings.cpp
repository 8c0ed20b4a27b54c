// The profiler (accel/runtime/profiler.h) for Python: sessions, the events in bulk, and the
// Python line behind each event (the site provider below), for python/accel/_profile.py.
#include <Python.h>
#include <frameobject.h>

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "accel/runtime/profiler.h"
#include "bindings.h"

namespace accel::py {
namespace {

// Sites are (code object, line) pairs named "file:line"; code objects are held until the
// session ends so their addresses stay unique. Only touched with the GIL held.
struct Sites {
  struct Key {
    PyCodeObject* code;
    int line;
    bool operator==(const Key& o) const { return code == o.code && line == o.line; }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      return std::hash<const void*>()(k.code) ^
             (static_cast<size_t>(k.line) * 0x9E3779B97F4A7C15ull);
    }
  };
  std::unordered_map<Key, uint32_t, KeyHash> ids;
  std::unordered_map<PyCodeObject*, bool> internal;  // inside the accel package
  std::vector<PyObject*> held;
  std::vector<std::string> names;  // id - 1 -> "file:line"
  std::string package_dir;
  // The last user frame's (code, instruction) and its id: one Python call records several
  // events (op, allocation, kernel), and code plus instruction fix the line.
  PyCodeObject* last_code = nullptr;
  int last_lasti = -1;
  uint32_t last_id = 0;

  void clear() {
    last_code = nullptr;
    last_lasti = -1;
    for (PyObject* o : held) Py_DECREF(o);
    held.clear();
    ids.clear();
    internal.clear();
  }
};

Sites& sites() {
  static auto* s = new Sites;  // never destroyed: code objects must not be released at exit
  return *s;
}

bool is_internal(Sites& s, PyCodeObject* code) {
  auto [it, fresh] = s.internal.try_emplace(code, false);
  if (fresh) {
    const char* file = PyUnicode_AsUTF8(code->co_filename);
    if (!file) PyErr_Clear();
    it->second = file && !s.package_dir.empty() &&
                 std::string_view(file).substr(0, s.package_dir.size()) == s.package_dir;
    Py_INCREF(code);
    s.held.push_back(reinterpret_cast<PyObject*>(code));
  }
  return it->second;
}

// The innermost Python line outside the accel package on this thread: the user's line that
// asked for the work (printing goes through accel's own Python, which is skipped).
uint32_t python_site() {
  if (!Py_IsInitialized() || !PyGILState_Check()) return 0;
  Sites& s = sites();
  PyFrameObject* f = PyEval_GetFrame();
  Py_XINCREF(f);
  uint32_t id = 0;
  while (f) {
    PyCodeObject* code = PyFrame_GetCode(f);
    if (code == s.last_code && PyFrame_GetLasti(f) == s.last_lasti) {
      id = s.last_id;
      Py_DECREF(code);
      Py_DECREF(f);
      break;
    }
    if (!is_internal(s, code)) {
      s.last_code = code;  // held by is_internal's table until the session ends
      s.last_lasti = PyFrame_GetLasti(f);
      Sites::Key key{code, PyFrame_GetLineNumber(f)};
      auto [it, fresh] = s.ids.try_emplace(key, 0);
      if (fresh) {
        const char* file = PyUnicode_AsUTF8(code->co_filename);
        if (!file) PyErr_Clear();
        s.names.push_back(std::string(file ? file : "?") + ":" + std::to_string(key.line));
        it->second = static_cast<uint32_t>(s.names.size());
      }
      id = s.last_id = it->second;
      Py_DECREF(code);
      Py_DECREF(f);
      break;
    }
    Py_DECREF(code);
    PyFrameObject* back = PyFrame_GetBack(f);
    Py_DECREF(f);
    f = back;
  }
  return id;
}

nb::tuple event_tuple(const profile::Event& e) {
  nb::list members;
  for (int64_t m : e.members) members.append(m);
  return nb::make_tuple(profile::event_kind_name(e.kind), e.name, e.detail, e.device, e.stream,
                        e.start_ns, e.dur_ns, e.gpu_ns, e.bytes, e.elements, e.flops, e.in_use,
                        e.id, e.region, members, e.thread, e.site, e.flags, e.depth);
}

}  // namespace

void init_profile(nb::module_& m) {
  profile::set_site_provider(python_site);
  m.def(
      "_profile_start",
      [](const std::string& package_dir) {
        Sites& s = sites();
        s.clear();
        s.names.clear();
        s.package_dir = package_dir;
        profile::start();
      },
      "Starts a profiling session; frames in files under package_dir are skipped for sites.");
  m.def(
      "_profile_stop",
      [] {
        std::vector<profile::Event> events;
        {
          nb::gil_scoped_release release;  // GPU event times are waited for here
          events = profile::stop();
        }
        nb::list out;
        for (const profile::Event& e : events) out.append(event_tuple(e));
        nb::list names;
        for (const std::string& n : sites().names) names.append(n);
        sites().clear();
        return nb::make_tuple(out, names);
      },
      "Ends the session: (events as tuples, site names; site k is names[k - 1]).");
  m.def("_profile_active", [] { return profile::active(); });
}

}  // namespace accel::py
