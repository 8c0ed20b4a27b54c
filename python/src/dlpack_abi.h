// The DLPack C ABI (https://dmlc.github.io/dlpack/latest/c_api.html), version 1.x: the structs
// a producer and a consumer exchange inside a PyCapsule. Written from the specification; only
// what accel reads or writes. The layouts are fixed by the ABI: do not reorder fields.
#pragma once
#include <cstdint>

namespace accel::dlpack {

inline constexpr uint32_t kMajorVersion = 1;
inline constexpr uint32_t kMinorVersion = 0;

// PyCapsule names: a consumer renames a capsule it took to the "used_" name, after which the
// capsule's own destructor leaves the tensor alone (the consumer calls the deleter).
inline constexpr const char* kVersionedName = "dltensor_versioned";
inline constexpr const char* kUsedVersionedName = "used_dltensor_versioned";
inline constexpr const char* kLegacyName = "dltensor";
inline constexpr const char* kUsedLegacyName = "used_dltensor";

struct PackVersion {
  uint32_t major;
  uint32_t minor;
};

// DLDeviceType values accel meets (the others are refused by number).
enum DeviceType : int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,  // pinned host memory: the CPU can read it directly
  kDLCUDAManaged = 13,
};

struct DLDevice {
  int32_t device_type;  // a DeviceType
  int32_t device_id;
};

// DLDataTypeCode values.
enum TypeCode : uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLOpaqueHandle = 3,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6,
};

struct DLDataType {
  uint8_t code;  // a TypeCode
  uint8_t bits;
  uint16_t lanes;
};

struct DLTensor {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;  // in elements; null means C-contiguous (allowed before DLPack 1.2)
  uint64_t byte_offset;
};

// The pre-1.0 ("legacy") struct, in capsules named "dltensor".
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

// Bits of DLManagedTensorVersioned::flags.
inline constexpr uint64_t kFlagReadOnly = 1ull << 0;  // the consumer must not write the memory
inline constexpr uint64_t kFlagIsCopied = 1ull << 1;  // the producer made a copy for this export

// The 1.x struct, in capsules named "dltensor_versioned". `version` comes first so that a
// consumer can check it before reading the rest.
struct DLManagedTensorVersioned {
  PackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
};

}  // namespace accel::dlpack
