// accel._core._cuda: devices, streams, events, memory pools, NVRTC and kernel launches
// (python/accel/cuda.py builds the public accel.cuda and RawKernel / RawModule on top).
#include <nanobind/ndarray.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <complex>
#include <cstring>

#include "accel/backend/cuda/cuda.h"
#include "accel/backend/cuda/kernel_check.h"
#include "bindings.h"
#include "launch_args.h"

namespace accel::py {
namespace {

namespace cu = accel::cuda;

// A stream usable as a context manager: `with stream:` makes it current for its device.
struct PyStream {
  cu::Stream stream;
  std::vector<cu::Stream> previous;
};

int resolve_device(nb::handle device) {
  if (device.is_none()) return cu::current_device();
  if (nb::isinstance<nb::int_>(device)) return nb::cast<int>(device);
  auto d = to_optional_device(device);
  if (!d->is_cuda()) throw DeviceError("[cuda] expected a CUDA device, got " + d->str());
  return d->index;
}

cu::Dim3 to_dim3(nb::handle obj, const char* what) {
  const std::array<unsigned, 3> d = to_launch_dims(obj, what);
  return cu::Dim3{d[0], d[1], d[2]};
}

nb::dict properties_dict(const cu::DeviceProperties& p) {
  nb::dict d;
  d["index"] = p.index;
  d["name"] = p.name;
  d["compute_capability"] = nb::make_tuple(p.major, p.minor);
  d["total_memory"] = p.total_memory;
  d["multiprocessor_count"] = p.multiprocessor_count;
  d["max_threads_per_block"] = p.max_threads_per_block;
  d["max_block_dim"] = nb::make_tuple(p.max_block_dim[0], p.max_block_dim[1], p.max_block_dim[2]);
  d["max_grid_dim"] = nb::make_tuple(p.max_grid_dim[0], p.max_grid_dim[1], p.max_grid_dim[2]);
  d["max_shared_memory_per_block"] = p.max_shared_memory_per_block;
  d["max_shared_memory_per_block_optin"] = p.max_shared_memory_per_block_optin;
  d["warp_size"] = p.warp_size;
  d["clock_rate_khz"] = p.clock_rate_khz;
  d["memory_clock_rate_khz"] = p.memory_clock_rate_khz;
  d["memory_bus_width_bits"] = p.memory_bus_width_bits;
  d["l2_cache_bytes"] = p.l2_cache_bytes;
  d["pci_bus_id"] = p.pci_bus_id;
  return d;
}

nb::dict stats_dict(const MemoryStats& s) {
  nb::dict d;
  d["in_use"] = s.in_use;
  d["cached"] = s.cached;
  d["peak"] = s.peak;
  d["allocations"] = s.allocations;
  d["cache_hits"] = s.cache_hits;
  d["oom_retries"] = s.oom_retries;
  return d;
}

}  // namespace

void init_cuda(nb::module_& parent) {
  nb::module_ m = parent.def_submodule("_cuda", "CUDA driver, NVRTC and kernels (see accel.cuda)");

  m.def("is_available", &cu::is_available);
  m.def("unavailable_reason", &cu::driver_unavailable_reason);
  m.def("nvrtc_unavailable_reason", &cu::nvrtc_unavailable_reason);
  m.def("add_nvrtc_search_dirs", &cu::add_nvrtc_search_dirs);
  m.def("cublas_unavailable_reason", &cu::cublas_unavailable_reason);
  m.def("add_cublas_search_dirs", &cu::add_cublas_search_dirs);
  m.def("cublas_info", [] {
    const cu::CublasApi& api = cu::cublas();
    nb::dict d;
    d["path"] = api.path;
    d["version"] = api.version_string();
    return d;
  });
  // cuFFT and cuSOLVER (accel.fft and accel.linalg on CUDA arrays), loaded like cuBLAS.
  m.def("cufft_unavailable_reason", &cu::cufft_unavailable_reason);
  m.def("add_cufft_search_dirs", &cu::add_cufft_search_dirs);
  m.def("cufft_info", [] {
    const cu::CufftApi& api = cu::cufft();
    nb::dict d;
    d["path"] = api.path;
    d["version"] = api.version_string();
    d["cached_plans"] = cu::cached_fft_plans();
    return d;
  });
  m.def("cusolver_unavailable_reason", &cu::cusolver_unavailable_reason);
  m.def("add_cusolver_search_dirs", &cu::add_cusolver_search_dirs);
  m.def("cusolver_info", [] {
    const cu::CusolverApi& api = cu::cusolver();
    nb::dict d;
    d["path"] = api.path;
    d["version"] = api.version_string();
    return d;
  });
  m.def("driver_info", [] {
    const cu::DriverApi& api = cu::driver();
    nb::dict d;
    d["path"] = api.path;
    d["version"] = cu::cuda_version_string(api.version);
    d["device_count"] = api.device_count;
    return d;
  });
  m.def("nvrtc_info", [] {
    const cu::NvrtcApi& api = cu::nvrtc();
    nb::dict d;
    d["path"] = api.path;
    d["version"] = api.version_string();
    nb::list archs;
    for (int a : api.archs) archs.append("sm_" + std::to_string(a));
    d["archs"] = archs;
    d["include_dir"] = api.include_dir;
    return d;
  });
  m.def("device_count", &cu::device_count);
  m.def("get_device_properties", [](nb::handle device) {
    return properties_dict(cu::device_properties(resolve_device(device)));
  }, nb::arg("device") = nb::none());
  m.def("compile_target", [](nb::handle device) { return cu::compile_target(resolve_device(device)); },
        nb::arg("device") = nb::none());
  m.def("synchronize", [](nb::handle device) {
    int d = resolve_device(device);
    nb::gil_scoped_release release;
    cu::synchronize_device(d);
  }, nb::arg("device") = nb::none());
  m.def("memory_info", [](nb::handle device) { return cu::memory_info(resolve_device(device)); },
        nb::arg("device") = nb::none());
  m.def("memory_stats", [](nb::handle device) {
    return stats_dict(cu::device_allocator(resolve_device(device)).stats());
  }, nb::arg("device") = nb::none());
  m.def("free_cached", [](nb::handle device) { cu::device_allocator(resolve_device(device)).free_cached(); },
        nb::arg("device") = nb::none());
  m.def("set_memory_limit", [](size_t bytes, nb::handle device) {
    cu::device_allocator(resolve_device(device)).set_limit(bytes);
  }, nb::arg("bytes"), nb::arg("device") = nb::none());
  m.def("memory_limit", [](nb::handle device) { return cu::device_allocator(resolve_device(device)).limit(); },
        nb::arg("device") = nb::none());
  m.def("pinned_empty", [](nb::handle shape, nb::handle dtype) {
    Shape s = to_shape(shape);
    Dtype dt = dtype.is_none() ? Dtype::float64 : to_dtype(dtype);
    size_t nbytes = static_cast<size_t>(shape_size(s)) * itemsize(dt);
    auto pinned = cu::allocate_pinned(nbytes);
    auto buf = std::make_shared<Buffer>(pinned.get(), nbytes, Device::cpu(), pinned);
    return to_numpy_view(Array::from_buffer(buf, s, contiguous_strides(s), 0, dt));
  }, nb::arg("shape"), nb::arg("dtype") = nb::none(),
     "A NumPy array in page-locked host memory: transfers from and to it run at full bus speed.");

  using HostArray = nb::ndarray<nb::c_contig, nb::device::cpu>;
  auto device_operand = [](const Array& a, const char* op) {
    if (!a.device().is_cuda())
      throw DeviceError(std::string("[") + op + "] expected an array on a CUDA device, got " + a.describe());
    if (!a.is_contiguous())
      throw ValueError(std::string("[") + op + "] the device array must be contiguous, got " + a.describe());
    return a.device().index;
  };
  auto check_sizes = [](size_t host, const Array& a, const char* op) {
    if (host != a.nbytes())
      throw ValueError(std::string("[") + op + "] the host array has " + std::to_string(host) +
                       " bytes, the device array " + std::to_string(a.nbytes()) + " (" + a.describe() + ")");
  };
  m.def("copy_to_host", [=](const Array& src, HostArray out, const PyStream* stream, bool async) {
    int d = device_operand(src, "copy_to_host");
    check_sizes(out.nbytes(), src, "copy_to_host");
    cu::Stream s = stream ? stream->stream : cu::current_stream(d);
    void* dst = out.data();
    const void* from = src.data();
    nb::gil_scoped_release release;
    if (async)
      cu::copy_async(dst, from, src.nbytes(), cu::CopyKind::device_to_host, s);
    else
      cu::copy(dst, from, src.nbytes(), cu::CopyKind::device_to_host, s);
  }, nb::arg("src"), nb::arg("out"), nb::kw_only(), nb::arg("stream") = nb::none(), nb::arg("async_") = false,
     "Copies a contiguous device array into an existing host array of the same size in bytes. "
     "async_=True only queues it on the stream (truly asynchronous with pinned memory).");
  m.def("copy_from_host", [=](HostArray src, const Array& out, const PyStream* stream, bool async) {
    int d = device_operand(out, "copy_from_host");
    check_sizes(src.nbytes(), out, "copy_from_host");
    out.buffer()->evaluate_pending_readers();
    cu::Stream s = stream ? stream->stream : cu::current_stream(d);
    const void* from = src.data();
    void* dst = out.data();
    nb::gil_scoped_release release;
    if (async)
      cu::copy_async(dst, from, out.nbytes(), cu::CopyKind::host_to_device, s);
    else
      cu::copy(dst, from, out.nbytes(), cu::CopyKind::host_to_device, s);
  }, nb::arg("src"), nb::arg("out"), nb::kw_only(), nb::arg("stream") = nb::none(), nb::arg("async_") = false,
     "Copies a contiguous host array into an existing device array of the same size in bytes.");

  nb::class_<PyStream>(m, "Stream")
      .def("__init__", [](PyStream* self, nb::handle device, bool non_blocking) {
        new (self) PyStream{cu::Stream::create(resolve_device(device), non_blocking), {}};
      }, nb::arg("device") = nb::none(), nb::arg("non_blocking") = false)
      .def_prop_ro("device", [](const PyStream& s) { return s.stream.device(); })
      .def_prop_ro("ptr", [](const PyStream& s) { return reinterpret_cast<uintptr_t>(s.stream.handle()); })
      .def_prop_ro("is_default", [](const PyStream& s) { return s.stream.is_default(); })
      .def_prop_ro("non_blocking", [](const PyStream& s) { return s.stream.non_blocking(); })
      .def("synchronize", [](const PyStream& s) {
        nb::gil_scoped_release release;
        s.stream.synchronize();
      })
      .def("query", [](const PyStream& s) { return s.stream.query(); })
      .def("wait_event", [](const PyStream& s, const cu::Event& e) { s.stream.wait(e); })
      .def("record", [](const PyStream& s, std::optional<cu::Event> e) {
        cu::Event ev = e ? *e : cu::Event::create(s.stream.device());
        ev.record(s.stream);
        return ev;
      }, nb::arg("event") = nb::none())
      .def("__enter__", [](PyStream& s) -> PyStream& {
        s.previous.push_back(cu::set_current_stream(s.stream));
        return s;
      }, nb::rv_policy::reference)
      .def("__exit__", [](PyStream& s, nb::handle, nb::handle, nb::handle) {
        if (s.previous.empty()) return;
        cu::set_current_stream(s.previous.back());
        s.previous.pop_back();
      }, nb::arg("exc_type").none(), nb::arg("exc").none(), nb::arg("tb").none())
      .def("__eq__", [](const PyStream& a, const PyStream& b) { return a.stream == b.stream; })
      .def("__hash__", [](const PyStream& s) { return s.stream.id(); })
      .def("__repr__", [](const PyStream& s) {
        return "<accel.cuda.Stream " + std::string(s.stream.is_default() ? "default" : "") +
               " on cuda:" + std::to_string(s.stream.device()) + ">";
      });
  m.def("current_stream", [](nb::handle device) {
    return PyStream{cu::current_stream(resolve_device(device)), {}};
  }, nb::arg("device") = nb::none());
  m.def("default_stream", [](nb::handle device) {
    return PyStream{cu::Stream::default_stream(resolve_device(device)), {}};
  }, nb::arg("device") = nb::none());

  nb::class_<cu::Event>(m, "Event")
      .def("__init__", [](cu::Event* self, nb::handle device, bool timing) {
        new (self) cu::Event(cu::Event::create(resolve_device(device), timing));
      }, nb::arg("device") = nb::none(), nb::arg("enable_timing") = true)
      .def("record", [](const cu::Event& e, const PyStream* s) {
        e.record(s ? s->stream : cu::current_stream(e.device()));
      }, nb::arg("stream") = nb::none())
      .def("synchronize", [](const cu::Event& e) {
        nb::gil_scoped_release release;
        e.synchronize();
      })
      .def("query", &cu::Event::query)
      .def("elapsed_time", &cu::Event::elapsed_ms, nb::arg("end"),
           "Milliseconds from this event to `end` (waits for `end`).")
      .def_prop_ro("device", &cu::Event::device);

  nb::class_<cu::CompiledModule>(m, "CompiledModule")
      .def_ro("arch", &cu::CompiledModule::arch)
      .def_prop_ro("is_cubin", [](const cu::CompiledModule& c) { return c.cubin; })
      .def_prop_ro("image", [](const cu::CompiledModule& c) { return nb::bytes(c.image.data(), c.image.size()); })
      .def_ro("lowered_names", &cu::CompiledModule::lowered_names)
      .def_ro("log", &cu::CompiledModule::log)
      .def_ro("key", &cu::CompiledModule::key);
  m.def("compile", [](const std::string& source, std::optional<std::string> arch,
                      std::vector<std::string> options, std::vector<std::string> name_expressions,
                      std::string program_name, bool use_cache, nb::handle device, bool checked) {
    cu::CompileOptions o;
    o.arch = arch.value_or("");
    if (o.arch.empty()) o.device = resolve_device(device);
    o.options = std::move(options);
    o.name_expressions = std::move(name_expressions);
    o.program_name = std::move(program_name);
    o.use_cache = use_cache;
    std::shared_ptr<const cu::CompiledModule> m;
    {
      nb::gil_scoped_release release;
      m = cu::compile(checked ? cu::checked_cuda_source(source, o.program_name).text : source, o);
    }
    return std::const_pointer_cast<cu::CompiledModule>(m);
  }, nb::arg("source"), nb::kw_only(), nb::arg("arch") = nb::none(),
     nb::arg("options") = std::vector<std::string>(), nb::arg("name_expressions") = std::vector<std::string>(),
     nb::arg("program_name") = "kernel.cu", nb::arg("use_cache") = true, nb::arg("device") = nb::none(),
     nb::arg("checked") = false,
     "Compiles CUDA C++ with NVRTC: arch 'sm_XY' gives CUBIN, 'compute_XY' PTX; no GPU needed. "
     "checked: checked mode's build (array accesses bounds-checked).");
  m.def("checked_source", [](const std::string& source, const std::string& program_name) {
    cu::CheckedSource c = cu::checked_cuda_source(source, program_name);
    return nb::make_tuple(c.text, c.checked_parameters);
  }, nb::arg("source"), nb::arg("program_name") = "kernel.cu",
     "Checked mode's NVRTC source and, per kernel, the parameters it checks.");
  m.def("describe_check_record", [](nb::bytes record, const std::string& kernel) {
    AccelCheckRecord r{};
    if (record.size() != sizeof r)
      throw ValueError("[describe_check_record] a record is " + std::to_string(sizeof r) +
                       " bytes, not " + std::to_string(record.size()));
    std::memcpy(&r, record.c_str(), sizeof r);
    return cu::describe_check_record(r, kernel);
  }, "The message of a checked launch's device-side error record (its bytes, as the GPU wrote them).");
  m.def("compile_stats", [] {
    cu::CompileStats s = cu::compile_stats();
    nb::dict d;
    d["compiles"] = s.compiles;
    d["memory_hits"] = s.memory_hits;
    d["disk_hits"] = s.disk_hits;
    d["compile_seconds"] = s.compile_seconds;
    return d;
  });
  m.def("clear_compile_memory_cache", &cu::clear_compile_memory_cache);

  nb::class_<cu::Module>(m, "Module")
      .def(nb::init<std::string, std::vector<std::string>, std::vector<std::string>, std::string, bool>(),
           nb::arg("source"), nb::arg("options") = std::vector<std::string>(),
           nb::arg("name_expressions") = std::vector<std::string>(), nb::arg("program_name") = "kernel.cu",
           nb::arg("checked") = false)
      .def("function", [](const cu::Module& mod, const std::string& name, nb::handle device) {
        int d = resolve_device(device);
        return mod.function(name, d);
      }, nb::arg("name"), nb::arg("device") = nb::none())
      .def("compiled", [](const cu::Module& mod, nb::handle device) {
        return std::const_pointer_cast<cu::CompiledModule>(mod.compiled(resolve_device(device)));
      }, nb::arg("device") = nb::none())
      .def_prop_ro("source", &cu::Module::source);

  nb::class_<cu::Kernel>(m, "Kernel")
      .def_prop_ro("name", &cu::Kernel::name)
      .def_prop_ro("symbol", &cu::Kernel::symbol)
      .def_prop_ro("device", &cu::Kernel::device)
      .def("parameter_sizes", &cu::Kernel::parameter_sizes)
      .def_prop_ro("checked_parameters", &cu::Kernel::checked_parameters)
      .def("__call__", [](const cu::Kernel& k, nb::handle grid, nb::handle block, nb::handle args,
                          size_t shared_mem, const PyStream* stream) {
        cu::Dim3 g = to_dim3(grid, "grid"), b = to_dim3(block, "block");
        cu::KernelArgs a = to_launch_args<cu::KernelArgs>(args, k.name());
        k(g, b, a, shared_mem, stream ? std::optional<cu::Stream>(stream->stream) : std::nullopt);
      }, nb::arg("grid"), nb::arg("block"), nb::arg("args"), nb::kw_only(),
         nb::arg("shared_mem") = 0, nb::arg("stream") = nb::none());
}

}  // namespace accel::py
