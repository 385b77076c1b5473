"""ccompiler for TVM's bring-your-own-codegen flow, written by BYOC Studio.

TVM's C-source codegen (CodegenC, target ccompiler) as a codegen plugin: each region becomes one self-contained C file, compiled with the system C compiler and loaded (examples/ccompiler). float32 convolutions, dense layers, pooling, elementwise ops and reshapes.

Importing this module registers, for the compiler "ccompiler":
* one op-support function per op rule, as the "target.ccompiler" attribute of each op it is
  the first rule to name (AnnotateTarget offloads a call when it returns True);
* the composite patterns, in priority order, as the pattern table of "ccompiler"
  (MergeComposite(pattern_table())).

Before partitioning, the target's flow runs SimplifyInference,FoldConstant.
"""
import tvm
from tvm import relay
from tvm.relay.op.contrib.register import register_pattern_table


def _tensor_type(expr):
    """The checked type of `expr`, which must be a tensor type."""
    if not isinstance(expr.checked_type, relay.TensorType):
        raise ValueError("expected a typed tensor, found %s" % (expr.checked_type,))
    return expr.checked_type


@tvm.ir.register_op_attr("nn.conv2d", "target.ccompiler")
@tvm.ir.register_op_attr("nn.dense", "target.ccompiler")
@tvm.ir.register_op_attr("nn.bias_add", "target.ccompiler")
@tvm.ir.register_op_attr("nn.relu", "target.ccompiler")
@tvm.ir.register_op_attr("add", "target.ccompiler")
@tvm.ir.register_op_attr("subtract", "target.ccompiler")
@tvm.ir.register_op_attr("multiply", "target.ccompiler")
@tvm.ir.register_op_attr("divide", "target.ccompiler")
@tvm.ir.register_op_attr("maximum", "target.ccompiler")
@tvm.ir.register_op_attr("minimum", "target.ccompiler")
@tvm.ir.register_op_attr("nn.max_pool2d", "target.ccompiler")
@tvm.ir.register_op_attr("nn.avg_pool2d", "target.ccompiler")
@tvm.ir.register_op_attr("nn.global_avg_pool2d", "target.ccompiler")
@tvm.ir.register_op_attr("nn.batch_flatten", "target.ccompiler")
@tvm.ir.register_op_attr("reshape", "target.ccompiler")
@tvm.ir.register_op_attr("squeeze", "target.ccompiler")
@tvm.ir.register_op_attr("expand_dims", "target.ccompiler")
@tvm.ir.register_op_attr("sigmoid", "target.ccompiler")
@tvm.ir.register_op_attr("tanh", "target.ccompiler")
@tvm.ir.register_op_attr("exp", "target.ccompiler")
@tvm.ir.register_op_attr("sqrt", "target.ccompiler")
@tvm.ir.register_op_attr("clip", "target.ccompiler")
@tvm.ir.register_op_attr("nn.softmax", "target.ccompiler")
def _op_rule_0(expr):
    """nn.conv2d, nn.dense, nn.bias_add, nn.relu, add, subtract, multiply, divide, maximum, minimum, nn.max_pool2d, nn.avg_pool2d, nn.global_avg_pool2d, nn.batch_flatten, reshape, squeeze, expand_dims, sigmoid, tanh, exp, sqrt, clip, nn.softmax when dtype(arg0) == "float32\""""
    return _tensor_type(expr.args[0]).dtype == "float32"


@register_pattern_table("ccompiler")
def pattern_table():
    """The composite patterns of ccompiler, in priority order: earlier rows win."""
    return []
