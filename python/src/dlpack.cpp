// DLPack export (__dlpack__, __dlpack_device__) and import (from_dlpack) with accel's own ABI
// structs (dlpack_abi.h), so that both capsule kinds, the read-only and copied flags and the
// standard's copy= / dl_device= requests are handled here rather than by nanobind's ndarray.
#include "dlpack.h"

#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "accel/backend/cuda/cuda.h"
#include "accel/backend/cuda/devices.h"
#include "accel/backend/cuda/stream.h"
#include "accel/backend/cuda/stream_order.h"
#include "fast_methods.h"

namespace accel::py {
namespace {

using dlpack::DLManagedTensor;
using dlpack::DLManagedTensorVersioned;
using dlpack::DLTensor;

std::string dl_device_str(int32_t type, int32_t id) {
  return "(" + std::to_string(type) + ", " + std::to_string(id) + ")";
}

// ---- export ----------------------------------------------------------------------------------

// What a capsule's tensor points into: the exported array (kept alive until the consumer calls
// the deleter) and the shape and strides the DLTensor points at.
template <class Managed>
struct ExportContext {
  Managed managed{};
  Array keep;
  Shape shape;  // up to 6 dimensions inside the context: one allocation per export
  Strides strides;
};

template <class Managed>
void delete_export(Managed* self) {
  delete static_cast<ExportContext<Managed>*>(self->manager_ctx);
}

// The capsule's destructor: the tensor is still ours unless a consumer renamed the capsule
// "used_..." (it then calls the deleter itself, when it is done with the memory).
template <class Managed>
void destroy_capsule(PyObject* capsule) {
  constexpr bool versioned = std::is_same_v<Managed, DLManagedTensorVersioned>;
  const char* name = versioned ? dlpack::kVersionedName : dlpack::kLegacyName;
  if (!PyCapsule_IsValid(capsule, name)) return;  // taken (renamed) by a consumer
  auto* managed = static_cast<Managed*>(PyCapsule_GetPointer(capsule, name));
  if (managed && managed->deleter) managed->deleter(managed);
}

template <class Managed>
nb::object make_capsule(const Array& a, uint64_t flags) {
  auto* ctx = new ExportContext<Managed>();
  ctx->keep = a;
  ctx->shape = a.shape();
  ctx->strides = a.strides();
  Managed& m = ctx->managed;
  m.manager_ctx = ctx;
  m.deleter = &delete_export<Managed>;
  DLTensor& t = m.dl_tensor;
  t.data = a.data();
  t.device = a.device().is_cpu() ? dlpack::DLDevice{dlpack::kDLCPU, 0}
                                 : dlpack::DLDevice{dlpack::kDLCUDA, a.device().index};
  t.ndim = a.ndim();
  t.dtype = to_dl_dtype(a.dtype());
  t.shape = ctx->shape.data();
  t.strides = ctx->strides.data();
  t.byte_offset = 0;
  constexpr bool versioned = std::is_same_v<Managed, DLManagedTensorVersioned>;
  if constexpr (versioned) {
    m.version = {dlpack::kMajorVersion, dlpack::kMinorVersion};
    m.flags = flags;
  }
  PyObject* capsule = PyCapsule_New(&m, versioned ? dlpack::kVersionedName : dlpack::kLegacyName,
                                    &destroy_capsule<Managed>);
  if (!capsule) {
    delete ctx;
    throw nb::python_error();
  }
  return nb::steal(capsule);
}

// max_version: None (a consumer that only reads legacy capsules) or (major, minor).
bool wants_versioned(nb::handle max_version) {
  if (max_version.is_none()) return false;
  if (!nb::isinstance<nb::tuple>(max_version) || nb::len(max_version) != 2)
    throw nb::type_error(("[__dlpack__] max_version must be None or a (major, minor) tuple, got " +
                          nb::cast<std::string>(nb::repr(max_version)))
                             .c_str());
  return index_int(max_version[0]) >= 1;
}

// dl_device=(type, id) as an accel device; BufferError for a device accel cannot export to.
Device export_device(nb::handle dl_device) {
  if (!nb::isinstance<nb::tuple>(dl_device) || nb::len(dl_device) != 2)
    throw nb::type_error(("[__dlpack__] dl_device must be None or a (device_type, device_id) "
                          "tuple, got " +
                          nb::cast<std::string>(nb::repr(dl_device)))
                             .c_str());
  const auto type = static_cast<int32_t>(index_int(dl_device[0]));
  const auto id = static_cast<int32_t>(index_int(dl_device[1]));
  if (type == dlpack::kDLCPU && id == 0) return Device::cpu();
  if (type == dlpack::kDLCUDA && id >= 0) return Device::cuda(id);
  throw nb::buffer_error(("[__dlpack__] cannot export to DLPack device " + dl_device_str(type, id) +
                          "; accel exports to (1, 0) (kDLCPU) and (2, N) (kDLCUDA)")
                             .c_str());
}

// ---- import ----------------------------------------------------------------------------------

// The accel device of DLPack memory: pinned host memory is CPU memory; managed memory is used
// on its CUDA device.
Device import_device(dlpack::DLDevice d) {
  switch (d.device_type) {
    case dlpack::kDLCPU:
    case dlpack::kDLCUDAHost:
      return Device::cpu();
    case dlpack::kDLCUDA:
    case dlpack::kDLCUDAManaged:
      return Device::cuda(d.device_id);
    default:
      throw nb::buffer_error(("[from_dlpack] memory on DLPack device " +
                              dl_device_str(d.device_type, d.device_id) +
                              " cannot be used by accel (it reads kDLCPU, kDLCUDAHost, kDLCUDA and "
                              "kDLCUDAManaged memory)")
                                 .c_str());
  }
}

// Holds a taken tensor; its deleter runs once, with the GIL held (a Python producer's, NumPy's,
// releases Python objects).
template <class Managed>
std::shared_ptr<void> owner_of(Managed* managed) {
  return std::shared_ptr<void>(managed, [](void* p) {
    nb::gil_scoped_acquire gil;
    auto* m = static_cast<Managed*>(p);
    if (m->deleter) m->deleter(m);
  });
}

struct Imported {
  Array array;
  bool copied = false;  // the producer made the copy for this export
};

// Takes the tensor out of a "dltensor_versioned" or "dltensor" capsule. Everything that can
// fail is checked before the capsule is renamed: a refused capsule still owns its tensor, and
// its destructor calls the deleter.
Imported take_capsule(nb::handle capsule) {
  PyObject* c = capsule.ptr();
  const bool versioned = PyCapsule_IsValid(c, dlpack::kVersionedName);
  if (!versioned && !PyCapsule_IsValid(c, dlpack::kLegacyName))
    throw nb::type_error(("[from_dlpack] __dlpack__ returned " +
                          nb::cast<std::string>(nb::repr(capsule)) +
                          ", not an unused 'dltensor_versioned' or 'dltensor' capsule")
                             .c_str());
  DLManagedTensorVersioned* mv = nullptr;
  DLManagedTensor* ml = nullptr;
  uint64_t flags = 0;
  if (versioned) {
    mv = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(c, dlpack::kVersionedName));
    if (mv->version.major > dlpack::kMajorVersion)
      throw nb::buffer_error(("[from_dlpack] the producer's DLPack version " +
                              std::to_string(mv->version.major) + "." +
                              std::to_string(mv->version.minor) + " is newer than accel's 1.x")
                                 .c_str());
    flags = mv->flags;
  } else {
    ml = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(c, dlpack::kLegacyName));
  }
  const DLTensor& t = versioned ? mv->dl_tensor : ml->dl_tensor;
  if (t.ndim < 0 || (t.ndim > 0 && !t.shape))
    throw nb::buffer_error(("[from_dlpack] malformed DLPack tensor: ndim " +
                            std::to_string(t.ndim) + (t.shape ? "" : " without a shape"))
                               .c_str());
  const std::optional<Dtype> dtype = from_dl_dtype(t.dtype);
  if (!dtype)
    throw DTypeError("[from_dlpack] DLPack element type (code " + std::to_string(t.dtype.code) +
                     ", " + std::to_string(t.dtype.bits) + " bits, " +
                     std::to_string(t.dtype.lanes) + " lanes) has no accel dtype");
  const Device device = import_device(t.device);
  check_importable(device, "from_dlpack", "the DLPack tensor");
  Shape shape(t.shape, t.shape + t.ndim);
  Strides strides(static_cast<size_t>(t.ndim));
  for (int i = t.ndim; i-- > 0;)
    strides[i] = t.strides        ? t.strides[i]
                 : i + 1 < t.ndim ? strides[i + 1] * std::max<int64_t>(shape[i + 1], 1)
                                  : 1;
  void* first = static_cast<char*>(t.data) + t.byte_offset;
  // From here nothing throws but allocation: the tensor becomes accel's.
  std::shared_ptr<void> keepalive = versioned ? owner_of(mv) : owner_of(ml);
  PyCapsule_SetName(c, versioned ? dlpack::kUsedVersionedName : dlpack::kUsedLegacyName);
  Array a = wrap_foreign_memory(first, shape, strides, *dtype, device, std::move(keepalive),
                                (flags & dlpack::kFlagReadOnly) != 0);
  return {a, (flags & dlpack::kFlagIsCopied) != 0};
}

// The stream argument a consumer passes for memory on `device`: its current stream there, so
// the producer's work on the memory is ordered before accel's (None on the CPU).
nb::object consumer_stream(Device device) {
  if (device.is_cpu()) return nb::none();
  const cuda::Stream s = cuda::current_stream(device.index);
  // 1 is DLPack's name for the legacy default stream, accel's default stream.
  return nb::int_(s.is_default() ? int64_t{1}
                                 : static_cast<int64_t>(reinterpret_cast<uintptr_t>(s.handle())));
}

// A copy or another device, as asked, of memory taken from a producer (`copied`: the producer
// already copied it).
Array finish_import(Array a, bool copied, std::optional<Device> device, std::optional<bool> copy) {
  if (device && *device != a.device()) {
    if (copy == false)
      throw nb::buffer_error(("[from_dlpack] copy=False, but the producer's memory is on " +
                              a.device().str() + " and device=" + device->str() + " needs a copy")
                                 .c_str());
    a = to_device(a, *device);
    copied = true;
  }
  // Computed now: a lazy copy of the producer's memory would see its later writes.
  if (copy == true && !copied) a = accel::copy(a).eval();
  return a;
}

// A copy in host memory made by a producer whose memory is on a CUDA device, asked for with
// DLPack 1.0's dl_device=(kDLCPU, 0) and copy=True (no stream: the producer synchronises before
// it returns host memory). None from a producer that cannot (older than DLPack 1.0, or it refuses
// the device): the caller then takes the device capsule as usual.
nb::object host_copy_capsule(nb::handle x) {
  try {
    return x.attr("__dlpack__")(nb::arg("stream") = nb::none(),
                                nb::arg("max_version") = nb::make_tuple(1, 0),
                                nb::arg("dl_device") = nb::make_tuple(int{dlpack::kDLCPU}, 0),
                                nb::arg("copy") = true);
  } catch (nb::python_error& e) {
    if (!e.matches(PyExc_TypeError) && !e.matches(PyExc_BufferError) &&
        !e.matches(PyExc_NotImplementedError))
      throw;
    return nb::none();
  }
}

}  // namespace

dlpack::DLDataType to_dl_dtype(Dtype d) {
  uint8_t code = dlpack::kDLFloat;
  switch (dtype_kind(d)) {
    case DtypeKind::Bool:
      code = dlpack::kDLBool;
      break;
    case DtypeKind::SignedInt:
      code = dlpack::kDLInt;
      break;
    case DtypeKind::UnsignedInt:
      code = dlpack::kDLUInt;
      break;
    case DtypeKind::Float:
      code = d == Dtype::bfloat16 ? dlpack::kDLBfloat : dlpack::kDLFloat;
      break;
    case DtypeKind::Complex:
      code = dlpack::kDLComplex;
      break;
  }
  return {code, static_cast<uint8_t>(itemsize(d) * 8), 1};
}

std::optional<Dtype> from_dl_dtype(dlpack::DLDataType t) {
  for (int i = 0; i < kNumDtypes; ++i) {
    const dlpack::DLDataType u = to_dl_dtype(static_cast<Dtype>(i));
    if (u.code == t.code && u.bits == t.bits && u.lanes == t.lanes) return static_cast<Dtype>(i);
  }
  return std::nullopt;
}

nb::object export_dlpack(const Array& a, nb::handle stream_h, nb::handle max_version,
                         nb::handle dl_device, nb::handle copy_h) {
  const std::optional<bool> copy =
      copy_h.is_none() ? std::nullopt : std::optional<bool>(nb::cast<bool>(copy_h));
  const bool versioned = wants_versioned(max_version);
  const Device target = dl_device.is_none() ? a.device() : export_device(dl_device);
  std::optional<int64_t> stream;
  if (!stream_h.is_none()) stream = nb::cast<int64_t>(stream_h);
  if (target.is_cpu() && stream)
    throw ValueError("[__dlpack__] stream must be None for an export to the CPU; got " +
                     std::to_string(*stream));
  const bool moves = target != a.device();
  if (moves && copy == false)
    throw nb::buffer_error(("[__dlpack__] copy=False, but the array is on " + a.device().str() +
                            " and dl_device asks for " + target.str() + ", which needs a copy")
                               .c_str());
  const bool read_only = is_read_only(a);
  if (read_only && !versioned && copy != true && !moves)
    throw nb::buffer_error(
        "[__dlpack__] cannot export a read-only array (a broadcast view, or memory imported "
        "read-only) in a legacy capsule, which cannot say so: ask for max_version=(1, 0) or "
        "copy=True");
  const bool copied = moves || copy == true;
  Array src = moves ? to_device(a, target) : copied ? accel::copy(a) : a;
  src.eval();
  const bool export_read_only = read_only && !copied;
  // Consumers (PyTorch, CuPy, JAX) may write what they are handed unless it is flagged.
  if (!export_read_only) src.buffer()->share_with_foreign_writers();
  // The consumer's stream waits for accel's work on the memory, whose block is not reused
  // before the consumer's work is done.
  if (src.device().is_cuda()) cuda::order_dlpack_export(src, stream);
  if (!versioned) return make_capsule<DLManagedTensor>(src, 0);
  return make_capsule<DLManagedTensorVersioned>(
      src, (export_read_only ? dlpack::kFlagReadOnly : 0) | (copied ? dlpack::kFlagIsCopied : 0));
}

nb::tuple dlpack_device(const Array& a) {
  return nb::make_tuple(a.device().is_cpu() ? int{dlpack::kDLCPU} : int{dlpack::kDLCUDA},
                        a.device().index);
}

Array from_dlpack(nb::handle x, std::optional<Device> device, std::optional<bool> copy) {
  // A NumPy array gives the same view through the buffer protocol, without a capsule.
  if (std::optional<Array> a = from_numpy_array(x)) {
    a->buffer()->share_with_foreign_writers();
    return finish_import(*a, false, device, copy);
  }
  if (!nb::hasattr(x, "__dlpack__"))
    throw nb::attribute_error(("[from_dlpack] " +
                               nb::cast<std::string>(nb::str(x.type().attr("__name__"))) +
                               " does not implement __dlpack__")
                                  .c_str());
  Device source = Device::cpu();
  if (nb::hasattr(x, "__dlpack_device__")) {
    nb::object d = x.attr("__dlpack_device__")();
    source = import_device(
        {static_cast<int32_t>(index_int(d[0])), static_cast<int32_t>(index_int(d[1]))});
    // device="cpu" from a CUDA producer: the producer copies to the host, so this works where
    // accel has no CUDA (and, where it has, the producer's copy is the only one made).
    if (device && device->is_cpu() && source.is_cuda() && copy != false) {
      nb::object capsule = host_copy_capsule(x);
      if (!capsule.is_none()) {
        Imported in = take_capsule(capsule);
        return finish_import(in.array, in.copied, device, copy);
      }
    }
    check_importable(source, "from_dlpack", "the producer's array");
  }
  nb::object stream = consumer_stream(source);
  nb::object capsule;
  try {
    capsule = copy ? x.attr("__dlpack__")(nb::arg("stream") = stream,
                                          nb::arg("max_version") = nb::make_tuple(1, 0),
                                          nb::arg("copy") = *copy)
                   : x.attr("__dlpack__")(nb::arg("stream") = stream,
                                          nb::arg("max_version") = nb::make_tuple(1, 0));
  } catch (nb::python_error& e) {
    // A producer older than DLPack 1.0 does not know the keywords: its legacy capsule, copied
    // here when asked (it cannot copy).
    if (!e.matches(PyExc_TypeError)) throw;
    capsule = x.attr("__dlpack__")(nb::arg("stream") = stream);
  }
  Imported in = take_capsule(capsule);
  return finish_import(in.array, in.copied, device, copy);
}

void check_importable(Device device, const std::string& op, const std::string& what) {
  if (device.is_cpu()) return;
  if (!cuda::is_available())
    throw BackendUnavailable(
        "[" + op + "] " + what + " is on " + device.str() +
        ", but CUDA is unavailable here: " + cuda::driver_unavailable_reason());
  if (device.index < 0 || device.index >= cuda::device_count())
    throw DeviceError("[" + op + "] " + what + " is on " + device.str() + ", but there are " +
                      std::to_string(cuda::device_count()) + " CUDA devices");
}

Array wrap_foreign_memory(void* first, const Shape& shape, const Strides& strides, Dtype dtype,
                          Device device, std::shared_ptr<void> keepalive, bool read_only) {
  int64_t lo = 0, hi = 0;  // the lowest and highest element offsets reached
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] > 0) (strides[i] < 0 ? lo : hi) += strides[i] * (shape[i] - 1);
  const auto isz = static_cast<int64_t>(itemsize(dtype));
  const bool empty = shape_size(shape) == 0;
  auto buf = std::make_shared<Buffer>(static_cast<char*>(first) + lo * isz,
                                      empty ? 0 : static_cast<size_t>((hi - lo + 1) * isz), device,
                                      std::move(keepalive));
  buf->set_read_only(read_only);
  buf->share_with_foreign_writers();  // read-only to accel, not necessarily to its owner
  return Array::from_buffer(std::move(buf), shape, strides, -lo, dtype);
}

// The fast paths of the ndarray methods every from_dlpack calls (NumPy's, PyTorch's, accel's),
// installed over the methods array_bindings.cpp defines.
void init_dlpack_fast_paths(nb::module_& m) {
  // x.__dlpack__(...) as from_dlpack (NumPy's, PyTorch's, accel's) calls it, keywords only,
  // without nanobind's keyword dispatch (a quarter of the call).
  def_fast_path_with_keywords(m, "__dlpack__", [](PyObject* self, PyObject* const* args,
                                                   Py_ssize_t nargs, PyObject* kwnames) -> PyObject* {
    if (nargs != 0) return nullptr;
    // Keyword names at call sites are interned strings, so they are these very objects.
    static PyObject* const names[] = {
        PyUnicode_InternFromString("stream"), PyUnicode_InternFromString("max_version"),
        PyUnicode_InternFromString("dl_device"), PyUnicode_InternFromString("copy")};
    PyObject* given[] = {Py_None, Py_None, Py_None, Py_None};
    const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; i < nkw; ++i) {
      PyObject* key = PyTuple_GET_ITEM(kwnames, i);
      size_t k = 0;
      while (k < std::size(names) && key != names[k]) ++k;
      if (k == std::size(names)) return nullptr;  // not interned, or unknown: the full method
      given[k] = args[i];
    }
    return export_dlpack(array_of(self), given[0], given[1], given[2], given[3]).release().ptr();
  });
  def_fast_path(m, "__dlpack_device__", [](PyObject* self, PyObject* const*, Py_ssize_t nargs) -> PyObject* {
    return nargs == 0 ? dlpack_device(array_of(self)).release().ptr() : nullptr;
  });
}

}  // namespace accel::py
