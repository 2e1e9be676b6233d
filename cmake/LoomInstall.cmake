# What `cmake --install` puts where (GNUInstallDirs): the two driver libraries in
# CMAKE_INSTALL_LIBDIR, loom-info and loom-cc in CMAKE_INSTALL_BINDIR with their man pages, the
# samples and their kernels in CMAKE_INSTALL_LIBEXECDIR/loom/samples, and under
# LOOM_INSTALL_SYSCONFDIR the ICD file (OpenCL/vendors/loom.icd) and the environment file that
# points Debian's Level Zero loader at Loom (profile.d/loom-level-zero.sh). Loom reads no other
# file at run time: the builtin library and the OpenCL C headers are built into the libraries.

# Configuration goes to /etc for a /usr install (the Debian package), as GNUInstallDirs says, and
# to <prefix>/etc for any other prefix, also one chosen at install time (cmake --install --prefix).
if(CMAKE_INSTALL_FULL_SYSCONFDIR STREQUAL "/etc")
  set(LOOM_INSTALL_SYSCONFDIR /etc)
else()
  set(LOOM_INSTALL_SYSCONFDIR ${CMAKE_INSTALL_SYSCONFDIR})
endif()

# loom_install_path_expression(<variable> <dir>)
# The CMake expression, evaluated by install(CODE), of the installed <dir> (relative to the prefix
# or absolute), without DESTDIR: what an installed file names to find another.
function(loom_install_path_expression variable dir)
  if(IS_ABSOLUTE "${dir}")
    set(${variable} "${dir}" PARENT_SCOPE)
  else()
    set(${variable} "\${CMAKE_INSTALL_PREFIX}/${dir}" PARENT_SCOPE)
  endif()
endfunction()

# loom_install_template(<template> <dir> <name>)
# Installs the text file <dir>/<name> made from <template>, whose @LIBDIR@ becomes, at install
# time, the installed library folder: the ICD file and the environment file name the libraries by
# absolute path, so they must follow the prefix the install runs with.
function(loom_install_template template dir name)
  get_filename_component(template ${template} ABSOLUTE)
  file(READ ${template} content)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${template})
  loom_install_path_expression(libdir ${CMAKE_INSTALL_LIBDIR})
  loom_install_path_expression(target_dir ${dir})
  install(CODE "
    set(libdir \"${libdir}\")
    set(path \"\$ENV{DESTDIR}${target_dir}/${name}\")
    set(content [==[${content}]==])
    string(REPLACE @LIBDIR@ \"\${libdir}\" content \"\${content}\")
    message(STATUS \"Installing: \${path}\")
    file(WRITE \"\${path}\" \"\${content}\")
    list(APPEND CMAKE_INSTALL_MANIFEST_FILES \"\${path}\")")
endfunction()
