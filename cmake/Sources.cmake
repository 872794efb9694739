# The library's sources and kernels, listed once: the main build
# (CMakeLists.txt) and the fuzz build (fuzz/CMakeLists.txt) both include this
# file. CLPAD_ROOT is the repository root.
# Every operation is a folder host/ops/<op>/ and a kernel family
# kernels/<family>.cl (host/ops/op.h, docs/architecture.md): both are found
# here by name, so that adding an operation touches no list in this file.
file(GLOB CLPAD_KERNEL_FAMILIES CONFIGURE_DEPENDS ${CLPAD_ROOT}/kernels/*.cl)
set(CLPAD_KERNEL_FILES ${CLPAD_ROOT}/kernels/coords.h ${CLPAD_KERNEL_FAMILIES})
file(GLOB CLPAD_OP_SOURCES CONFIGURE_DEPENDS ${CLPAD_ROOT}/host/ops/*/*.c)
set(CLPAD_LIBRARY_SOURCES
  ${CLPAD_ROOT}/host/core/status.c
  ${CLPAD_ROOT}/host/core/scalar.c
  ${CLPAD_ROOT}/host/core/copy.c
  ${CLPAD_ROOT}/host/core/pool.c
  ${CLPAD_ROOT}/host/core/environment.c
  ${CLPAD_ROOT}/host/core/api.c
  ${CLPAD_ROOT}/host/device/context.c
  ${CLPAD_ROOT}/host/device/quirks.c
  ${CLPAD_ROOT}/host/device/table.c
  ${CLPAD_ROOT}/host/device/config.c
  ${CLPAD_ROOT}/host/device/program.c
  ${CLPAD_ROOT}/host/device/disk_cache.c
  ${CLPAD_ROOT}/host/device/launch.c
  ${CLPAD_ROOT}/host/device/staging.c
  ${CLPAD_ROOT}/host/ops/registry.c
  ${CLPAD_OP_SOURCES}
  ${CLPAD_ROOT}/host/window/common.c
  ${CLPAD_ROOT}/host/window/trt.c
  ${CLPAD_ROOT}/host/window/tf.c
  ${CLPAD_ROOT}/host/window/onnx.c
  ${CLPAD_ROOT}/host/window/openvino.c
  ${CLPAD_ROOT}/host/window/torch.c
  ${CLPAD_ROOT}/host/window/layout.c
  ${CLPAD_ROOT}/host/window/names.c
  ${CLPAD_ROOT}/host/pipeline/paths.c
  ${CLPAD_ROOT}/host/pipeline/presets.c
  ${CLPAD_ROOT}/host/pipeline/stream.c
  ${CLPAD_ROOT}/io/image.c
  ${CLPAD_ROOT}/io/image_png.c
  ${CLPAD_ROOT}/io/image_jpeg.c
  ${CLPAD_ROOT}/io/image_bmp.c
  ${CLPAD_ROOT}/io/image_pnm.c
  ${CLPAD_ROOT}/io/image_exif.c)
# Letterbox's coefficients and normalisation are defined operation by
# operation (docs/letterbox.md): no contraction into fused multiply-adds.
set_source_files_properties(${CLPAD_ROOT}/host/ops/letterbox/plan.c
  ${CLPAD_ROOT}/host/ops/letterbox/cpu.c
  ${CLPAD_ROOT}/host/ops/letterbox/resize_tables.c
  PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
# The image decoders the library links (include/clpad_image.h): libpng,
# libjpeg-turbo, libexif and stb_image (BMP), found by pkg-config as
# PkgConfig::CLPAD_PNG, ..._JPEG, ..._EXIF, ..._STB.
macro(clpad_find_image_libraries)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(CLPAD_PNG REQUIRED IMPORTED_TARGET libpng)
  pkg_check_modules(CLPAD_JPEG REQUIRED IMPORTED_TARGET libjpeg)
  pkg_check_modules(CLPAD_EXIF REQUIRED IMPORTED_TARGET libexif)
  pkg_check_modules(CLPAD_STB REQUIRED IMPORTED_TARGET stb)
  set(CLPAD_IMAGE_TARGETS PkgConfig::CLPAD_PNG PkgConfig::CLPAD_JPEG PkgConfig::CLPAD_EXIF
      PkgConfig::CLPAD_STB)
  # For libclpad.a's users: the libraries by name, and their pkg-config modules.
  set(CLPAD_IMAGE_LINK_NAMES ${CLPAD_PNG_LIBRARIES} ${CLPAD_JPEG_LIBRARIES}
      ${CLPAD_EXIF_LIBRARIES} ${CLPAD_STB_LIBRARIES})
  set(CLPAD_IMAGE_PC_MODULES "libpng libjpeg libexif stb")
endmacro()
# Private include directories of the library's sources.
set(CLPAD_PRIVATE_INCLUDES ${CLPAD_ROOT}/host ${CLPAD_ROOT}/kernels)

# The kernels embedded into a generated C file (cmake/EmbedKernels.cmake),
# rebuilt when a kernel file changes.
function(clpad_embed_kernels output)
  string(REPLACE ";" "|" _kernel_arg "${CLPAD_KERNEL_FILES}")
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} "-DSOURCES=${_kernel_arg}"
            -P ${CLPAD_ROOT}/cmake/EmbedKernels.cmake
    DEPENDS ${CLPAD_KERNEL_FILES} ${CLPAD_ROOT}/cmake/EmbedKernels.cmake
    COMMENT "Embedding OpenCL kernels"
    VERBATIM)
endfunction()

# The tensor file I/O library (io/: .npy, images, atomic outputs), used by the
# CLI, the tests and the fuzz targets.
set(CLPAD_IO_SOURCES
  ${CLPAD_ROOT}/io/util.c
  ${CLPAD_ROOT}/io/reader.c
  ${CLPAD_ROOT}/io/formats.c
  ${CLPAD_ROOT}/io/npy.c
  ${CLPAD_ROOT}/io/image_read.c
  ${CLPAD_ROOT}/io/image_write.c
  ${CLPAD_ROOT}/io/atomic_file.c
  ${CLPAD_ROOT}/io/load_save.c)
