# A CTest entry that runs the gtest cases FILTER of an API test binary under ENVIRONMENT (a list of
# VARIABLE=value): the device hierarchy and implicit scaling, which read their settings once at
# start-up, each need a process of their own. LOADER_ENVIRONMENT is what makes the binary find Loom.
function(loom_environment_test name binary filter loaderEnvironment environment timeout)
  add_test(NAME ${name} COMMAND ${binary} --gtest_filter=${filter})
  set_tests_properties(${name} PROPERTIES
    ENVIRONMENT "${loaderEnvironment};LOOM_CompilerCacheDir=${CMAKE_BINARY_DIR}/compiler-cache;${environment}"
    TIMEOUT ${timeout})
endfunction()
