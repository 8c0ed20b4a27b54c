# ACCEL_SANITIZE: sanitizer builds of the library, the tests and the examples (scripts/sanitize).
# A comma-separated -fsanitize= list: "address,undefined" or "thread" (they cannot be combined).
# Applied to every target of this project (not to prebuilt libraries such as GoogleTest, NVRTC or
# the BLAS, nor to kernels the host JIT compiles at run time, which run uninstrumented).
set(ACCEL_SANITIZE "" CACHE STRING "Sanitizers to build with: address,undefined or thread")
if(ACCEL_SANITIZE)
  if(ACCEL_SANITIZE MATCHES "thread" AND ACCEL_SANITIZE MATCHES "address")
    message(FATAL_ERROR "ACCEL_SANITIZE: thread and address cannot be combined")
  endif()
  # -O1 keeps the run affordable while keeping line numbers useful; a frame pointer gives whole
  # stacks in reports. Undefined behaviour aborts (a report that does not fail a test is missed).
  # -g1 (after the Debug build type's -g, so it wins): line tables only, which is all a report's
  # file:line frames need; full debug information cost a quarter of each compile here.
  set(ACCEL_SANITIZE_FLAGS -fsanitize=${ACCEL_SANITIZE} -fno-omit-frame-pointer -g1 -O1)
  if(ACCEL_SANITIZE MATCHES "undefined")
    list(APPEND ACCEL_SANITIZE_FLAGS -fno-sanitize-recover=undefined)
  endif()
  add_compile_options(${ACCEL_SANITIZE_FLAGS})
  add_link_options(-fsanitize=${ACCEL_SANITIZE})
endif()
