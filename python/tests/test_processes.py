"""Processes and threads: fork, spawn, forkserver, and threads calling at once."""

import multiprocessing
import os
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import clpad
import mp_worker
from test_pad import same_bits

TIMEOUT = 120
HERE = os.path.dirname(os.path.abspath(__file__))


def has_device():
    return bool(clpad.devices()) and not clpad.context_info()["fallback"]


def run_script(code):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([HERE] + [p for p in sys.path if p])
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=TIMEOUT)
    assert r.returncode == 0, r.stdout
    return r.stdout


def check_results(results):
    for r in results:
        assert r["error"] is None, r["error"]
        assert same_bits(r["result"], mp_worker.expected(r["seed"])), r["seed"]


def test_threads_calling_at_once():
    """Threads on the shared default context (and the reference path) at once,
    each checked against numpy.pad."""
    n_threads, calls = 8, 12
    barrier = threading.Barrier(n_threads)
    failures = []
    modes = ["constant", "edge", "reflect", "symmetric", "wrap"]

    def work(t):
        rng = np.random.default_rng(t)
        barrier.wait()
        for i in range(calls):
            shape = tuple(int(v) for v in rng.integers(3, 40, size=3))
            x = rng.standard_normal(shape).astype(np.float32)
            mode = modes[(t + i) % len(modes)]
            width = [(int(rng.integers(0, 3)), int(rng.integers(0, 3))) for _ in shape]
            device = clpad.REFERENCE if i % 4 == 3 else None
            try:
                got = clpad.pad(x, width, mode, device=device)
                if not same_bits(got, np.pad(x, width, mode)):
                    failures.append((t, i, "wrong result", shape, width, mode))
            except Exception as e:  # reported below, with the case
                failures.append((t, i, repr(e)))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(n_threads)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(TIMEOUT)
    assert not any(th.is_alive() for th in threads), "a thread hung"
    assert not failures, failures[:5]


def test_threads_creating_the_first_context_at_once():
    out = run_script("""
        import threading, numpy as np, clpad
        barrier = threading.Barrier(8)
        results = []
        def work():
            barrier.wait()
            results.append(clpad.pad(np.arange(5.0), 2, "reflect").tolist())
        ts = [threading.Thread(target=work) for _ in range(8)]
        [t.start() for t in ts]; [t.join() for t in ts]
        assert results == [np.pad(np.arange(5.0), 2, "reflect").tolist()] * 8, results
        print("contexts", len(clpad._context._contexts))
    """)
    assert "contexts 1" in out


def test_fork_after_this_process_used_opencl():
    """This process has used OpenCL: forked children never touch the driver
    (PoCL's workers are not there) and run the CPU reference path."""
    parent = clpad._context.context(None).value
    clpad.pad(np.zeros(3), 1)  # OpenCL is in use here
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(2) as pool:
        results = pool.map_async(mp_worker.pad_chunk, range(6)).get(TIMEOUT)
        explicit = pool.apply_async(mp_worker.pad_chunk, (0, "0:0")).get(TIMEOUT)
    check_results(results)
    for r in results:
        assert r["pid"] != os.getpid()
        assert r["handle"] != parent, "the child used the parent's context"
    if has_device():
        assert all(r["info"]["fallback"] for r in results)
        assert any("spawn" in w for r in results for w in r["warnings"])
        assert explicit["error"] and "forked" in explicit["error"]
        assert "spawn" in explicit["error"]
    # the parent's context still works after its children are gone
    assert clpad._context.context(None).value == parent
    assert same_bits(clpad.pad(mp_worker.chunk(1), mp_worker.WIDTH, "reflect"),
                     mp_worker.expected(1))


def test_fork_before_opencl_was_used():
    """A parent that imported clpad but never used OpenCL: forked children
    initialise the device themselves."""
    out = run_script("""
        import multiprocessing, numpy as np, clpad, mp_worker
        from test_pad import same_bits
        with multiprocessing.get_context("fork").Pool(2) as pool:
            rs = pool.map_async(mp_worker.pad_chunk, range(4)).get(100)
        for r in rs:
            assert r["error"] is None, r["error"]
            assert same_bits(r["result"], mp_worker.expected(r["seed"]))
        print("fallback", sorted({r["info"]["fallback"] for r in rs}))
        print("pids", len({r["pid"] for r in rs}))
    """)
    if has_device():
        assert "fallback [False]" in out


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_spawned_workers_use_the_device(method):
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip("no %s start method here" % method)
    ctx = multiprocessing.get_context(method)
    with ctx.Pool(2) as pool:
        results = pool.map_async(mp_worker.pad_chunk, range(6)).get(TIMEOUT)
    check_results(results)
    assert all(r["pid"] != os.getpid() for r in results)
    if has_device():
        assert not any(r["info"]["fallback"] for r in results)
        assert not any(r["warnings"] for r in results)


def test_plain_fork_child_exits_cleanly():
    """os.fork() in a process that used OpenCL: the child pads (CPU path) and
    exits through atexit without releasing, or waiting for, the parent's
    OpenCL objects; the parent goes on."""
    out = run_script("""
        import os, signal, sys, warnings, numpy as np, clpad
        x = np.arange(12.0).reshape(3, 4)
        clpad.pad(x, 1, "edge")
        pid = os.fork()
        if pid == 0:
            signal.alarm(60)  # a hung child must not outlive the test
            warnings.simplefilter("ignore")
            ok = np.array_equal(clpad.pad(x, 1, "edge"), np.pad(x, 1, "edge"))
            sys.exit(0 if ok else 3)   # atexit handlers run
        _, status = os.waitpid(pid, 0)
        print("child", os.waitstatus_to_exitcode(status))
        print("parent", np.array_equal(clpad.pad(x, 2, "wrap"), np.pad(x, 2, "wrap")))
    """)
    assert "child 0" in out and "parent True" in out


def test_pyopencl_array_in_a_forked_child_is_refused(cl_queue):
    import pyopencl.array as cla

    d = cla.to_device(cl_queue, np.zeros(4, np.float32))
    clpad.pad(d, 1)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through the pipe
        import signal

        signal.alarm(60)  # a hung child must not outlive the test
        try:
            clpad.pad(d, 1)
            msg = b"no error"
        except clpad.ClpadRuntimeError as e:
            msg = str(e).encode()
        except BaseException as e:
            msg = repr(e).encode()
        os.write(w, msg[:4000])
        os._exit(0)
    os.close(w)
    msg = os.read(r, 4096).decode()
    os.close(r)
    os.waitpid(pid, 0)
    assert "forked" in msg and "spawn" in msg, msg
