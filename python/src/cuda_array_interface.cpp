// __cuda_array_interface__ version 3 (Numba's protocol, also CuPy's and PyTorch's): exported by
// CUDA arrays, read by accel.asarray. It carries no ownership: the consumer keeps the producer
// object alive, and `stream` says which stream the memory is ready on.
#include "cuda_array_interface.h"

#include <string>

#include "accel/backend/cuda/cuda.h"
#include "accel/backend/cuda/devices.h"
#include "accel/backend/cuda/driver.h"
#include "accel/backend/cuda/stream.h"
#include "accel/backend/cuda/stream_order.h"
#include "dlpack.h"

namespace accel::py {
namespace {

[[noreturn]] void malformed(nb::handle iface, const std::string& why) {
  throw ValueError("[asarray] __cuda_array_interface__ " + nb::cast<std::string>(nb::repr(iface)) +
                   " " + why);
}

nb::object field(nb::dict d, const char* key) {
  return d.contains(key) ? nb::object(d[key]) : nb::none();
}

// NumPy's typestr ("<f4", "|b1") is the protocol's element type: NumPy names both directions.
std::string typestr(Dtype d) {
  nb::object np = nb::module_::import_("numpy");
  return nb::cast<std::string>(np.attr("dtype")(dtype_name(d)).attr("str"));
}

Dtype dtype_of_typestr(nb::dict iface, nb::handle ts) {
  if (!nb::isinstance<nb::str>(ts)) malformed(iface, "has a typestr that is not a string");
  nb::object np = nb::module_::import_("numpy");
  nb::object dt;
  try {
    dt = np.attr("dtype")(ts);
  } catch (const nb::python_error&) {
    malformed(iface, "has a typestr NumPy does not read");
  }
  if (!nb::cast<bool>(dt.attr("isnative")))
    throw DTypeError("[asarray] __cuda_array_interface__ typestr " + nb::cast<std::string>(ts) +
                     " is not in the machine's byte order; accel reads native values only");
  try {
    return to_dtype(dt);
  } catch (const std::exception&) {
    throw DTypeError("[asarray] __cuda_array_interface__ typestr " + nb::cast<std::string>(ts) +
                     " has no accel dtype");
  }
}

int64_t integer(nb::dict iface, nb::handle h, const char* what) {
  if (!PyLong_Check(h.ptr()) || PyBool_Check(h.ptr()))
    malformed(iface, std::string("has ") + what + " that is not an integer");
  return index_int(h);
}

std::vector<int64_t> integers(nb::dict iface, nb::handle seq, const char* what) {
  if (!nb::isinstance<nb::tuple>(seq))
    malformed(iface, std::string("has ") + what + " that is not a tuple");
  std::vector<int64_t> out;
  for (nb::handle h : seq) out.push_back(integer(iface, h, what));
  return out;
}

}  // namespace

nb::dict cuda_array_interface(const Array& a) {
  if (!a.device().is_cuda())
    throw nb::attribute_error(("[__cuda_array_interface__] only CUDA arrays have it; this array is "
                               "on " +
                               a.device().str())
                                  .c_str());
  a.eval();
  nb::dict d;
  d["shape"] = shape_tuple(a.shape());
  const std::string ts = typestr(a.dtype());
  d["typestr"] = ts;
  nb::list descr;
  descr.append(nb::make_tuple("", ts));
  d["descr"] = descr;
  d["data"] = nb::make_tuple(a.size() == 0 ? uintptr_t{0} : reinterpret_cast<uintptr_t>(a.data()),
                             is_read_only(a));
  if (a.is_contiguous()) {
    d["strides"] = nb::none();
  } else {
    Shape bytes = a.strides();
    for (auto& s : bytes) s *= static_cast<int64_t>(a.itemsize());
    d["strides"] = shape_tuple(bytes);
  }
  d["version"] = 3;
  if (!is_read_only(a)) a.buffer()->share_with_foreign_writers();
  d["stream"] = cuda::order_interface_export(a);
  return d;
}

std::optional<Array> from_cuda_array_interface(nb::handle obj) {
  if (nb::isinstance<Array>(obj) || !nb::hasattr(obj, "__cuda_array_interface__"))
    return std::nullopt;
  nb::object raw = obj.attr("__cuda_array_interface__");
  if (!nb::isinstance<nb::dict>(raw))
    throw ValueError("[asarray] __cuda_array_interface__ must be a dict, got " +
                     nb::cast<std::string>(nb::repr(raw)));
  nb::dict iface = nb::borrow<nb::dict>(raw);
  for (const char* key : {"shape", "typestr", "data", "version"})
    if (!iface.contains(key)) malformed(iface, std::string("has no '") + key + "'");
  const int64_t version = integer(iface, iface["version"], "a version");
  if (version < 0 || version > 3)
    malformed(iface, "has version " + std::to_string(version) + "; accel reads versions 0 to 3");
  const Shape shape = integers(iface, iface["shape"], "a shape");
  for (int64_t n : shape)
    if (n < 0) malformed(iface, "has a negative dimension");
  const Dtype dtype = dtype_of_typestr(iface, iface["typestr"]);
  const auto isz = static_cast<int64_t>(itemsize(dtype));
  nb::object data = iface["data"];
  if (!nb::isinstance<nb::tuple>(data) || nb::len(data) != 2 || !PyBool_Check(data[1].ptr()))
    malformed(iface, "has data that is not a (pointer, read_only) tuple");
  const auto ptr = static_cast<uintptr_t>(integer(iface, data[0], "a data pointer"));
  const bool read_only = data[1].ptr() == Py_True;
  if (ptr == 0 && shape_size(shape) != 0)
    malformed(iface, "has a null pointer for a non-empty array");
  Strides strides(shape.size());
  nb::object st = field(iface, "strides");
  if (st.is_none()) {
    for (size_t i = shape.size(), acc = 1; i-- > 0; acc *= std::max<int64_t>(shape[i], 1))
      strides[i] = static_cast<int64_t>(acc);
  } else {
    std::vector<int64_t> bytes = integers(iface, st, "strides");
    if (bytes.size() != shape.size())
      malformed(iface, "has strides and shape of different lengths");
    for (size_t i = 0; i < bytes.size(); ++i) {
      if (bytes[i] % isz) malformed(iface, "has strides that are not multiples of the item size");
      strides[i] = bytes[i] / isz;
    }
  }
  if (!field(iface, "mask").is_none()) malformed(iface, "has a mask; accel has no masked arrays");
  std::optional<int64_t> stream;
  if (nb::object s = field(iface, "stream"); !s.is_none()) {
    stream = integer(iface, s, "a stream");
    if (*stream == 0) malformed(iface, "has stream 0, which the protocol disallows (ambiguous)");
    if (*stream < 0) malformed(iface, "has a negative stream");
  }
  // Parsed; what follows needs the device.
  if (!cuda::is_available())
    throw BackendUnavailable("[asarray] " +
                             nb::cast<std::string>(nb::str(obj.type().attr("__name__"))) +
                             " exposes CUDA memory (__cuda_array_interface__), but CUDA is "
                             "unavailable here: " +
                             cuda::driver_unavailable_reason());
  int ordinal = 0;
  cuda::make_current(0);  // the driver answers pointer queries in any context (unified addresses)
  if (ptr != 0)
    cuda::driver().check(
        cuda::driver().cuPointerGetAttribute(&ordinal, cuda::kPointerAttributeDeviceOrdinal,
                                             static_cast<cuda::CUdeviceptr>(ptr)),
        "cuPointerGetAttribute", "[asarray] __cuda_array_interface__ pointer");
  const Device device = Device::cuda(ordinal);
  check_importable(device, "asarray", "the __cuda_array_interface__ memory");
  // Accel's work on the memory goes to its current stream, which waits for the producer's.
  if (stream)
    cuda::wait_for_external(
        cuda::current_stream(ordinal),
        *stream == 1   ? cuda::kStreamLegacy
        : *stream == 2 ? cuda::kStreamPerThread
                       : reinterpret_cast<cuda::CUstream>(static_cast<uintptr_t>(*stream)));
  return wrap_foreign_memory(reinterpret_cast<void*>(ptr), shape, strides, dtype, device,
                             keep_alive(obj), read_only);
}

}  // namespace accel::py
