#!/usr/bin/python3
"""Compares a detector's outputs with PyTorch's: the same labels in the same order, and boxes and
scores within a relative tolerance (of each value, or of the output's largest magnitude for values
near 0, such as boxes clipped to the image's edge).

Usage:

    /usr/bin/python3 bench/zoo/compare_detections.py MODEL_DIR OURS [--rtol 1e-3]

MODEL_DIR holds PyTorch's output_0.npy (boxes), output_1.npy (scores) and output_2.npy (labels),
as bench/zoo/export_zoo.py writes them for ssdlite320_mobilenet_v3_large_full; OURS is the
--output prefix given to `byoc run` (OURS_0.npy, OURS_1.npy, OURS_2.npy). Exits 1 on a mismatch.
"""

import argparse
import os
import sys

import numpy as np


def relative_error(ours, theirs):
    scale = np.maximum(np.abs(theirs), np.abs(theirs).max() * 1e-3)
    return float((np.abs(ours - theirs) / scale).max()) if theirs.size else 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model_dir")
    parser.add_argument("ours")
    parser.add_argument("--rtol", type=float, default=1e-3)
    args = parser.parse_args()
    names = ("boxes", "scores", "labels")
    theirs = [np.load(os.path.join(args.model_dir, "output_%d.npy" % i)) for i in range(3)]
    ours = [np.load("%s_%d.npy" % (args.ours, i)) for i in range(3)]
    for name, a, b in zip(names, ours, theirs):
        if a.shape != b.shape:
            print("%s: shape %s, PyTorch's %s" % (name, a.shape, b.shape))
            return 1
    if not np.array_equal(ours[2], theirs[2]):
        first = int(np.argmax(ours[2] != theirs[2]))
        print("labels differ first at detection %d: %d, PyTorch's %d" % (first, ours[2][first], theirs[2][first]))
        return 1
    failed = False
    for name, a, b in zip(names[:2], ours[:2], theirs[:2]):
        error = relative_error(a, b)
        print("%s: largest relative error %.2e" % (name, error))
        failed = failed or error > args.rtol
    print("%d detections, labels identical" % len(theirs[2]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
