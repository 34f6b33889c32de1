# Cross build for aarch64 Linux with Debian's cross toolchain
# (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user):
#   cmake -S . -B build-arm -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
#   cmake --build build-arm && (cd build-arm && ctest)
# A cross build is the runtime (libmixprec) and its tests only
# (MIXPREC_RUNTIME_ONLY): the plugins run on the build machine, so the host
# build makes them (plugin-gcc/mixprec-aarch64.so: the GCC plugin for the
# cross compiler; the clang plugins serve every --target).  The tests run
# under qemu-aarch64 (CMAKE_CROSSCOMPILING_EMULATOR); tests/arm/run.sh
# runs them on each CPU model and the corpus through the cross compilers.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(MP_CROSS_PREFIX aarch64-linux-gnu-)
find_program(CMAKE_C_COMPILER NAMES ${MP_CROSS_PREFIX}gcc-12 ${MP_CROSS_PREFIX}gcc REQUIRED)
find_program(CMAKE_CXX_COMPILER NAMES ${MP_CROSS_PREFIX}g++-12 ${MP_CROSS_PREFIX}g++)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# QEMU_CPU (max, neoverse-n1, cortex-a72, ...) chooses the CPU model.
find_program(MP_QEMU_AARCH64 qemu-aarch64)
if(MP_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${MP_QEMU_AARCH64} -L /usr/aarch64-linux-gnu)
endif()
