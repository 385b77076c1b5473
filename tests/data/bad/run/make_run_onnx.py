#!/usr/bin/python3
"""Writes the ONNX models of this folder whose sizes or indices come from their data while they
run, and the `.case` file of each (the command and the exact error `byoc run` must give). Run with
Debian's python3-onnx, from anywhere:

    /usr/bin/python3 tests/data/bad/run/make_run_onnx.py

Every size and index is computed from an input, so the importer cannot check it: the run must.
The inputs are filled by `--random-inputs 1`; an int64 input multiplied by 0 gives a run-time
value that does not depend on them.
"""

import os

from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
FLOAT = TensorProto.FLOAT
INT64 = TensorProto.INT64


def tensor(name, shape, elem=FLOAT):
    return helper.make_tensor_value_info(name, elem, shape)


def ints(name, values, dims=None):
    return helper.make_tensor(name, INT64, [len(values)] if dims is None else dims, values)


def model(nodes, inputs, outputs, initializers=()):
    graph = helper.make_graph(nodes, "run", inputs, outputs, list(initializers))
    built = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="byoc-tests")
    built.ir_version = 8
    return built.SerializeToString()


def run_time_ints(name, values):
    """Nodes giving `name` = `values` at run time: the int64 input `k` (of as many elements) times 0,
    plus the values."""
    return [helper.make_node("Mul", ["k", "zero"], [name + "_zero"]),
            helper.make_node("Add", [name + "_zero", name + "_values"], [name])], \
        [ints("zero", [0]), ints(name + "_values", values)]


def gather(index):
    """Gather from a (5, 3) input with one index computed at run time."""
    nodes, constants = run_time_ints("i", [index])
    nodes.append(helper.make_node("Gather", ["x", "i"], ["y"], name="g"))
    return model(nodes, [tensor("x", [5, 3]), tensor("k", [1], INT64)], [tensor("y", None)], constants)


def cases():
    """(case name, comment, serialised model, expected error after the file name, more options of `byoc
    run`). A case named <model>_dnnl runs the model of its name without the suffix."""
    nodes, constants = run_time_ints("s", [65536, 65536])
    nodes.append(helper.make_node("ConstantOfShape", ["s"], ["y"], name="c", value=ints("v", [7], [1])))
    yield ("constant_of_shape_run_time", "ConstantOfShape of a shape computed at run time asking for 32 GiB: refused before allocating.",
           model(nodes, [tensor("k", [2], INT64)], [tensor("y", None, INT64)], constants),
           "node 'c' (ConstantOfShape): cannot allocate int64 (65536, 65536) (34359738368 bytes): more than the "
           "8589934592 bytes all tensors may hold at once (the limit of the runtime's memory)", "")
    body = helper.make_graph(
        [helper.make_node("Identity", ["c_in"], ["c_out"]), helper.make_node("Shape", ["v_in"], ["reps"]),
         helper.make_node("Tile", ["v_in", "reps"], ["v_out"], name="grow")],
        "body", [tensor("i", [], INT64), tensor("c_in", [], TensorProto.BOOL), tensor("v_in", [None])],
        [tensor("c_out", None, TensorProto.BOOL), tensor("v_out", [None])])
    yield ("loop_growing_value", "A Loop whose carried value grows each iteration (n elements tiled n times): refused before allocating 16 GiB.",
           model([helper.make_node("Loop", ["m", "", "x"], ["y"], name="loop", body=body)],
                 [tensor("x", [2])], [tensor("y", None)], [ints("m", [10], [])]),
           "node 'grow' (Tile): cannot allocate float32 (4294967296) (17179869184 bytes): more than the 8589934592 "
           "bytes all tensors may hold at once (the limit of the runtime's memory)", "")
    yield ("gather_run_time_index", "A Gather index computed at run time beyond the axis is an error, not clipped.",
           gather(100), "node 'g' (Gather): take: index 100 is out of range for axis 0 of size 5; expected -5 to 4", "")
    yield ("gather_run_time_index_dnnl", "The same Gather partitioned for dnnl: the host runs it and checks the index.",
           gather(100), "node 'g' (Gather): take: index 100 is out of range for axis 0 of size 5; expected -5 to 4",
           " --target dnnl")
    yield ("gather_run_time_negative_index", "A negative Gather index computed at run time beyond the axis.",
           gather(-100), "node 'g' (Gather): take: index -100 is out of range for axis 0 of size 5; expected -5 to 4", "")
    yield ("gather_run_time_huge_index", "A Gather index of 2^62 computed at run time.",
           gather(1 << 62),
           "node 'g' (Gather): take: index 4611686018427387904 is out of range for axis 0 of size 5; expected -5 to 4", "")
    nodes, constants = run_time_ints("K", [9])
    nodes.append(helper.make_node("TopK", ["x", "K"], ["v", "j"], name="t"))
    yield ("topk_run_time_k_too_large", "TopK whose K, computed at run time, exceeds the axis.",
           model(nodes, [tensor("x", [8]), tensor("k", [1], INT64)], [tensor("v", None), tensor("j", None, INT64)], constants),
           "node 't' (TopK): topk: k 9 exceeds axis 0 of (8); expected at most 8", "")
    # A slice of no elements of k * 0: the shape [], computed at run time.
    nodes = [helper.make_node("Mul", ["k", "zero"], ["shape_zero"]),
             helper.make_node("Slice", ["shape_zero", "start", "start"], ["shape"]),
             helper.make_node("Reshape", ["x", "shape"], ["y"], name="r")]
    yield ("reshape_run_time_scalar", "Reshape of 6 elements to the shape [] (a scalar) read at run time.",
           model(nodes, [tensor("x", [2, 3]), tensor("k", [1], INT64)], [tensor("y", None)],
                 [ints("zero", [0]), ints("start", [0])]),
           "node 'r' (Reshape): dyn.reshape to []: reshape: cannot reshape (2, 3) (6 elements) into ()", "")


def main():
    for stem, comment, data, error, options in cases():
        model_stem = stem.removesuffix("_dnnl")
        if model_stem == stem:
            with open(os.path.join(HERE, stem + ".onnx"), "wb") as out:
                out.write(data)
        with open(os.path.join(HERE, stem + ".case"), "w") as out:
            out.write("# %s\nrun: run {dir}/%s.onnx --random-inputs 1%s\nerror: {dir}/%s.onnx: %s\nexit: 1\n"
                      % (comment, model_stem, options, model_stem, error))


if __name__ == "__main__":
    main()
