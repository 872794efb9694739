# Conformance of clpad against OpenVINO, ONNX Runtime and NumPy; see
# tests/peer/README.md. Included by tests/CMakeLists.txt (OPTIONAL).
#
# The test creates a virtual environment in the build tree on its first run
# (pip install of tests/peer/requirements.txt: about 100 MB of wheels) and
# reuses it afterwards. Without python3, the venv module or network for pip it
# reports Skipped (exit 77) with the reason. More cases:
#   CLPAD_PEER_CASES=1000 CLPAD_TEST_SEED=3 ctest -L peer --output-on-failure
# or run tests/peer/run.sh --cases N --seed S directly (see its --help).
if(TARGET clpad_cli)
  set(CLPAD_PEER_VENV "${CMAKE_BINARY_DIR}/peer-venv" CACHE PATH
      "Virtual environment of the peer conformance test (created on first use)")
  set(CLPAD_PEER_PHOTOS "${CMAKE_BINARY_DIR}/peer-data" CACHE PATH
      "Where the imread peer test keeps its sample photos (downloaded on first use)")
  # The venv, the sample photos and the Pillow 13 overlay, made once before
  # the peer tests (the fixture clpad_peer_env they all require): each test
  # also makes what is missing (setup_venv.sh removes a stale venv first),
  # and two doing it at once let one import NumPy from a venv the other was
  # installing; made first, the tests find them ready and run side by side.
  add_test(NAME peer_setup COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/peer/with_photos.sh --setup)
  set_tests_properties(peer_setup PROPERTIES
    ENVIRONMENT "${CLPAD_TEST_ENV};CLPAD_PEER_VENV=${CLPAD_PEER_VENV};CLPAD_PEER_PHOTOS=${CLPAD_PEER_PHOTOS};CLPAD_LIBRARY=$<TARGET_FILE:clpad>;CLPAD_PEER_OVERLAY=requirements-pillow13.txt"
    LABELS peer
    SKIP_RETURN_CODE 77
    FIXTURES_SETUP clpad_peer_env
    TIMEOUT 900)
  add_test(NAME peer COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/peer/run.sh)
  set_tests_properties(peer PROPERTIES
    ENVIRONMENT "${CLPAD_TEST_ENV};CLPAD_PEER_VENV=${CLPAD_PEER_VENV}"
    LABELS peer
    SKIP_RETURN_CODE 77
    FIXTURES_REQUIRED clpad_peer_env
    TIMEOUT 900)
  # Letterbox against OpenCV (cv2.resize + copyMakeBorder, dnn's letterbox)
  # and Ultralytics' LetterBox arithmetic: tests/peer/letterbox_peer.py.
  # lb_resize: the letterbox's resize alone for any pair of sizes, which the
  # script compares with cv2.resize directly (it links the library's objects
  # for the internal plan functions).
  add_executable(lb_resize ${CMAKE_CURRENT_SOURCE_DIR}/peer/lb_resize.c)
  clpad_target_options(lb_resize)
  target_include_directories(lb_resize PRIVATE ${CLPAD_PRIVATE_INCLUDES})
  target_compile_definitions(lb_resize PRIVATE _POSIX_C_SOURCE=200809L)
  target_link_libraries(lb_resize PRIVATE clpad_objects m)
  add_test(NAME peer_letterbox COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/peer/letterbox.sh)
  set_tests_properties(peer_letterbox PROPERTIES
    ENVIRONMENT "${CLPAD_TEST_ENV};CLPAD_PEER_VENV=${CLPAD_PEER_VENV};CLPAD_LB_RESIZE=$<TARGET_FILE:lb_resize>"
    LABELS peer
    SKIP_RETURN_CODE 77
    FIXTURES_REQUIRED clpad_peer_env
    TIMEOUT 900)
  # clpad.imread (libclpad's image reading) against cv2.imread, byte for byte,
  # on real photographs fetched once into the build tree and files derived
  # from them: tests/peer/imread_peer.py.
  # In a sanitizer build the library under test is instrumented and python is
  # not: the tests that load the library into python (peer_imread,
  # peer_pipeline, peer_preprocess) preload the sanitizer runtimes
  # (with_photos.sh; leak checking is off there: it would report Python's own
  # allocations).
  set(CLPAD_PEER_PRELOAD "")
  if(CLPAD_SANITIZE)
    foreach(san address undefined thread)
      if(CLPAD_SANITIZE MATCHES "${san}")
        set(rt_address libasan.so)
        set(rt_undefined libubsan.so)
        set(rt_thread libtsan.so)
        execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=${rt_${san}}
                        OUTPUT_VARIABLE rt_path OUTPUT_STRIP_TRAILING_WHITESPACE)
        if(CLPAD_PEER_PRELOAD)
          set(CLPAD_PEER_PRELOAD "${CLPAD_PEER_PRELOAD}:${rt_path}")
        else()
          set(CLPAD_PEER_PRELOAD "${rt_path}")
        endif()
      endif()
    endforeach()
  endif()
  add_test(NAME peer_imread COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/peer/with_photos.sh imread_peer.py)
  set_tests_properties(peer_imread PROPERTIES
    ENVIRONMENT "${CLPAD_TEST_ENV};CLPAD_PEER_VENV=${CLPAD_PEER_VENV};CLPAD_PEER_PHOTOS=${CLPAD_PEER_PHOTOS};CLPAD_LIBRARY=$<TARGET_FILE:clpad>;CLPAD_PEER_PRELOAD=${CLPAD_PEER_PRELOAD}"
    LABELS peer
    SKIP_RETURN_CODE 77
    FIXTURES_REQUIRED clpad_peer_env
    TIMEOUT 900)
  # The folder-to-batch pipeline (letterbox_files, the CLI, letterbox of paths)
  # against Ultralytics' predictor step, sample for sample, on the same
  # photographs and files derived from them: tests/peer/pipeline_peer.py.
  add_test(NAME peer_pipeline COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/peer/with_photos.sh pipeline_peer.py)
  set_tests_properties(peer_pipeline PROPERTIES
    ENVIRONMENT "${CLPAD_TEST_ENV};CLPAD_PEER_VENV=${CLPAD_PEER_VENV};CLPAD_PEER_PHOTOS=${CLPAD_PEER_PHOTOS};CLPAD_LIBRARY=$<TARGET_FILE:clpad>;CLPAD_PEER_PRELOAD=${CLPAD_PEER_PRELOAD}"
    LABELS peer
    SKIP_RETURN_CODE 77
    FIXTURES_REQUIRED clpad_peer_env
    TIMEOUT 900)
  # The letterbox of YUV frames decoded by FFmpeg (PyAV) from H.264 streams of
  # the same photographs against cv2.cvtColor + the letterbox chain, 0
  # differing bytes; the other matrices against real math; the CLI on a raw
  # file: tests/peer/yuv_peer.py (about 5 s).
  add_test(NAME peer_yuv COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/peer/with_photos.sh yuv_peer.py)
  set_tests_properties(peer_yuv PROPERTIES
    ENVIRONMENT "${CLPAD_TEST_ENV};CLPAD_PEER_VENV=${CLPAD_PEER_VENV};CLPAD_PEER_PHOTOS=${CLPAD_PEER_PHOTOS};CLPAD_LIBRARY=$<TARGET_FILE:clpad>;CLPAD_PEER_PRELOAD=${CLPAD_PEER_PRELOAD}"
    LABELS peer
    SKIP_RETURN_CODE 77
    FIXTURES_REQUIRED clpad_peer_env
    TIMEOUT 300)
  # clpad.preprocess against Pillow's Image.resize (pil-bilinear, pil-bicubic,
  # pil-lanczos) and torchvision's ImageNet recipe, byte for byte, on the same
  # photographs: tests/peer/preprocess_peer.py.
  add_test(NAME peer_preprocess COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/peer/with_photos.sh preprocess_peer.py)
  set_tests_properties(peer_preprocess PROPERTIES
    ENVIRONMENT "${CLPAD_TEST_ENV};CLPAD_PEER_VENV=${CLPAD_PEER_VENV};CLPAD_PEER_PHOTOS=${CLPAD_PEER_PHOTOS};CLPAD_LIBRARY=$<TARGET_FILE:clpad>;CLPAD_PEER_PRELOAD=${CLPAD_PEER_PRELOAD}"
    LABELS peer
    SKIP_RETURN_CODE 77
    FIXTURES_REQUIRED clpad_peer_env
    TIMEOUT 900)
  # The same against Pillow 13 (pil_version 13), installed beside the venv.
  add_test(NAME peer_preprocess_pil13 COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/peer/with_photos.sh preprocess_peer.py)
  set_tests_properties(peer_preprocess_pil13 PROPERTIES
    ENVIRONMENT "${CLPAD_TEST_ENV};CLPAD_PEER_VENV=${CLPAD_PEER_VENV};CLPAD_PEER_PHOTOS=${CLPAD_PEER_PHOTOS};CLPAD_LIBRARY=$<TARGET_FILE:clpad>;CLPAD_PEER_PRELOAD=${CLPAD_PEER_PRELOAD};CLPAD_PEER_OVERLAY=requirements-pillow13.txt"
    LABELS peer
    SKIP_RETURN_CODE 77
    FIXTURES_REQUIRED clpad_peer_env
    TIMEOUT 900)
endif()
