#!/usr/bin/python3
"""Compares BYOC Studio's dnnl run of a QDQ model with ONNX Runtime's, in quantization steps.

For a model NAME_int8 written by bench/zoo/quantize_zoo.py (model.onnx, input.npy and ONNX
Runtime's output.npy), this runs `byoc run --target dnnl` on input.npy and prints how far each
output is from ONNX Runtime's: in steps of the output's DequantizeLinear scale (an output that is
not dequantized, such as a float layer norm's, in absolute value).

With --layers, it also cuts the model after every activation QuantizeLinear (the cut keeps what
that quantize needs), runs both on each cut and prints, per quantized tensor, how many integers
differ and by how much: the first tensor that differs shows where the two computations part, and
the ones after it how a one-step difference spreads.

Dependencies: Debian's python3-onnx and python3-numpy, node with onnxruntime-node (installed by
bench/latency/run.sh). Usage:

    /usr/bin/python3 bench/zoo/compare_int8.py ZOO_DIR NAME [--byoc PATH] [--layers] [--threads N]

Exits 1 when a run fails.
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import onnx.utils
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
ORT_RUN = os.path.join(HERE, os.pardir, "latency", "ort_run.js")
DEFAULT_BYOC = os.path.join(HERE, os.pardir, os.pardir, "build", "release", "app", "byoc")


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"error: {os.path.basename(command[0])}: " + (result.stdout + result.stderr).strip().splitlines()[-1])


def run_both(args, model, input_file, prefix):
    """ONNX Runtime's and our first output of `model` on `input_file`."""
    input_name = onnx.load(model, load_external_data=False).graph.input[0].name
    run(["node", ORT_RUN, "outputs", model, input_file, prefix + ".ort"])
    run([args.byoc, "run", model, "--target", "dnnl", "--threads", str(args.threads),
         "--input", f"{input_name}={input_file}", "--output", prefix + ".ours.npy"])
    theirs = prefix + ".ort.npy" if os.path.exists(prefix + ".ort.npy") else prefix + ".ort_0.npy"
    ours = prefix + ".ours.npy" if os.path.exists(prefix + ".ours.npy") else prefix + ".ours_0.npy"
    return np.load(theirs), np.load(ours)


def output_step(model):
    """The scale of the DequantizeLinear that makes the model's first output, or None."""
    constants = {tensor.name: numpy_helper.to_array(tensor) for tensor in model.graph.initializer}
    producer = {name: node for node in model.graph.node for name in node.output}
    node = producer.get(model.graph.output[0].name)
    if node is None or node.op_type != "DequantizeLinear" or node.input[1] not in constants:
        return None
    scale = constants[node.input[1]]
    return float(scale) if scale.size == 1 else None


def activation_quantizes(model):
    constants = {tensor.name for tensor in model.graph.initializer}
    return [node for node in model.graph.node if node.op_type == "QuantizeLinear" and node.input[0] not in constants]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("zoo")
    parser.add_argument("name")
    parser.add_argument("--byoc", default=DEFAULT_BYOC)
    parser.add_argument("--layers", action="store_true")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    directory = os.path.join(args.zoo, args.name if args.name.endswith("_int8") else args.name + "_int8")
    model_file = os.path.join(directory, "model.onnx")
    input_file = os.path.join(directory, "input.npy")
    model = onnx.load(model_file)

    with tempfile.TemporaryDirectory() as scratch:
        theirs = np.load(os.path.join(directory, "output.npy"))
        _, ours = run_both(args, model_file, input_file, os.path.join(scratch, "whole"))
        difference = np.abs(ours.astype(np.float64) - theirs.astype(np.float64))
        step = output_step(model)
        if step:
            steps = difference / step
            print(f"{args.name}: output within {steps.max():.2f} steps of ONNX Runtime's (step {step:.6g}); "
                  f"{np.mean(steps < 1e-3) * 100:.1f}% equal, {np.mean(steps <= 1 + 1e-3) * 100:.1f}% within one step")
        else:
            print(f"{args.name}: output within {difference.max():.6g} of ONNX Runtime's (a float output; "
                  f"its values span {theirs.min():.6g} to {theirs.max():.6g})")

        if not args.layers:
            return
        print(f"{'quantized tensor':60} {'differ':>10} {'of':>10} {'max':>4}")
        extractor = onnx.utils.Extractor(model)
        inputs = [tensor.name for tensor in model.graph.input]
        for index, quantize in enumerate(activation_quantizes(model)):
            cut = os.path.join(scratch, f"cut{index}.onnx")
            onnx.save(extractor.extract_model(inputs, [quantize.output[0]]), cut)
            theirs, ours = run_both(args, cut, input_file, os.path.join(scratch, f"cut{index}"))
            difference = np.abs(ours.astype(np.int64) - theirs.astype(np.int64))
            print(f"{quantize.output[0][-60:]:60} {np.count_nonzero(difference):10} {difference.size:10} "
                  f"{difference.max():4}")


if __name__ == "__main__":
    main()
