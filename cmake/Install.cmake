# Install rules, the CMake package and the pkg-config file. Included at the end
# of the top-level CMakeLists.txt, after the targets exist.
#
#   cmake --install build --prefix /opt/clpad
#
# installs (components in brackets, for `cmake --install --component`):
#   lib/libclpad.so.0.1.0, libclpad.so.0                        [clpad_runtime]
#   lib/libclpad.so, lib/libclpad.a, include/clpad.h, include/clpad_window.h,
#   include/clpad_letterbox.h, include/clpad_image.h, include/clpad_stream.h,
#   lib/cmake/clpad/clpad{Config,ConfigVersion,Targets*}.cmake,
#   lib/pkgconfig/clpad.pc, clpad-static.pc                       [clpad_development]
#   bin/clpad (the CLI, when CLPAD_BUILD_CLI)                     [clpad_cli]
#
# Consumers:
#   find_package(clpad 0.1 CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE clpad::clpad)          # shared
#   target_link_libraries(app PRIVATE clpad::clpad_static)   # static
#   cc app.c $(pkg-config --cflags --libs clpad)          # shared
#   cc app.c $(pkg-config --cflags --libs clpad-static)   # static

# The Python wheel (pyproject.toml sets CLPAD_PYTHON_WHEEL; scikit-build-core
# installs into the wheel's platlib directory) gets the shared library, as
# clpad/libclpad.so.0 beside the package's Python files, which load it from
# there: one file named by the SONAME (a wheel cannot hold the symlinks of a
# versioned library), no headers, static library or CMake/pkg-config files.
# Also the CLI, as clpad/_bin/clpad (the `clpad` console script and
# `python -m clpad` exec it; it finds clpad/libclpad.so.0 by its rpath), and
# docs/*.md as clpad/docs/ (the docstrings cite them). scripts/build_wheel.sh
# then bundles the libraries these link (auditwheel repair).
if(CLPAD_PYTHON_WHEEL)
  set_property(TARGET clpad PROPERTY VERSION)
  install(TARGETS clpad
    LIBRARY DESTINATION clpad NAMELINK_SKIP COMPONENT clpad_python
    RUNTIME DESTINATION clpad COMPONENT clpad_python)
  if(TARGET clpad_cli)
    set_target_properties(clpad_cli PROPERTIES INSTALL_RPATH "$ORIGIN/..")
    install(TARGETS clpad_cli RUNTIME DESTINATION clpad/_bin COMPONENT clpad_python)
  endif()
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION clpad/docs
    COMPONENT clpad_python FILES_MATCHING PATTERN "*.md")
  return()
endif()

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Where clpadConfig.cmake goes, relative to the prefix (-DCLPAD_INSTALL_CMAKEDIR=
# to override); follows CMAKE_INSTALL_LIBDIR (lib, lib64, lib/<multiarch>).
if(NOT CLPAD_INSTALL_CMAKEDIR)
  set(CLPAD_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/clpad")
endif()

# --- Static library, from the same objects as the shared one ------------------
# The objects are compiled with -fPIC, hidden visibility and CLPAD_BUILDING.
# Consumers of the static library compile with CLPAD_STATIC_DEFINE (an empty
# CLPAD_API) and link OpenCL, Threads, libm and the image decoders (libpng,
# libjpeg, libexif, stb, by name) themselves (exported here).
add_library(clpad_static STATIC $<TARGET_OBJECTS:clpad_objects>)
add_library(clpad::clpad_static ALIAS clpad_static)
set_target_properties(clpad_static PROPERTIES
  OUTPUT_NAME clpad
  EXPORT_NAME clpad_static)
target_include_directories(clpad_static PUBLIC
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_definitions(clpad_static INTERFACE CLPAD_STATIC_DEFINE)
target_link_libraries(clpad_static PUBLIC OpenCL::OpenCL Threads::Threads m
  ${CLPAD_IMAGE_LINK_NAMES})

set_target_properties(clpad PROPERTIES EXPORT_NAME clpad)
# clpad's own INSTALL_INTERFACE include directory is "include".
if(NOT CMAKE_INSTALL_INCLUDEDIR STREQUAL "include")
  target_include_directories(clpad INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endif()

# The CLI finds the library of its own prefix wherever the prefix is moved
# (no rpath when the library goes to a directory the linker searches anyway).
if(TARGET clpad_cli AND NOT CMAKE_INSTALL_FULL_LIBDIR IN_LIST
   CMAKE_C_IMPLICIT_LINK_DIRECTORIES)
  get_target_property(_clpad_cli_rpath clpad_cli INSTALL_RPATH)
  if(NOT _clpad_cli_rpath AND NOT IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}"
     AND NOT IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}")
    file(RELATIVE_PATH _clpad_bin_to_lib
         "/prefix/${CMAKE_INSTALL_BINDIR}" "/prefix/${CMAKE_INSTALL_LIBDIR}")
    if(APPLE)
      set_target_properties(clpad_cli PROPERTIES INSTALL_RPATH "@loader_path/${_clpad_bin_to_lib}")
    else()
      set_target_properties(clpad_cli PROPERTIES INSTALL_RPATH "$ORIGIN/${_clpad_bin_to_lib}")
    endif()
  endif()
endif()

# --- Libraries and headers -----------------------------------------------------
install(TARGETS clpad clpad_static
  EXPORT clpadTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    COMPONENT clpad_runtime
    NAMELINK_COMPONENT clpad_development
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT clpad_development
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT clpad_runtime)

# clpad.h includes clpad_window.h and clpad_letterbox.h; clpad_image.h (image
# reading) includes clpad.h, clpad_stream.h (files to batches) clpad_image.h:
# all are the public API.
set(_clpad_public_headers ${PROJECT_SOURCE_DIR}/include/clpad.h)
if(EXISTS ${PROJECT_SOURCE_DIR}/include/clpad_window.h)
  list(APPEND _clpad_public_headers ${PROJECT_SOURCE_DIR}/include/clpad_window.h)
endif()
list(APPEND _clpad_public_headers ${PROJECT_SOURCE_DIR}/include/clpad_letterbox.h
  ${PROJECT_SOURCE_DIR}/include/clpad_image.h ${PROJECT_SOURCE_DIR}/include/clpad_stream.h)
install(FILES ${_clpad_public_headers}
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT clpad_development)

if(TARGET clpad_cli)
  install(TARGETS clpad_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT clpad_cli)
endif()

# --- CMake package: clpadConfig.cmake, clpadConfigVersion.cmake, targets -------
install(EXPORT clpadTargets
  NAMESPACE clpad::
  FILE clpadTargets.cmake
  DESTINATION ${CLPAD_INSTALL_CMAKEDIR}
  COMPONENT clpad_development)

set(_clpad_config_in ${CMAKE_CURRENT_BINARY_DIR}/clpadConfig.cmake.in)
file(WRITE ${_clpad_config_in} [=[
# clpad CMake package: tensor padding and data movement on OpenCL.
#
#   find_package(clpad 0.1 CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE clpad::clpad)         # shared library
#   target_link_libraries(app PRIVATE clpad::clpad_static)  # static library
#
# Both targets carry the include directory; clpad::clpad_static also defines
# CLPAD_STATIC_DEFINE and links OpenCL, Threads and libm. clpad_VERSION is the
# installed version; a request is compatible within the same major version.
@PACKAGE_INIT@

include(CMakeFindDependencyMacro)
find_dependency(OpenCL)
find_dependency(Threads)

include("${CMAKE_CURRENT_LIST_DIR}/clpadTargets.cmake")

set(clpad_INCLUDE_DIRS "@PACKAGE_CMAKE_INSTALL_INCLUDEDIR@")
set(clpad_LIBRARIES clpad::clpad)
check_required_components(clpad)
]=])
configure_package_config_file(${_clpad_config_in}
  ${CMAKE_CURRENT_BINARY_DIR}/clpadConfig.cmake
  INSTALL_DESTINATION ${CLPAD_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/clpadConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMajorVersion)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/clpadConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/clpadConfigVersion.cmake
  DESTINATION ${CLPAD_INSTALL_CMAKEDIR}
  COMPONENT clpad_development)

# --- pkg-config: clpad.pc (shared library), clpad-static.pc (libclpad.a) --------------------------------------------------------
# The prefix is known only at install time (`cmake --install --prefix P`), so
# the file is configured then, from cmake/clpad.pc.in, with absolute paths.
set(CLPAD_PC_REQUIRES_PRIVATE "")
set(CLPAD_PC_LIBS_PRIVATE "-lm")
if(CMAKE_THREAD_LIBS_INIT)
  string(PREPEND CLPAD_PC_LIBS_PRIVATE "${CMAKE_THREAD_LIBS_INIT} ")
endif()
if(PKG_CONFIG_FOUND)
  pkg_check_modules(_CLPAD_PC_OPENCL QUIET OpenCL)
endif()
if(_CLPAD_PC_OPENCL_FOUND)
  # The header includes <CL/cl.h>: OpenCL's Cflags come along.
  set(CLPAD_PC_REQUIRES_PRIVATE "OpenCL")
else()
  string(APPEND CLPAD_PC_LIBS_PRIVATE " -lOpenCL")
endif()
# The image decoders, which libclpad.a needs (cmake/Sources.cmake).
string(STRIP "${CLPAD_PC_REQUIRES_PRIVATE} ${CLPAD_IMAGE_PC_MODULES}" CLPAD_PC_REQUIRES_PRIVATE)
set(CLPAD_PC_CFLAGS_EXTRA "")
if(NOT _CLPAD_PC_OPENCL_FOUND AND OpenCL_INCLUDE_DIRS)
  foreach(_dir IN LISTS OpenCL_INCLUDE_DIRS)
    if(NOT _dir IN_LIST CMAKE_C_IMPLICIT_INCLUDE_DIRECTORIES)
      string(APPEND CLPAD_PC_CFLAGS_EXTRA " -I${_dir}")
    endif()
  endforeach()
endif()

set(_clpad_pc_stage ${CMAKE_CURRENT_BINARY_DIR}/clpad-pc)
install(CODE "
  set(CLPAD_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  set(_libdir [=[${CMAKE_INSTALL_LIBDIR}]=])
  set(_incdir [=[${CMAKE_INSTALL_INCLUDEDIR}]=])
  if(IS_ABSOLUTE \"\${_libdir}\")
    set(CLPAD_PC_LIBDIR \"\${_libdir}\")
  else()
    set(CLPAD_PC_LIBDIR \"\\\${prefix}/\${_libdir}\")
  endif()
  if(IS_ABSOLUTE \"\${_incdir}\")
    set(CLPAD_PC_INCLUDEDIR \"\${_incdir}\")
  else()
    set(CLPAD_PC_INCLUDEDIR \"\\\${prefix}/\${_incdir}\")
  endif()
  set(PROJECT_VERSION [=[${PROJECT_VERSION}]=])
  set(CLPAD_PC_REQUIRES_PRIVATE [=[${CLPAD_PC_REQUIRES_PRIVATE}]=])
  set(CLPAD_PC_LIBS_PRIVATE [=[${CLPAD_PC_LIBS_PRIVATE}]=])
  set(CLPAD_PC_CFLAGS_EXTRA [=[${CLPAD_PC_CFLAGS_EXTRA}]=])
  configure_file([=[${PROJECT_SOURCE_DIR}/cmake/clpad.pc.in]=]
                 [=[${_clpad_pc_stage}/clpad.pc]=] @ONLY)
  configure_file([=[${PROJECT_SOURCE_DIR}/cmake/clpad-static.pc.in]=]
                 [=[${_clpad_pc_stage}/clpad-static.pc]=] @ONLY)
  if(IS_ABSOLUTE \"\${_libdir}\")
    set(_pcdir \"\${_libdir}/pkgconfig\")
  else()
    set(_pcdir \"\${CMAKE_INSTALL_PREFIX}/\${_libdir}/pkgconfig\")
  endif()
  file(INSTALL DESTINATION \"\${_pcdir}\" TYPE FILE FILES [=[${_clpad_pc_stage}/clpad.pc]=]
       [=[${_clpad_pc_stage}/clpad-static.pc]=])
" COMPONENT clpad_development)
