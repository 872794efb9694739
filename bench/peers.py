#!/usr/bin/env python3
"""Time the peers of clpad on the cases of `clpad bench` and print them beside it.

Peers (CPU, this machine): numpy.pad, OpenVINO's CPU plugin (Pad-12,
SpaceToBatch-2, BatchToSpace-2) and ONNX Runtime (Pad). Every figure is GB/s
counted as clpad counts it (input bytes + output bytes) over the median of
--runs timed runs after one warm-up. A peer that cannot run a case (numpy has
no negative pads, ONNX Runtime no symmetric mode, ...) shows "n/a" and why.

Run through bench/peers.sh, which makes the virtual environment.
"""
import argparse
import json
import statistics
import subprocess
import sys
import time

import numpy as np

DTYPES = {"bool": np.bool_, "i8": np.int8, "u8": np.uint8, "i16": np.int16, "u16": np.uint16,
          "i32": np.int32, "u32": np.uint32, "i64": np.int64, "u64": np.uint64,
          "f16": np.float16, "f32": np.float32, "f64": np.float64}


def median_time(fn, runs):
    fn()  # warm-up (compilation, first allocation)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter_ns()
        fn()
        times.append(time.perf_counter_ns() - t0)
    return statistics.median(times)


def make_input(case):
    dt = DTYPES[case["dtype"]]
    n = int(np.prod(case["shape"]))
    return (np.arange(n) % 251).astype(dt).reshape(case["shape"])


# ---- numpy ------------------------------------------------------------------

def numpy_runner(case, x):
    if case["op"] != "pad":
        return None, "no space/batch op"
    pb, pe = case["pads_begin"], case["pads_end"]
    if min(pb + pe) < 0:
        return None, "no negative pads"
    mode = case["mode"]
    width = list(zip(pb, pe))
    if mode == "constant":
        v = DTYPES[case["dtype"]](float(case.get("pad_value", 0)))
        return (lambda: np.pad(x, width, mode="constant", constant_values=v)), None
    return (lambda: np.pad(x, width, mode=mode)), None


# ---- OpenVINO ---------------------------------------------------------------

def openvino_runner(case, x):
    try:
        import openvino as ov
        from openvino import opset12 as ops
    except ImportError as e:
        return None, f"openvino not importable: {e}"
    param = ops.parameter(list(x.shape), ov.Type(x.dtype), name="x")
    if case["op"] == "pad":
        pb = ops.constant(np.array(case["pads_begin"], dtype=np.int64))
        pe = ops.constant(np.array(case["pads_end"], dtype=np.int64))
        if case["mode"] == "wrap":
            return None, "Pad-12 has no wrap mode"
        if case["mode"] == "constant":
            v = ops.constant(np.array(float(case.get("pad_value", 0)), dtype=x.dtype))
            node = ops.pad(param, pb, pe, "constant", v)
        else:
            node = ops.pad(param, pb, pe, case["mode"])
    else:
        from openvino import opset2
        block = ops.constant(np.array(case["block_shape"], dtype=np.int64))
        b = ops.constant(np.array(case.get("pads_begin", case.get("crops_begin")), dtype=np.int64))
        e = ops.constant(np.array(case.get("pads_end", case.get("crops_end")), dtype=np.int64))
        fn = opset2.space_to_batch if case["op"] == "space_to_batch" else opset2.batch_to_space
        node = fn(param, block, b, e)
    model = ov.Model([node], [param])
    compiled = ov.Core().compile_model(model, "CPU")
    req = compiled.create_infer_request()
    return (lambda: req.infer({0: x}, share_inputs=True, share_outputs=True)), None


# ---- ONNX Runtime -----------------------------------------------------------

def onnxruntime_runner(case, x):
    try:
        import onnx
        import onnxruntime as ort
        from onnx import TensorProto, helper
    except ImportError as e:
        return None, f"onnxruntime not importable: {e}"
    if case["op"] != "pad":
        return None, "no SpaceToBatch op"
    if case["mode"] == "symmetric":
        return None, "Pad has no symmetric mode"
    pads = np.array(case["pads_begin"] + case["pads_end"], dtype=np.int64)
    elem = helper.np_dtype_to_tensor_dtype(x.dtype)
    inits = [helper.make_tensor("pads", TensorProto.INT64, [len(pads)], pads.tolist())]
    inputs = ["x", "pads"]
    if case["mode"] == "constant":
        v = np.array(float(case.get("pad_value", 0)), dtype=x.dtype)
        inits.append(helper.make_tensor("value", elem, [], [v.item()]))
        inputs.append("value")
    node = helper.make_node("Pad", inputs, ["y"], mode=case["mode"])
    graph = helper.make_graph([node], "pad", [helper.make_tensor_value_info("x", elem, x.shape)],
                              [helper.make_tensor_value_info("y", elem, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    model.ir_version = min(model.ir_version, 9)  # what released runtimes accept
    try:
        sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        sess.run(None, {"x": x})
    except Exception as e:  # the peer refuses the case (e.g. negative pads)
        return None, f"refused: {str(e).splitlines()[0][:60]}"
    return (lambda: sess.run(None, {"x": x})), None


PEERS = {"numpy": numpy_runner, "openvino": openvino_runner, "onnxruntime": onnxruntime_runner}


# ---- clpad itself, timed as the peers are -------------------------------------

def clpad_call(case, x, out=None):
    import clpad
    if case["op"] == "pad":
        # As a user writes the call: a pad value only where the case has one.
        extra = {"value": case["pad_value"]} if "pad_value" in case else {}
        return clpad.pad(x, pads_begin=case["pads_begin"], pads_end=case["pads_end"],
                         mode=case["mode"], out=out, **extra)
    fn = clpad.space_to_batch if case["op"] == "space_to_batch" else clpad.batch_to_space
    begin = case.get("pads_begin", case.get("crops_begin"))
    end = case.get("pads_end", case.get("crops_end"))
    return fn(x, case["block_shape"], begin, end, out=out)


def clpad_runners(case, x):
    """clpad's Python call (a host array in, on the default OpenCL device),
    timed by median_time like the peers: (with out=, the result written into a
    host array reused from call to call, as OpenVINO's request reuses its
    output tensor), (the default call: a new result array each call, as
    numpy.pad and ONNX Runtime return)."""
    try:
        import clpad  # noqa: F401
    except ImportError as e:
        return None, None, f"clpad not importable: {e}"
    out = clpad_call(case, x)
    return (lambda: clpad_call(case, x, out)), (lambda: clpad_call(case, x)), None


_CL = {}


def pyopencl_runner(case, x):
    """clpad on pyopencl arrays (device buffers in and out, the output reused),
    timed from the call to the completion of its event: the kernel plus the
    Python call's overhead."""
    try:
        import pyopencl as cl
        import pyopencl.array as cla
        import clpad
    except ImportError as e:
        return None, f"pyopencl not importable: {e}"
    if "queue" not in _CL:
        name = clpad.context_info()["device"].strip()
        devs = [d for p in cl.get_platforms() for d in p.get_devices() if d.name.strip() == name]
        if not devs:
            return None, f"pyopencl does not list {name!r}"
        _CL["queue"] = cl.CommandQueue(cl.Context(devs[:1]))
    q = _CL["queue"]
    d = cla.to_device(q, x)
    out = clpad_call(case, d)
    q.finish()

    def run():
        clpad_call(case, d, out)
        q.finish()
    return run, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clpad", required=True, help="the clpad binary")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--filter", default=None, help="regular expression on case labels")
    ap.add_argument("--quick", action="store_true", help="the smaller cases of clpad bench --quick")
    ap.add_argument("--json", action="store_true", help="one JSON object per case on stdout")
    args = ap.parse_args()

    cmd = [args.clpad, "bench", "--json", "--runs", str(args.runs)]
    if args.quick:
        cmd.append("--quick")
    if args.filter:
        cmd += ["--filter", args.filter]
    print("running:", " ".join(cmd), file=sys.stderr)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True)
    cases = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    # The batch cases (letterbox, pad-stack) have their own peers:
    # bench/letterbox_peers.sh.
    cases = [c for c in cases if c["op"] in ("pad", "space_to_batch", "batch_to_space")]

    head = (f"{'case':<44} {'kernel':>7} {'pyocl':>7} {'call':>7} {'new':>7} {'call/new':>8} "
            f"{'numpy':>7} {'openvino':>8} {'ort':>7} {'best peer':>9} {'call/best':>9} "
            f"{'kernel/best':>11}")
    if not args.json:
        print(head)
    for case in cases:
        x = make_input(case)
        row = {"label": case["label"], "clpad_kernel_gbps": case["kernel_gbps"],
               "clpad_end_to_end_gbps": case["end_to_end_gbps"]}
        notes = []
        fn, fn_new, why = clpad_runners(case, x)
        row["clpad_call_gbps"] = case["bytes"] / median_time(fn, args.runs) if fn else None
        row["clpad_new_gbps"] = case["bytes"] / median_time(fn_new, args.runs) if fn else None
        if fn is None:
            notes.append(f"clpad: {why}")
        fn, why = pyopencl_runner(case, x)
        row["clpad_pyopencl_gbps"] = case["bytes"] / median_time(fn, args.runs) if fn else None
        if fn is None:
            notes.append(f"pyopencl: {why}")
        for name, make in PEERS.items():
            try:
                fn, why = make(case, x)
                if fn is None:
                    row[name] = None
                    notes.append(f"{name}: {why}")
                    continue
                row[name] = case["bytes"] / median_time(fn, args.runs)
            except Exception as e:
                row[name] = None
                notes.append(f"{name}: {type(e).__name__}: {str(e).splitlines()[0][:60]}")
        peers = [row[n] for n in PEERS if row[n]]
        row["best_peer_gbps"] = max(peers) if peers else None
        row["notes"] = notes
        if args.json:
            print(json.dumps(row))
            continue
        fmt = lambda v, w=7: f"{v:{w}.2f}" if v else " " * (w - 3) + "n/a"
        best = row["best_peer_gbps"]
        call = row["clpad_call_gbps"]
        call_ratio = f"{call / best:9.2f}" if peers and call else "      n/a"
        ratio = f"{case['kernel_gbps'] / best:11.2f}" if peers else "        n/a"
        new = row["clpad_new_gbps"]
        new_ratio = f"{call / new:8.2f}" if call and new else "     n/a"
        print(f"{case['label']:<44} {case['kernel_gbps']:7.2f} {fmt(row['clpad_pyopencl_gbps'])} "
              f"{fmt(call)} {fmt(new)} {new_ratio} {fmt(row['numpy'])} "
              f"{fmt(row['openvino'], 8)} {fmt(row['onnxruntime'])} {fmt(best, 9)} {call_ratio} "
              f"{ratio}")
        sys.stdout.flush()
    if not args.json:
        print("GB/s = (input + output bytes) / median time. call: clpad's Python call "
              "(clpad.pad / space_to_batch /\nbatch_to_space on the default OpenCL device, host "
              "array in, host array out), timed back to back\nexactly as the peers (numpy, "
              "OpenVINO CPU, ONNX Runtime CPU) are: call/best compares like with like.\n"
              "new: the same call without out= (a new result array each call); call/new: "
              "how much slower that is.\npyocl: the call on pyopencl arrays (device buffers, "
              "output reused), until its event completes.\n"
              "clpad and OpenVINO write into an output reused from call to call (out=, "
              "share_outputs=True);\nnumpy.pad and ONNX Runtime return a new array each call. "
              "kernel: the clpad kernel from\n`clpad bench` (device buffers, profiling events).")

if __name__ == "__main__":
    main()
