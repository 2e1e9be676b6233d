# CTest's API tests are the CPU device's: where Loom lists NVIDIA GPUs (first, by default) they
# still run on the CPU, as the tests of CPU tiles and hierarchies need (scripts/device-run.sh runs
# the suites on the GPU, with LOOM_ForceBackend=cuda).
set(LOOM_TEST_ON_CPU "LOOM_EnableCudaDevices=0")

# A CTest entry that runs the gtest cases FILTER of an API test binary under ENVIRONMENT (a list of
# VARIABLE=value): the device hierarchy and implicit scaling, which read their settings once at
# start-up, each need a process of their own. LOADER_ENVIRONMENT is what makes the binary find Loom.
function(loom_environment_test name binary filter loaderEnvironment environment timeout)
  add_test(NAME ${name} COMMAND ${binary} --gtest_filter=${filter})
  set_tests_properties(${name} PROPERTIES
    ENVIRONMENT "${loaderEnvironment};${LOOM_TEST_ON_CPU};LOOM_CompilerCacheDir=${CMAKE_BINARY_DIR}/compiler-cache;${environment}"
    TIMEOUT ${timeout})
endfunction()

# loom_discovered_tests_environment(<test-binary> <environment>)
# Gives every test that gtest_discover_tests (called before) found in <test-binary> the
# ENVIRONMENT <environment> (a list of VARIABLE=value): its own PROPERTIES option would split the
# list into separate properties, so a script that CTest runs after the discovery's sets it.
function(loom_discovered_tests_environment binary environment)
  set(script ${CMAKE_CURRENT_BINARY_DIR}/${binary}_environment.cmake)
  file(GENERATE OUTPUT ${script}
    CONTENT "set_tests_properties(\${${binary}_TESTS} PROPERTIES ENVIRONMENT \"${environment}\")\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${script})
endfunction()
