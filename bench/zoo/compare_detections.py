#!/usr/bin/python3
"""Compares a detector's outputs with PyTorch's: the same detections (labels, and boxes and scores
within a relative tolerance of each value, or of the output's largest magnitude for values near 0,
such as boxes clipped to the image's edge), in the same order.

Two detections whose scores differ by less than the tolerance may come out in either order: such a
swap is reported and accepted when each detection still matches one of PyTorch's with the same
label, box and score (a last-bit difference in a logit decides their order, not the model).

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


def relative_errors(ours, theirs):
    """Per row, the largest error relative to each value (or to a thousandth of the largest)."""
    scale = np.maximum(np.abs(theirs), np.abs(theirs).max(initial=0) * 1e-3)
    errors = np.abs(ours - theirs) / np.where(scale > 0, scale, 1)
    return errors.reshape(len(errors), -1).max(axis=1) if errors.size else np.zeros(len(errors))


def match(ours, theirs, rtol):
    """For each of our detections in order, the index of PyTorch's it matches, or None."""
    boxes, scores, labels = ours
    their_boxes, their_scores, their_labels = theirs
    box_scale = np.abs(their_boxes).max(initial=0) * 1e-3
    taken = np.zeros(len(their_labels), dtype=bool)
    matches = []
    for i in range(len(labels)):
        close = ((their_labels == labels[i]) & ~taken &
                 (np.abs(their_scores - scores[i]) <= rtol * np.abs(their_scores)) &
                 np.all(np.abs(their_boxes - boxes[i]) <= rtol * np.maximum(np.abs(their_boxes), box_scale), axis=1))
        found = np.flatnonzero(close)
        if not found.size:
            matches.append(None)
            continue
        j = int(found[np.argmin(np.abs(found - i))])
        taken[j] = True
        matches.append(j)
    return matches


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
    matches = match(ours, theirs, args.rtol)
    if None in matches:
        first = matches.index(None)
        print("detection %d (label %d, score %g) matches none of PyTorch's" % (first, ours[2][first], ours[1][first]))
        return 1
    scores = theirs[1]
    for i, j in enumerate(matches):
        if abs(scores[i] - scores[j]) > args.rtol * abs(scores[j]):
            print("detection %d is PyTorch's detection %d, whose score %g is not within %g of the score %g at %d"
                  % (i, j, scores[j], args.rtol, scores[i], i))
            return 1
    swapped = sum(1 for i, j in enumerate(matches) if i != j)
    for name, a, b in zip(names[:2], ours[:2], theirs[:2]):
        print("%s: largest relative error %.2e" % (name, float(relative_errors(a, b[matches]).max(initial=0))))
    print("%d detections, labels identical%s" % (len(matches), "" if not swapped else
          ", %d in another order among scores within %g" % (swapped, args.rtol)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
