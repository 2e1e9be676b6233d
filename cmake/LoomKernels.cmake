# loom_spirv_kernels(<target> <output-dir> [OPTIMIZE <-On>] <file.cl>...)
# Compiles OpenCL C test kernels to SPIR-V at build time (clang-15 + llvm-spirv-15) and makes
# <target> depend on them. With clang 15 the translator needs typed pointers (-no-opaque-pointers).
# OPTIMIZE (default -O2) is for sources whose -O2 IR the translator rejects (it has no `freeze`).
# Intel's sub-group shuffles become SPV_INTEL_subgroups instructions; calls through function
# pointers (clang's __cl_clang_function_pointers) SPV_INTEL_function_pointers ones; floating-point
# atomic add, min and max (cl_ext_float_atomics) SPV_EXT_shader_atomic_float_add and _min_max ones.
function(loom_spirv_kernels target output_dir)
  cmake_parse_arguments(PARSE_ARGV 2 SPIRV "" "OPTIMIZE" "")
  if(NOT SPIRV_OPTIMIZE)
    set(SPIRV_OPTIMIZE -O2)
  endif()
  set(outputs)
  foreach(source ${SPIRV_UNPARSED_ARGUMENTS})
    get_filename_component(name ${source} NAME_WE)
    get_filename_component(source_path ${source} ABSOLUTE)
    set(bitcode ${output_dir}/${name}.bc)
    set(spirv ${output_dir}/${name}.spv)
    add_custom_command(
      OUTPUT ${spirv}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${output_dir}
      COMMAND ${CLANG15} -cl-std=CL2.0 -target spir64-unknown-unknown ${SPIRV_OPTIMIZE} -emit-llvm -c
              -Xclang -no-opaque-pointers -o ${bitcode} ${source_path}
      COMMAND ${LLVM_SPIRV15} --spirv-ext=+SPV_INTEL_subgroups,+SPV_INTEL_function_pointers,+SPV_EXT_shader_atomic_float_add,+SPV_EXT_shader_atomic_float_min_max
              ${bitcode} -o ${spirv}
      DEPENDS ${source_path}
      COMMENT "SPIR-V ${name}.spv"
      VERBATIM)
    list(APPEND outputs ${spirv})
  endforeach()
  add_custom_target(${target}_spirv DEPENDS ${outputs})
  add_dependencies(${target} ${target}_spirv)
endfunction()
