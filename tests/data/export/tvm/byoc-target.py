"""byoc-target for TVM's bring-your-own-codegen flow, written by BYOC Studio.

The demo backend of TVM's BYOC walkthrough: add and reshape as single ops, conv2d (+ bias_add) + relu as composites.

Importing this module registers, for the compiler "byoc-target":
* one op-support function per op rule, as the "target.byoc-target" attribute of each op it is
  the first rule to name (AnnotateTarget offloads a call when it returns True);
* the composite patterns, in priority order, as the pattern table of "byoc-target"
  (MergeComposite(pattern_table())).
"""
import tvm
from tvm import relay
from tvm.relay.dataflow_pattern import is_op, wildcard
from tvm.relay.op.contrib.register import register_pattern_table


@tvm.ir.register_op_attr("reshape", "target.byoc-target")
@tvm.ir.register_op_attr("add", "target.byoc-target")
def _op_rule_0(expr):
    """reshape, add"""
    return True


def _byoc_target_conv2d_relu_with_bias_pattern():
    """nn.relu(nn.bias_add(nn.conv2d(*, *), *))"""
    return is_op("nn.relu")(is_op("nn.bias_add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard()))


def _byoc_target_conv2d_relu_wo_bias_pattern():
    """nn.relu(nn.conv2d(*, *))"""
    return is_op("nn.relu")(is_op("nn.conv2d")(wildcard(), wildcard()))


@register_pattern_table("byoc-target")
def pattern_table():
    """The composite patterns of byoc-target, in priority order: earlier rows win."""
    return [
        ("byoc-target.conv2d_relu_with_bias", _byoc_target_conv2d_relu_with_bias_pattern()),
        ("byoc-target.conv2d_relu_wo_bias", _byoc_target_conv2d_relu_wo_bias_pattern()),
    ]
