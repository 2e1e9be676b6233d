# The Debian package, made by CPack (scripts/package.sh configures a build with
# CMAKE_INSTALL_PREFIX=/usr and runs cpack): what `cmake --install` installs (cmake/LoomInstall.cmake),
# depending on the Debian packages of the libraries it links, as dpkg-shlibdeps finds them (LLVM 15,
# clang, the SPIR-V translator, the C++ runtime, the loaders the samples link), and on the two
# loaders, through which applications reach Loom. Nothing of the build tools.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME loom)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "Loom developers <loom@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Level Zero and OpenCL 3.0 driver for x86-64 CPUs and NVIDIA GPUs")
set(CPACK_PACKAGE_DESCRIPTION "Loom gives applications oneAPI Level Zero and OpenCL 3.0 on the x86-64 CPU and, through\nthe CUDA driver, on NVIDIA GPUs. OpenCL programs find it through the ICD loader\n(/etc/OpenCL/vendors/loom.icd); Level Zero programs through ZE_ENABLE_ALT_DRIVERS, which\n/etc/profile.d/loom-level-zero.sh sets for login shells. loom-info tells what Loom finds.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Debug information stays in the build tree.
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libze1, ocl-icd-libopencl1")
set(CPACK_DEBIAN_PACKAGE_PROVIDES "opencl-icd")
# The files under /etc are the administrator's: an upgrade keeps their edits and their removal.
set(CPACK_SET_DESTDIR ON)
if(IS_ABSOLUTE "${LOOM_INSTALL_SYSCONFDIR}")
  set(conffiles ${CMAKE_BINARY_DIR}/package/conffiles)
  file(WRITE ${conffiles} "${LOOM_INSTALL_SYSCONFDIR}/OpenCL/vendors/loom.icd\n${LOOM_INSTALL_SYSCONFDIR}/profile.d/loom-level-zero.sh\n")
  set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${conffiles})
endif()
include(CPack)
