// The one error hierarchy (DESIGN.md "Errors"). Messages start with "[op]" and carry numbers.
// The Python layer maps each class to a Python built-in (python/src/errors_bindings.cpp).
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>

namespace accel {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// -> ValueError
class ShapeError : public Error { public: using Error::Error; };
// -> TypeError
class DTypeError : public Error { public: using Error::Error; };
// -> IndexError
class IndexError : public Error { public: using Error::Error; };
// -> numpy-like AxisError (ValueError and IndexError)
class AxisError : public Error { public: using Error::Error; };
// -> ValueError: an argument with a wrong value that is not a shape (e.g. a bad keyword)
class ValueError : public Error { public: using Error::Error; };
// -> OverflowError: a Python integer that does not fit the array's dtype (NEP 50)
class OverflowError : public Error { public: using Error::Error; };
// -> ValueError
class DeviceError : public Error { public: using Error::Error; };
// -> RuntimeError
class CompileError : public Error { public: using Error::Error; };
// -> RuntimeError
class LaunchError : public Error { public: using Error::Error; };
// -> AssertionError: an assert in a user kernel failed (the message names kernel, block, thread)
class KernelAssertionError : public Error { public: using Error::Error; };
// -> RuntimeError (ImportError-like: something needed at run time is missing)
class BackendUnavailable : public Error { public: using Error::Error; };
// -> accel.linalg.LinAlgError (also numpy.linalg.LinAlgError): a matrix an accel.linalg
// function cannot factor (singular, not positive definite, not square), as NumPy raises it.
class LinAlgError : public Error { public: using Error::Error; };

// -> MemoryError, with the numbers a user needs to act on.
class OutOfMemoryError : public Error {
 public:
  OutOfMemoryError(const std::string& where, size_t requested, size_t in_use, size_t cached,
                   size_t total, size_t free);
  size_t requested, in_use, cached, total, free;
};

// "1.50 GiB"-style sizes for messages.
std::string format_bytes(size_t bytes);

}  // namespace accel
