#!/usr/bin/python3
"""Writes int8 QDQ versions of zoo models (see export_zoo.py), as ONNX Runtime's static quantizer
writes them, with static calibration on a few random inputs (nothing is downloaded).

For each model NAME read from <zoo>/NAME (model.onnx, input.npy), this writes <zoo>/NAME_int8:

    model.onnx   the QDQ model
    input.npy    the same input as the float model's
    output.npy   ONNX Runtime's output of the QDQ model for that input (output_<i>.npy when several)

The quantization follows ONNX Runtime's `quantize_static(quant_format=QDQ, per_channel=True)`
with U8S8 types (uint8 activations, int8 weights: the form its documentation recommends for x86
CPUs with VNNI) and min-max calibration:

- every activation input and the output of Conv, Gemm, MatMul and Add (of two activations) gets a
  QuantizeLinear / DequantizeLinear pair: uint8, asymmetric, its range the min and max seen over the
  calibration runs widened to hold 0, scale (max - min) / 255, zero point round(-min / scale);
- a Relu or Clip right after such an op, as its only consumer, is removed and the op's output takes
  its range (ONNX Runtime's QDQRemovableActivation: the quantized range does the clamping);
- weights become int8 initializers behind a DequantizeLinear: symmetric (zero point 0, range
  -127..127), per output channel for Conv (axis 0) and Gemm (axis 0, or 1 without transB), per
  tensor for MatMul;
- a Conv or Gemm bias becomes int32 at scale input_scale * weight_scale (per channel), zero point 0.

Calibration runs the float model with every quantized tensor as an extra output on input.npy and
CALIBRATION - 1 more random normal inputs (seed 1) through ONNX Runtime; ONNX Runtime also
computes output.npy. Both go through bench/latency/ort_run.js (onnxruntime-node, installed by
bench/latency/run.sh), since ONNX Runtime's Python package is not a Debian package.

Dependencies: Debian's python3-onnx and python3-numpy, and node. Usage:

    /usr/bin/python3 bench/zoo/quantize_zoo.py [ZOO_DIR] [--only NAME ...] [--calibration N]

ZOO_DIR defaults to ~/.cache/byoc-zoo, as for export_zoo.py. The models: resnet50, mobilenet_v2 and
transformer_encoder, and densenet121, whose concatenations and batch norms (between a
DequantizeLinear and a QuantizeLinear, as the quantizer leaves them) stay float32.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

MODELS = ("resnet50", "mobilenet_v2", "transformer_encoder", "densenet121")
REMOVABLE_ACTIVATIONS = ("Relu", "Clip")
ORT_RUN = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "latency", "ort_run.js")


class Graph:
    """The float graph's producers, consumers and constant values."""

    def __init__(self, model):
        self.graph = model.graph
        self.producer = {}
        self.consumers = {}
        for node in self.graph.node:
            for name in node.output:
                self.producer[name] = node
            for name in node.input:
                self.consumers.setdefault(name, []).append(node)
        self.outputs = {value.name for value in self.graph.output}
        self.initializers = {tensor.name: tensor for tensor in self.graph.initializer}

    def constant(self, name):
        """The value of `name` when it is an initializer, a Constant or an Identity of one; else None."""
        while True:
            if name in self.initializers:
                return numpy_helper.to_array(self.initializers[name])
            node = self.producer.get(name)
            if node is None:
                return None
            if node.op_type == "Constant":
                return numpy_helper.to_array(node.attribute[0].t)
            if node.op_type != "Identity":
                return None
            name = node.input[0]


class Plan:
    """What the quantizer changes: tensors to quantize, weights, biases, activations removed."""

    def __init__(self):
        self.tensors = []           # activation tensors to quantize, in order
        self.weights = {}           # (node name, input index) -> (axis or None)
        self.biases = {}            # (node name, input index) -> (activation, weight input index)
        self.removed = {}           # removed activation node name -> the op output it replaces

    def quantize(self, name):
        if name not in self.tensors:
            self.tensors.append(name)


def removable_activation(g, name):
    """The Relu or Clip consuming `name` alone, which the quantized range can replace, or None."""
    users = g.consumers.get(name, [])
    if len(users) != 1 or name in g.outputs:
        return None
    user = users[0]
    return user if user.op_type in REMOVABLE_ACTIVATIONS and user.input[0] == name else None


def plan_quantization(g):
    plan = Plan()
    for node in g.graph.node:
        op = node.op_type
        weight_inputs = {"Conv": (1,), "Gemm": (1,), "MatMul": (1,)}.get(op, ())
        if op == "Add" and any(g.constant(name) is not None for name in node.input):
            continue  # a bias add: stays float
        if op not in ("Conv", "Gemm", "MatMul", "Add"):
            continue
        activations = []
        for index, name in enumerate(node.input):
            if g.constant(name) is None:
                activations.append(name)
            elif index in weight_inputs:
                plan.weights[(node.name, index)] = weight_axis(node, g.constant(name))
            elif op in ("Conv", "Gemm") and index == 2 and g.constant(name).ndim == 1:
                plan.biases[(node.name, index)] = node.input[0]
        if op == "MatMul" and (node.name, 1) not in plan.weights and len(activations) != 2:
            continue
        for name in activations:
            plan.quantize(name)
        out = node.output[0]
        activation = removable_activation(g, out)
        if activation is not None:
            plan.removed[activation.name] = out
            out = activation.output[0]
        plan.quantize(out)
    return plan


def weight_axis(node, value):
    """The per-channel axis of a weight (the output channels), or None for per-tensor."""
    if node.op_type == "Conv":
        return 0
    if node.op_type == "Gemm" and value.ndim == 2:
        trans_b = next((a.i for a in node.attribute if a.name == "transB"), 0)
        return 0 if trans_b else 1
    return None


def activation_params(lo, hi):
    """uint8 asymmetric scale and zero point of the range [lo, hi] widened to hold 0."""
    lo, hi = min(float(lo), 0.0), max(float(hi), 0.0)
    scale = np.float32((hi - lo) / 255.0)
    if scale < np.finfo(np.float32).tiny:
        return np.float32(1.0), np.uint8(0)
    return scale, np.uint8(np.clip(round(-lo / float(scale)), 0, 255))


def weight_params(value, axis):
    """int8 symmetric weights (-127..127) and their scales, per channel along `axis` or per tensor."""
    value = value.astype(np.float32)
    if axis is None:
        absmax = np.array(np.abs(value).max(), dtype=np.float32)
    else:
        absmax = np.abs(np.moveaxis(value, axis, 0)).reshape(value.shape[axis], -1).max(axis=1)
    scale = np.asarray(absmax / np.float32(127.0), dtype=np.float32)
    scale[scale < np.finfo(np.float32).tiny] = 1.0
    shaped = scale if axis is None else scale.reshape([-1 if i == axis else 1 for i in range(value.ndim)])
    quantized = np.clip(np.round(value / shaped), -127, 127).astype(np.int8)
    return quantized, scale


def calibrate(model, g, plan, inputs, work):
    """The [min, max] of every planned tensor over `inputs`, from ONNX Runtime."""
    calibration = onnx.ModelProto()
    calibration.CopyFrom(model)
    graph_inputs = {value.name for value in model.graph.input}
    present = {value.name for value in calibration.graph.output}
    for name in plan.tensors:
        if name not in present and name not in graph_inputs:
            calibration.graph.output.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, None))
    path = os.path.join(work, "calibration.onnx")
    onnx.save(calibration, path)
    files = []
    for i, value in enumerate(inputs):
        files.append(os.path.join(work, "calibration_%d.npy" % i))
        np.save(files[-1], value)
    ranges = json.loads(run_ort(["ranges", path] + files))
    # The model's input is quantized too: its range is that of the calibration inputs.
    ranges[model.graph.input[0].name] = [min(float(x.min()) for x in inputs), max(float(x.max()) for x in inputs)]
    return ranges


def run_ort(args):
    result = subprocess.run(["node", ORT_RUN] + args, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("error: ONNX Runtime: " + (result.stdout + result.stderr).strip().splitlines()[-1])
    return result.stdout


class Writer:
    """Builds the QDQ graph: new initializers and the nodes in order."""

    def __init__(self, g):
        self.g = g
        self.initializers = []
        self.params = {}  # tensor -> (scale, zero point) of quantized activations

    def add(self, name, value):
        self.initializers.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def qdq(self, name, lo, hi, source):
        """QuantizeLinear and DequantizeLinear of `source` (the float tensor) as `name`_dq."""
        scale, zero = activation_params(lo, hi)
        self.params[name] = (scale, zero)
        s = self.add(name + "_scale", scale)
        z = self.add(name + "_zero_point", zero)
        return [helper.make_node("QuantizeLinear", [source, s, z], [name + "_quantized"], name=name + "_QuantizeLinear"),
                helper.make_node("DequantizeLinear", [name + "_quantized", s, z], [name + "_dq"],
                                 name=name + "_DequantizeLinear")]

    def weight(self, node, index, axis):
        value = self.g.constant(node.input[index])
        quantized, scale = weight_params(value, axis)
        base = node.name + "_W"
        q = self.add(base + "_quantized", quantized)
        s = self.add(base + "_scale", scale)
        z = self.add(base + "_zero_point", np.zeros(scale.shape, np.int8))
        attrs = {} if axis is None else {"axis": axis}
        return scale, helper.make_node("DequantizeLinear", [q, s, z], [base + "_dq"], name=base + "_DequantizeLinear",
                                       **attrs)

    def bias(self, node, index, input_scale, weight_scale):
        value = self.g.constant(node.input[index]).astype(np.float32)
        scale = (np.float32(input_scale) * np.asarray(weight_scale, np.float32)).astype(np.float32)
        scale = np.broadcast_to(scale, value.shape).copy() if scale.ndim else scale
        quantized = np.round(value / scale).astype(np.int32)
        base = node.name + "_B"
        q = self.add(base + "_quantized", quantized)
        s = self.add(base + "_scale", scale)
        attrs = {"axis": 0} if scale.ndim else {}
        return helper.make_node("DequantizeLinear", [q, s], [base + "_dq"], name=base + "_DequantizeLinear", **attrs)


def quantized_model(model, g, plan, ranges):
    writer = Writer(g)
    head, body = [], []
    renamed = {}  # float tensor -> its dequantized copy
    outputs_renamed = {}  # graph output -> the float tensor now quantized into it
    for name in plan.tensors:
        source = name
        if name in g.outputs:
            source = name + "_float"
            outputs_renamed[name] = source
        nodes = writer.qdq(name, *ranges[name], source)
        if name in g.outputs:
            nodes[1].output[0] = name
        else:
            renamed[name] = name + "_dq"
        if name in g.producer:
            g_node = g.producer[name]
            body.append((g_node.name, nodes))
        else:
            head.extend(nodes)
    after = {}
    for producer_name, nodes in body:
        after.setdefault(producer_name, []).extend(nodes)

    kept = []
    for node in g.graph.node:
        if node.name in plan.removed:
            continue
        copy = onnx.NodeProto()
        copy.CopyFrom(node)
        for activation_name, out in plan.removed.items():
            if copy.output and copy.output[0] == out:
                copy.output[0] = next(a for a in g.graph.node if a.name == activation_name).output[0]
        weight_scale = None
        for index, name in enumerate(copy.input):
            if (node.name, index) in plan.weights:
                weight_scale, dq = writer.weight(node, index, plan.weights[(node.name, index)])
                head.append(dq)
                copy.input[index] = dq.output[0]
            elif (node.name, index) in plan.biases:
                input_scale = writer.params[plan.biases[(node.name, index)]][0]
                dq = writer.bias(node, index, input_scale, weight_scale)
                head.append(dq)
                copy.input[index] = dq.output[0]
            elif name in renamed:
                copy.input[index] = renamed[name]
        for index, name in enumerate(copy.output):
            if name in outputs_renamed:
                copy.output[index] = outputs_renamed[name]
        kept.append(copy)
        # A removed activation's Q/DQ follows the op that now writes its output.
        activation = next((a for a, out in plan.removed.items() if out == node.output[0]), None)
        kept.extend(after.get(activation if activation else node.name, []))

    quantized = onnx.ModelProto()
    quantized.CopyFrom(model)
    nodes, initializers = live(head + kept, list(model.graph.initializer) + writer.initializers, model.graph.output)
    del quantized.graph.node[:]
    quantized.graph.node.extend(nodes)
    del quantized.graph.initializer[:]
    quantized.graph.initializer.extend(initializers)
    quantized.producer_name = "byoc-zoo quantize_zoo.py"
    return quantized


def live(nodes, initializers, outputs):
    """The nodes the graph outputs depend on (in order) and the initializers they read: the float
    weights the quantized ones replace, and the Identity nodes that shared them, are dropped."""
    needed = {value.name for value in outputs}
    kept = []
    for node in reversed(nodes):
        if any(name in needed for name in node.output):
            kept.append(node)
            needed.update(name for name in node.input if name)
    return list(reversed(kept)), [tensor for tensor in initializers if tensor.name in needed]


def quantize(zoo, name, count):
    source = os.path.join(zoo, name)
    target = os.path.join(zoo, name + "_int8")
    model = onnx.load(os.path.join(source, "model.onnx"))
    example = np.load(os.path.join(source, "input.npy"))
    rng = np.random.default_rng(1)
    inputs = [example] + [rng.standard_normal(example.shape).astype(np.float32) for _ in range(count - 1)]
    g = Graph(model)
    plan = plan_quantization(g)
    with tempfile.TemporaryDirectory() as work:
        ranges = calibrate(model, g, plan, inputs, work)
        quantized = quantized_model(model, g, plan, ranges)
        onnx.checker.check_model(quantized)
        os.makedirs(target, exist_ok=True)
        written = os.path.join(work, "model.onnx")
        onnx.save(quantized, written)
        for stale in os.listdir(target):
            if stale.startswith("output") and stale.endswith(".npy"):
                os.remove(os.path.join(target, stale))
        run_ort(["outputs", written, os.path.join(source, "input.npy"), os.path.join(target, "output")])
        shutil.move(written, os.path.join(target, "model.onnx"))
    shutil.copyfile(os.path.join(source, "input.npy"), os.path.join(target, "input.npy"))
    return len(plan.tensors), len(plan.weights)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("zoo", nargs="?", default=os.path.expanduser("~/.cache/byoc-zoo"))
    parser.add_argument("--only", nargs="+", choices=MODELS, default=list(MODELS))
    parser.add_argument("--calibration", type=int, default=4, help="calibration inputs (default 4)")
    args = parser.parse_args()
    if args.calibration < 1:
        sys.exit("error: --calibration expects 1 or more")
    for name in args.only:
        if not os.path.exists(os.path.join(args.zoo, name, "model.onnx")):
            sys.exit("error: %s: no model (export it with bench/zoo/export_zoo.py --only %s)" %
                     (os.path.join(args.zoo, name), name))
        start = time.time()
        tensors, weights = quantize(args.zoo, name, args.calibration)
        print("%-28s %4d activations, %3d weights quantized in %.1f s" % (name + "_int8", tensors, weights,
                                                                         time.time() - start))


if __name__ == "__main__":
    main()
