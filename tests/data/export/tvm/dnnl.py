"""dnnl for TVM's bring-your-own-codegen flow, written by BYOC Studio.

oneDNN (DNNL) on the CPU: the ops and the composite pattern table of TVM's dnnl integration, plus concatenation, padding, slicing, reshapes, ceil-mode pooling and layer norm and gelu composites, so that whole networks become one region; quantized (QDQ) models run their int8 convolutions and dense layers as oneDNN int8 primitives, after FakeQuantizationToInteger and TVM's legalize_qnn_for_dnnl.

Importing this module registers, for the compiler "dnnl":
* one op-support function per op rule, as the "target.dnnl" attribute of each op it is
  the first rule to name (AnnotateTarget offloads a call when it returns True);
* the composite patterns, in priority order, as the pattern table of "dnnl"
  (MergeComposite(pattern_table())).

Before partitioning, the target's flow runs FakeQuantizationToInteger,CanonicalizeOps,SimplifyInference,FoldConstant,LegalizeQnnForDnnl.
Partitioned regions containing none of these ops are not worth offloading:
nn.conv2d, nn.conv2d_transpose, nn.dense, nn.layer_norm, nn.batch_matmul, nn.global_avg_pool2d, qnn.conv2d, qnn.dense.
"""
import tvm
from tvm import relay
from tvm.relay.dataflow_pattern import is_constant, is_expr, is_op, wildcard
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


def _in(item, items):
    """Whether `items`, a list, holds a value equal to `item`."""
    if not isinstance(items, list):
        raise ValueError("'in' needs a list on its right, found %r" % (items,))
    return any(_same(item, x) for x in items)


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


def _static_shape(expr):
    """Whether `expr` and the arguments of the call `expr` have no unknown (Any) dimension."""
    types = [expr.checked_type] + ([arg.checked_type for arg in expr.args] if isinstance(expr, relay.Call) else [])
    while types:
        ty = types.pop()
        if isinstance(ty, relay.TupleType):
            types.extend(ty.fields)
        elif isinstance(ty, relay.TensorType) and not all(isinstance(dim, tvm.tir.IntImm) for dim in ty.shape):
            return False
    return True


@tvm.ir.register_op_attr("nn.max_pool2d", "target.dnnl")
def _op_rule_0(expr):
    """nn.max_pool2d when static_shape() and ("int64" not in arg_dtypes() and (dtype(arg0) == "float32" or dtype(arg0) == "uint8" or dtype(arg0) == "int8"))"""
    return _static_shape(expr) and ("int64" not in _arg_dtypes(expr) and (_tensor_type(expr.args[0]).dtype == "float32" or _tensor_type(expr.args[0]).dtype == "uint8" or _tensor_type(expr.args[0]).dtype == "int8"))


@tvm.ir.register_op_attr("nn.avg_pool2d", "target.dnnl")
def _op_rule_1(expr):
    """nn.avg_pool2d when static_shape() and "int64" not in arg_dtypes() and dtype(arg0) == "float32" and not (ceil_mode and count_include_pad)"""
    return _static_shape(expr) and "int64" not in _arg_dtypes(expr) and _tensor_type(expr.args[0]).dtype == "float32" and not (_bool(_attr(expr, "ceil_mode")) and _bool(_attr(expr, "count_include_pad")))


@tvm.ir.register_op_attr("nn.pad", "target.dnnl")
def _op_rule_2(expr):
    """nn.pad when static_shape() and (dtype() == "float32" or dtype() == "uint8" or dtype() == "int8") and pad_mode == "constant" and is_constant(arg1)"""
    return _static_shape(expr) and (_tensor_type(expr).dtype == "float32" or _tensor_type(expr).dtype == "uint8" or _tensor_type(expr).dtype == "int8") and _attr(expr, "pad_mode") == "constant" and isinstance(expr.args[1], relay.Constant)


@tvm.ir.register_op_attr("qnn.quantize", "target.dnnl")
def _op_rule_3(expr):
    """qnn.quantize when static_shape() and (dtype() == "uint8" or dtype() == "int8") and is_constant(arg1) and is_constant(arg2) and numel(arg1) == 1 and numel(arg2) == 1"""
    return _static_shape(expr) and (_tensor_type(expr).dtype == "uint8" or _tensor_type(expr).dtype == "int8") and isinstance(expr.args[1], relay.Constant) and isinstance(expr.args[2], relay.Constant) and _numel(expr.args[1]) == 1 and _numel(expr.args[2]) == 1


@tvm.ir.register_op_attr("qnn.dequantize", "target.dnnl")
def _op_rule_4(expr):
    """qnn.dequantize when static_shape() and (dtype(arg0) == "uint8" or dtype(arg0) == "int8") and is_constant(arg1) and is_constant(arg2) and numel(arg1) == 1 and numel(arg2) == 1"""
    return _static_shape(expr) and (_tensor_type(expr.args[0]).dtype == "uint8" or _tensor_type(expr.args[0]).dtype == "int8") and isinstance(expr.args[1], relay.Constant) and isinstance(expr.args[2], relay.Constant) and _numel(expr.args[1]) == 1 and _numel(expr.args[2]) == 1


@tvm.ir.register_op_attr("qnn.add", "target.dnnl")
def _op_rule_5(expr):
    """qnn.add when static_shape() and (dtype() == "uint8" or dtype() == "int8") and (shape(arg0) == shape() or shape(arg1) == shape()) and is_constant(arg2) and is_constant(arg3) and is_constant(arg4) and is_constant(arg5) and is_constant(arg6) and is_constant(arg7) and numel(arg2) == 1 and numel(arg3) == 1 and numel(arg4) == 1 and numel(arg5) == 1 and numel(arg6) == 1 and numel(arg7) == 1"""
    return _static_shape(expr) and (_tensor_type(expr).dtype == "uint8" or _tensor_type(expr).dtype == "int8") and (_shape(expr.args[0]) == _shape(expr) or _shape(expr.args[1]) == _shape(expr)) and isinstance(expr.args[2], relay.Constant) and isinstance(expr.args[3], relay.Constant) and isinstance(expr.args[4], relay.Constant) and isinstance(expr.args[5], relay.Constant) and isinstance(expr.args[6], relay.Constant) and isinstance(expr.args[7], relay.Constant) and _numel(expr.args[2]) == 1 and _numel(expr.args[3]) == 1 and _numel(expr.args[4]) == 1 and _numel(expr.args[5]) == 1 and _numel(expr.args[6]) == 1 and _numel(expr.args[7]) == 1


@tvm.ir.register_op_attr("qnn.subtract", "target.dnnl")
def _op_rule_6(expr):
    """qnn.subtract when static_shape() and (dtype() == "uint8" or dtype() == "int8") and shape(arg0) == shape() and is_constant(arg2) and is_constant(arg3) and is_constant(arg4) and is_constant(arg5) and is_constant(arg6) and is_constant(arg7) and numel(arg2) == 1 and numel(arg3) == 1 and numel(arg4) == 1 and numel(arg5) == 1 and numel(arg6) == 1 and numel(arg7) == 1"""
    return _static_shape(expr) and (_tensor_type(expr).dtype == "uint8" or _tensor_type(expr).dtype == "int8") and _shape(expr.args[0]) == _shape(expr) and isinstance(expr.args[2], relay.Constant) and isinstance(expr.args[3], relay.Constant) and isinstance(expr.args[4], relay.Constant) and isinstance(expr.args[5], relay.Constant) and isinstance(expr.args[6], relay.Constant) and isinstance(expr.args[7], relay.Constant) and _numel(expr.args[2]) == 1 and _numel(expr.args[3]) == 1 and _numel(expr.args[4]) == 1 and _numel(expr.args[5]) == 1 and _numel(expr.args[6]) == 1 and _numel(expr.args[7]) == 1


@tvm.ir.register_op_attr("qnn.concatenate", "target.dnnl")
def _op_rule_7(expr):
    """qnn.concatenate when static_shape() and (dtype() == "uint8" or dtype() == "int8") and is_constant(arg3) and is_constant(arg4) and numel(arg3) == 1 and numel(arg4) == 1"""
    return _static_shape(expr) and (_tensor_type(expr).dtype == "uint8" or _tensor_type(expr).dtype == "int8") and isinstance(expr.args[3], relay.Constant) and isinstance(expr.args[4], relay.Constant) and _numel(expr.args[3]) == 1 and _numel(expr.args[4]) == 1


@tvm.ir.register_op_attr("concatenate", "target.dnnl")
@tvm.ir.register_op_attr("reshape", "target.dnnl")
@tvm.ir.register_op_attr("squeeze", "target.dnnl")
@tvm.ir.register_op_attr("expand_dims", "target.dnnl")
@tvm.ir.register_op_attr("nn.batch_flatten", "target.dnnl")
@tvm.ir.register_op_attr("transpose", "target.dnnl")
def _op_rule_8(expr):
    """concatenate, reshape, squeeze, expand_dims, nn.batch_flatten, transpose when static_shape() and (dtype() == "float32" or dtype() == "uint8" or dtype() == "int8")"""
    return _static_shape(expr) and (_tensor_type(expr).dtype == "float32" or _tensor_type(expr).dtype == "uint8" or _tensor_type(expr).dtype == "int8")


@tvm.ir.register_op_attr("strided_slice", "target.dnnl")
def _op_rule_9(expr):
    """strided_slice when static_shape() and ((dtype() == "float32" or dtype() == "uint8" or dtype() == "int8") and (strides == None or strides == [1]))"""
    return _static_shape(expr) and ((_tensor_type(expr).dtype == "float32" or _tensor_type(expr).dtype == "uint8" or _tensor_type(expr).dtype == "int8") and (_same(_attr(expr, "strides"), None) or _same(_attr(expr, "strides"), [1])))


@tvm.ir.register_op_attr("subtract", "target.dnnl")
@tvm.ir.register_op_attr("divide", "target.dnnl")
@tvm.ir.register_op_attr("maximum", "target.dnnl")
@tvm.ir.register_op_attr("minimum", "target.dnnl")
def _op_rule_10(expr):
    """subtract, divide, maximum, minimum when static_shape() and dtype() == "float32" and shape(arg0) == shape()"""
    return _static_shape(expr) and _tensor_type(expr).dtype == "float32" and _shape(expr.args[0]) == _shape(expr)


@tvm.ir.register_op_attr("nn.batch_norm", "target.dnnl")
@tvm.ir.register_op_attr("nn.global_avg_pool2d", "target.dnnl")
@tvm.ir.register_op_attr("nn.conv2d", "target.dnnl")
@tvm.ir.register_op_attr("nn.conv2d_transpose", "target.dnnl")
@tvm.ir.register_op_attr("nn.dense", "target.dnnl")
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
def _op_rule_11(expr):
    """nn.batch_norm, nn.global_avg_pool2d, nn.conv2d, nn.conv2d_transpose, nn.dense, abs, clip, exp, log, sqrt, round, nn.relu, nn.leaky_relu, tanh, sigmoid, nn.softmax, add, multiply, nn.layer_norm, nn.batch_matmul when static_shape() and "int64" not in arg_dtypes() and dtype(arg0) == "float32\""""
    return _static_shape(expr) and "int64" not in _arg_dtypes(expr) and _tensor_type(expr.args[0]).dtype == "float32"


def _dnnl_qnn_conv2d_sum_pattern():
    """zp = 0; c = cast(qnn.conv2d(*, const, zp, zp, const, const)); b = add(c, const) | c; k = round(clip(multiply(b, const))); m = multiply(k, const) | k; s = add(m, multiply(const, cast(*))); d = add(s, const) | s; e = clip(d) | d; cast(round(e))"""
    zp = is_expr(relay.const(0, "int32"))
    c = is_op("cast")(is_op("qnn.conv2d")(wildcard(), is_constant(), zp, zp, is_constant(), is_constant()))
    b = is_op("add")(c, is_constant()) | c
    k = is_op("round")(is_op("clip")(is_op("multiply")(b, is_constant())))
    m = is_op("multiply")(k, is_constant()) | k
    s = is_op("add")(m, is_op("multiply")(is_constant(), is_op("cast")(wildcard())))
    d = is_op("add")(s, is_constant()) | s
    e = is_op("clip")(d) | d
    return is_op("cast")(is_op("round")(e))


def _check_0(expr):
    """static_shape()"""
    return _static_shape(expr)


def _dnnl_qnn_dense_sum_pattern():
    """zp = 0; c = cast(qnn.dense(*, const, zp, zp, const, const)); b = add(c, const) | c; k = round(clip(multiply(b, const))); m = multiply(k, const) | k; s = add(m, multiply(const, cast(*))); d = add(s, const) | s; e = clip(d) | d; cast(round(e))"""
    zp = is_expr(relay.const(0, "int32"))
    c = is_op("cast")(is_op("qnn.dense")(wildcard(), is_constant(), zp, zp, is_constant(), is_constant()))
    b = is_op("add")(c, is_constant()) | c
    k = is_op("round")(is_op("clip")(is_op("multiply")(b, is_constant())))
    m = is_op("multiply")(k, is_constant()) | k
    s = is_op("add")(m, is_op("multiply")(is_constant(), is_op("cast")(wildcard())))
    d = is_op("add")(s, is_constant()) | s
    e = is_op("clip")(d) | d
    return is_op("cast")(is_op("round")(e))


def _dnnl_qnn_conv2d_pattern():
    """zp = 0; c = cast(qnn.conv2d(*, const, zp, zp, const, const)); b = add(c, const) | c; k = clip(multiply(b, const)); r = round(k) | k; m = multiply(r, const) | r; s = add(m, multiply(const, cast(*))) | m; d = add(s, const) | s; cast(round(d))"""
    zp = is_expr(relay.const(0, "int32"))
    c = is_op("cast")(is_op("qnn.conv2d")(wildcard(), is_constant(), zp, zp, is_constant(), is_constant()))
    b = is_op("add")(c, is_constant()) | c
    k = is_op("clip")(is_op("multiply")(b, is_constant()))
    r = is_op("round")(k) | k
    m = is_op("multiply")(r, is_constant()) | r
    s = is_op("add")(m, is_op("multiply")(is_constant(), is_op("cast")(wildcard()))) | m
    d = is_op("add")(s, is_constant()) | s
    return is_op("cast")(is_op("round")(d))


def _dnnl_qnn_dense_pattern():
    """zp = 0; c = cast(qnn.dense(*, const, zp, zp, const, const)); b = add(c, const) | c; k = clip(multiply(b, const)); r = round(k) | k; m = multiply(r, const) | r; s = add(m, multiply(const, cast(*))) | m; d = add(s, const) | s; cast(round(d))"""
    zp = is_expr(relay.const(0, "int32"))
    c = is_op("cast")(is_op("qnn.dense")(wildcard(), is_constant(), zp, zp, is_constant(), is_constant()))
    b = is_op("add")(c, is_constant()) | c
    k = is_op("clip")(is_op("multiply")(b, is_constant()))
    r = is_op("round")(k) | k
    m = is_op("multiply")(r, is_constant()) | r
    s = is_op("add")(m, is_op("multiply")(is_constant(), is_op("cast")(wildcard()))) | m
    d = is_op("add")(s, is_constant()) | s
    return is_op("cast")(is_op("round")(d))


def _dnnl_dense_bias_sum_pattern():
    """add(add(nn.dense(*, *), *), *)"""
    return is_op("add")(is_op("add")(is_op("nn.dense")(wildcard(), wildcard()), wildcard()), wildcard())


def _dnnl_conv2d_bias_sum_relu_pattern():
    """nn.relu(add(add(nn.conv2d(*, *), *), *))"""
    return is_op("nn.relu")(is_op("add")(is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard()), wildcard()))


def _check_1(expr):
    """static_shape() and ((op(arg0.arg0) == "add" and shape(arg0.arg0) == shape(arg0.arg1) and op(arg0.arg0.arg0) == "nn.conv2d" and attr(arg0.arg0.arg0, "channels") == numel(arg0.arg0.arg1)))"""
    return _static_shape(expr) and (_op_name(expr.args[0].args[0]) == "add" and _shape(expr.args[0].args[0]) == _shape(expr.args[0].args[1]) and _op_name(expr.args[0].args[0].args[0]) == "nn.conv2d" and _same(_attr(expr.args[0].args[0].args[0], "channels"), _numel(expr.args[0].args[0].args[1])))


def _dnnl_conv2d_bias_sum_pattern():
    """add(add(nn.conv2d(*, *), *), *)"""
    return is_op("add")(is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard()), wildcard())


def _check_2(expr):
    """static_shape() and ((op(arg0) == "add" and shape(arg0) == shape(arg1) and op(arg0.arg0) == "nn.conv2d" and attr(arg0.arg0, "channels") == numel(arg0.arg1)))"""
    return _static_shape(expr) and (_op_name(expr.args[0]) == "add" and _shape(expr.args[0]) == _shape(expr.args[1]) and _op_name(expr.args[0].args[0]) == "nn.conv2d" and _same(_attr(expr.args[0].args[0], "channels"), _numel(expr.args[0].args[1])))


def _dnnl_conv2d_bias_relu_pattern():
    """nn.relu(add(nn.conv2d(*, *), *))"""
    return is_op("nn.relu")(is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard()))


def _check_3(expr):
    """static_shape() and (if op() == "nn.relu" then (op(arg0) != "add" or (op(arg0.arg0) == "nn.conv2d" and attr(arg0.arg0, "channels") == numel(arg0.arg1))) else (op() != "add" or (op(arg0) == "nn.conv2d" and attr(arg0, "channels") == numel(arg1))))"""
    return _static_shape(expr) and ((_op_name(expr.args[0]) != "add" or (_op_name(expr.args[0].args[0]) == "nn.conv2d" and _same(_attr(expr.args[0].args[0], "channels"), _numel(expr.args[0].args[1])))) if _op_name(expr) == "nn.relu" else (_op_name(expr) != "add" or (_op_name(expr.args[0]) == "nn.conv2d" and _same(_attr(expr.args[0], "channels"), _numel(expr.args[1])))))


def _dnnl_deconv2d_bias_relu_pattern():
    """nn.relu(add(nn.conv2d_transpose(*, *), *))"""
    return is_op("nn.relu")(is_op("add")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()), wildcard()))


def _dnnl_dense_bias_relu_pattern():
    """nn.relu(add(nn.dense(*, *), *))"""
    return is_op("nn.relu")(is_op("add")(is_op("nn.dense")(wildcard(), wildcard()), wildcard()))


def _dnnl_conv2d_bias_tanh_pattern():
    """tanh(add(nn.conv2d(*, *), *))"""
    return is_op("tanh")(is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard()))


def _dnnl_deconv2d_bias_tanh_pattern():
    """tanh(add(nn.conv2d_transpose(*, *), *))"""
    return is_op("tanh")(is_op("add")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()), wildcard()))


def _dnnl_dense_bias_tanh_pattern():
    """tanh(add(nn.dense(*, *), *))"""
    return is_op("tanh")(is_op("add")(is_op("nn.dense")(wildcard(), wildcard()), wildcard()))


def _dnnl_conv2d_bias_sigmoid_pattern():
    """sigmoid(add(nn.conv2d(*, *), *))"""
    return is_op("sigmoid")(is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard()))


def _dnnl_deconv2d_bias_sigmoid_pattern():
    """sigmoid(add(nn.conv2d_transpose(*, *), *))"""
    return is_op("sigmoid")(is_op("add")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()), wildcard()))


def _dnnl_dense_bias_sigmoid_pattern():
    """sigmoid(add(nn.dense(*, *), *))"""
    return is_op("sigmoid")(is_op("add")(is_op("nn.dense")(wildcard(), wildcard()), wildcard()))


def _dnnl_conv2d_bias_clip_pattern():
    """clip(add(nn.conv2d(*, *), *))"""
    return is_op("clip")(is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard()))


def _dnnl_deconv2d_bias_clip_pattern():
    """clip(add(nn.conv2d_transpose(*, *), *))"""
    return is_op("clip")(is_op("add")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()), wildcard()))


def _dnnl_dense_bias_clip_pattern():
    """clip(add(nn.dense(*, *), *))"""
    return is_op("clip")(is_op("add")(is_op("nn.dense")(wildcard(), wildcard()), wildcard()))


def _dnnl_conv2d_bias_gelu_pattern():
    """x = add(nn.conv2d(*, *), *); multiply(multiply(x, add(erf(divide(x, *)), *)), *)"""
    x = is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(is_op("multiply")(x, is_op("add")(is_op("erf")(is_op("divide")(x, wildcard())), wildcard())), wildcard())


def _dnnl_deconv2d_bias_gelu_pattern():
    """x = add(nn.conv2d_transpose(*, *), *); multiply(multiply(x, add(erf(divide(x, *)), *)), *)"""
    x = is_op("add")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(is_op("multiply")(x, is_op("add")(is_op("erf")(is_op("divide")(x, wildcard())), wildcard())), wildcard())


def _dnnl_dense_bias_gelu_pattern():
    """x = add(nn.dense(*, *), *); multiply(multiply(x, add(erf(divide(x, *)), *)), *)"""
    x = is_op("add")(is_op("nn.dense")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(is_op("multiply")(x, is_op("add")(is_op("erf")(is_op("divide")(x, wildcard())), wildcard())), wildcard())


def _dnnl_conv2d_bias_swish_pattern():
    """x = add(nn.conv2d(*, *), *); multiply(x, sigmoid(x))"""
    x = is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(x, is_op("sigmoid")(x))


def _dnnl_deconv2d_bias_swish_pattern():
    """x = add(nn.conv2d_transpose(*, *), *); multiply(x, sigmoid(x))"""
    x = is_op("add")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(x, is_op("sigmoid")(x))


def _dnnl_dense_bias_swish_pattern():
    """x = add(nn.dense(*, *), *); multiply(x, sigmoid(x))"""
    x = is_op("add")(is_op("nn.dense")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(x, is_op("sigmoid")(x))


def _dnnl_conv2d_bias_mish_pattern():
    """x = add(nn.conv2d(*, *), *); multiply(x, tanh(log(add(exp(x), *))))"""
    x = is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(x, is_op("tanh")(is_op("log")(is_op("add")(is_op("exp")(x), wildcard()))))


def _dnnl_deconv2d_bias_mish_pattern():
    """x = add(nn.conv2d_transpose(*, *), *); multiply(x, tanh(log(add(exp(x), *))))"""
    x = is_op("add")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(x, is_op("tanh")(is_op("log")(is_op("add")(is_op("exp")(x), wildcard()))))


def _dnnl_dense_bias_mish_pattern():
    """x = add(nn.dense(*, *), *); multiply(x, tanh(log(add(exp(x), *))))"""
    x = is_op("add")(is_op("nn.dense")(wildcard(), wildcard()), wildcard())
    return is_op("multiply")(x, is_op("tanh")(is_op("log")(is_op("add")(is_op("exp")(x), wildcard()))))


def _dnnl_conv2d_bias_pattern():
    """add(nn.conv2d(*, *), *)"""
    return is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard())


def _dnnl_deconv2d_bias_pattern():
    """add(nn.conv2d_transpose(*, *), *)"""
    return is_op("add")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()), wildcard())


def _dnnl_dense_bias_pattern():
    """add(nn.dense(*, *), *)"""
    return is_op("add")(is_op("nn.dense")(wildcard(), wildcard()), wildcard())


def _dnnl_conv2d_relu_pattern():
    """nn.relu(nn.conv2d(*, *))"""
    return is_op("nn.relu")(is_op("nn.conv2d")(wildcard(), wildcard()))


def _dnnl_deconv2d_relu_pattern():
    """nn.relu(nn.conv2d_transpose(*, *))"""
    return is_op("nn.relu")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()))


def _dnnl_dense_relu_pattern():
    """nn.relu(nn.dense(*, *))"""
    return is_op("nn.relu")(is_op("nn.dense")(wildcard(), wildcard()))


def _dnnl_conv2d_tanh_pattern():
    """tanh(nn.conv2d(*, *))"""
    return is_op("tanh")(is_op("nn.conv2d")(wildcard(), wildcard()))


def _dnnl_deconv2d_tanh_pattern():
    """tanh(nn.conv2d_transpose(*, *))"""
    return is_op("tanh")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()))


def _dnnl_dense_tanh_pattern():
    """tanh(nn.dense(*, *))"""
    return is_op("tanh")(is_op("nn.dense")(wildcard(), wildcard()))


def _dnnl_conv2d_sigmoid_pattern():
    """sigmoid(nn.conv2d(*, *))"""
    return is_op("sigmoid")(is_op("nn.conv2d")(wildcard(), wildcard()))


def _dnnl_deconv2d_sigmoid_pattern():
    """sigmoid(nn.conv2d_transpose(*, *))"""
    return is_op("sigmoid")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()))


def _dnnl_dense_sigmoid_pattern():
    """sigmoid(nn.dense(*, *))"""
    return is_op("sigmoid")(is_op("nn.dense")(wildcard(), wildcard()))


def _dnnl_conv2d_clip_pattern():
    """clip(nn.conv2d(*, *))"""
    return is_op("clip")(is_op("nn.conv2d")(wildcard(), wildcard()))


def _dnnl_deconv2d_clip_pattern():
    """clip(nn.conv2d_transpose(*, *))"""
    return is_op("clip")(is_op("nn.conv2d_transpose")(wildcard(), wildcard()))


def _dnnl_dense_clip_pattern():
    """clip(nn.dense(*, *))"""
    return is_op("clip")(is_op("nn.dense")(wildcard(), wildcard()))


def _dnnl_conv2d_gelu_pattern():
    """x = nn.conv2d(*, *); multiply(multiply(x, add(erf(divide(x, *)), *)), *)"""
    x = is_op("nn.conv2d")(wildcard(), wildcard())
    return is_op("multiply")(is_op("multiply")(x, is_op("add")(is_op("erf")(is_op("divide")(x, wildcard())), wildcard())), wildcard())


def _dnnl_deconv2d_gelu_pattern():
    """x = nn.conv2d_transpose(*, *); multiply(multiply(x, add(erf(divide(x, *)), *)), *)"""
    x = is_op("nn.conv2d_transpose")(wildcard(), wildcard())
    return is_op("multiply")(is_op("multiply")(x, is_op("add")(is_op("erf")(is_op("divide")(x, wildcard())), wildcard())), wildcard())


def _dnnl_dense_gelu_pattern():
    """x = nn.dense(*, *); multiply(multiply(x, add(erf(divide(x, *)), *)), *)"""
    x = is_op("nn.dense")(wildcard(), wildcard())
    return is_op("multiply")(is_op("multiply")(x, is_op("add")(is_op("erf")(is_op("divide")(x, wildcard())), wildcard())), wildcard())


def _dnnl_conv2d_swish_pattern():
    """x = nn.conv2d(*, *); multiply(x, sigmoid(x))"""
    x = is_op("nn.conv2d")(wildcard(), wildcard())
    return is_op("multiply")(x, is_op("sigmoid")(x))


def _dnnl_deconv2d_swish_pattern():
    """x = nn.conv2d_transpose(*, *); multiply(x, sigmoid(x))"""
    x = is_op("nn.conv2d_transpose")(wildcard(), wildcard())
    return is_op("multiply")(x, is_op("sigmoid")(x))


def _dnnl_dense_swish_pattern():
    """x = nn.dense(*, *); multiply(x, sigmoid(x))"""
    x = is_op("nn.dense")(wildcard(), wildcard())
    return is_op("multiply")(x, is_op("sigmoid")(x))


def _dnnl_conv2d_mish_pattern():
    """x = nn.conv2d(*, *); multiply(x, tanh(log(add(exp(x), *))))"""
    x = is_op("nn.conv2d")(wildcard(), wildcard())
    return is_op("multiply")(x, is_op("tanh")(is_op("log")(is_op("add")(is_op("exp")(x), wildcard()))))


def _dnnl_deconv2d_mish_pattern():
    """x = nn.conv2d_transpose(*, *); multiply(x, tanh(log(add(exp(x), *))))"""
    x = is_op("nn.conv2d_transpose")(wildcard(), wildcard())
    return is_op("multiply")(x, is_op("tanh")(is_op("log")(is_op("add")(is_op("exp")(x), wildcard()))))


def _dnnl_dense_mish_pattern():
    """x = nn.dense(*, *); multiply(x, tanh(log(add(exp(x), *))))"""
    x = is_op("nn.dense")(wildcard(), wildcard())
    return is_op("multiply")(x, is_op("tanh")(is_op("log")(is_op("add")(is_op("exp")(x), wildcard()))))


def _dnnl_layer_norm_pattern():
    """x = *; d = subtract(x, mean(x)); divide(d, sqrt(add(mean(power(d, 2f)), const)))"""
    x = wildcard()
    d = is_op("subtract")(x, is_op("mean")(x))
    return is_op("divide")(d, is_op("sqrt")(is_op("add")(is_op("mean")(is_op("power")(d, is_expr(relay.const(2.0, "float32")))), is_constant())))


def _check_4(expr):
    """static_shape() and (attr(arg0.arg1, "axis") == [-1] and attr(arg0.arg1, "keepdims") and attr(arg1.arg0.arg0, "axis") == [-1] and attr(arg1.arg0.arg0, "keepdims") and attr(arg0.arg1, "exclude") != True and attr(arg1.arg0.arg0, "exclude") != True and dtype() == "float32")"""
    return _static_shape(expr) and (_same(_attr(expr.args[0].args[1], "axis"), [-1]) and _bool(_attr(expr.args[0].args[1], "keepdims")) and _same(_attr(expr.args[1].args[0].args[0], "axis"), [-1]) and _bool(_attr(expr.args[1].args[0].args[0], "keepdims")) and not _same(_attr(expr.args[0].args[1], "exclude"), True) and not _same(_attr(expr.args[1].args[0].args[0], "exclude"), True) and _tensor_type(expr).dtype == "float32")


def _dnnl_gelu_pattern():
    """x = *; multiply(multiply(x, add(erf(divide(x, 1.4142135f)), 1f)), 0.5f)"""
    x = wildcard()
    return is_op("multiply")(is_op("multiply")(x, is_op("add")(is_op("erf")(is_op("divide")(x, is_expr(relay.const(1.4142135, "float32")))), is_expr(relay.const(1.0, "float32")))), is_expr(relay.const(0.5, "float32")))


def _check_5(expr):
    """static_shape() and (dtype() == "float32")"""
    return _static_shape(expr) and _tensor_type(expr).dtype == "float32"


def _dnnl_scale_shift_relu_pattern():
    """nn.relu(add(multiply(*, *), *))"""
    return is_op("nn.relu")(is_op("add")(is_op("multiply")(wildcard(), wildcard()), wildcard()))


def _check_6(expr):
    """static_shape() and (dtype() == "float32" and rank() == 4 and shape() == shape(arg0.arg0.arg0) and is_constant(arg0.arg0.arg1) and is_constant(arg0.arg1) and shape(arg0.arg0.arg1) in [[numel(arg0.arg0.arg1), 1, 1], [1, numel(arg0.arg0.arg1), 1, 1]] and shape(arg0.arg1) in [[numel(arg0.arg1), 1, 1], [1, numel(arg0.arg1), 1, 1]])"""
    return _static_shape(expr) and (_tensor_type(expr).dtype == "float32" and len(_tensor_type(expr).shape) == 4 and _shape(expr) == _shape(expr.args[0].args[0].args[0]) and isinstance(expr.args[0].args[0].args[1], relay.Constant) and isinstance(expr.args[0].args[1], relay.Constant) and _in(_shape(expr.args[0].args[0].args[1]), [[_numel(expr.args[0].args[0].args[1]), 1, 1], [1, _numel(expr.args[0].args[0].args[1]), 1, 1]]) and _in(_shape(expr.args[0].args[1]), [[_numel(expr.args[0].args[1]), 1, 1], [1, _numel(expr.args[0].args[1]), 1, 1]]))


def _dnnl_scale_shift_pattern():
    """add(multiply(*, *), *)"""
    return is_op("add")(is_op("multiply")(wildcard(), wildcard()), wildcard())


def _check_7(expr):
    """static_shape() and (dtype() == "float32" and rank() == 4 and shape() == shape(arg0.arg0) and is_constant(arg0.arg1) and is_constant(arg1) and shape(arg0.arg1) in [[numel(arg0.arg1), 1, 1], [1, numel(arg0.arg1), 1, 1]] and shape(arg1) in [[numel(arg1), 1, 1], [1, numel(arg1), 1, 1]])"""
    return _static_shape(expr) and (_tensor_type(expr).dtype == "float32" and len(_tensor_type(expr).shape) == 4 and _shape(expr) == _shape(expr.args[0].args[0]) and isinstance(expr.args[0].args[1], relay.Constant) and isinstance(expr.args[1], relay.Constant) and _in(_shape(expr.args[0].args[1]), [[_numel(expr.args[0].args[1]), 1, 1], [1, _numel(expr.args[0].args[1]), 1, 1]]) and _in(_shape(expr.args[1]), [[_numel(expr.args[1]), 1, 1], [1, _numel(expr.args[1]), 1, 1]]))


@register_pattern_table("dnnl")
def pattern_table():
    """The composite patterns of dnnl, in priority order: earlier rows win."""
    return [
        ("dnnl.qnn.conv2d_sum", _dnnl_qnn_conv2d_sum_pattern(), _check_0),
        ("dnnl.qnn.dense_sum", _dnnl_qnn_dense_sum_pattern(), _check_0),
        ("dnnl.qnn.conv2d", _dnnl_qnn_conv2d_pattern(), _check_0),
        ("dnnl.qnn.dense", _dnnl_qnn_dense_pattern(), _check_0),
        ("dnnl.dense_bias_sum", _dnnl_dense_bias_sum_pattern(), _check_0),
        ("dnnl.conv2d_bias_sum_relu", _dnnl_conv2d_bias_sum_relu_pattern(), _check_1),
        ("dnnl.conv2d_bias_sum", _dnnl_conv2d_bias_sum_pattern(), _check_2),
        ("dnnl.conv2d_bias_relu", _dnnl_conv2d_bias_relu_pattern(), _check_3),
        ("dnnl.deconv2d_bias_relu", _dnnl_deconv2d_bias_relu_pattern(), _check_3),
        ("dnnl.dense_bias_relu", _dnnl_dense_bias_relu_pattern(), _check_0),
        ("dnnl.conv2d_bias_tanh", _dnnl_conv2d_bias_tanh_pattern(), _check_3),
        ("dnnl.deconv2d_bias_tanh", _dnnl_deconv2d_bias_tanh_pattern(), _check_3),
        ("dnnl.dense_bias_tanh", _dnnl_dense_bias_tanh_pattern(), _check_0),
        ("dnnl.conv2d_bias_sigmoid", _dnnl_conv2d_bias_sigmoid_pattern(), _check_3),
        ("dnnl.deconv2d_bias_sigmoid", _dnnl_deconv2d_bias_sigmoid_pattern(), _check_3),
        ("dnnl.dense_bias_sigmoid", _dnnl_dense_bias_sigmoid_pattern(), _check_0),
        ("dnnl.conv2d_bias_clip", _dnnl_conv2d_bias_clip_pattern(), _check_3),
        ("dnnl.deconv2d_bias_clip", _dnnl_deconv2d_bias_clip_pattern(), _check_3),
        ("dnnl.dense_bias_clip", _dnnl_dense_bias_clip_pattern(), _check_0),
        ("dnnl.conv2d_bias_gelu", _dnnl_conv2d_bias_gelu_pattern(), _check_3),
        ("dnnl.deconv2d_bias_gelu", _dnnl_deconv2d_bias_gelu_pattern(), _check_3),
        ("dnnl.dense_bias_gelu", _dnnl_dense_bias_gelu_pattern(), _check_0),
        ("dnnl.conv2d_bias_swish", _dnnl_conv2d_bias_swish_pattern(), _check_3),
        ("dnnl.deconv2d_bias_swish", _dnnl_deconv2d_bias_swish_pattern(), _check_3),
        ("dnnl.dense_bias_swish", _dnnl_dense_bias_swish_pattern(), _check_0),
        ("dnnl.conv2d_bias_mish", _dnnl_conv2d_bias_mish_pattern(), _check_3),
        ("dnnl.deconv2d_bias_mish", _dnnl_deconv2d_bias_mish_pattern(), _check_3),
        ("dnnl.dense_bias_mish", _dnnl_dense_bias_mish_pattern(), _check_0),
        ("dnnl.conv2d_bias", _dnnl_conv2d_bias_pattern(), _check_3),
        ("dnnl.deconv2d_bias", _dnnl_deconv2d_bias_pattern(), _check_3),
        ("dnnl.dense_bias", _dnnl_dense_bias_pattern(), _check_0),
        ("dnnl.conv2d_relu", _dnnl_conv2d_relu_pattern(), _check_3),
        ("dnnl.deconv2d_relu", _dnnl_deconv2d_relu_pattern(), _check_3),
        ("dnnl.dense_relu", _dnnl_dense_relu_pattern(), _check_0),
        ("dnnl.conv2d_tanh", _dnnl_conv2d_tanh_pattern(), _check_3),
        ("dnnl.deconv2d_tanh", _dnnl_deconv2d_tanh_pattern(), _check_3),
        ("dnnl.dense_tanh", _dnnl_dense_tanh_pattern(), _check_0),
        ("dnnl.conv2d_sigmoid", _dnnl_conv2d_sigmoid_pattern(), _check_3),
        ("dnnl.deconv2d_sigmoid", _dnnl_deconv2d_sigmoid_pattern(), _check_3),
        ("dnnl.dense_sigmoid", _dnnl_dense_sigmoid_pattern(), _check_0),
        ("dnnl.conv2d_clip", _dnnl_conv2d_clip_pattern(), _check_3),
        ("dnnl.deconv2d_clip", _dnnl_deconv2d_clip_pattern(), _check_3),
        ("dnnl.dense_clip", _dnnl_dense_clip_pattern(), _check_0),
        ("dnnl.conv2d_gelu", _dnnl_conv2d_gelu_pattern(), _check_3),
        ("dnnl.deconv2d_gelu", _dnnl_deconv2d_gelu_pattern(), _check_3),
        ("dnnl.dense_gelu", _dnnl_dense_gelu_pattern(), _check_0),
        ("dnnl.conv2d_swish", _dnnl_conv2d_swish_pattern(), _check_3),
        ("dnnl.deconv2d_swish", _dnnl_deconv2d_swish_pattern(), _check_3),
        ("dnnl.dense_swish", _dnnl_dense_swish_pattern(), _check_0),
        ("dnnl.conv2d_mish", _dnnl_conv2d_mish_pattern(), _check_3),
        ("dnnl.deconv2d_mish", _dnnl_deconv2d_mish_pattern(), _check_3),
        ("dnnl.dense_mish", _dnnl_dense_mish_pattern(), _check_0),
        ("dnnl.layer_norm", _dnnl_layer_norm_pattern(), _check_4),
        ("dnnl.gelu", _dnnl_gelu_pattern(), _check_5),
        ("dnnl.scale_shift_relu", _dnnl_scale_shift_relu_pattern(), _check_6),
        ("dnnl.scale_shift", _dnnl_scale_shift_pattern(), _check_7),
    ]
