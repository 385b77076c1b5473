#!/usr/bin/python3
"""Times one zoo model on PyTorch (eager mode, CPU).

Usage:

    /usr/bin/python3 bench/latency/torch_bench.py NAME MODEL_DIR RUNS THREADS

The model is rebuilt from bench/zoo/export_zoo.py's definition of NAME with the same seed (0), so its
weights are the exported ones; it is fed MODEL_DIR/input.npy, and its output is first checked against
MODEL_DIR/output.npy (output_<i>.npy when several) within 1e-3 + 1e-3 * max|expected| per output, which
proves the rebuilt model is the exported one. The bound is relative to the output's scale, not to each
element: with random weights some activations grow large (inception_v3's outputs reach 1e12), and an
element near zero then carries the rounding of terms of that size. One warm-up run under `torch.inference_mode()`, then RUNS timed
runs with THREADS intra-op threads; prints one line `median <ms> p90 <ms>`. Errors print one
`error:` line and exit 1.
"""

import math
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "zoo"))
import export_zoo  # noqa: E402  (the zoo's model definitions)


def expected_outputs(model_dir):
    """The framework outputs saved by the exporter, in output order."""
    single = os.path.join(model_dir, "output.npy")
    if os.path.exists(single):
        return [np.load(single)]
    outputs = []
    while os.path.exists(os.path.join(model_dir, "output_%d.npy" % len(outputs))):
        outputs.append(np.load(os.path.join(model_dir, "output_%d.npy" % len(outputs))))
    if not outputs:
        raise ValueError("%s: no output.npy or output_0.npy" % model_dir)
    return outputs


def check(name, actual, expected):
    """Raises unless the rebuilt model reproduces every saved output."""
    actual = [actual] if isinstance(actual, torch.Tensor) else list(actual)
    if len(actual) != len(expected):
        raise ValueError("%s: rebuilt model has %d outputs, the export %d" % (name, len(actual), len(expected)))
    for index, (got, want) in enumerate(zip(actual, expected)):
        got = got.numpy()
        if got.shape != want.shape:
            raise ValueError("%s: output %d has shape %s, expected %s" % (name, index, got.shape, want.shape))
        if np.max(np.abs(got - want), initial=0) > 1e-3 + 1e-3 * np.max(np.abs(want), initial=0):
            raise ValueError("%s: rebuilt model differs from the export at output %d (max abs error %g)"
                             % (name, index, float(np.max(np.abs(got - want)))))


def main(argv):
    if len(argv) != 4:
        raise ValueError("usage: torch_bench.py NAME MODEL_DIR RUNS THREADS")
    name, model_dir, runs, threads = argv[0], argv[1], int(argv[2]), int(argv[3])
    if name not in export_zoo.MODELS:
        raise ValueError("unknown zoo model '%s' (known: %s)" % (name, ", ".join(sorted(export_zoo.MODELS))))
    if runs < 1 or threads < 1:
        raise ValueError("RUNS and THREADS must be positive")
    torch.set_num_threads(threads)
    model = export_zoo.build_model(name)
    example = torch.from_numpy(np.load(os.path.join(model_dir, "input.npy")))
    with torch.inference_mode():
        check(name, model(example), expected_outputs(model_dir))
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            model(example)
            times.append((time.perf_counter() - start) * 1000)
    times.sort()
    p90 = times[min(len(times) - 1, math.ceil(0.9 * len(times)) - 1)]
    print("median %.3f p90 %.3f" % (times[len(times) // 2], p90))


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except Exception as error:  # one line for the driver, whatever failed
        print("error: %s" % error)
        sys.exit(1)
