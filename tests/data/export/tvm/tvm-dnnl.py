"""dnnl for TVM's bring-your-own-codegen flow, written by BYOC Studio.

TVM's own dnnl integration, python/tvm/relay/op/contrib/dnnl.py as of v0.14 (its pattern table is the same in v0.19): its 27 ops (each offloaded unless an argument is int64, pools not in ceil mode); its pattern table in its order (dense_bias_sum, the conv2d sum patterns with their add checks, then for bias and no bias, for each post-op relu, tanh, sigmoid, clip, gelu, swish, mish or none, conv1d, conv2d, conv3d, deconv2d, deconv3d and dense), where the conv patterns ending in the bias add or its relu carry TVM's bias check exactly: the add must sit on an nn.conv2d whose channels equal the bias size, so the conv1d, conv3d and deconv rows with bias and no other post-op than relu never match, as in TVM; the preparation partition_for_dnnl runs before partitioning (CanonicalizeOps, SimplifyInference, FoldConstant, FoldScaleAxis, SimplifyExpr, FoldConstant, then rewrite_layer_norm and rewrite_dense_bias_gelu_reshape_last); and prune_dnnl_subgraphs' list of compute-intensive ops. Not here: the qnn patterns (dnnl.qnn.conv2d, dnnl.qnn.dense), and, of TVM's preparation, Legalize of grouped convolutions, AlterOpLayout and the qnn rewrite.

Importing this module registers, for the compiler "dnnl":
* one op-support function per op rule, as the "target.dnnl" attribute of each op it is
  the first rule to name (AnnotateTarget offloads a call when it returns True);
* the composite patterns, in priority order, as the pattern table of "dnnl"
  (MergeComposite(pattern_table())).

Before partitioning, the target's flow runs CanonicalizeOps,SimplifyInference,FoldConstant,FoldScaleAxis,SimplifyExpr,FoldConstant,RewriteLayerNorm,RewriteDenseBiasGeluReshapeLast.
Partitioned regions containing none of these ops are not worth offloading:
nn.conv1d, nn.conv2d, nn.conv3d, nn.conv2d_transpose, nn.conv3d_transpose, nn.dense, nn.layer_norm, nn.batch_matmul, nn.global_avg_pool2d.
"""
import tvm
from tvm import relay
from tvm.relay.dataflow_pattern import is_op, wildcard
from tvm.relay.op.contrib.register import register_pattern_table


def _bool(value):
    """`value`, which a condition needs to be True or False."""
    if not isinstance(value, bool):
        raise ValueError("expected a condition (True or False), found %r" % (value,))
    return value


def _same(a, b):
    """Equality of rule values: numbers by value (1 == 1.0), lists item by item, True only with True."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def _op_name(expr):
    """The name of the op `expr` calls, or \"\" when it is not a call of an op."""
    if isinstance(expr, relay.Call) and isinstance(expr.op, tvm.ir.Op):
        return expr.op.name
    return ""


def _tensor_type(expr):
    """The checked type of `expr`, which must be a tensor type."""
    if not isinstance(expr.checked_type, relay.TensorType):
        raise ValueError("expected a typed tensor, found %s" % (expr.checked_type,))
    return expr.checked_type


def _shape(expr):
    """The shape of a typed tensor as a list of ints, -1 for a dimension that is not known."""
    return [int(dim) if isinstance(dim, tvm.tir.IntImm) else -1 for dim in _tensor_type(expr).shape]


def _numel(expr):
    """The number of elements of a typed tensor, -1 when a dimension is not known."""
    count = 1
    for dim in _shape(expr):
        if dim < 0:
            return -1
        count *= dim
    return count


def _value(value):
    """A TVM attribute value as a Python value: bool, int, float, str, list or None."""
    if isinstance(value, tvm.tir.IntImm):
        return bool(value.value) if value.dtype == "bool" else int(value.value)
    if isinstance(value, tvm.tir.FloatImm):
        return float(value.value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (tvm.ir.Array, list, tuple)):
        return [_value(item) for item in value]
    return value


def _attr(expr, name):
    """The attribute `name` of the call `expr`, or None when it has none."""
    if not isinstance(expr, relay.Call) or expr.attrs is None or name not in expr.attrs.keys():
        return None
    value = _value(expr.attrs[name])
    if isinstance(value, int) and any(field.name == name and field.type_info == "bool"
                                      for field in expr.attrs.list_field_info()):
        return bool(value)  # TVM hands bool fields over as 0 or 1
    return value


def _arg_dtypes(expr):
    """The dtypes of the arguments of the call `expr` that are typed tensors."""
    if not isinstance(expr, relay.Call):
        return []
    return [arg.checked_type.dtype for arg in expr.args if isinstance(arg.checked_type, relay.TensorType)]


@tvm.ir.register_op_attr("nn.max_pool2d", "target.dnnl")
@tvm.ir.register_op_attr("nn.avg_pool2d", "target.dnnl")
@tvm.ir.register_op_attr("nn.max_pool3d", "target.dnnl")
@tvm.ir.register_op_attr("nn.avg_pool3d", "target.dnnl")
def _op_rule_0(expr):
    """nn.max_pool2d, nn.avg_pool2d, nn.max_pool3d, nn.avg_pool3d when "int64" not in arg_dtypes() and not ceil_mode"""
    return "int64" not in _arg_dtypes(expr) and not _bool(_attr(expr, "ceil_mode"))


@tvm.ir.register_op_attr("nn.batch_norm", "target.dnnl")
@tvm.ir.register_op_attr("nn.conv1d", "target.dnnl")
@tvm.ir.register_op_attr("nn.conv2d", "target.dnnl")
@tvm.ir.register_op_attr("nn.conv3d", "target.dnnl")
@tvm.ir.register_op_attr("nn.conv2d_transpose", "target.dnnl")
@tvm.ir.register_op_attr("nn.conv3d_transpose", "target.dnnl")
@tvm.ir.register_op_attr("nn.dense", "target.dnnl")
@tvm.ir.register_op_attr("nn.global_avg_pool2d", "target.dnnl")
@tvm.ir.register_op_attr("abs", "target.dnnl")
@tvm.ir.register_op_attr("clip", "target.dnnl")
@tvm.ir.register_op_attr("exp", "target.dnnl")
@tvm.ir.register_op_attr("log", "target.dnnl")
@tvm.ir.register_op_attr("sqrt", "target.dnnl")
@tvm.ir.register_op_attr("round", "target.dnnl")
@tvm.ir.register_op_attr("nn.relu", "target.dnnl")
@tvm.ir.register_op_attr("nn.leaky_relu", "target.dnnl")
@tvm.ir.register_op_attr("tanh", "target.dnnl")
@tvm.ir.register_op_attr("sigmoid", "target.dnnl")
@tvm.ir.register_op_attr("nn.softmax", "target.dnnl")
@tvm.ir.register_op_attr("add", "target.dnnl")
@tvm.ir.register_op_attr("multiply", "target.dnnl")
@tvm.ir.register_op_attr("nn.layer_norm", "target.dnnl")
@tvm.ir.register_op_attr("nn.batch_matmul", "target.dnnl")
def _op_rule_1(expr):
    """nn.batch_norm, nn.conv1d, nn.conv2d, nn.conv3d, nn.conv2d_transpose, nn.conv3d_transpose, nn.dense, nn.global_avg_pool2d, abs, clip, exp, log, sqrt, round, nn.relu, nn.leaky_relu, tanh, sigmoid, nn.softmax, add, multiply, nn.layer_norm, nn.batch_matmul when "int64" not in arg_dtypes()"""
    return "int64" not in _arg_dtypes(expr)


def _dnnl_dense_bias_sum_pattern():
    """add(add(nn.dense(*, *), *), *)"""
    return is_op("add")(is_op("add")(is_op("nn.dense")(wildcard(), wildcard()), wildcard()), wildcard())


def _dnnl_conv2d_bias_sum_relu_pattern():
    """nn.relu(add(add(nn.conv2d(*, *), *), *))"""
    return is_op("nn.relu")(is_op("add")(is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard()), wildcard()))


def _check_0(expr):
    """(op(arg0.arg0) == "add" and shape(arg0.arg0) == shape(arg0.arg1) and op(arg0.arg0.arg0) == "nn.conv2d" and attr(arg0.arg0.arg0, "channels") == numel(arg0.arg0.arg1))"""
    return _op_name(expr.args[0].args[0]) == "add" and _shape(expr.args[0].args[0]) == _shape(expr.args[0].args[1]) and _op_name(expr.args[0].args[0].args[0]) == "nn.conv2d" and _same(_attr(expr.args[0].args[0].args[0], "channels"), _numel(expr.args[0].args[0].args[1]))


def _dnnl_conv2d_bias_sum_pattern():
    """add(add(nn.conv2d(*, *), *), *)"""
    return is_op("add")(is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard()), wildcard())


def _check_1(expr):
    """(op(arg0) == "add" and shape(arg0) == shape(arg1) and op(arg0.arg0) == "nn.conv2d" and attr(arg0.arg0, "channels") == numel(arg0.arg1))"""
    return _op_name(expr.args[0]) == "add" and _shape(expr.args[0]) == _shape(expr.args[1]) and _op_name(expr.args[0].args[0]) == "nn.conv2d" and _same(_attr(expr.args[0].args[0], "channels"), _numel(expr.args[0].args[1]))


def _dnnl_conv1d_bias_relu_pattern():
    """nn.relu(add(nn.conv1d(*, *), *))"""
    return is_op("nn.relu")(is_op("add")(is_op("nn.conv1d")(wildcard(), wildcard()), wildcard()))


def _check_2(expr):
    """op(arg0.arg0) == "nn.conv2d" and attr(arg0.arg0, "channels") == numel(arg0.arg1)"""
    return _op_name(expr.args[0].args[0]) == "nn.conv2d" and _same(_attr(expr.args[0].args[0], "channels"), _numel(expr.args[0].args[1]))


def _dnnl_conv2d_bias_relu_pattern():
    """nn.relu(add(nn.conv2d(*, *), *))"""
    return is_op("nn.relu")(is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard()))


def _dnnl_conv3d_bias_relu_pattern():
    """nn.relu(add(nn.conv3d(*, *), *))"""
    return is_op("nn.relu")(is_op("add")(is_op("nn.conv3d")(wildcard(), wildcard()), wildcard()))


def _dnnl_deconv2d_bias_relu_pattern():
    """nn.relu(add(nn.conv2d_transpose(*, *), *))"""
    return is_op("nn.relu")(is_op("add")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()), wildcard()))


def _dnnl_deconv3d_bias_relu_pattern():
    """nn.relu(add(nn.conv3d_transpose(*, *), *))"""
    return is_op("nn.relu")(is_op("add")(is_op("nn.conv3d_transpose")(wildcard(), wildcard()), wildcard()))


def _dnnl_dense_bias_relu_pattern():
    """nn.relu(add(nn.dense(*, *), *))"""
    return is_op("nn.relu")(is_op("add")(is_op("nn.dense")(wildcard(), wildcard()), wildcard()))


def _dnnl_conv1d_bias_tanh_pattern():
    """tanh(add(nn.conv1d(*, *), *))"""
    return is_op("tanh")(is_op("add")(is_op("nn.conv1d")(wildcard(), wildcard()), wildcard()))


def _dnnl_conv2d_bias_tanh_pattern():
    """tanh(add(nn.conv2d(*, *), *))"""
    return is_op("tanh")(is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard()))


def _dnnl_conv3d_bias_tanh_pattern():
    """tanh(add(nn.conv3d(*, *), *))"""
    return is_op("tanh")(is_op("add")(is_op("nn.conv3d")(wildcard(), wildcard()), wildcard()))


def _dnnl_deconv2d_bias_tanh_pattern():
    """tanh(add(nn.conv2d_transpose(*, *), *))"""
    return is_op("tanh")(is_op("add")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()), wildcard()))


def _dnnl_deconv3d_bias_tanh_pattern():
    """tanh(add(nn.conv3d_transpose(*, *), *))"""
    return is_op("tanh")(is_op("add")(is_op("nn.conv3d_transpose")(wildcard(), wildcard()), wildcard()))


def _dnnl_dense_bias_tanh_pattern():
    """tanh(add(nn.dense(*, *), *))"""
    return is_op("tanh")(is_op("add")(is_op("nn.dense")(wildcard(), wildcard()), wildcard()))


def _dnnl_conv1d_bias_sigmoid_pattern():
    """sigmoid(add(nn.conv1d(*, *), *))"""
    return is_op("sigmoid")(is_op("add")(is_op("nn.conv1d")(wildcard(), wildcard()), wildcard()))


def _dnnl_conv2d_bias_sigmoid_pattern():
    """sigmoid(add(nn.conv2d(*, *), *))"""
    return is_op("sigmoid")(is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard()))


def _dnnl_conv3d_bias_sigmoid_pattern():
    """sigmoid(add(nn.conv3d(*, *), *))"""
    return is_op("sigmoid")(is_op("add")(is_op("nn.conv3d")(wildcard(), wildcard()), wildcard()))


def _dnnl_deconv2d_bias_sigmoid_pattern():
    """sigmoid(add(nn.conv2d_transpose(*, *), *))"""
    return is_op("sigmoid")(is_op("add")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()), wildcard()))


def _dnnl_deconv3d_bias_sigmoid_pattern():
    """sigmoid(add(nn.conv3d_transpose(*, *), *))"""
    return is_op("sigmoid")(is_op("add")(is_op("nn.conv3d_transpose")(wildcard(), wildcard()), wildcard()))


def _dnnl_dense_bias_sigmoid_pattern():
    """sigmoid(add(nn.dense(*, *), *))"""
    return is_op("sigmoid")(is_op("add")(is_op("nn.dense")(wildcard(), wildcard()), wildcard()))


def _dnnl_conv1d_bias_clip_pattern():
    """clip(add(nn.conv1d(*, *), *))"""
    return is_op("clip")(is_op("add")(is_op("nn.conv1d")(wildcard(), wildcard()), wildcard()))


def _dnnl_conv2d_bias_clip_pattern():
    """clip(add(nn.conv2d(*, *), *))"""
    return is_op("clip")(is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard()))


def _dnnl_conv3d_bias_clip_pattern():
    """clip(add(nn.conv3d(*, *), *))"""
    return is_op("clip")(is_op("add")(is_op("nn.conv3d")(wildcard(), wildcard()), wildcard()))


def _dnnl_deconv2d_bias_clip_pattern():
    """clip(add(nn.conv2d_transpose(*, *), *))"""
    return is_op("clip")(is_op("add")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()), wildcard()))


def _dnnl_deconv3d_bias_clip_pattern():
    """clip(add(nn.conv3d_transpose(*, *), *))"""
    return is_op("clip")(is_op("add")(is_op("nn.conv3d_transpose")(wildcard(), wildcard()), wildcard()))


def _dnnl_dense_bias_clip_pattern():
    """clip(add(nn.dense(*, *), *))"""
    return is_op("clip")(is_op("add")(is_op("nn.dense")(wildcard(), wildcard()), wildcard()))


def _dnnl_conv1d_bias_gelu_pattern():
    """x = add(nn.conv1d(*, *), *); multiply(multiply(x, add(erf(divide(x, *)), *)), *)"""
    x = is_op("add")(is_op("nn.conv1d")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(is_op("multiply")(x, is_op("add")(is_op("erf")(is_op("divide")(x, wildcard())), wildcard())), wildcard())


def _dnnl_conv2d_bias_gelu_pattern():
    """x = add(nn.conv2d(*, *), *); multiply(multiply(x, add(erf(divide(x, *)), *)), *)"""
    x = is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(is_op("multiply")(x, is_op("add")(is_op("erf")(is_op("divide")(x, wildcard())), wildcard())), wildcard())


def _dnnl_conv3d_bias_gelu_pattern():
    """x = add(nn.conv3d(*, *), *); multiply(multiply(x, add(erf(divide(x, *)), *)), *)"""
    x = is_op("add")(is_op("nn.conv3d")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(is_op("multiply")(x, is_op("add")(is_op("erf")(is_op("divide")(x, wildcard())), wildcard())), wildcard())


def _dnnl_deconv2d_bias_gelu_pattern():
    """x = add(nn.conv2d_transpose(*, *), *); multiply(multiply(x, add(erf(divide(x, *)), *)), *)"""
    x = is_op("add")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(is_op("multiply")(x, is_op("add")(is_op("erf")(is_op("divide")(x, wildcard())), wildcard())), wildcard())


def _dnnl_deconv3d_bias_gelu_pattern():
    """x = add(nn.conv3d_transpose(*, *), *); multiply(multiply(x, add(erf(divide(x, *)), *)), *)"""
    x = is_op("add")(is_op("nn.conv3d_transpose")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(is_op("multiply")(x, is_op("add")(is_op("erf")(is_op("divide")(x, wildcard())), wildcard())), wildcard())


def _dnnl_dense_bias_gelu_pattern():
    """x = add(nn.dense(*, *), *); multiply(multiply(x, add(erf(divide(x, *)), *)), *)"""
    x = is_op("add")(is_op("nn.dense")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(is_op("multiply")(x, is_op("add")(is_op("erf")(is_op("divide")(x, wildcard())), wildcard())), wildcard())


def _dnnl_conv1d_bias_swish_pattern():
    """x = add(nn.conv1d(*, *), *); multiply(x, sigmoid(x))"""
    x = is_op("add")(is_op("nn.conv1d")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(x, is_op("sigmoid")(x))


def _dnnl_conv2d_bias_swish_pattern():
    """x = add(nn.conv2d(*, *), *); multiply(x, sigmoid(x))"""
    x = is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(x, is_op("sigmoid")(x))


def _dnnl_conv3d_bias_swish_pattern():
    """x = add(nn.conv3d(*, *), *); multiply(x, sigmoid(x))"""
    x = is_op("add")(is_op("nn.conv3d")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(x, is_op("sigmoid")(x))


def _dnnl_deconv2d_bias_swish_pattern():
    """x = add(nn.conv2d_transpose(*, *), *); multiply(x, sigmoid(x))"""
    x = is_op("add")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(x, is_op("sigmoid")(x))


def _dnnl_deconv3d_bias_swish_pattern():
    """x = add(nn.conv3d_transpose(*, *), *); multiply(x, sigmoid(x))"""
    x = is_op("add")(is_op("nn.conv3d_transpose")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(x, is_op("sigmoid")(x))


def _dnnl_dense_bias_swish_pattern():
    """x = add(nn.dense(*, *), *); multiply(x, sigmoid(x))"""
    x = is_op("add")(is_op("nn.dense")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(x, is_op("sigmoid")(x))


def _dnnl_conv1d_bias_mish_pattern():
    """x = add(nn.conv1d(*, *), *); multiply(x, tanh(log(add(exp(x), *))))"""
    x = is_op("add")(is_op("nn.conv1d")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(x, is_op("tanh")(is_op("log")(is_op("add")(is_op("exp")(x), wildcard()))))


def _dnnl_conv2d_bias_mish_pattern():
    """x = add(nn.conv2d(*, *), *); multiply(x, tanh(log(add(exp(x), *))))"""
    x = is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(x, is_op("tanh")(is_op("log")(is_op("add")(is_op("exp")(x), wildcard()))))


def _dnnl_conv3d_bias_mish_pattern():
    """x = add(nn.conv3d(*, *), *); multiply(x, tanh(log(add(exp(x), *))))"""
    x = is_op("add")(is_op("nn.conv3d")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(x, is_op("tanh")(is_op("log")(is_op("add")(is_op("exp")(x), wildcard()))))


def _dnnl_deconv2d_bias_mish_pattern():
    """x = add(nn.conv2d_transpose(*, *), *); multiply(x, tanh(log(add(exp(x), *))))"""
    x = is_op("add")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(x, is_op("tanh")(is_op("log")(is_op("add")(is_op("exp")(x), wildcard()))))


def _dnnl_deconv3d_bias_mish_pattern():
    """x = add(nn.conv3d_transpose(*, *), *); multiply(x, tanh(log(add(exp(x), *))))"""
    x = is_op("add")(is_op("nn.conv3d_transpose")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(x, is_op("tanh")(is_op("log")(is_op("add")(is_op("exp")(x), wildcard()))))


def _dnnl_dense_bias_mish_pattern():
    """x = add(nn.dense(*, *), *); multiply(x, tanh(log(add(exp(x), *))))"""
    x = is_op("add")(is_op("nn.dense")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(x, is_op("tanh")(is_op("log")(is_op("add")(is_op("exp")(x), wildcard()))))


def _dnnl_conv1d_bias_pattern():
    """add(nn.conv1d(*, *), *)"""
    return is_op("add")(is_op("nn.conv1d")(wildcard(), wildcard()), wildcard())


def _check_3(expr):
    """op(arg0) == "nn.conv2d" and attr(arg0, "channels") == numel(arg1)"""
    return _op_name(expr.args[0]) == "nn.conv2d" and _same(_attr(expr.args[0], "channels"), _numel(expr.args[1]))


def _dnnl_conv2d_bias_pattern():
    """add(nn.conv2d(*, *), *)"""
    return is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard())


def _dnnl_conv3d_bias_pattern():
    """add(nn.conv3d(*, *), *)"""
    return is_op("add")(is_op("nn.conv3d")(wildcard(), wildcard()), wildcard())


def _dnnl_deconv2d_bias_pattern():
    """add(nn.conv2d_transpose(*, *), *)"""
    return is_op("add")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()), wildcard())


def _dnnl_deconv3d_bias_pattern():
    """add(nn.conv3d_transpose(*, *), *)"""
    return is_op("add")(is_op("nn.conv3d_transpose")(wildcard(), wildcard()), wildcard())


def _dnnl_dense_bias_pattern():
    """add(nn.dense(*, *), *)"""
    return is_op("add")(is_op("nn.dense")(wildcard(), wildcard()), wildcard())


def _dnnl_conv1d_relu_pattern():
    """nn.relu(nn.conv1d(*, *))"""
    return is_op("nn.relu")(is_op("nn.conv1d")(wildcard(), wildcard()))


def _dnnl_conv2d_relu_pattern():
    """nn.relu(nn.conv2d(*, *))"""
    return is_op("nn.relu")(is_op("nn.conv2d")(wildcard(), wildcard()))


def _dnnl_conv3d_relu_pattern():
    """nn.relu(nn.conv3d(*, *))"""
    return is_op("nn.relu")(is_op("nn.conv3d")(wildcard(), wildcard()))


def _dnnl_deconv2d_relu_pattern():
    """nn.relu(nn.conv2d_transpose(*, *))"""
    return is_op("nn.relu")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()))


def _dnnl_deconv3d_relu_pattern():
    """nn.relu(nn.conv3d_transpose(*, *))"""
    return is_op("nn.relu")(is_op("nn.conv3d_transpose")(wildcard(), wildcard()))


def _dnnl_dense_relu_pattern():
    """nn.relu(nn.dense(*, *))"""
    return is_op("nn.relu")(is_op("nn.dense")(wildcard(), wildcard()))


def _dnnl_conv1d_tanh_pattern():
    """tanh(nn.conv1d(*, *))"""
    return is_op("tanh")(is_op("nn.conv1d")(wildcard(), wildcard()))


def _dnnl_conv2d_tanh_pattern():
    """tanh(nn.conv2d(*, *))"""
    return is_op("tanh")(is_op("nn.conv2d")(wildcard(), wildcard()))


def _dnnl_conv3d_tanh_pattern():
    """tanh(nn.conv3d(*, *))"""
    return is_op("tanh")(is_op("nn.conv3d")(wildcard(), wildcard()))


def _dnnl_deconv2d_tanh_pattern():
    """tanh(nn.conv2d_transpose(*, *))"""
    return is_op("tanh")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()))


def _dnnl_deconv3d_tanh_pattern():
    """tanh(nn.conv3d_transpose(*, *))"""
    return is_op("tanh")(is_op("nn.conv3d_transpose")(wildcard(), wildcard()))


def _dnnl_dense_tanh_pattern():
    """tanh(nn.dense(*, *))"""
    return is_op("tanh")(is_op("nn.dense")(wildcard(), wildcard()))


def _dnnl_conv1d_sigmoid_pattern():
    """sigmoid(nn.conv1d(*, *))"""
    return is_op("sigmoid")(is_op("nn.conv1d")(wildcard(), wildcard()))


def _dnnl_conv2d_sigmoid_pattern():
    """sigmoid(nn.conv2d(*, *))"""
    return is_op("sigmoid")(is_op("nn.conv2d")(wildcard(), wildcard()))


def _dnnl_conv3d_sigmoid_pattern():
    """sigmoid(nn.conv3d(*, *))"""
    return is_op("sigmoid")(is_op("nn.conv3d")(wildcard(), wildcard()))


def _dnnl_deconv2d_sigmoid_pattern():
    """sigmoid(nn.conv2d_transpose(*, *))"""
    return is_op("sigmoid")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()))


def _dnnl_deconv3d_sigmoid_pattern():
    """sigmoid(nn.conv3d_transpose(*, *))"""
    return is_op("sigmoid")(is_op("nn.conv3d_transpose")(wildcard(), wildcard()))


def _dnnl_dense_sigmoid_pattern():
    """sigmoid(nn.dense(*, *))"""
    return is_op("sigmoid")(is_op("nn.dense")(wildcard(), wildcard()))


def _dnnl_conv1d_clip_pattern():
    """clip(nn.conv1d(*, *))"""
    return is_op("clip")(is_op("nn.conv1d")(wildcard(), wildcard()))


def _dnnl_conv2d_clip_pattern():
    """clip(nn.conv2d(*, *))"""
    return is_op("clip")(is_op("nn.conv2d")(wildcard(), wildcard()))


def _dnnl_conv3d_clip_pattern():
    """clip(nn.conv3d(*, *))"""
    return is_op("clip")(is_op("nn.conv3d")(wildcard(), wildcard()))


def _dnnl_deconv2d_clip_pattern():
    """clip(nn.conv2d_transpose(*, *))"""
    return is_op("clip")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()))


def _dnnl_deconv3d_clip_pattern():
    """clip(nn.conv3d_transpose(*, *))"""
    return is_op("clip")(is_op("nn.conv3d_transpose")(wildcard(), wildcard()))


def _dnnl_dense_clip_pattern():
    """clip(nn.dense(*, *))"""
    return is_op("clip")(is_op("nn.dense")(wildcard(), wildcard()))


def _dnnl_conv1d_gelu_pattern():
    """x = nn.conv1d(*, *); multiply(multiply(x, add(erf(divide(x, *)), *)), *)"""
    x = is_op("nn.conv1d")(wildcard(), wildcard())
    return is_op("multiply")(is_op("multiply")(x, is_op("add")(is_op("erf")(is_op("divide")(x, wildcard())), wildcard())), wildcard())


def _dnnl_conv2d_gelu_pattern():
    """x = nn.conv2d(*, *); multiply(multiply(x, add(erf(divide(x, *)), *)), *)"""
    x = is_op("nn.conv2d")(wildcard(), wildcard())
    return is_op("multiply")(is_op("multiply")(x, is_op("add")(is_op("erf")(is_op("divide")(x, wildcard())), wildcard())), wildcard())


def _dnnl_conv3d_gelu_pattern():
    """x = nn.conv3d(*, *); multiply(multiply(x, add(erf(divide(x, *)), *)), *)"""
    x = is_op("nn.conv3d")(wildcard(), wildcard())
    return is_op("multiply")(is_op("multiply")(x, is_op("add")(is_op("erf")(is_op("divide")(x, wildcard())), wildcard())), wildcard())


def _dnnl_deconv2d_gelu_pattern():
    """x = nn.conv2d_transpose(*, *); multiply(multiply(x, add(erf(divide(x, *)), *)), *)"""
    x = is_op("nn.conv2d_transpose")(wildcard(), wildcard())
    return is_op("multiply")(is_op("multiply")(x, is_op("add")(is_op("erf")(is_op("divide")(x, wildcard())), wildcard())), wildcard())


def _dnnl_deconv3d_gelu_pattern():
    """x = nn.conv3d_transpose(*, *); multiply(multiply(x, add(erf(divide(x, *)), *)), *)"""
    x = is_op("nn.conv3d_transpose")(wildcard(), wildcard())
    return is_op("multiply")(is_op("multiply")(x, is_op("add")(is_op("erf")(is_op("divide")(x, wildcard())), wildcard())), wildcard())


def _dnnl_dense_gelu_pattern():
    """x = nn.dense(*, *); multiply(multiply(x, add(erf(divide(x, *)), *)), *)"""
    x = is_op("nn.dense")(wildcard(), wildcard())
    return is_op("multiply")(is_op("multiply")(x, is_op("add")(is_op("erf")(is_op("divide")(x, wildcard())), wildcard())), wildcard())


def _dnnl_conv1d_swish_pattern():
    """x = nn.conv1d(*, *); multiply(x, sigmoid(x))"""
    x = is_op("nn.conv1d")(wildcard(), wildcard())
    return is_op("multiply")(x, is_op("sigmoid")(x))


def _dnnl_conv2d_swish_pattern():
    """x = nn.conv2d(*, *); multiply(x, sigmoid(x))"""
    x = is_op("nn.conv2d")(wildcard(), wildcard())
    return is_op("multiply")(x, is_op("sigmoid")(x))


def _dnnl_conv3d_swish_pattern():
    """x = nn.conv3d(*, *); multiply(x, sigmoid(x))"""
    x = is_op("nn.conv3d")(wildcard(), wildcard())
    return is_op("multiply")(x, is_op("sigmoid")(x))


def _dnnl_deconv2d_swish_pattern():
    """x = nn.conv2d_transpose(*, *); multiply(x, sigmoid(x))"""
    x = is_op("nn.conv2d_transpose")(wildcard(), wildcard())
    return is_op("multiply")(x, is_op("sigmoid")(x))


def _dnnl_deconv3d_swish_pattern():
    """x = nn.conv3d_transpose(*, *); multiply(x, sigmoid(x))"""
    x = is_op("nn.conv3d_transpose")(wildcard(), wildcard())
    return is_op("multiply")(x, is_op("sigmoid")(x))


def _dnnl_dense_swish_pattern():
    """x = nn.dense(*, *); multiply(x, sigmoid(x))"""
    x = is_op("nn.dense")(wildcard(), wildcard())
    return is_op("multiply")(x, is_op("sigmoid")(x))


def _dnnl_conv1d_mish_pattern():
    """x = nn.conv1d(*, *); multiply(x, tanh(log(add(exp(x), *))))"""
    x = is_op("nn.conv1d")(wildcard(), wildcard())
    return is_op("multiply")(x, is_op("tanh")(is_op("log")(is_op("add")(is_op("exp")(x), wildcard()))))


def _dnnl_conv2d_mish_pattern():
    """x = nn.conv2d(*, *); multiply(x, tanh(log(add(exp(x), *))))"""
    x = is_op("nn.conv2d")(wildcard(), wildcard())
    return is_op("multiply")(x, is_op("tanh")(is_op("log")(is_op("add")(is_op("exp")(x), wildcard()))))


def _dnnl_conv3d_mish_pattern():
    """x = nn.conv3d(*, *); multiply(x, tanh(log(add(exp(x), *))))"""
    x = is_op("nn.conv3d")(wildcard(), wildcard())
    return is_op("multiply")(x, is_op("tanh")(is_op("log")(is_op("add")(is_op("exp")(x), wildcard()))))


def _dnnl_deconv2d_mish_pattern():
    """x = nn.conv2d_transpose(*, *); multiply(x, tanh(log(add(exp(x), *))))"""
    x = is_op("nn.conv2d_transpose")(wildcard(), wildcard())
    return is_op("multiply")(x, is_op("tanh")(is_op("log")(is_op("add")(is_op("exp")(x), wildcard()))))


def _dnnl_deconv3d_mish_pattern():
    """x = nn.conv3d_transpose(*, *); multiply(x, tanh(log(add(exp(x), *))))"""
    x = is_op("nn.conv3d_transpose")(wildcard(), wildcard())
    return is_op("multiply")(x, is_op("tanh")(is_op("log")(is_op("add")(is_op("exp")(x), wildcard()))))


def _dnnl_dense_mish_pattern():
    """x = nn.dense(*, *); multiply(x, tanh(log(add(exp(x), *))))"""
    x = is_op("nn.dense")(wildcard(), wildcard())
    return is_op("multiply")(x, is_op("tanh")(is_op("log")(is_op("add")(is_op("exp")(x), wildcard()))))


@register_pattern_table("dnnl")
def pattern_table():
    """The composite patterns of dnnl, in priority order: earlier rows win."""
    return [
        ("dnnl.dense_bias_sum", _dnnl_dense_bias_sum_pattern()),
        ("dnnl.conv2d_bias_sum_relu", _dnnl_conv2d_bias_sum_relu_pattern(), _check_0),
        ("dnnl.conv2d_bias_sum", _dnnl_conv2d_bias_sum_pattern(), _check_1),
        ("dnnl.conv1d_bias_relu", _dnnl_conv1d_bias_relu_pattern(), _check_2),
        ("dnnl.conv2d_bias_relu", _dnnl_conv2d_bias_relu_pattern(), _check_2),
        ("dnnl.conv3d_bias_relu", _dnnl_conv3d_bias_relu_pattern(), _check_2),
        ("dnnl.deconv2d_bias_relu", _dnnl_deconv2d_bias_relu_pattern(), _check_2),
        ("dnnl.deconv3d_bias_relu", _dnnl_deconv3d_bias_relu_pattern(), _check_2),
        ("dnnl.dense_bias_relu", _dnnl_dense_bias_relu_pattern()),
        ("dnnl.conv1d_bias_tanh", _dnnl_conv1d_bias_tanh_pattern()),
        ("dnnl.conv2d_bias_tanh", _dnnl_conv2d_bias_tanh_pattern()),
        ("dnnl.conv3d_bias_tanh", _dnnl_conv3d_bias_tanh_pattern()),
        ("dnnl.deconv2d_bias_tanh", _dnnl_deconv2d_bias_tanh_pattern()),
        ("dnnl.deconv3d_bias_tanh", _dnnl_deconv3d_bias_tanh_pattern()),
        ("dnnl.dense_bias_tanh", _dnnl_dense_bias_tanh_pattern()),
        ("dnnl.conv1d_bias_sigmoid", _dnnl_conv1d_bias_sigmoid_pattern()),
        ("dnnl.conv2d_bias_sigmoid", _dnnl_conv2d_bias_sigmoid_pattern()),
        ("dnnl.conv3d_bias_sigmoid", _dnnl_conv3d_bias_sigmoid_pattern()),
        ("dnnl.deconv2d_bias_sigmoid", _dnnl_deconv2d_bias_sigmoid_pattern()),
        ("dnnl.deconv3d_bias_sigmoid", _dnnl_deconv3d_bias_sigmoid_pattern()),
        ("dnnl.dense_bias_sigmoid", _dnnl_dense_bias_sigmoid_pattern()),
        ("dnnl.conv1d_bias_clip", _dnnl_conv1d_bias_clip_pattern()),
        ("dnnl.conv2d_bias_clip", _dnnl_conv2d_bias_clip_pattern()),
        ("dnnl.conv3d_bias_clip", _dnnl_conv3d_bias_clip_pattern()),
        ("dnnl.deconv2d_bias_clip", _dnnl_deconv2d_bias_clip_pattern()),
        ("dnnl.deconv3d_bias_clip", _dnnl_deconv3d_bias_clip_pattern()),
        ("dnnl.dense_bias_clip", _dnnl_dense_bias_clip_pattern()),
        ("dnnl.conv1d_bias_gelu", _dnnl_conv1d_bias_gelu_pattern()),
        ("dnnl.conv2d_bias_gelu", _dnnl_conv2d_bias_gelu_pattern()),
        ("dnnl.conv3d_bias_gelu", _dnnl_conv3d_bias_gelu_pattern()),
        ("dnnl.deconv2d_bias_gelu", _dnnl_deconv2d_bias_gelu_pattern()),
        ("dnnl.deconv3d_bias_gelu", _dnnl_deconv3d_bias_gelu_pattern()),
        ("dnnl.dense_bias_gelu", _dnnl_dense_bias_gelu_pattern()),
        ("dnnl.conv1d_bias_swish", _dnnl_conv1d_bias_swish_pattern()),
        ("dnnl.conv2d_bias_swish", _dnnl_conv2d_bias_swish_pattern()),
        ("dnnl.conv3d_bias_swish", _dnnl_conv3d_bias_swish_pattern()),
        ("dnnl.deconv2d_bias_swish", _dnnl_deconv2d_bias_swish_pattern()),
        ("dnnl.deconv3d_bias_swish", _dnnl_deconv3d_bias_swish_pattern()),
        ("dnnl.dense_bias_swish", _dnnl_dense_bias_swish_pattern()),
        ("dnnl.conv1d_bias_mish", _dnnl_conv1d_bias_mish_pattern()),
        ("dnnl.conv2d_bias_mish", _dnnl_conv2d_bias_mish_pattern()),
        ("dnnl.conv3d_bias_mish", _dnnl_conv3d_bias_mish_pattern()),
        ("dnnl.deconv2d_bias_mish", _dnnl_deconv2d_bias_mish_pattern()),
        ("dnnl.deconv3d_bias_mish", _dnnl_deconv3d_bias_mish_pattern()),
        ("dnnl.dense_bias_mish", _dnnl_dense_bias_mish_pattern()),
        ("dnnl.conv1d_bias", _dnnl_conv1d_bias_pattern(), _check_3),
        ("dnnl.conv2d_bias", _dnnl_conv2d_bias_pattern(), _check_3),
        ("dnnl.conv3d_bias", _dnnl_conv3d_bias_pattern(), _check_3),
        ("dnnl.deconv2d_bias", _dnnl_deconv2d_bias_pattern(), _check_3),
        ("dnnl.deconv3d_bias", _dnnl_deconv3d_bias_pattern(), _check_3),
        ("dnnl.dense_bias", _dnnl_dense_bias_pattern()),
        ("dnnl.conv1d_relu", _dnnl_conv1d_relu_pattern()),
        ("dnnl.conv2d_relu", _dnnl_conv2d_relu_pattern()),
        ("dnnl.conv3d_relu", _dnnl_conv3d_relu_pattern()),
        ("dnnl.deconv2d_relu", _dnnl_deconv2d_relu_pattern()),
        ("dnnl.deconv3d_relu", _dnnl_deconv3d_relu_pattern()),
        ("dnnl.dense_relu", _dnnl_dense_relu_pattern()),
        ("dnnl.conv1d_tanh", _dnnl_conv1d_tanh_pattern()),
        ("dnnl.conv2d_tanh", _dnnl_conv2d_tanh_pattern()),
        ("dnnl.conv3d_tanh", _dnnl_conv3d_tanh_pattern()),
        ("dnnl.deconv2d_tanh", _dnnl_deconv2d_tanh_pattern()),
        ("dnnl.deconv3d_tanh", _dnnl_deconv3d_tanh_pattern()),
        ("dnnl.dense_tanh", _dnnl_dense_tanh_pattern()),
        ("dnnl.conv1d_sigmoid", _dnnl_conv1d_sigmoid_pattern()),
        ("dnnl.conv2d_sigmoid", _dnnl_conv2d_sigmoid_pattern()),
        ("dnnl.conv3d_sigmoid", _dnnl_conv3d_sigmoid_pattern()),
        ("dnnl.deconv2d_sigmoid", _dnnl_deconv2d_sigmoid_pattern()),
        ("dnnl.deconv3d_sigmoid", _dnnl_deconv3d_sigmoid_pattern()),
        ("dnnl.dense_sigmoid", _dnnl_dense_sigmoid_pattern()),
        ("dnnl.conv1d_clip", _dnnl_conv1d_clip_pattern()),
        ("dnnl.conv2d_clip", _dnnl_conv2d_clip_pattern()),
        ("dnnl.conv3d_clip", _dnnl_conv3d_clip_pattern()),
        ("dnnl.deconv2d_clip", _dnnl_deconv2d_clip_pattern()),
        ("dnnl.deconv3d_clip", _dnnl_deconv3d_clip_pattern()),
        ("dnnl.dense_clip", _dnnl_dense_clip_pattern()),
        ("dnnl.conv1d_gelu", _dnnl_conv1d_gelu_pattern()),
        ("dnnl.conv2d_gelu", _dnnl_conv2d_gelu_pattern()),
        ("dnnl.conv3d_gelu", _dnnl_conv3d_gelu_pattern()),
        ("dnnl.deconv2d_gelu", _dnnl_deconv2d_gelu_pattern()),
        ("dnnl.deconv3d_gelu", _dnnl_deconv3d_gelu_pattern()),
        ("dnnl.dense_gelu", _dnnl_dense_gelu_pattern()),
        ("dnnl.conv1d_swish", _dnnl_conv1d_swish_pattern()),
        ("dnnl.conv2d_swish", _dnnl_conv2d_swish_pattern()),
        ("dnnl.conv3d_swish", _dnnl_conv3d_swish_pattern()),
        ("dnnl.deconv2d_swish", _dnnl_deconv2d_swish_pattern()),
        ("dnnl.deconv3d_swish", _dnnl_deconv3d_swish_pattern()),
        ("dnnl.dense_swish", _dnnl_dense_swish_pattern()),
        ("dnnl.conv1d_mish", _dnnl_conv1d_mish_pattern()),
        ("dnnl.conv2d_mish", _dnnl_conv2d_mish_pattern()),
        ("dnnl.conv3d_mish", _dnnl_conv3d_mish_pattern()),
        ("dnnl.deconv2d_mish", _dnnl_deconv2d_mish_pattern()),
        ("dnnl.deconv3d_mish", _dnnl_deconv3d_mish_pattern()),
        ("dnnl.dense_mish", _dnnl_dense_mish_pattern()),
    ]
