# The set-up the bench scripts share, sourced from the repository root:
# `build` (CLPAD_BUILD_DIR, made absolute: relative to the repository), the
# virtual environment `venv` (build/bench-venv, made once with NumPy),
# bench_need to add a package to it once, and bench_env to export what
# clpad's Python call needs (the package from python/ on this build's
# library, the kernel cache in the build tree, and the package's bytecode
# compiled, as `pip install` compiles it: with PYTHONDONTWRITEBYTECODE set,
# each `import clpad` would otherwise compile the sources again, 0.08-0.1 s
# that an installed package never spends and that the pipeline bench times).
build="${CLPAD_BUILD_DIR:-build}"
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac
venv="$build/bench-venv"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --upgrade pip
  "$venv/bin/pip" install -q numpy
fi

# bench_need MODULE [PIP_SPEC]: pip-install PIP_SPEC (default MODULE) unless
# `import MODULE` works.
bench_need() {
  "$venv/bin/python" -c "import $1" 2>/dev/null || "$venv/bin/pip" install -q "${2:-$1}"
}

bench_env() {
  export POCL_CACHE_DIR="${POCL_CACHE_DIR:-$build/pocl-cache}"
  export CLPAD_LIBRARY="${CLPAD_LIBRARY:-$build/libclpad.so}"
  export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
  "$venv/bin/python" -m compileall -q python/clpad >/dev/null # (__pycache__/: git-ignored)
}
