#!/usr/bin/python3
"""Writes the hostile ONNX models of this folder and the `.case` file of each (the exact error
`byoc info` must give, or the command given with it). Run with Debian's python3-onnx, from anywhere:

    /usr/bin/python3 tests/data/bad/onnx/make_bad_onnx.py

The models are built with onnx.helper and never checked by onnx.checker: they are meant to be
wrong.
"""

import os

from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
HUGE = 1 << 32  # the element limit of one tensor; three such dimensions make 2^96 elements
FLOAT = TensorProto.FLOAT


def tensor(name, shape, elem=FLOAT):
    return helper.make_tensor_value_info(name, elem, shape)


def ints(name, values, dims=None):
    return helper.make_tensor(name, TensorProto.INT64, [len(values)] if dims is None else dims, values)


def model(nodes, inputs, outputs, initializers=(), opset=13):
    graph = helper.make_graph(nodes, "bad", inputs, outputs, list(initializers))
    built = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="byoc-tests")
    built.ir_version = 8
    return built.SerializeToString()


def one_node(op, shape, inputs, initializers=(), opset=13, outputs=("y",), **attrs):
    node = helper.make_node(op, inputs, list(outputs), name="n", **attrs)
    return model([node], [tensor("x", shape)], [tensor(o, None) for o in outputs], initializers, opset)


def conv(**attrs):
    weights = helper.make_tensor("w", FLOAT, [4, 3, 3, 3], [0.5] * 108)
    node = helper.make_node("Conv", ["x", "w"], ["y"], name="conv", **attrs)
    return model([node], [tensor("x", [1, 3, 8, 8])], [tensor("y", None)], [weights])


def cases():
    """(file stem, comment, serialised model, expected error after the file name)."""
    yield ("gather_out_of_range", "A constant Gather index beyond the axis is an error, not clipped.",
           one_node("Gather", [5, 3], ["x", "i"], [ints("i", [1, 7])]),
           "node 'n' (Gather): index 7 is out of range for axis 0 of size 5; expected -5 to 4")
    yield ("split_sizes_mismatch", "Split sizes must add up to the axis.",
           one_node("Split", [6, 2], ["x", "s"], [ints("s", [2, 2])], outputs=("y", "z")),
           "node 'n' (Split): split sizes (2, 2) add up to 4; expected 6, the size of axis 0")
    yield ("concat_bad_axis", "A Concat axis beyond the rank.",
           one_node("Concat", [2, 3], ["x", "x"], axis=2),
           "node 'n' (Concat): axis 2 is out of range for rank 2; expected -2 to 1")
    yield ("transpose_repeated_axis", "A Transpose perm naming one axis twice.",
           one_node("Transpose", [2, 3, 4], ["x"], perm=[0, 2, -1]),
           "node 'n' (Transpose): axis -1 names axis 2 a second time; expected each axis once")
    yield ("unsqueeze_many_axes", "Unsqueeze by more axes than the rank limit allows, refused before any work.",
           one_node("Unsqueeze", [3], ["x"], opset=11, axes=[0] * 1000),
           "node 'n' (Unsqueeze): adding 1000 axes to rank 1 exceeds the limit of 32 dimensions")
    yield ("negative_input_dim", "A negative dimension of a graph input.",
           model([helper.make_node("Relu", ["x"], ["y"])], [tensor("x", [2, -3])], [tensor("y", None)]),
           "graph input 'x': dimension 1 is -3, expected 0 or more (or a symbolic dimension)")
    yield ("huge_input", "A graph input of 2^96 elements.",
           model([helper.make_node("Relu", ["x"], ["y"])], [tensor("x", [HUGE] * 3)], [tensor("y", None)]),
           "graph input 'x': shape (4294967296, 4294967296, 4294967296): more than 4294967296 elements "
           "(the limit of one tensor)")
    yield ("huge_initializer", "An initializer of 2^96 elements (and no data).",
           one_node("Add", [1], ["x", "w"], [TensorProto(name="w", data_type=FLOAT, dims=[HUGE] * 3)]),
           "initializer 'w': shape (4294967296, 4294967296, 4294967296): more than 4294967296 elements "
           "(the limit of one tensor)")
    yield ("reshape_huge", "Reshape to a shape beyond the element limit.",
           one_node("Reshape", [2, 3], ["x", "s"], [ints("s", [0, HUGE, HUGE])]),
           "node 'n' (Reshape): the new shape (0, 4294967296, 4294967296) gives shape (2, 4294967296, 4294967296): "
           "more than 4294967296 elements (the limit of one tensor)")
    yield ("constant_of_shape_negative", "ConstantOfShape of a negative dimension.",
           model([helper.make_node("ConstantOfShape", ["s"], ["y"], name="n")], [], [tensor("y", None)],
                 [ints("s", [-1, 3])]),
           "node 'n' (ConstantOfShape): shape (-1, 3): dimension 0 is -1, expected 0 or more")
    yield ("constant_of_shape_huge", "ConstantOfShape asking for 16 GiB from a few bytes.",
           model([helper.make_node("ConstantOfShape", ["s"], ["y"], name="n")], [], [tensor("y", None)],
                 [ints("s", [65536, 65536])]),
           "node 'n' (ConstantOfShape): shape (65536, 65536) of float32: more than 1073741824 bytes "
           "(the limit of a folded constant)")
    yield ("conv_zero_stride", "A Conv stride of 0 with auto_pad (a division by zero once).",
           conv(strides=[0, 1], auto_pad="SAME_UPPER"),
           "node 'conv' (Conv): kernel_shape (3, 3), strides (0, 1), dilations (1, 1), pads (0, 0, 0, 0): "
           "expected a positive kernel_shape, strides and dilations, and pads of 0 or more")
    yield ("pad_overflow", "Pads whose sum overflows int64.",
           one_node("Pad", [2], ["x", "p"], [ints("p", [(1 << 63) - 1, 1])]),
           "node 'n' (Pad): pads (9223372036854775807, 1) make axis 0 of size 2 negative or too large")
    yield ("resize_negative_size", "Resize to a negative size.",
           one_node("Resize", [1, 1, 2, 2], ["x", "", "", "s"], [ints("s", [1, 1, -4, 4])]),
           "node 'n' (Resize): sizes (1, 1, -4, 4) hold a negative size; expected sizes of 0 or more")
    yield ("duplicate_output", "Two nodes writing one value.",
           model([helper.make_node("Relu", ["x"], ["y"], name="first"),
                  helper.make_node("Neg", ["x"], ["y"], name="second")], [tensor("x", [2])], [tensor("y", None)]),
           "node 'second' (Neg): output 0 ('y') reuses the name of node 'first' (Relu); expected unique names")
    yield ("cycle", "Two nodes feeding each other.",
           model([helper.make_node("Add", ["x", "b"], ["a"], name="first"),
                  helper.make_node("Relu", ["a"], ["b"], name="second")], [tensor("x", [2])], [tensor("b", None)]),
           "node 'first' (Add): input 'b' is produced by node 'second' (Relu), which does not come before it; "
           "expected nodes in topological order, without cycles")
    branch = helper.make_graph([], "branch", [], [])
    yield ("if_subgraph", "If whose branches have no outputs.",
           model([helper.make_node("If", ["c"], ["y"], name="n", then_branch=branch, else_branch=branch)],
                 [tensor("c", [], TensorProto.BOOL)], [tensor("y", None)]),
           "node 'n' (If): then_branch has 0 outputs; expected 1, one per output of If")
    yield ("cast_unknown_dtype", "Cast to an element type ONNX does not define.",
           one_node("Cast", [2], ["x"], to=99),
           "node 'n' (Cast): unsupported element type 99")
    yield ("empty_input_name", "A graph input without a name.",
           model([helper.make_node("Relu", ["x"], ["y"])], [tensor("x", [2]), tensor("", [2])], [tensor("y", None)]),
           "graph input #1 has no name")
    yield ("opset_out_of_range", "An opset beyond the supported ones.",
           one_node("Relu", [2], ["x"], opset=21),
           "opset 21 is not supported; expected 11 to 20")
    yield ("add_missing_operand", "Add of one constant: shape arithmetic is not folded with an operand missing.",
           model([helper.make_node("Add", ["a"], ["y"], name="n")], [], [tensor("y", None, TensorProto.INT64)],
                 [ints("a", [1, 2])]),
           "node 'n' (Add): missing input 1")
    yield ("slice_without_operands", "A Slice node with no inputs at all.",
           model([helper.make_node("Slice", [], ["y"], name="n")], [], [tensor("y", None)]),
           "node 'n' (Slice): missing input 0")
    outside = TensorProto(name="", data_type=FLOAT, dims=[1], data_location=TensorProto.EXTERNAL)
    outside.external_data.add(key="location", value="/etc/passwd")
    yield ("constant_external_data", "A Constant whose value names a file outside the model.",
           model([helper.make_node("Constant", [], ["y"], name="n", value=outside)], [], [tensor("y", None)]),
           "node 'n' (Constant): attribute 'value' keeps its data outside the model; expected it inside "
           "(external data is supported for initializers)")
    yield ("quantize_nan_scale", "A QuantizeLinear scale of NaN (a fixed-point multiplier of it is undefined).",
           one_node("QuantizeLinear", [1, 2], ["x", "s"], [helper.make_tensor("s", FLOAT, [], [float("nan")])]),
           "node 'n' (QuantizeLinear): the scale (input 1 's') is nan; expected a finite positive scale")
    yield ("dequantize_negative_scale", "A per-axis DequantizeLinear scale with one negative channel.",
           model([helper.make_node("DequantizeLinear", ["x", "s", "z"], ["y"], name="n", axis=1)],
                 [tensor("x", [1, 3], TensorProto.INT8)], [tensor("y", None)],
                 [helper.make_tensor("s", FLOAT, [3], [0.5, -0.25, 1.0]),
                  helper.make_tensor("z", TensorProto.INT8, [3], [0, 0, 0])]),
           "node 'n' (DequantizeLinear): the scale (input 1 's') is -0.25 at channel 1; expected a finite "
           "positive scale")
    yield ("nms_too_many_rows", "NonMaxSuppression of 2^20 boxes in 2^12 classes: more selected rows than one tensor holds.",
           model([helper.make_node("NonMaxSuppression", ["b", "s"], ["y"], name="n")],
                 [tensor("b", [1, 1 << 20, 4]), tensor("s", [1, 1 << 12, 1 << 20])], [tensor("y", None, TensorProto.INT64)]),
           "node 'n' (NonMaxSuppression): vision.all_class_non_max_suppression: (1, 4096, 1048576) batches, classes "
           "and boxes are too many rows for one tensor")
    loop_body = helper.make_graph([helper.make_node("Identity", ["c_in"], ["c_out"]), helper.make_node("Identity", ["v_in"], ["v_out"])],
                                  "body", [tensor("i", [], TensorProto.INT64), tensor("c_in", [], TensorProto.BOOL), tensor("v_in", None)],
                                  [tensor("c_out", None, TensorProto.BOOL), tensor("v_out", None)])
    yield ("loop_without_body", "A Loop without its body.",
           model([helper.make_node("Loop", ["m", "", "x"], ["y"], name="n")],
                 [tensor("x", [2]), tensor("m", [], TensorProto.INT64)], [tensor("y", None)]),
           "node 'n' (Loop): missing the graph attribute body")
    yield ("loop_float_trip_count", "A Loop whose trip count M is a float (as a scripted int() of a float tensor exports).",
           model([helper.make_node("Loop", ["m", "", "x"], ["y"], name="n", body=loop_body)],
                 [tensor("x", [2]), tensor("m", [])], [tensor("y", None)]),
           "node 'n' (Loop): M (the trip count) must be a tensor of one int64 element, found float32")
    yield ("loop_body_inputs", "A Loop with two loop-carried values whose body takes one.",
           model([helper.make_node("Loop", ["m", "", "x", "x"], ["y", "z"], name="n", body=loop_body)],
                 [tensor("x", [2]), tensor("m", [], TensorProto.INT64)], [tensor("y", None), tensor("z", None)]),
           "node 'n' (Loop): body has 3 inputs; expected 4: the iteration number, the condition and the 2 "
           "loop-carried values")
    scan_body = helper.make_graph([helper.make_node("Add", ["s_in", "row"], ["s_out"])], "body",
                                  [tensor("s_in", None), tensor("row", None)], [tensor("s_out", None)])
    yield ("scan_axis_out_of_range", "A Scan along an axis its input does not have.",
           model([helper.make_node("Scan", ["s", "x"], ["y"], name="n", body=scan_body, num_scan_inputs=1,
                                   scan_input_axes=[3])],
                 [tensor("s", [2]), tensor("x", [3, 2])], [tensor("y", None)]),
           "node 'n' (Scan): scan_input_axes[0] for scan input 0 ('x'): axis 3 is out of range for rank 2; "
           "expected -2 to 1")
    counting = helper.make_graph([helper.make_node("Identity", ["c_in"], ["c_out"]), helper.make_node("Add", ["v_in", "one"], ["v_out"])],
                                 "body", [tensor("i", [], TensorProto.INT64), tensor("c_in", [], TensorProto.BOOL), tensor("v_in", [])],
                                 [tensor("c_out", None, TensorProto.BOOL), tensor("v_out", None)],
                                 [helper.make_tensor("one", FLOAT, [], [1.0])])
    yield ("loop_never_ends", "A while loop whose condition stays true: the run stops at the limit of loop iterations in one run.",
           model([helper.make_node("Loop", ["", "go", "x"], ["y"], name="n", body=counting)],
                 [tensor("x", [])], [tensor("y", None)], [helper.make_tensor("go", TensorProto.BOOL, [], [True])]),
           "the loop %while_loop of node 'n' did not end within 1000000 iterations of the run's loops, the limit of "
           "loop iterations in one run",
           "run {dir}/loop_never_ends.onnx --random-inputs 1")
    # ir_version 8, then a graph field of two bytes that do not decode as a GraphProto.
    yield ("corrupt_graph", "A graph whose bytes protobuf cannot decode.",
           b"\x08\x08\x3a\x02\xff\xff",
           "corrupt ONNX model: the protobuf data inside the model cannot be decoded")


def main():
    for stem, comment, data, error, *command in cases():
        with open(os.path.join(HERE, stem + ".onnx"), "wb") as out:
            out.write(data)
        run = command[0] if command else "info {dir}/%s.onnx" % stem
        with open(os.path.join(HERE, stem + ".case"), "w") as out:
            out.write("# %s\nrun: %s\nerror: {dir}/%s.onnx: %s\n" % (comment, run, stem, error))


if __name__ == "__main__":
    main()
