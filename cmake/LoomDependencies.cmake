# Every dependency comes from a Debian 12 package (scripts/setup.sh installs them).
find_package(LLVM 15 REQUIRED CONFIG PATHS /usr/lib/llvm-15/lib/cmake/llvm NO_DEFAULT_PATH)
message(STATUS "LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")

# One shared libLLVM keeps links fast and the build lean.
add_library(loom_llvm INTERFACE)
target_include_directories(loom_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
target_compile_definitions(loom_llvm INTERFACE ${LLVM_DEFINITIONS})
target_link_libraries(loom_llvm INTERFACE ${LLVM_LIBRARY_DIR}/libLLVM-15.so)

find_library(LLVM_SPIRV_LIB NAMES LLVMSPIRVLib REQUIRED)
find_path(LLVM_SPIRV_INCLUDE LLVMSPIRVLib.h PATH_SUFFIXES LLVMSPIRVLib REQUIRED)
add_library(loom_llvm_spirv INTERFACE)
target_include_directories(loom_llvm_spirv SYSTEM INTERFACE ${LLVM_SPIRV_INCLUDE})
target_link_libraries(loom_llvm_spirv INTERFACE ${LLVM_SPIRV_LIB} loom_llvm)

# Clang compiles OpenCL C in-process. Debian ships only the versioned shared libclang-cpp; the
# compiler embeds the one header it needs (opencl-c-base.h) rather than using the resource directory.
find_library(CLANG_CPP_LIB NAMES clang-cpp libclang-cpp.so.${LLVM_VERSION_MAJOR} PATHS ${LLVM_LIBRARY_DIR}
             NO_DEFAULT_PATH REQUIRED)
add_library(loom_clang INTERFACE)
target_link_libraries(loom_clang INTERFACE ${CLANG_CPP_LIB} loom_llvm)
find_file(OPENCL_C_BASE_HEADER opencl-c-base.h PATHS ${LLVM_LIBRARY_DIR}/clang/${LLVM_PACKAGE_VERSION}/include
          NO_DEFAULT_PATH REQUIRED)

# SPIRV-Tools validates modules before the translator sees them (Debian's translator asserts).
find_library(SPIRV_TOOLS_LIB NAMES SPIRV-Tools REQUIRED)
find_path(SPIRV_TOOLS_INCLUDE spirv-tools/libspirv.hpp REQUIRED)

find_path(LEVEL_ZERO_INCLUDE level_zero/ze_api.h REQUIRED)
# The core API header declares the API tracing callbacks (ze_callbacks_t) the DDI tables fill.
set(LEVEL_ZERO_API_HEADER ${LEVEL_ZERO_INCLUDE}/level_zero/ze_api.h)
set(LEVEL_ZERO_DDI_HEADERS
  ${LEVEL_ZERO_INCLUDE}/level_zero/ze_ddi.h
  ${LEVEL_ZERO_INCLUDE}/level_zero/zet_ddi.h
  ${LEVEL_ZERO_INCLUDE}/level_zero/zes_ddi.h)
find_library(ZE_LOADER_LIB NAMES ze_loader REQUIRED)

find_package(Python3 REQUIRED COMPONENTS Interpreter)
find_program(CLANG15 NAMES clang-15 REQUIRED)
find_program(LLVM_LINK15 NAMES llvm-link-15 llvm-link PATHS /usr/lib/llvm-15/bin REQUIRED)
find_program(LLVM_SPIRV15 NAMES llvm-spirv-15 llvm-spirv PATHS /usr/lib/llvm-15/bin REQUIRED)
find_package(Threads REQUIRED)
