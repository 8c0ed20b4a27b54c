#include "accel/kernels/kernel_params.h"

#include <cctype>
#include <set>
#include <sstream>

#include "accel/ops/copy.h"
#include "accel/ops/promotion.h"
#include "accel/runtime/errors.h"

namespace accel {
namespace {

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

std::string describe_arg(const Array& a) {
  if (a.ndim() == 0 && a.weak())
    return std::string("a Python ") + dtype_name(a.dtype()) + " scalar";
  return a.describe();
}

}  // namespace

void check_kernel_name(const std::string& name) {
  if (!is_identifier(name))
    throw ValueError("[kernel] the name '" + name +
                     "' is not a C identifier (it names the compiled kernel)");
}

std::vector<KernelParam> parse_kernel_params(std::string_view text, const char* what,
                                             const std::string& kernel) {
  std::vector<KernelParam> params;
  if (trim(text).empty()) return params;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    const std::string entry = trim(text.substr(start, comma - start));
    std::istringstream words(entry);
    std::vector<std::string> w;
    for (std::string t; words >> t;) w.push_back(t);
    KernelParam p;
    if (!w.empty() && w[0] == "raw") {
      p.raw = true;
      w.erase(w.begin());
    }
    if (w.size() != 2)
      throw ValueError("[" + kernel + "] " + what + ": '" + entry +
                       "' is not '[raw] type name' (in \"" + std::string(text) + "\")");
    p.type = w[0];
    p.name = w[1];
    if (p.type.size() == 1 && std::isalpha(static_cast<unsigned char>(p.type[0]))) {
      p.dtype = std::nullopt;
    } else {
      try {
        p.dtype = dtype_from_name(p.type);
      } catch (const DTypeError&) {
        throw DTypeError("[" + kernel + "] " + what + ": unknown type '" + p.type + "' of '" +
                         p.name +
                         "' (a dtype name such as float32, or a one-letter type placeholder)");
      }
    }
    params.push_back(std::move(p));
    start = comma + 1;
  }
  return params;
}

void check_kernel_param_names(const std::vector<KernelParam>& in,
                              const std::vector<KernelParam>& out, const std::string& kernel,
                              bool reduction) {
  std::set<std::string> seen;
  for (const auto* list : {&in, &out})
    for (const KernelParam& p : *list) {
      if (!is_identifier(p.name))
        throw ValueError("[" + kernel + "] parameter name '" + p.name + "' is not a C identifier");
      if (p.name == "i" || p.name == "n" || p.name[0] == '_' ||
          (reduction && (p.name == "a" || p.name == "b")))
        throw ValueError("[" + kernel + "] parameter name '" + p.name +
                         "' is reserved (i, n, names starting with '_'" +
                         (reduction ? ", and a and b in a reduction)" : ")"));
      if (!seen.insert(p.name).second)
        throw ValueError("[" + kernel + "] parameter '" + p.name + "' is declared twice");
    }
}

TypeBindings bind_placeholders(const std::vector<KernelParam>& params,
                               const std::vector<Array>& args, const std::string& kernel) {
  TypeBindings types;
  std::map<std::string, std::string> bound_by;
  std::map<std::string, std::vector<Array>> weak;
  for (size_t k = 0; k < params.size(); ++k) {
    const KernelParam& p = params[k];
    if (p.dtype || k >= args.size() || !args[k].valid()) continue;
    const Array& a = args[k];
    if (a.weak()) {
      weak[p.type].push_back(a);
      continue;
    }
    auto [it, fresh] = types.emplace(p.type, a.dtype());
    if (fresh) {
      bound_by[p.type] = p.name;
    } else if (it->second != a.dtype()) {
      throw DTypeError("[" + kernel + "] type placeholder " + p.type + " is " +
                       dtype_name(it->second) + " from argument '" + bound_by[p.type] + "' but " +
                       dtype_name(a.dtype()) + " from argument '" + p.name + "'");
    }
  }
  for (const auto& [type, scalars] : weak)
    if (!types.count(type)) types[type] = result_type(scalars);
  return types;
}

Dtype resolve_kernel_type(const std::string& type, std::optional<Dtype> fixed,
                          const TypeBindings& types, const std::string& kernel,
                          const std::string& role) {
  if (fixed) return *fixed;
  auto it = types.find(type);
  if (it == types.end())
    throw DTypeError("[" + kernel + "] cannot tell the type placeholder " + type + " of " + role +
                     ": no argument of that type was given (pass an input or an output array "
                     "whose dtype decides it)");
  return it->second;
}

namespace {

// bool 0, integers 1, floats 2, complex 3: a Python scalar's kind against a param's.
int kind_rank(Dtype dt) { return is_bool(dt) ? 0 : is_integer(dt) ? 1 : is_floating(dt) ? 2 : 3; }

}  // namespace

Array kernel_input(const Array& arg, const KernelParam& p, Dtype dt, Device device,
                   const std::string& kernel) {
  Array a = arg;
  // A 0-d argument is a scalar passed by value: it follows the kernel to its device.
  if (a.ndim() == 0 && a.device() != device) a = to_device(a, device);
  if (a.dtype() == dt) return a;
  const std::string where = "[" + kernel + "] argument '" + p.name + "' (" + p.type + " " + p.name +
                            ", here " + dtype_name(dt) + ")";
  if (a.weak()) {
    // NEP 50: a Python scalar takes the param's dtype if its kind fits and its value does
    // (3 into uint8, 2.5 into float32; not 2.5 into int32, not 300 into int8).
    if (kind_rank(a.dtype()) > kind_rank(dt))
      throw DTypeError(where + ": " + describe_arg(a) + " cannot become " + dtype_name(dt));
    check_weak_fits(a, dt, kernel.c_str());
    return astype(a, dt);
  }
  if (!can_cast(a.dtype(), dt, Casting::same_kind))
    throw DTypeError(where + " is " + describe_arg(a) + ", which NumPy's same_kind rule does " +
                     "not cast to " + dtype_name(dt) + "; cast it first");
  return astype(a, dt);
}

void check_kernel_output(const Array& arg, const KernelParam& p, Dtype dt,
                         const std::string& kernel) {
  if (arg.dtype() != dt)
    throw DTypeError("[" + kernel + "] output '" + p.name + "' is " + arg.describe() +
                     "; the kernel writes " + dtype_name(dt) + " (" + p.type + " " + p.name + ")");
  check_writable(arg, kernel.c_str());
}

Device kernel_device(const std::vector<Array>& args, const std::vector<KernelParam>& params,
                     const std::string& kernel) {
  std::optional<Device> device;
  std::string first;
  for (size_t k = 0; k < args.size(); ++k) {
    const Array& a = args[k];
    if (!a.valid() || (a.ndim() == 0 && k < params.size() && !params[k].raw)) continue;
    if (!device) {
      device = a.device();
      first = k < params.size() ? params[k].name : "";
    } else if (a.device() != *device) {
      throw DeviceError("[" + kernel + "] argument '" + first + "' is on " + device->str() +
                        " but '" + (k < params.size() ? params[k].name : "") + "' is on " +
                        a.device().str() + "; move one with to_device");
    }
  }
  if (device) return *device;
  for (const Array& a : args)
    if (a.valid() && !a.weak()) return a.device();
  return default_device();
}

}  // namespace accel
