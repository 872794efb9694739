#!/usr/bin/env python3
"""Conformance of clpad against the implementations users already trust.

Every case runs through the `clpad` CLI (.npy in, .npy out, on the default
OpenCL device: PoCL on CI) and through each peer, and the outputs must be
identical byte for byte (same dtype, same shape, same bytes); window shapes
must be equal exactly. Peers:

  openvino      OpenVINO CPU plugin: Pad-12 (4 modes, negative and mixed pads,
                every dtype), SpaceToBatch-2, BatchToSpace-2; and the output
                shapes (and pads) of Convolution-1, ConvolutionBackpropData-1,
                MaxPool-14, AvgPool-14 from OpenVINO's shape inference, against
                `clpad shape ... --openvino`.
  openvino-ref  The same OpenVINO ops evaluated by OpenVINO core's reference
                implementation (Node.evaluate, what constant folding runs):
                OpenVINO's semantics without the CPU plugin's precision changes.
  numpy         np.pad (constant, edge, reflect, symmetric, wrap); negative pads
                by padding with the positive part and slicing off the negative
                part, which is Pad-12's semantics; SpaceToBatch/BatchToSpace by
                the reshape/transpose definition of docs/spec.md (SpaceToBatch).
  onnxruntime   ONNX Runtime CPU: Pad-21 (constant, edge, reflect, wrap), with and
                without Pad-18's `axes` (`clpad pad --axes`), and the
                real output shapes of Conv, ConvTranspose, MaxPool, AveragePool
                with every auto_pad and ceil_mode, against `clpad shape --onnx`.
  opencv        OpenCV's cv2.copyMakeBorder for every BORDER_* (CONSTANT,
                REPLICATE, REFLECT, REFLECT_101, WRAP) against `clpad pad
                --mode cv:NAME`, borders within one period and up to five.

A difference is a documented divergence only when it matches an entry of
DIVERGENCES below AND the entry's check proves the cause on that very case
(e.g. the peer's output equals clpad's output narrowed to the type the peer
computes in); anything else is a failure with a reproducer.

Exit status: 0 no failure, 1 failures, 2 usage error, 77 nothing could run here.
"""

import argparse
import json
import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import OrderedDict, defaultdict

try:
    import numpy as np
except ImportError:  # pragma: no cover - run.sh installs it
    print("SKIP: peer harness: numpy is not installed (run tests/peer/run.sh)", file=sys.stderr)
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))

# ---------------------------------------------------------------------------
# Documented divergences. Each entry: the peer, what differs, the upstream
# thread (or "demonstrated" when no thread exists: the harness proves the
# cause on every case it applies it to), and how the harness checks it.
# tests/peer/README.md carries the same table.
# ---------------------------------------------------------------------------
DIVERGENCES = OrderedDict([
    ("ort-crop-first", dict(
        peer="onnxruntime",
        what="Pad with negative pads: ONNX Runtime crops first and pads the cropped "
             "tensor, so edge/reflect/wrap read from the cropped data (Pad-12 and "
             "clpad read from the original input), and reflect limits apply to the "
             "cropped size",
        url="https://github.com/microsoft/onnxruntime/issues/11828",
        check="ORT output equals np.pad(cropped input), or ORT rejects the case "
              "because a reflect pad exceeds the CROPPED size - 1")),
    ("ort-negative-dim", dict(
        peer="onnxruntime",
        what="Pad with pads_begin + D + pads_end < 0: ONNX Runtime does not clamp the "
             "output dimension at 0 and fails ('Tensor shape.Size() must be >= 0'); "
             "Pad-12 and clpad give an empty axis",
        url="https://github.com/microsoft/onnxruntime/issues/13332 (negative pads that "
            "remove a whole axis)",
        check="the case has pads_begin + D + pads_end < 0 on some axis and ORT fails")),
    ("ort-f16-nan-payload", dict(
        peer="onnxruntime",
        what="Pad of f16 (reflect; also wrap with negative pads): where the mirrored "
             "part copies a NaN, ONNX Runtime may write a different NaN (a signalling "
             "NaN quieted, or the canonical 0x7e00); pure data movement keeps the bits",
        url="demonstrated (no upstream thread found)",
        check="every differing element is an f16 NaN in clpad's output and a NaN in "
              "ORT's")),
    ("ort-conv-same-dilation", dict(
        peer="onnxruntime",
        what="Conv with auto_pad SAME_UPPER/SAME_LOWER and a dilation > 1 is rejected "
             "('Dilation not supported for AutoPadType::SAME_UPPER or "
             "AutoPadType::SAME_LOWER'); the ONNX spec allows it",
        url="https://github.com/microsoft/onnxruntime/issues/20582",
        check="the case is a Conv with SAME_* and a dilation > 1 and ORT gives that error")),
    ("ort-pool-same", dict(
        peer="onnxruntime",
        what="MaxPool/AveragePool with auto_pad SAME_*: ONNX Runtime computes the total "
             "padding from the undilated kernel and does not clamp it at 0, so a stride "
             "larger than the kernel fails ('padding values must be non-negative') and "
             "a dilated kernel gets too little padding (smaller output)",
        url="https://github.com/microsoft/onnxruntime/issues/10086",
        check="ORT's output (or error) equals what ORT's formula "
              "pad = (ceil(I/S) - 1)*S + K - I, unclamped and undilated, gives")),
    ("ov-reflect-empty-axis", dict(
        peer="openvino",
        what="Pad reflect with an empty axis (D = 0) and zero pads on it: OpenVINO's "
             "shape inference requires pads < D on every axis, zero pads included, and "
             "rejects the model; docs/spec.md (Pad) applies the reflect limit to positive "
             "pads only, so clpad returns the (empty) input",
        url="spec decision (docs/spec.md, Pad: limits apply to positive pads); OpenVINO check "
            "in pad_shape_inference.hpp",
        check="mode is reflect, some axis has D = 0 with pads <= 0, and OV's error is its "
              "reflect pads check")),
    ("ov-s2b-padding", dict(
        peer="openvino",
        what="CPU plugin SpaceToBatch on 4D/5D tensors writes input values into some "
             "output positions that are padding (must be 0); e.g. input [1,2,1,1] = "
             "[1,2], block [1,1,2,1], pads_end [0,0,1,0] gives [1,2,2,0] instead of "
             "[1,2,0,0]",
        url="demonstrated (no upstream thread found)",
        check="every differing element is a padding position of the output, and "
              "openvino-ref matches clpad exactly")),
    ("ov-pad-value-f32", dict(
        peer="openvino",
        what="CPU plugin keeps Pad's pad_value as an f32: an integer pad_value that f32 "
             "cannot hold is rounded (16777217 -> 16777216), and one at or above 2^31 "
             "comes back as 2^31 (u32) or INT32_MIN (i64)",
        url="demonstrated (no upstream thread found)",
        check="only padding positions differ, all with one value, the pad_value is not "
              "exactly representable in f32, and openvino-ref matches clpad exactly")),
    ("ov-pad-value-negative-zero", dict(
        peer="openvino",
        what="CPU plugin pads with +0.0 when Pad's pad_value is -0.0 (a float pad_value "
             "equal to zero is written as zero bits); pure data movement writes the "
             "pad_value's bits, sign included",
        url="demonstrated (no upstream thread found)",
        check="the pad_value is -0.0, every differing element is a padding position "
              "holding +0.0 in OV's output, and openvino-ref matches clpad exactly")),
    ("ort-wrap-empty-input", dict(
        peer="onnxruntime",
        what="Pad in wrap mode of an input with a zero-size axis fails with 'Unexpected "
             "mode of 3' (the empty-input path knows constant/edge/reflect only)",
        url="demonstrated (no upstream thread found)",
        check="mode is wrap, the input is empty, and ORT gives that error")),
    ("ort-pool-pad-lt-kernel", dict(
        peer="onnxruntime",
        what="MaxPool/AveragePool with an explicit pad >= kernel_shape (allowed by ONNX; "
             "with a dilation the window is larger than kernel_shape) is rejected: "
             "'Pad should be smaller than kernel'",
        url="https://github.com/microsoft/onnxruntime/issues/23088 (and #801)",
        check="the case has a pad >= kernel on some axis and ORT gives that error")),
    ("ov-i64-as-i32", dict(
        peer="openvino",
        what="CPU plugin runs i64/u64 tensors as i32: values outside the i32 range "
             "come back truncated to their low 32 bits, sign-extended",
        url="https://github.com/openvinotoolkit/openvino/issues/24072",
        check="OV output equals clpad output cast to int32 and back; "
              "openvino-ref (core reference) matches clpad exactly")),
    ("ov-f64-as-f32", dict(
        peer="openvino",
        what="CPU plugin runs f64 tensors as f32: values are rounded to f32, "
              "clamped to +-FLT_MAX (inf included), f32 subnormals flushed",
        url="https://github.com/openvinotoolkit/openvino/issues/35822 "
            "(also #37968: inf clamped to FLT_MAX)",
        check="every differing element is a value that f32 cannot hold exactly; "
              "openvino-ref matches clpad exactly")),
    ("ov-f16-snan", dict(
        peer="openvino",
        what="CPU plugin moves f16 data through f32: a signalling NaN comes back quiet "
             "(bit 9 set); pure data movement must keep the payload",
        url="demonstrated (no upstream thread found)",
        check="the only differing elements are f16 signalling NaNs and OV returns "
              "them with the quiet bit set; openvino-ref matches clpad exactly")),
    ("ov-overcrop", dict(
        peer="openvino",
        what="CPU plugin Pad aborts (glibc heap corruption: munmap_chunk/free "
             "invalid pointer) or returns garbage when a negative pad removes "
             "more than the whole axis (-pad > D) while the other side pads",
        url="demonstrated (no upstream thread found)",
        check="the case has a negative pad below -D on some axis, the CPU plugin "
              "crashed or differs, and openvino-ref matches clpad exactly")),
    ("ov-negative-dim", dict(
        peer="openvino",
        what="Pad shape inference does not clamp pads_begin + D + pads_end < 0 at 0 "
             "(the Pad-12 spec's max(.., 0)): the output dimension comes out "
             "dynamic and compile/evaluate fail",
        url="demonstrated (no upstream thread found); spec: Pad-12 'Outputs'",
        check="the case has pads_begin + D + pads_end < 0 on some axis and OV's "
              "output partial shape is dynamic there")),
])

DTYPES = ["bool", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "f32", "f64"]
NP_DTYPE = {"bool": np.bool_, "i8": np.int8, "u8": np.uint8, "i16": np.int16, "u16": np.uint16,
            "i32": np.int32, "u32": np.uint32, "i64": np.int64, "u64": np.uint64,
            "f16": np.float16, "f32": np.float32, "f64": np.float64}
PAD_MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]
ORT_PAD_MODES = ["constant", "edge", "reflect", "wrap"]   # ONNX Pad-19+: no symmetric
OV_PAD_MODES = ["constant", "edge", "reflect", "symmetric"]  # Pad-12: no wrap
ORT_PAD_DTYPES_MISSING = {"i16", "u16"}  # no CPU kernel: NOT_IMPLEMENTED (checked at run time)
ALL_PEERS = ["openvino", "openvino-ref", "numpy", "onnxruntime", "opencv"]

# ---------------------------------------------------------------------------
# Worker: OpenVINO and ONNX Runtime run in a child process, because the CPU
# plugin can abort the process (see ov-overcrop). One JSON request per line.
# ---------------------------------------------------------------------------


def _ov_type(ov, dt):
    return {"bool": ov.Type.boolean, "i8": ov.Type.i8, "u8": ov.Type.u8, "i16": ov.Type.i16,
            "u16": ov.Type.u16, "i32": ov.Type.i32, "u32": ov.Type.u32, "i64": ov.Type.i64,
            "u64": ov.Type.u64, "f16": ov.Type.f16, "f32": ov.Type.f32, "f64": ov.Type.f64}[dt]


class Worker:
    def __init__(self):
        self.ov = self.ort = self.onnx = None
        self.core = None

    def ov_mod(self):
        if self.ov is None:
            import openvino as ov
            self.ov = ov
            self.core = ov.Core()
        return self.ov

    def ort_mod(self):
        if self.ort is None:
            import onnx
            import onnxruntime as ort
            self.onnx, self.ort = onnx, ort
            self.so = ort.SessionOptions()
            self.so.log_severity_level = 4
        return self.ort

    # -- OpenVINO data ops ------------------------------------------------
    def ov_node(self, req, x):
        ov = self.ov_mod()
        import openvino.opset2 as o2
        import openvino.opset12 as o12
        dt = req["dtype"]
        p = o12.parameter(list(x.shape), _ov_type(ov, dt))
        i64 = lambda v: o12.constant(np.array(v, dtype=np.int64))
        op = req["op"]
        extra = []
        if op == "pad":
            args = [p, i64(req["pads_begin"]), i64(req["pads_end"]), req["mode"]]
            ins = [x, np.array(req["pads_begin"], np.int64), np.array(req["pads_end"], np.int64)]
            if req.get("value") is not None:
                v = np.array(req["value_np"], dtype=NP_DTYPE[dt]) if dt != "bool" else \
                    np.array(bool(req["value_np"]))
                # from a Tensor: opset constant() refuses f16 +-inf ("out of range")
                args.append(ov.op.Constant(ov.Tensor(np.array(v, copy=True))))
                ins.append(v)
            node = o12.pad(*args)
        elif op == "s2b":
            node = o2.space_to_batch(p, i64(req["block"]), i64(req["pads_begin"]),
                                     i64(req["pads_end"]))
            ins = [x] + [np.array(req[k], np.int64) for k in ("block", "pads_begin", "pads_end")]
        elif op == "b2s":
            node = o2.batch_to_space(p, i64(req["block"]), i64(req["crops_begin"]),
                                     i64(req["crops_end"]))
            ins = [x] + [np.array(req[k], np.int64) for k in ("block", "crops_begin", "crops_end")]
        else:
            raise ValueError(op)
        return node, p, ins

    def run_ov(self, req, reference):
        ov = self.ov_mod()
        x = np.load(req["in"])
        node, p, ins = self.ov_node(req, x)
        ps = node.get_output_partial_shape(0)
        if ps.is_dynamic:
            return {"ok": False, "dynamic_shape": str(ps),
                    "error": "OpenVINO shape inference gives a dynamic output shape %s" % ps}
        shape = [int(d.get_length()) for d in ps]
        if reference:
            out = ov.Tensor(node.get_output_element_type(0), ov.Shape(shape))
            tensors = [ov.Tensor(np.array(a, copy=True)) for a in ins]
            if not node.evaluate([out], tensors):
                return {"ok": False, "no_reference": True,
                        "error": "Node.evaluate returned false (no reference for this type)"}
            y = np.array(out.data, copy=True)
        else:
            model = ov.Model([node], [p])
            compiled = self.core.compile_model(model, "CPU")
            req_ = compiled.create_infer_request()
            req_.infer([ov.Tensor(np.ascontiguousarray(x))])
            y = np.array(req_.get_output_tensor(0).data, copy=True)
        y = y.astype(y.dtype, copy=False).reshape(shape)
        np.save(req["out"], y)
        return {"ok": True}

    # -- ONNX Runtime Pad ---------------------------------------------------
    def run_ort_pad(self, req, axes=None):
        ort = self.ort_mod()
        from onnx import TensorProto as TP, helper
        tp = {"bool": TP.BOOL, "i8": TP.INT8, "u8": TP.UINT8, "i16": TP.INT16, "u16": TP.UINT16,
              "i32": TP.INT32, "u32": TP.UINT32, "i64": TP.INT64, "u64": TP.UINT64,
              "f16": TP.FLOAT16, "f32": TP.FLOAT, "f64": TP.DOUBLE}[req["dtype"]]
        x = np.load(req["in"])
        pads = list(req["pads_begin"]) + list(req["pads_end"])
        inits = [helper.make_tensor("pads", TP.INT64, [len(pads)], pads)]
        inputs = ["x", "pads"]
        if req.get("value") is not None:
            v = np.array(req["value_np"], dtype=NP_DTYPE[req["dtype"]])
            inits.append(helper.make_tensor("cv", tp, [], v.reshape(1).view(np.uint8).tobytes(),
                                            raw=True))
            inputs.append("cv")
        if axes is not None:  # Pad-18's axes: the pads name those axes only
            if len(inputs) == 2:
                inputs.append("")  # no constant_value
            inits.append(helper.make_tensor("axes", TP.INT64, [len(axes)], list(axes)))
            inputs.append("axes")
        g = helper.make_graph([helper.make_node("Pad", inputs, ["y"], mode=req["mode"])], "pad",
                              [helper.make_tensor_value_info("x", tp, list(x.shape))],
                              [helper.make_tensor_value_info("y", tp, None)], initializer=inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)])
        m.ir_version = 10
        s = ort.InferenceSession(m.SerializeToString(), self.so,
                                 providers=["CPUExecutionProvider"])
        y = s.run(None, {"x": x})[0]
        np.save(req["out"], y)
        return {"ok": True}

    # -- window shapes ----------------------------------------------------
    def ov_shape(self, req):
        ov = self.ov_mod()
        import openvino.opset1 as o1
        import openvino.opset14 as o14
        n = len(req["input"])
        p = o1.parameter([1, 1] + req["input"], ov.Type.f32)
        w = o1.constant(np.ones([1, 1] + req["kernel"], np.float32))
        ap = req["auto_pad"]
        pb, pe = req.get("pads_begin") or [0] * n, req.get("pads_end") or [0] * n
        S, d = req["stride"], req["dilation"]
        op = req["window"]
        if op == "conv":
            node = o1.convolution(p, w, S, pb, pe, d, ap)
        elif op == "deconv":
            oshape = req.get("output_shape")
            node = o1.convolution_backprop_data(
                p, w, S, output_shape=o1.constant(np.array(oshape, np.int64)) if oshape else None,
                pads_begin=pb, pads_end=pe, dilations=d, auto_pad=ap,
                output_padding=req.get("output_padding") or [0] * n)
        elif op == "maxpool":
            node = o14.max_pool(p, S, d, pb, pe, req["kernel"], req["rounding"], ap)
        elif op == "avgpool":
            node = o14.avg_pool(p, S, pb, pe, req["kernel"], False, req["rounding"], ap)
        else:
            raise ValueError(op)
        ps = node.get_output_partial_shape(0)
        attrs = node.get_attributes()
        return {"ok": True, "output": [int(v.get_length()) for v in ps][2:],
                "pads_begin": [int(v) for v in attrs.get("pads_begin", [])],
                "pads_end": [int(v) for v in attrs.get("pads_end", [])]}

    def ort_shape(self, req):
        ort = self.ort_mod()
        from onnx import TensorProto as TP, helper
        n = len(req["input"])
        op = {"conv": "Conv", "deconv": "ConvTranspose", "maxpool": "MaxPool",
              "avgpool": "AveragePool"}[req["window"]]
        attrs = dict(kernel_shape=req["kernel"], strides=req["stride"], auto_pad=req["auto_pad"])
        win = req["window"]
        if win != "avgpool" or any(v != 1 for v in req["dilation"]):
            attrs["dilations"] = req["dilation"]
        if req["auto_pad"] == "NOTSET":
            attrs["pads"] = req["pads_begin"] + req["pads_end"]
        if win in ("maxpool", "avgpool"):
            attrs["ceil_mode"] = int(req["ceil_mode"])
        if win == "deconv" and req.get("output_padding"):
            attrs["output_padding"] = req["output_padding"]
        inputs, inits = ["x"], []
        if win in ("conv", "deconv"):
            inits.append(helper.make_tensor("w", TP.FLOAT, [1, 1] + req["kernel"],
                                            np.ones([1, 1] + req["kernel"], np.float32).ravel()))
            inputs.append("w")
        g = helper.make_graph([helper.make_node(op, inputs, ["y"], **attrs)], "win",
                              [helper.make_tensor_value_info("x", TP.FLOAT, [1, 1] + req["input"])],
                              [helper.make_tensor_value_info("y", TP.FLOAT, None)],
                              initializer=inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)])
        m.ir_version = 10
        s = ort.InferenceSession(m.SerializeToString(), self.so,
                                 providers=["CPUExecutionProvider"])
        y = s.run(None, {"x": np.zeros([1, 1] + req["input"], np.float32)})[0]
        return {"ok": True, "output": list(y.shape)[2:]}

    def handle(self, req):
        peer, op = req["peer"], req["op"]
        try:
            if op == "shape":
                return self.ov_shape(req) if peer == "openvino" else self.ort_shape(req)
            if peer == "openvino":
                return self.run_ov(req, reference=False)
            if peer == "openvino-ref":
                return self.run_ov(req, reference=True)
            if peer == "onnxruntime" and op == "pad-axes":
                return self.run_ort_pad(req, axes=req["axes"])
            if peer == "onnxruntime":
                return self.run_ort_pad(req)
            raise ValueError("unknown peer " + peer)
        except Exception as e:  # the peer's own error, reported to the caller
            return {"ok": False, "error": "%s: %s" % (type(e).__name__, " ".join(str(e).split())[:400])}


def worker_main():
    w = Worker()
    out = sys.stdout
    sys.stdout = sys.stderr  # keep the protocol channel clean
    for line in sys.stdin:
        if not line.strip():
            continue
        res = w.handle(json.loads(line))
        out.write(json.dumps(res) + "\n")
        out.flush()


class WorkerProc:
    """The parent's handle on the worker; restarts it after a crash."""

    def __init__(self):
        self.p = None

    def start(self):
        self.p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def call(self, req, timeout=120):
        if self.p is None or self.p.poll() is not None:
            self.start()
        try:
            self.p.stdin.write(json.dumps(req) + "\n")
            self.p.stdin.flush()
            line = self.p.stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line:
            rc = self.p.wait()
            self.p = None
            sig = -rc if rc < 0 else None
            name = signal.Signals(sig).name if sig else "exit %d" % rc
            return {"ok": False, "crashed": True, "error": "peer process died (%s)" % name}
        return json.loads(line)

    def restart(self):
        self.stop()

    def stop(self):
        if self.p is not None:
            try:
                self.p.stdin.close()
                self.p.wait(timeout=30)
            except Exception:
                self.p.kill()
            self.p = None


# ---------------------------------------------------------------------------
# Case generation
# ---------------------------------------------------------------------------

def rand_array(rng, dtype, shape):
    """Random bit patterns (every NaN payload, subnormal, -0.0 included)."""
    dt = np.dtype(NP_DTYPE[dtype])
    n = int(np.prod(shape)) if shape else 1
    if dtype == "bool":
        return (rng.integers(0, 2, size=n) == 1).reshape(shape)
    raw = rng.integers(0, 256, size=n * dt.itemsize, dtype=np.uint8)
    a = raw.view(dt).reshape(shape)
    if dtype in ("f16", "f32", "f64") and n and rng.random() < 0.3:
        # also sprinkle the special values explicitly
        special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.5], dtype=dt)
        flat = a.reshape(-1)
        idx = rng.integers(0, n, size=min(n, 4))
        flat[idx] = special[rng.integers(0, len(special), size=len(idx))]
    return a


def rand_value(rnd, dtype):
    """A pad_value: (text for clpad --value, the same value for numpy)."""
    if dtype == "bool":
        v = rnd.choice([True, False])
        return ("true" if v else "false"), v
    if dtype in ("f16", "f32", "f64"):
        t = NP_DTYPE[dtype]
        choice = rnd.random()
        if choice < 0.1:
            return "nan", float("nan")
        if choice < 0.2:
            s = rnd.choice(["inf", "-inf", "-0.0"])
            return s, float(s)
        v = float(t(rnd.uniform(-1e4, 1e4) if rnd.random() < 0.7 else rnd.choice([1e-7, -3e38, 65504.0, 1e-300])))
        if not np.isfinite(v):
            return repr(v), v
        return repr(v), v
    info = np.iinfo(NP_DTYPE[dtype])
    v = rnd.choice([int(info.min), int(info.max), 0, -1 if info.min < 0 else 1,
                    rnd.randint(int(info.min), int(info.max))])
    if dtype == "i64" and rnd.random() < 0.3:
        v = 2 ** 53 + 1
    return str(v), v


def seed_pad_cases():
    cases = []
    m = np.arange(1, 13, dtype=np.int32).reshape(3, 4)
    for mode in OV_PAD_MODES:
        cases.append(dict(name="seed002-positive-" + mode, x=m, mode=mode, pb=[0, 1], pe=[2, 3]))
        cases.append(dict(name="seed002-negative-" + mode, x=m, mode=mode, pb=[-1, -1], pe=[-1, -1]))
        cases.append(dict(name="seed002-mixed-" + mode, x=m, mode=mode, pb=[2, -1], pe=[-1, 3]))
    cases.append(dict(name="seed002-mixed-wrap", x=m, mode="wrap", pb=[2, -1], pe=[-1, 3]))
    cases.append(dict(name="seed002-positive-wrap", x=m, mode="wrap", pb=[0, 1], pe=[2, 3]))
    rng = np.random.default_rng(2)
    x = rng.standard_normal((1, 3, 32, 40)).astype(np.float32)
    cases.append(dict(name="seed002-ir-constant", x=x, mode="constant", pb=[0, 5, 2, 1],
                      pe=[1, 0, 3, 7], value=("15.0", 15.0)))
    x = rng.standard_normal((2, 3, 32, 40)).astype(np.float32)
    cases.append(dict(name="seed002-ir-constant-mixed", x=x, mode="constant", pb=[0, -2, -8, 1],
                      pe=[-1, 4, -6, 7], value=("15.0", 15.0)))
    x = rng.standard_normal((1, 3, 32, 40)).astype(np.float32)
    cases.append(dict(name="seed002-ir-edge", x=x, mode="edge", pb=[0, 5, 2, 1], pe=[1, 0, 3, 7]))
    return cases


def limits(mode, D):
    """Largest positive pad allowed on an axis of size D (None: no limit)."""
    if mode == "constant":
        return 6
    if D == 0:
        return 0
    return {"edge": 5, "reflect": D - 1, "symmetric": D, "wrap": 2 * D + 2}[mode]


def gen_pad_case(rnd, nrng, i):
    dtype = rnd.choice(DTYPES)
    mode = rnd.choice(PAD_MODES)
    rank = rnd.choice([1, 1, 2, 2, 2, 3, 3, 4, 5])
    shape = []
    for _ in range(rank):
        shape.append(0 if rnd.random() < 0.04 else rnd.randint(1, 6 if rank <= 3 else 4))
    mixed = rnd.random() < 0.4
    pb, pe = [], []
    for D in shape:
        hi = limits(mode, D)
        for lst in (pb, pe):
            if mixed and rnd.random() < 0.5:
                # crop: mostly within the axis, sometimes all of it or more
                r = rnd.random()
                lst.append(-rnd.randint(1, max(D, 1)) if r < 0.85 else -(D + rnd.randint(0, 2)))
            else:
                lst.append(rnd.randint(0, hi) if hi else 0)
    x = rand_array(nrng, dtype, shape)
    c = dict(name="rand%03d" % i, x=x, mode=mode, pb=pb, pe=pe)
    if mode == "constant" and rnd.random() < 0.6:
        c["value"] = rand_value(rnd, dtype)
    return c


def gen_s2b_case(rnd, nrng, i):
    dtype = rnd.choice(DTYPES)
    rank = rnd.randint(2, 5)
    shape = [rnd.randint(1, 3)] + [rnd.randint(1, 6 if rank <= 3 else 4) for _ in range(rank - 1)]
    block, pb, pe = [1], [0], [0]
    for D in shape[1:]:
        B = rnd.randint(1, 4)
        b = rnd.randint(0, 3)
        e = (-(D + b)) % B + B * rnd.randint(0, 1)
        block.append(B)
        pb.append(b)
        pe.append(e)
    return dict(name="rand%03d" % i, x=rand_array(nrng, dtype, shape), block=block, pb=pb, pe=pe)


def gen_b2s_case(rnd, nrng, i):
    dtype = rnd.choice(DTYPES)
    rank = rnd.randint(2, 5)
    block = [1] + [rnd.randint(1, 3) for _ in range(rank - 1)]
    n = rnd.randint(1, 2) * int(np.prod(block))
    shape = [n] + [rnd.randint(1, 5 if rank <= 3 else 3) for _ in range(rank - 1)]
    cb, ce = [0], [0]
    for D, B in zip(shape[1:], block[1:]):
        total = rnd.randint(0, D * B - 1)
        b = rnd.randint(0, total)
        cb.append(b)
        ce.append(total - b)
    return dict(name="rand%03d" % i, x=rand_array(nrng, dtype, shape), block=block, cb=cb, ce=ce)


def seed_s2b_cases():
    x = np.arange(2 * 6 * 10 * 3 * 3, dtype=np.int32).reshape(2, 6, 10, 3, 3)
    return [dict(name="seed001-s2b", x=x, block=[1, 2, 4, 3, 1], pb=[0, 0, 1, 0, 0],
                 pe=[0, 0, 1, 0, 0])]


def seed_b2s_cases():
    rng = np.random.default_rng(1)
    x = rng.integers(-1000, 1000, size=(48, 3, 3, 1, 3)).astype(np.int32)
    return [dict(name="seed001-b2s", x=x, block=[1, 2, 4, 3, 1], cb=[0, 0, 1, 0, 0],
                 ce=[0, 0, 1, 0, 0])]


def gen_shape_case(rnd, i, convention):
    op = rnd.choice(["conv", "deconv", "maxpool", "avgpool"])
    n = rnd.randint(1, 3)
    I = [rnd.randint(1, 16) for _ in range(n)]
    K = [rnd.randint(1, 5) for _ in range(n)]
    S = [rnd.randint(1, 4) for _ in range(n)]
    d = [rnd.randint(1, 3) if op != "avgpool" and rnd.random() < 0.4 else 1 for _ in range(n)]
    c = dict(name="rand%03d" % i, op=op, input=I, kernel=K, stride=S, dilation=d)
    if convention == "openvino":
        c["auto_pad"] = rnd.choice(["explicit", "valid", "same_upper", "same_lower"])
        if op in ("maxpool", "avgpool"):
            c["rounding"] = rnd.choice(["floor", "ceil", "ceil_torch"])
    else:
        c["auto_pad"] = rnd.choice(["NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"])
        if op in ("maxpool", "avgpool"):
            c["ceil_mode"] = rnd.random() < 0.5
    explicit = c["auto_pad"] in ("explicit", "NOTSET")
    ext = [1 + dd * (k - 1) for k, dd in zip(K, d)]
    if explicit:
        if op in ("maxpool", "avgpool"):
            # pooling pads smaller than the window (ONNX Runtime and PyTorch require it)
            c["pads_begin"] = [rnd.randint(0, e - 1) if e > 1 else 0 for e in ext]
            c["pads_end"] = [rnd.randint(0, e - 1) if e > 1 else 0 for e in ext]
        else:
            c["pads_begin"] = [rnd.randint(0, 3) for _ in range(n)]
            c["pads_end"] = [rnd.randint(0, 3) for _ in range(n)]
    if op == "deconv" and rnd.random() < 0.4:
        # below the stride: ONNX Runtime rejects output_padding >= stride ("may be
        # too large for stride") even where the dilation is larger
        c["output_padding"] = [rnd.randint(0, s - 1) for s in S]
    if op == "deconv" and convention == "openvino" and rnd.random() < 0.4:
        # a requested output shape around the full output, beyond it too (where
        # OpenVINO clamps the total at 0 and appends zeros)
        op_ = c.get("output_padding") or [0] * n
        c["output_shape"] = [max((I[a] - 1) * S[a] + ext[a] + op_[a] + rnd.randint(-3, 3), 1)
                             for a in range(n)]
    # only valid windows: the padded input holds the kernel extent (conv, pool),
    # the transposed output is not empty (deconv)
    for ax in range(n):
        pads = c["pads_begin"][ax] + c["pads_end"][ax] if explicit else 0
        if op == "deconv":
            if explicit:
                full = (I[ax] - 1) * S[ax] + ext[ax] + (c.get("output_padding") or [0] * n)[ax]
                while c["pads_begin"][ax] + c["pads_end"][ax] >= full:
                    c["pads_end"][ax] -= 1 if c["pads_end"][ax] else 0
                    c["pads_begin"][ax] -= 1 if c["pads_begin"][ax] else 0
        elif c["auto_pad"] in ("explicit", "NOTSET", "valid", "VALID"):
            I[ax] = max(I[ax], ext[ax] - pads, 1)
    return c


def seed_shape_cases(convention):
    cases = []
    if convention == "openvino":
        # TensorRT PaddingMode, pooling example 1: I=6, B=3, A=2, S=2, F=3 -> O=5 (floor and ceil);
        # SAME: O=3, pads 0/1 (upper) and 1/0 (lower).
        for r in ("floor", "ceil"):
            cases.append(dict(name="seed003-pool-explicit-" + r, op="maxpool", input=[6, 6],
                              kernel=[3, 3], stride=[2, 2], dilation=[1, 1], auto_pad="explicit",
                              pads_begin=[3, 3], pads_end=[2, 2], rounding=r,
                              expect=dict(output=[5, 5])))
        for ap, b, a in (("same_upper", 0, 1), ("same_lower", 1, 0)):
            cases.append(dict(name="seed003-pool-" + ap, op="maxpool", input=[6, 6], kernel=[3, 3],
                              stride=[2, 2], dilation=[1, 1], auto_pad=ap, rounding="floor",
                              expect=dict(output=[3, 3], pads_begin=[b, b], pads_end=[a, a])))
        # the TF SAME article's example: input 7x8, stride 3, filter 4 -> SAME_UPPER pads [1,1] / [2,1], output 3x3
        cases.append(dict(name="seed004-conv-same_upper", op="conv", input=[7, 8], kernel=[4, 4],
                          stride=[3, 3], dilation=[1, 1], auto_pad="same_upper",
                          expect=dict(output=[3, 3], pads_begin=[1, 1], pads_end=[2, 1])))
        # OpenVINO's type_prop test convolution_backprop_data_partial_auto_padding_*:
        # an output_shape beyond the full output (73) gives pads 0 / 0, not -1
        for ap in ("same_upper", "same_lower"):
            cases.append(dict(name="ov-deconv-beyond-full-" + ap, op="deconv", input=[1, 37],
                              kernel=[1, 1], stride=[1, 2], dilation=[1, 1], auto_pad=ap,
                              output_shape=[1, 74],
                              expect=dict(output=[1, 74], pads_begin=[0, 0], pads_end=[0, 0])))
    else:
        cases.append(dict(name="seed004-conv-SAME_UPPER", op="conv", input=[7, 8], kernel=[4, 4],
                          stride=[3, 3], dilation=[1, 1], auto_pad="SAME_UPPER",
                          expect=dict(output=[3, 3])))
        cases.append(dict(name="seed004-conv-NOTSET", op="conv", input=[7, 8], kernel=[4, 4],
                          stride=[3, 3], dilation=[1, 1], auto_pad="NOTSET", pads_begin=[1, 1],
                          pads_end=[2, 1], expect=dict(output=[3, 3])))
        for cm in (False, True):
            cases.append(dict(name="seed003-pool-explicit-ceil%d" % cm, op="maxpool",
                              input=[6, 6], kernel=[3, 3], stride=[2, 2], dilation=[1, 1],
                              auto_pad="NOTSET", pads_begin=[2, 2], pads_end=[2, 2],
                              ceil_mode=cm))
    return cases


# ---------------------------------------------------------------------------
# References computed here (numpy peer) and divergence checks
# ---------------------------------------------------------------------------

NP_MODE = {"constant": "constant", "edge": "edge", "reflect": "reflect",
           "symmetric": "symmetric", "wrap": "wrap"}


def np_pad_spec(x, mode, pb, pe, value=None):
    """Pad-12 with numpy: pad with the positive parts, then slice off the negative
    parts. Mirrors and edges are therefore taken from the original input."""
    pos = [(max(b, 0), max(e, 0)) for b, e in zip(pb, pe)]
    kw = {}
    if mode == "constant":
        kw["constant_values"] = np.array(value if value is not None else 0, dtype=x.dtype)
    if any(p != (0, 0) for p in pos):
        y = np.pad(x, pos, mode=NP_MODE[mode], **kw)
    else:
        y = x.copy()
    sl = []
    for ax, (b, e) in enumerate(zip(pb, pe)):
        n = y.shape[ax]
        start = max(-b, 0)
        stop = n - max(-e, 0)
        sl.append(slice(min(start, n), max(min(stop, n), min(start, n))))
    return np.ascontiguousarray(y[tuple(sl)])


def np_pad_crop_first(x, mode, pb, pe, value=None):
    """What ONNX Runtime does: crop with the negative parts, then pad the cropped
    tensor with the positive parts."""
    sl = []
    for ax, (b, e) in enumerate(zip(pb, pe)):
        n = x.shape[ax]
        start, stop = max(-b, 0), n - max(-e, 0)
        sl.append(slice(min(start, n), max(min(stop, n), min(start, n))))
    xc = x[tuple(sl)]
    pos = [(max(b, 0), max(e, 0)) for b, e in zip(pb, pe)]
    kw = {}
    if mode == "constant":
        kw["constant_values"] = np.array(value if value is not None else 0, dtype=x.dtype)
    return np.pad(xc, pos, mode=NP_MODE[mode], **kw), xc.shape


def np_s2b(x, block, pb, pe):
    pads = [(b, e) for b, e in zip(pb, pe)]
    xp = np.pad(x, pads, mode="constant")
    N, r = xp.shape[0], xp.ndim
    shp = [N]
    for D, B in zip(xp.shape[1:], block[1:]):
        shp += [D // B, B]
    y = xp.reshape(shp)
    perm = [2 * i for i in range(1, r)] + [0] + [2 * i - 1 for i in range(1, r)]
    y = y.transpose(perm)
    return np.ascontiguousarray(
        y.reshape([N * int(np.prod(block))] + [D // B for D, B in zip(xp.shape[1:], block[1:])]))


def np_b2s(x, block, cb, ce):
    r = x.ndim
    Bs = block[1:]
    N = x.shape[0] // int(np.prod(Bs))
    y = x.reshape(list(Bs) + [N] + list(x.shape[1:]))
    # axes: B1..Bk (0..k-1), N (k), D1..Dk (k+1..2k); want N, D1, B1, D2, B2, ...
    k = r - 1
    perm = [k]
    for i in range(k):
        perm += [k + 1 + i, i]
    y = y.transpose(perm).reshape([N] + [D * B for D, B in zip(x.shape[1:], Bs)])
    sl = [slice(None)] + [slice(b, D * B - e) for D, B, b, e in zip(x.shape[1:], Bs, cb[1:], ce[1:])]
    return np.ascontiguousarray(y[tuple(sl)])


def same_bytes(a, b):
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    return np.array_equal(a.reshape(-1).view(np.uint8), b.reshape(-1).view(np.uint8))


def diff_summary(got, want):
    if got.dtype != want.dtype:
        return "dtype %s, expected %s" % (got.dtype, want.dtype)
    if got.shape != want.shape:
        return "shape %s, expected %s" % (list(got.shape), list(want.shape))
    g = got.reshape(got.size, -1).view(np.uint8) if got.size else got
    w = want.reshape(want.size, -1).view(np.uint8) if want.size else want
    g = got.reshape(-1).view(np.uint8).reshape(got.size, -1)
    w = want.reshape(-1).view(np.uint8).reshape(want.size, -1)
    bad = np.nonzero((g != w).any(axis=1))[0]
    i = int(bad[0])
    idx = np.unravel_index(i, got.shape)
    return "%d of %d elements differ; first at %s: peer %r, clpad %r" % (
        len(bad), got.size, list(map(int, idx)), got.reshape(-1)[i], want.reshape(-1)[i])


def f16_quieted(y):
    u = y.view(np.uint16).copy()
    snan = ((u & 0x7C00) == 0x7C00) & ((u & 0x03FF) != 0) & ((u & 0x0200) == 0)
    u[snan] |= 0x0200
    return u.view(np.float16)


def nan_payload_mask(got, y):
    """Per element (f16): y is a NaN and got is a NaN too (payload not kept)."""
    g, w = got.reshape(-1).view(np.uint16), y.reshape(-1).view(np.uint16)
    isnan = lambda u: ((u & 0x7C00) == 0x7C00) & ((u & 0x03FF) != 0)
    return isnan(g) & isnan(w)


def snan_quieted_mask(got, y):
    """Per element (f16): y is a signalling NaN and got is it with bit 9 set."""
    g, w = got.reshape(-1).view(np.uint16), y.reshape(-1).view(np.uint16)
    snan = ((w & 0x7C00) == 0x7C00) & ((w & 0x03FF) != 0) & ((w & 0x0200) == 0)
    return snan & (g == (w | 0x0200))


def only_snan_quieted(got, y, any_quiet_nan=False):
    """Every differing element is an f16 signalling NaN in y that got has quieted
    (set bit 9; with any_quiet_nan, any quiet NaN will do)."""
    if got.dtype != np.float16 or got.shape != y.shape or not got.size:
        return False
    g, w = got.reshape(-1).view(np.uint16), y.reshape(-1).view(np.uint16)
    d = g != w
    snan = ((w & 0x7C00) == 0x7C00) & ((w & 0x03FF) != 0) & ((w & 0x0200) == 0)
    if any_quiet_nan:  # any NaN in, a NaN out: the payload was not kept
        return bool(d.any() and np.all(nan_payload_mask(got, y)[d]))
    return bool(d.any() and np.all(snan[d]) and np.all(g[d] == (w[d] | 0x0200)))


def int_narrowed(got, y):
    """Every element of got is y's i64 bits narrowed to i32 (wrapped, or saturated
    as OpenVINO converts constants) and sign-extended back."""
    if got.dtype != y.dtype or got.shape != y.shape or y.dtype.itemsize != 8:
        return False
    g, w = got.reshape(-1).view(np.int64), y.reshape(-1).view(np.int64)
    wrap = w.astype(np.int32).astype(np.int64)
    sat = np.clip(w, -2 ** 31, 2 ** 31 - 1)
    return bool(np.all((g == wrap) | (g == sat)))


def int_narrowed_mask(got, y):
    g, w = got.reshape(-1).view(np.int64), y.reshape(-1).view(np.int64)
    wrap = w.astype(np.int32).astype(np.int64)
    return (g == wrap) | (g == np.clip(w, -2 ** 31, 2 ** 31 - 1))


def f64_narrowed_mask(got, y):
    """Per element: equal, or y is not exactly an f32 and got holds an f32 (or NaN)."""
    g, w = got.reshape(-1), y.reshape(-1)
    with np.errstate(all="ignore"):
        w32 = w.astype(np.float32)
        w_exact = (w32.astype(np.float64).view(np.uint64) == w.view(np.uint64)) & \
            np.isfinite(w32) & ((np.abs(w32) >= np.finfo(np.float32).tiny) | (w32 == 0))
        g_is_f32 = (g.astype(np.float32).astype(np.float64).view(np.uint64) == g.view(np.uint64))
    return (g.view(np.uint64) == w.view(np.uint64)) | (~w_exact & (g_is_f32 | np.isnan(g)))


def f64_narrowed(got, y):
    """Every differing element is a value f32 cannot hold exactly (out of range,
    inf, subnormal in f32 or more precise than f32) and got holds an f32 value."""
    if got.dtype != np.float64 or got.shape != y.shape:
        return False
    g, w = got.reshape(-1), y.reshape(-1)
    d = g.view(np.uint64) != w.view(np.uint64)
    with np.errstate(all="ignore"):
        w32 = w.astype(np.float32)
        g_is_f32 = (g.astype(np.float32).astype(np.float64).view(np.uint64) == g.view(np.uint64))
        w_exact = (w32.astype(np.float64).view(np.uint64) == w.view(np.uint64)) & \
            np.isfinite(w32) & ((np.abs(w32) >= np.finfo(np.float32).tiny) | (w32 == 0))
    return bool(d.any() and not np.any(d & w_exact) and np.all(g_is_f32[d] | np.isnan(g[d])))


def ort_pool_same(case):
    """ONNX Runtime's SAME pooling (PoolAttributes::ComputeSizePadDilations, quoted in
    onnxruntime#10086): total pad from the UNdilated kernel K, not clamped at 0,
    then O = (I + pad - d*(K-1) - 1)/S + 1 rounded toward zero (C integer or float
    truncation; ceil_mode: ceil). Returns (candidate output lists, a pad < 0)."""
    import math
    trunc_int, trunc_float, neg = [], [], False
    for I, K, S, d in zip(case["input"], case["kernel"], case["stride"], case["dilation"]):
        pad = ((I + S - 1) // S - 1) * S + K - I
        neg |= pad < 0
        num = I + pad - d * (K - 1) - 1
        if case.get("ceil_mode"):
            o = int(math.ceil(num / S + 1))
            trunc_int.append(o)
            trunc_float.append(o)
        else:
            trunc_int.append((abs(num) // S) * (1 if num >= 0 else -1) + 1)
            trunc_float.append(int(float(np.float32(num)) / S + 1))
    return [trunc_int, trunc_float], neg


# ---------------------------------------------------------------------------
# The harness
# ---------------------------------------------------------------------------

class Harness:
    def __init__(self, args):
        self.args = args
        self.cli = args.clpad
        self.work = tempfile.mkdtemp(prefix="clpad-peer-")
        self.keep = args.keep
        self.worker = WorkerProc()
        self.stats = defaultdict(lambda: defaultdict(int))  # (peer, op) -> outcome -> n
        self.skip_reasons = defaultdict(lambda: defaultdict(int))
        self.div_counts = defaultdict(int)
        self.failures = []
        self.peers = args.peers
        self.case_no = 0
        self.peer_ok = {}

    # -- bookkeeping -----------------------------------------------------
    def record(self, peer, op, outcome, detail=None):
        self.stats[(peer, op)][outcome] += 1
        if outcome == "skipped":
            self.skip_reasons[(peer, op)][detail] += 1
        elif outcome == "divergence":
            self.div_counts[detail] += 1
        if self.args.verbose and outcome != "passed":
            print("  %-12s %-5s %s %s" % (peer, op, outcome, detail or ""))

    def fail(self, peer, op, case, why, repro):
        self.record(peer, op, "failed")
        line = "FAIL %s %s %s: %s\n     repro: %s" % (peer, op, case, why, repro)
        self.failures.append(line)
        print(line, flush=True)

    def save_input(self, name, x):
        path = os.path.join(self.work, name + ".npy")
        np.save(path, x)
        return path

    def keep_input(self, path):
        os.makedirs(self.keep, exist_ok=True)
        dst = os.path.join(self.keep, os.path.basename(path))
        shutil.copyfile(path, dst)
        return dst

    def run_clpad(self, argv):
        cmd = [self.cli] + argv
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=300)
        return p.returncode, p.stdout, p.stderr.strip().splitlines()[-1:] if p.stderr else []

    def repro(self, argv, inpath=None):
        args = list(argv)
        if inpath:
            kept = self.keep_input(inpath)
            args = [kept if a == inpath else a for a in args]
        return " ".join(shlex.quote(a) for a in [self.cli] + args)

    # -- availability ----------------------------------------------------
    def check_peers(self):
        avail = {}
        for peer, mod in (("openvino", "openvino"), ("openvino-ref", "openvino"),
                          ("onnxruntime", "onnxruntime"), ("numpy", "numpy"),
                          ("opencv", "cv2")):
            if peer not in self.peers:
                continue
            try:
                __import__(mod)
                if mod == "onnxruntime":
                    __import__("onnx")
                avail[peer] = None
            except Exception as e:
                avail[peer] = "%s cannot be imported: %s" % (mod, e)
        self.peer_ok = avail
        return avail

    def peer_skip(self, peer):
        return self.peer_ok.get(peer, "not selected (--peers)")

    # -- data ops ----------------------------------------------------------
    def data_case(self, op, case):
        """Run one Pad / SpaceToBatch / BatchToSpace case through clpad and every peer."""
        self.case_no += 1
        x = case["x"]
        dtype = {v: k for k, v in NP_DTYPE.items()}[x.dtype.type]
        tag = "%s-%s-%s" % (op, case["name"], dtype)
        inp = self.save_input(tag, x)
        outp = os.path.join(self.work, tag + ".out.npy")
        if op == "pad":
            argv = ["pad", "-q", "--mode", case["mode"],
                    "--pads-begin=" + ",".join(map(str, case["pb"])),
                    "--pads-end=" + ",".join(map(str, case["pe"]))]
            if case.get("value") is not None:
                argv.append("--value=" + case["value"][0])
        elif op == "s2b":
            argv = ["space-to-batch", "-q", "--block-shape=" + ",".join(map(str, case["block"])),
                    "--pads-begin=" + ",".join(map(str, case["pb"])),
                    "--pads-end=" + ",".join(map(str, case["pe"]))]
        else:
            argv = ["batch-to-space", "-q", "--block-shape=" + ",".join(map(str, case["block"])),
                    "--crops-begin=" + ",".join(map(str, case["cb"])),
                    "--crops-end=" + ",".join(map(str, case["ce"]))]
        argv += [inp, outp]
        desc = "%s %s shape=%s %s" % (tag, case.get("mode", ""), list(x.shape),
                                      {k: case[k] for k in ("pb", "pe", "block", "cb", "ce", "value")
                                       if k in case})
        if self.args.verbose:
            print("case", desc)

        rc, _, err = self.run_clpad(argv)
        if rc != 0:
            for peer in self.peers:
                self.fail(peer, op, desc, "clpad exited %d: %s" % (rc, " ".join(err)),
                          self.repro(argv, inp))
            return
        y = np.load(outp)
        if self.args.verbose:
            print("  clpad -> %s %s" % (y.dtype, list(y.shape)))

        for peer in self.peers:
            why = self.peer_skip(peer)
            if why:
                self.record(peer, op, "skipped", why)
                continue
            if peer == "numpy":
                self.numpy_peer(op, case, x, y, desc, argv, inp)
            elif peer in ("openvino", "openvino-ref"):
                self.ov_peer(peer, op, case, dtype, x, y, desc, argv, inp)
            elif peer == "onnxruntime":
                if op != "pad":
                    self.record(peer, op, "skipped", "ONNX has no SpaceToBatch/BatchToSpace op")
                    continue
                self.ort_peer(case, dtype, x, y, desc, argv, inp)

    def numpy_peer(self, op, case, x, y, desc, argv, inp):
        try:
            if op == "pad":
                v = case["value"][1] if case.get("value") is not None else None
                ref = np_pad_spec(x, case["mode"], case["pb"], case["pe"], v)
            elif op == "s2b":
                ref = np_s2b(x, case["block"], case["pb"], case["pe"])
            else:
                ref = np_b2s(x, case["block"], case["cb"], case["ce"])
        except Exception as e:
            self.fail("numpy", op, desc, "numpy raised %s: %s" % (type(e).__name__, e),
                      self.repro(argv, inp))
            return
        if same_bytes(ref, y):
            self.record("numpy", op, "passed")
        else:
            self.fail("numpy", op, desc, diff_summary(ref, y), self.repro(argv, inp))

    def request(self, peer, op, case, dtype, inp):
        req = dict(peer=peer, op=op, dtype=dtype, **{"in": inp})
        req["out"] = inp[:-4] + "." + peer + ".npy"
        if op == "pad":
            req.update(mode=case["mode"], pads_begin=case["pb"], pads_end=case["pe"])
            if case.get("value") is not None:
                req.update(value=case["value"][0], value_np=case["value"][1])
        elif op == "s2b":
            req.update(block=case["block"], pads_begin=case["pb"], pads_end=case["pe"])
        else:
            req.update(block=case["block"], crops_begin=case["cb"], crops_end=case["ce"])
        return req

    def ov_peer(self, peer, op, case, dtype, x, y, desc, argv, inp):
        if op == "pad" and case["mode"] == "wrap":
            self.record(peer, op, "skipped", "Pad-12 has no wrap mode (an extension of clpad)")
            return
        req = self.request(peer, op, case, dtype, inp)
        overcrop = op == "pad" and any(b < -D or e < -D for b, e, D in
                                       zip(case["pb"], case["pe"], x.shape))
        negdim = op == "pad" and any(b + D + e < 0 for b, e, D in
                                     zip(case["pb"], case["pe"], x.shape))
        if peer == "openvino" and overcrop:
            self.worker.restart()  # a fresh process: the plugin may corrupt its heap
        res = self.worker.call(req)
        if peer == "openvino" and overcrop:
            self.worker.restart()
        got = np.load(req["out"]) if res.get("ok") else None
        if got is not None and same_bytes(got, y):
            self.record(peer, op, "passed")
            return
        why = res.get("error") if got is None else diff_summary(got, y)
        if res.get("no_reference"):
            self.record(peer, op, "skipped", "OpenVINO core's %s evaluate declines rank %d "
                        "%s (Node.evaluate returns false)" % (op, x.ndim, dtype))
            return
        # -- documented divergences, each proven on this case -----------------
        if negdim and res.get("dynamic_shape"):
            self.record(peer, op, "divergence", "ov-negative-dim")
            return
        if (op == "pad" and case["mode"] == "reflect" and got is None and
                "PadMode::REFLECT" in (why or "") and
                any(D == 0 and b <= 0 and e <= 0 for b, e, D in
                    zip(case["pb"], case["pe"], x.shape))):
            self.record(peer, op, "divergence", "ov-reflect-empty-axis")
            return
        if peer == "openvino" and self.ov_reference_agrees(op, case, dtype, inp, y):
            if overcrop:
                self.record(peer, op, "divergence", "ov-overcrop")
                return
            if (got is not None and got.shape == y.shape and op == "pad" and
                    case.get("value") is not None and dtype not in ("f16", "f32", "f64", "bool")):
                v = case["value"][1]
                data = np_pad_spec(np.ones(x.shape, np.bool_), "constant", case["pb"], case["pe"],
                                   False).reshape(-1)
                d = (got.reshape(got.size, -1).view(np.uint8) !=
                     y.reshape(y.size, -1).view(np.uint8)).any(axis=1)
                dd = d & data
                data_ok = not dd.any() or (dtype in ("i64", "u64") and
                                           bool(np.all(int_narrowed_mask(got, y)[dd])))
                padvals = got.reshape(-1)[d & ~data]
                if (data_ok and padvals.size and np.all(padvals == padvals[0]) and
                        int(float(np.float32(v))) != int(v)):
                    self.record(peer, op, "divergence", "ov-pad-value-f32")
                    return
            if (got is not None and got.shape == y.shape and op == "pad" and
                    dtype in ("f16", "f32", "f64") and case.get("value") is not None and
                    float(case["value"][1]) == 0.0 and np.signbit(float(case["value"][1]))):
                data = np_pad_spec(np.ones(x.shape, np.bool_), "constant", case["pb"], case["pe"],
                                   False).reshape(-1)
                d = (got.reshape(got.size, -1).view(np.uint8) !=
                     y.reshape(y.size, -1).view(np.uint8)).any(axis=1)
                if dtype == "f64":  # the data may also come back narrowed to f32
                    d &= ~f64_narrowed_mask(got, y)
                flat = got.reshape(-1)
                if (d.any() and not np.any(d & data) and
                        np.all(flat[d] == 0) and not np.any(np.signbit(flat[d]))):
                    self.record(peer, op, "divergence", "ov-pad-value-negative-zero")
                    return
            if got is not None and dtype in ("i64", "u64") and int_narrowed(got, y):
                self.record(peer, op, "divergence", "ov-i64-as-i32")
                return
            if got is not None and dtype == "f64" and f64_narrowed(got, y):
                self.record(peer, op, "divergence", "ov-f64-as-f32")
                return
            if got is not None and only_snan_quieted(got, y):
                self.record(peer, op, "divergence", "ov-f16-snan")
                return
            if got is not None and op == "s2b" and got.shape == y.shape:
                inside = np_s2b(np.ones(x.shape, np.bool_), case["block"], case["pb"], case["pe"])
                d = (got.reshape(got.size, -1).view(np.uint8) !=
                     y.reshape(y.size, -1).view(np.uint8)).any(axis=1)
                if dtype in ("i64", "u64"):  # the data may also come back narrowed
                    d &= ~int_narrowed_mask(got, y)
                if dtype == "f64":
                    d &= ~f64_narrowed_mask(got, y)
                if dtype == "f16":
                    d &= ~snan_quieted_mask(got, y)
                if d.any() and not np.any(d & inside.reshape(-1)):
                    self.record(peer, op, "divergence", "ov-s2b-padding")
                    return
        self.fail(peer, op, desc, why, self.repro(argv, inp))

    def ov_reference_agrees(self, op, case, dtype, inp, y):
        if "openvino-ref" not in self.peers or self.peer_skip("openvino-ref"):
            return False
        req = self.request("openvino-ref", op, case, dtype, inp)
        req["out"] = inp[:-4] + ".ovref-check.npy"
        res = self.worker.call(req)
        if res.get("no_reference") and op in ("s2b", "b2s"):
            # OpenVINO core has no evaluate for this dtype: docs/spec.md's numpy
            # definition stands in (it is checked against openvino-ref elsewhere)
            f = np_s2b if op == "s2b" else np_b2s
            keys = ("pb", "pe") if op == "s2b" else ("cb", "ce")
            return same_bytes(f(np.load(inp), case["block"], case[keys[0]], case[keys[1]]), y)
        return bool(res.get("ok")) and same_bytes(np.load(req["out"]), y)

    def ort_peer(self, case, dtype, x, y, desc, argv, inp):
        mode = case["mode"]
        peer = "onnxruntime"
        if mode == "symmetric":
            self.record(peer, "pad", "skipped", "ONNX Pad has no symmetric mode")
            return
        if dtype in ORT_PAD_DTYPES_MISSING:
            # confirm on the first case only: the kernel registration is static
            self.record(peer, "pad", "skipped",
                        "ONNX Runtime CPU has no Pad kernel for %s (NOT_IMPLEMENTED)" % dtype)
            return
        req = self.request(peer, "pad", case, dtype, inp)
        res = self.worker.call(req)
        got = np.load(req["out"]) if res.get("ok") else None
        if got is not None and same_bytes(got, y):
            self.record(peer, "pad", "passed")
            return
        why = res.get("error") if got is None else diff_summary(got, y)
        if got is not None and only_snan_quieted(got, y, any_quiet_nan=True):
            self.record(peer, "pad", "divergence", "ort-f16-nan-payload")
            return
        if got is None and mode == "wrap" and x.size == 0 and "Unexpected mode" in (why or ""):
            self.record(peer, "pad", "divergence", "ort-wrap-empty-input")
            return
        if got is None and not res.get("crashed") and any(
                b + D + e < 0 for b, e, D in zip(case["pb"], case["pe"], x.shape)):
            self.record(peer, "pad", "divergence", "ort-negative-dim")
            return
        negative = any(v < 0 for v in case["pb"] + case["pe"])
        if negative:
            v = case["value"][1] if case.get("value") is not None else None
            try:
                cf, cshape = np_pad_crop_first(x, mode, case["pb"], case["pe"], v)
            except ValueError:
                cf, cshape = None, None
            if got is not None and cf is not None and (
                    same_bytes(got, cf) or only_snan_quieted(got, cf, any_quiet_nan=True)):
                self.record(peer, "pad", "divergence", "ort-crop-first")
                return
            if got is None and not res.get("crashed"):
                # a limit check against the cropped size: reflect pad > cropped D - 1,
                # or edge/wrap/reflect padding of an axis that cropping emptied
                crop_shape = [max(D - max(-b, 0) - max(-e, 0), 0)
                              for b, e, D in zip(case["pb"], case["pe"], x.shape)]
                empty = 0 in crop_shape and (any(v > 0 for v in case["pb"] + case["pe"]) or
                                             "zero effective input extent" in (why or ""))
                bad = (mode in ("edge", "wrap", "reflect") and empty) or any(
                          (mode == "reflect" and max(b, e) > Dc - 1) or
                          (mode in ("edge", "wrap", "reflect") and Dc == 0 and max(b, e) > 0)
                          for b, e, Dc in zip(case["pb"], case["pe"], crop_shape))
                if bad:
                    self.record(peer, "pad", "divergence", "ort-crop-first")
                    return
        self.fail(peer, "pad", desc, why, self.repro(argv, inp))

    # -- window shapes -----------------------------------------------------
    def shape_case(self, peer, case):
        self.case_no += 1
        op = case["op"]
        n = len(case["input"])
        clop = "pool" if op in ("maxpool", "avgpool") else op
        argv = ["shape", clop, "--json", "--input=" + ",".join(map(str, case["input"])),
                "--kernel=" + ",".join(map(str, case["kernel"])),
                "--stride=" + ",".join(map(str, case["stride"])),
                "--dilation=" + ",".join(map(str, case["dilation"]))]
        if peer == "openvino":
            argv.append("--openvino=" + case["auto_pad"])
            if case.get("rounding") and case["rounding"] != "floor":
                argv.append("--rounding=" + case["rounding"])
        else:
            argv.append("--onnx=" + case["auto_pad"])
            if case.get("ceil_mode"):
                argv.append("--ceil-mode")
        if case.get("pads_begin") is not None:
            argv += ["--window-pads-begin=" + ",".join(map(str, case["pads_begin"])),
                     "--window-pads-end=" + ",".join(map(str, case["pads_end"]))]
        if case.get("output_padding"):
            argv.append("--output-padding=" + ",".join(map(str, case["output_padding"])))
        if case.get("output_shape"):
            argv.append("--output-shape=" + ",".join(map(str, case["output_shape"])))
        desc = "%s-%s %s" % (case["name"], op, {k: v for k, v in case.items()
                                                if k not in ("name", "op", "expect")})
        if self.args.verbose:
            print("case", desc)
        rc, out, err = self.run_clpad(argv)
        mine = json.loads(out) if rc == 0 else None
        if mine is not None and "expect" in case:
            for k, v in case["expect"].items():
                if mine.get(k) != v:
                    self.fail(peer, "shape", desc, "worked example: clpad %s=%s, seed says %s" %
                              (k, mine.get(k), v), self.repro(argv))
                    return
        res = self.worker.call(self._shape_req(peer, case))
        if peer == "onnxruntime" and mine is not None and (
                not res.get("ok") or res["output"] != mine["output"]):
            err = res.get("error") or ""
            same = case["auto_pad"] in ("SAME_UPPER", "SAME_LOWER")
            if (same and op == "conv" and any(v > 1 for v in case["dilation"]) and
                    "Dilation not supported" in err):
                self.record(peer, "shape", "divergence", "ort-conv-same-dilation")
                return
            if (op in ("maxpool", "avgpool") and case["auto_pad"] == "NOTSET" and
                    "kernel_shape" in err and
                    any(max(b, e) >= k for b, e, k in
                        zip(case["pads_begin"], case["pads_end"], case["kernel"]))):
                self.record(peer, "shape", "divergence", "ort-pool-pad-lt-kernel")
                return
            if same and op in ("maxpool", "avgpool"):
                cands, neg = ort_pool_same(case)
                if ((neg and "non-negative" in err) or
                        (any(min(f) < 0 for f in cands) and "dimension is negative" in err) or
                        (res.get("ok") and res["output"] in cands)):
                    self.record(peer, "shape", "divergence", "ort-pool-same")
                    return
        if not res.get("ok"):
            if mine is None:
                self.record(peer, "shape", "passed")  # both reject the window
                return
            self.fail(peer, "shape", desc, "peer rejects (%s) but clpad gives %s" %
                      (res.get("error"), mine), self.repro(argv))
            return
        if mine is None:
            self.fail(peer, "shape", desc, "clpad rejects (rc %d: %s) but the peer gives output %s" %
                      (rc, " ".join(err), res["output"]), self.repro(argv))
            return
        if res["output"] != mine["output"]:
            self.fail(peer, "shape", desc, "output %s, clpad %s" % (res["output"], mine["output"]),
                      self.repro(argv))
            return
        if (peer == "openvino" and op == "deconv" and case.get("output_shape") and
                res.get("pads_begin") and res["pads_begin"] != mine["pads_begin"]):
            # with output_shape OpenVINO infers where the output starts: its
            # pads_begin is clpad's crop at the start
            self.fail(peer, "shape", desc, "pads_begin %s, clpad %s" % (
                res["pads_begin"], mine["pads_begin"]), self.repro(argv))
            return
        if (peer == "openvino" and op == "deconv" and case.get("output_shape") and
                case["auto_pad"] in ("same_upper", "same_lower") and res.get("pads_end") and
                res["pads_end"] != mine["pads_end"]):
            # SAME_*: OpenVINO's pads_end is the crop at the end, clamped at 0
            # (VALID and EXPLICIT report their attributes unchanged)
            self.fail(peer, "shape", desc, "pads_end %s, clpad %s" % (
                res["pads_end"], mine["pads_end"]), self.repro(argv))
            return
        if peer == "openvino" and op != "deconv" and res.get("pads_begin"):
            if (res["pads_begin"], res["pads_end"]) != (mine["pads_begin"], mine["pads_end"]):
                self.fail(peer, "shape", desc, "pads %s/%s, clpad %s/%s" % (
                    res["pads_begin"], res["pads_end"], mine["pads_begin"], mine["pads_end"]),
                    self.repro(argv))
                return
        self.record(peer, "shape", "passed")

    @staticmethod
    def _shape_req(peer, case):
        r = {k: v for k, v in case.items() if k not in ("name", "expect")}
        r["peer"] = peer
        # the worker dispatches on op == "shape"; the window kind travels as "window"
        r["window"] = case["op"]
        r["op"] = "shape"
        return r

    # -- main ----------------------------------------------------------------
    def run(self):
        a = self.args
        rnd = random.Random(a.seed)
        nrng = np.random.default_rng(a.seed)
        only = set(a.only)
        t0 = time.time()
        # counts: --cases is the number of random cases per data op; shapes get
        # the same number per convention.
        n = a.cases
        if "pad" in only:
            print("== pad: %d seed + %d random cases" % (len(seed_pad_cases()), n), flush=True)
            for c in seed_pad_cases():
                self.data_case("pad", c)
            for i in range(n):
                self.data_case("pad", gen_pad_case(rnd, nrng, i))
            for peer in self.peers:  # dtypes and ranks the CLI cannot carry
                if peer == "opencv":  # compared in op "forms" only
                    continue
                self.record(peer, "pad", "skipped",
                            "bf16: clpad's .npy I/O has no bf16 (numpy has no bf16 dtype)")
                self.record(peer, "pad", "skipped",
                            "rank 0: `clpad pad` rejects an empty --pads-begin list")
        for op, seeds, gen in (("s2b", seed_s2b_cases, gen_s2b_case),
                               ("b2s", seed_b2s_cases, gen_b2s_case)):
            if op not in only:
                continue
            if not self.cli_has(op):
                for peer in self.peers:
                    self.record(peer, op, "skipped", "clpad %s is not available" % op)
                print("== %s: SKIPPED: `clpad %s` is not available in this build" % (op, op))
                continue
            k = max(n // 3, 1)
            print("== %s: %d seed + %d random cases" % (op, len(seeds()), k), flush=True)
            for c in seeds():
                self.data_case(op, c)
            for i in range(k):
                self.data_case(op, gen(rnd, nrng, i))
        if "shape" in only:
            if not self.cli_has("shape"):
                for peer in self.peers:
                    self.record(peer, "shape", "skipped", "clpad shape is not available")
                print("== shape: SKIPPED: `clpad shape` is not available in this build")
            else:
                for peer, conv in (("openvino", "openvino"), ("onnxruntime", "onnx")):
                    if peer not in self.peers:
                        continue
                    if self.peer_skip(peer):
                        self.record(peer, "shape", "skipped", self.peer_skip(peer))
                        continue
                    seeds = seed_shape_cases(conv)
                    print("== shape vs %s: %d seed + %d random cases" % (peer, len(seeds), n),
                          flush=True)
                    for c in seeds:
                        self.shape_case(peer, c)
                    for i in range(n):
                        self.shape_case(peer, gen_shape_case(rnd, i, conv))
        if "forms" in only:
            self.forms_cases(rnd, nrng, n)
        self.worker.stop()
        self.summary(time.time() - t0)
        if not self.failures:
            shutil.rmtree(self.work, ignore_errors=True)
        return 1 if self.failures else 0

    # -- the forms of `clpad pad` that other frameworks name ----------------
    def forms_cases(self, rnd, nrng, n):
        """OpenCV's copyMakeBorder for every BORDER_* (`--mode cv:NAME`, borders
        within one period and up to five), and ONNX Runtime's Pad-18 with
        `axes` (`--axes`)."""
        borders = ["CONSTANT", "REPLICATE", "REFLECT", "REFLECT_101", "WRAP"]
        k = max(n // 2, 4 * len(borders))
        if "opencv" in self.peers and self.peer_skip("opencv"):
            self.record("opencv", "forms", "skipped", self.peer_skip("opencv"))
        elif "opencv" in self.peers:
            import cv2
            print("== forms vs opencv: copyMakeBorder, %d cases" % k, flush=True)
            for i in range(k):
                self.cv_case(cv2, rnd, nrng, borders[i % len(borders)], large=i % 2 == 1)
        if "onnxruntime" in self.peers and self.peer_skip("onnxruntime"):
            self.record("onnxruntime", "forms", "skipped", self.peer_skip("onnxruntime"))
        elif "onnxruntime" in self.peers:
            print("== forms vs onnxruntime: Pad-18 axes, %d cases" % k, flush=True)
            for i in range(k):
                self.axes_case(rnd, nrng, i)

    def cv_case(self, cv2, rnd, nrng, border, large):
        self.case_no += 1
        dt = rnd.choice(["u8", "i16", "f32"])
        ch = rnd.choice([0, 1, 3, 4])
        H, W = rnd.randint(1, 7), rnd.randint(1, 7)
        shape = (H, W) if ch == 0 else (H, W, ch)
        x = rand_array(nrng, dt, shape) if dt != "f32" else \
            nrng.integers(-1000, 1000, shape).astype(np.float32)

        def pad_for(D):
            if large or border in ("CONSTANT", "REPLICATE", "WRAP"):
                return rnd.randint(0, 5 * 2 * D + 1)  # up to 5 periods
            return rnd.randint(0, D - 1 if border == "REFLECT_101" else D)
        top, bottom, left, right = pad_for(H), pad_for(H), pad_for(W), pad_for(W)
        tag = "cv-%s-%d" % (border.lower(), self.case_no)
        inp = self.save_input(tag, x)
        outp = os.path.join(self.work, tag + ".out.npy")
        z = ",0" if ch else ""
        argv = ["pad", "-q", "--mode", "cv:" + border, "--pads-begin=%d,%d%s" % (top, left, z),
                "--pads-end=%d,%d%s" % (bottom, right, z)]
        value = rnd.randint(0, 120)
        if border == "CONSTANT":
            argv.append("--value=%d" % value)
        argv += [inp, outp]
        desc = "%s %s shape=%s top/bottom/left/right=%s" % (tag, dt, list(shape),
                                                           (top, bottom, left, right))
        rc, _, err = self.run_clpad(argv)
        if rc != 0:
            self.fail("opencv", "forms", desc, "clpad exited %d: %s" % (rc, " ".join(err)),
                      self.repro(argv, inp))
            return
        y = np.load(outp)
        try:
            ref = cv2.copyMakeBorder(x, top, bottom, left, right,
                                     getattr(cv2, "BORDER_" + border), value=[value] * 4)
        except Exception as e:
            self.fail("opencv", "forms", desc, "cv2 raised %s: %s" % (type(e).__name__, e),
                      self.repro(argv, inp))
            return
        # OpenCV drops a channel axis of 1
        ref = np.ascontiguousarray(ref).reshape(y.shape) if ref.size == y.size else ref
        if same_bytes(ref, y):
            self.record("opencv", "forms", "passed")
        else:
            self.fail("opencv", "forms", desc, diff_summary(ref, y), self.repro(argv, inp))

    def axes_case(self, rnd, nrng, i):
        self.case_no += 1
        dt = rnd.choice(["u8", "i32", "f32", "i64"])
        rank = rnd.randint(1, 4)
        shape = [rnd.randint(1, 5) for _ in range(rank)]
        mode = ["constant", "edge", "reflect", "wrap"][i % 4]
        axes = rnd.sample(range(rank), rnd.randint(1, rank))
        axes = [a - rank if rnd.random() < 0.4 else a for a in axes]
        pb, pe = [], []
        for a in axes:
            D = shape[a]
            hi = 4 if mode in ("constant", "edge") else D - 1 if mode == "reflect" else D
            pb.append(rnd.randint(0, hi))
            pe.append(rnd.randint(0, hi))
        x = rand_array(nrng, dt, shape)
        tag = "axes-%s-%d" % (mode, self.case_no)
        inp = self.save_input(tag, x)
        outp = os.path.join(self.work, tag + ".out.npy")
        argv = ["pad", "-q", "--mode", "onnx:" + mode, "--axes=" + ",".join(map(str, axes)),
                "--pads-begin=" + ",".join(map(str, pb)), "--pads-end=" + ",".join(map(str, pe)),
                inp, outp]
        desc = "%s %s shape=%s axes=%s pads=%s/%s" % (tag, dt, shape, axes, pb, pe)
        rc, _, err = self.run_clpad(argv)
        if rc != 0:
            self.fail("onnxruntime", "forms", desc, "clpad exited %d: %s" % (rc, " ".join(err)),
                      self.repro(argv, inp))
            return
        y = np.load(outp)
        req = dict(peer="onnxruntime", op="pad-axes", dtype=dt, mode=mode, pads_begin=pb,
                   pads_end=pe, axes=axes, **{"in": inp, "out": inp[:-4] + ".ort.npy"})
        res = self.worker.call(req)
        got = np.load(req["out"]) if res.get("ok") else None
        if got is not None and same_bytes(got, y):
            self.record("onnxruntime", "forms", "passed")
        else:
            self.fail("onnxruntime", "forms", desc,
                      res.get("error") if got is None else diff_summary(got, y),
                      self.repro(argv, inp))

    def cli_has(self, what):
        sub = {"s2b": "space-to-batch", "b2s": "batch-to-space", "shape": "shape"}[what]
        p = subprocess.run([self.cli, sub, "--help"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        return p.returncode == 0

    def summary(self, secs):
        print()
        print("%-13s %-6s %7s %11s %7s %8s" % ("peer", "op", "passed", "divergence", "failed",
                                              "skipped"))
        tot = defaultdict(int)
        for (peer, op) in sorted(self.stats):
            s = self.stats[(peer, op)]
            print("%-13s %-6s %7d %11d %7d %8d" % (peer, op, s["passed"], s["divergence"],
                                                  s["failed"], s["skipped"]))
            for k in ("passed", "divergence", "failed", "skipped"):
                tot[k] += s[k]
        print("%-13s %-6s %7d %11d %7d %8d" % ("total", "", tot["passed"], tot["divergence"],
                                              tot["failed"], tot["skipped"]))
        if self.div_counts:
            print("\ndocumented divergences (README: tests/peer/README.md):")
            for k, c in sorted(self.div_counts.items()):
                d = DIVERGENCES[k]
                print("  %-16s %4d  %s: %s\n  %-16s       %s" % (k, c, d["peer"], d["what"], "",
                                                                 d["url"]))
        if self.skip_reasons:
            print("\nskipped:")
            for (peer, op), reasons in sorted(self.skip_reasons.items()):
                for r, c in sorted(reasons.items()):
                    print("  %-12s %-5s %4d  %s" % (peer, op, c, r))
        print("\n%d cases in %.0f s (seed %d). " % (self.case_no, secs, self.args.seed), end="")
        if self.failures:
            print("%d FAILED (inputs kept in %s)." % (len(self.failures), self.keep))
        else:
            print("No failure.")
        print("%d passed, %d failed, %d skipped" % (tot["passed"] + tot["divergence"],
                                                   tot["failed"], tot["skipped"]))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker_main()
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clpad", default=os.environ.get("CLPAD_CLI"),
                    help="the clpad binary (default: $CLPAD_CLI)")
    ap.add_argument("--cases", type=int, default=int(os.environ.get("CLPAD_PEER_CASES", 100)),
                    help="random cases per op (s2b/b2s get a third); default $CLPAD_PEER_CASES or 100")
    ap.add_argument("--seed", type=int, default=int(os.environ.get("CLPAD_TEST_SEED", 7)),
                    help="random seed (default $CLPAD_TEST_SEED or 7)")
    ap.add_argument("--only", default="pad,s2b,b2s,shape,forms",
                    help="comma list of pad, s2b, b2s, shape, forms")
    ap.add_argument("--peers", default=",".join(ALL_PEERS),
                    help="comma list of " + ", ".join(ALL_PEERS))
    ap.add_argument("--keep", default=None,
                    help="where to keep the inputs of failing cases (default: <clpad dir>/peer-failures)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    args.only = [s for s in args.only.split(",") if s]
    args.peers = [s for s in args.peers.split(",") if s]
    bad = [s for s in args.only if s not in ("pad", "s2b", "b2s", "shape", "forms")] + \
          [s for s in args.peers if s not in ALL_PEERS]
    if bad:
        ap.error("unknown --only/--peers value(s): " + ", ".join(bad))
    if not args.clpad or not os.access(args.clpad, os.X_OK):
        ap.error("no clpad binary: pass --clpad PATH or set CLPAD_CLI (got %r)" % args.clpad)
    args.clpad = os.path.abspath(args.clpad)
    if args.keep is None:
        args.keep = os.path.join(os.path.dirname(args.clpad), "peer-failures")
    h = Harness(args)
    avail = h.check_peers()
    missing = {p: why for p, why in avail.items() if why}
    for p, why in missing.items():
        print("peer %s unavailable: %s" % (p, why))
    if not any(why is None for why in avail.values()):
        print("SKIP: peer harness: no peer can run here: " + "; ".join(missing.values()))
        return 77
    print("clpad: %s; seed %d; peers: %s" % (args.clpad, args.seed, ", ".join(
        p for p in args.peers if not avail.get(p))), flush=True)
    return h.run()


if __name__ == "__main__":
    sys.exit(main())
