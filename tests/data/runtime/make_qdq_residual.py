"""Writes qdq_residual.onnx: a residual block quantized as ONNX Runtime's static quantizer writes it
(QDQ, uint8 activations, int8 weights per output channel, int32 biases). Three convolutions, two of
them with relu, and a residual add, on a 1x8x12x12 input; fixed seed, so the file is reproducible.

Run with Debian's python3 (numpy and onnx from apt): python3 make_qdq_residual.py
"""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(20)
nodes, inits = [], []


def init(name, array):
    inits.append(numpy_helper.from_array(array, name))
    return name


def qdq(tensor, scale, zero_point):
    s = init(tensor + "_scale", np.array(scale, np.float32))
    z = init(tensor + "_zp", np.array(zero_point, np.uint8))
    nodes.append(helper.make_node("QuantizeLinear", [tensor, s, z], [tensor + "_q"]))
    nodes.append(helper.make_node("DequantizeLinear", [tensor + "_q", s, z], [tensor + "_dq"]))
    return tensor + "_dq"


def conv(name, x, x_scale, cin, cout, kernel, relu, out_scale, out_zp):
    w = rng.normal(0, 0.3, (cout, cin, kernel, kernel)).astype(np.float32)
    w_scale = (np.abs(w).reshape(cout, -1).max(1) / 127).astype(np.float32)
    w_q = np.clip(np.round(w / w_scale[:, None, None, None]), -127, 127).astype(np.int8)
    b = rng.normal(0, 0.2, cout).astype(np.float32)
    b_scale = (x_scale * w_scale).astype(np.float32)
    b_q = np.round(b / b_scale).astype(np.int32)
    zeros8 = init(name + "_w_zp", np.zeros(cout, np.int8))
    nodes.append(helper.make_node("DequantizeLinear", [init(name + "_wq", w_q), init(name + "_w_scale", w_scale), zeros8],
                                  [name + "_w"], axis=0))
    nodes.append(helper.make_node("DequantizeLinear", [init(name + "_bq", b_q), init(name + "_b_scale", b_scale),
                                                       init(name + "_b_zp", np.zeros(cout, np.int32))], [name + "_b"], axis=0))
    nodes.append(helper.make_node("Conv", [x, name + "_w", name + "_b"], [name + "_y"], pads=[kernel // 2] * 4))
    y = name + "_y"
    if relu:
        nodes.append(helper.make_node("Relu", [y], [name + "_relu"]))
        y = name + "_relu"
    return qdq(y, out_scale, out_zp)


x = qdq("input", 0.02, 128)
a = conv("conv1", x, 0.02, 8, 16, 1, True, 0.03, 0)
b = conv("conv2", a, 0.03, 16, 16, 3, True, 0.04, 0)
c = conv("conv3", b, 0.04, 16, 8, 1, False, 0.05, 120)
nodes.append(helper.make_node("Add", [c, x], ["sum"]))
nodes.append(helper.make_node("Relu", ["sum"], ["sum_relu"]))
out = qdq("sum_relu", 0.03, 0)
nodes.append(helper.make_node("Identity", [out], ["output"]))

graph = helper.make_graph(nodes, "qdq_residual",
                          [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 8, 12, 12])],
                          [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 8, 12, 12])], inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="make_qdq_residual.py")
onnx.checker.check_model(model)
onnx.save(model, "qdq_residual.onnx")
