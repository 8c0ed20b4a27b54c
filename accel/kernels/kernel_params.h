// CuPy's parameter lists for kernel templates ("float32 x, T y, raw T z") and how the type
// placeholders in them are bound by the arguments of a call. Shared by ElementwiseKernel and
// ReductionKernel (and so by their Python classes, which call these through the bindings).
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accel/core/array.h"

namespace accel {

struct KernelParam {
  std::string name;
  std::string type;            // as written: a dtype name, or a one-letter type placeholder
  std::optional<Dtype> dtype;  // nullopt: `type` is a placeholder
  bool raw = false;            // not broadcast; the code indexes it (x[j], x.size())
};

// Parses comma-separated "[raw] type name" entries. A one-letter type is a placeholder (CuPy's
// rule); any other type must be a dtype name accel knows ("float32", "int", "complex128", ...).
// Throws ValueError (syntax, names) or DTypeError (unknown type), naming `kernel` and `what`
// ("in_params" / "out_params").
std::vector<KernelParam> parse_kernel_params(std::string_view text, const char* what,
                                             const std::string& kernel);

// Names are C identifiers, unique across in and out params, and not reserved: `i`, `n` and
// names starting with '_' (the generated code's own), and `a`/`b` in a reduction (its values).
void check_kernel_param_names(const std::vector<KernelParam>& in,
                              const std::vector<KernelParam>& out, const std::string& kernel,
                              bool reduction);

// The C identifier a kernel name must be (it is the compiled symbol); throws ValueError.
void check_kernel_name(const std::string& name);

using TypeBindings = std::map<std::string, Dtype>;

// Binds each placeholder of `params` from its arguments (`args[k]` for params[k]; an invalid
// Array is an output not given). Strong arguments (arrays, NumPy scalars) bind first and must
// agree (DTypeError naming the placeholder, both arguments and both dtypes); a placeholder only
// weak arguments (Python scalars) meet takes their NumPy default dtype, promoted together.
TypeBindings bind_placeholders(const std::vector<KernelParam>& params,
                               const std::vector<Array>& args, const std::string& kernel);

// The dtype of `type` (a dtype name or a bound placeholder); DTypeError when the placeholder is
// unbound, saying how to bind it. `role` names the param in the message.
Dtype resolve_kernel_type(const std::string& type, std::optional<Dtype> fixed,
                          const TypeBindings& types, const std::string& kernel,
                          const std::string& role);

// The argument of input param `p` as the kernel reads it (dtype `dt`, on `device`): the array
// itself, or a cast of it when the dtype differs and NumPy's same_kind rule allows (else
// DTypeError); a weak scalar's kind and value must fit (DTypeError / OverflowError). 0-d
// arguments (scalars) move to `device`.
Array kernel_input(const Array& arg, const KernelParam& p, Dtype dt, Device device,
                   const std::string& kernel);

// Checks an output argument: its dtype is exactly `dt` (DTypeError), it is writable.
void check_kernel_output(const Array& arg, const KernelParam& p, Dtype dt,
                         const std::string& kernel);

// The device a call runs on: the one its arrays share (0-d weak scalars follow the others).
// Throws DeviceError naming two arguments on different devices.
Device kernel_device(const std::vector<Array>& args, const std::vector<KernelParam>& params,
                     const std::string& kernel);

}  // namespace accel
