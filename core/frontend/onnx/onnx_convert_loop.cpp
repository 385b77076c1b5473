// ONNX Loop and Scan, as TVM's ONNX frontend imports them: a while loop (onnx_while_loop.h) whose
// variables are (iteration count, maximum count, condition, loop-carried values…) for Loop and
// (iteration count, state variables…, scan inputs…) for Scan, followed by the scan outputs
// gathered so far.

#include <limits>

#include "frontend/onnx/onnx_control_flow.h"
#include "frontend/onnx/onnx_converters.h"
#include "frontend/onnx/onnx_while_loop.h"

namespace byoc::onnx_import {

namespace {

std::string counted(int n, const std::string& what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

/// "body output 2 ('y_out')".
std::string bodyOutput(const onnx::GraphProto& body, int index) {
  return "body output " + std::to_string(index) + " ('" + body.output(index).name() + "')";
}

/// `value` as a scalar, when it is a tensor of `dtype` with one element; `what` names it in the error.
Result<OnnxValue> scalarOf(const OnnxNodeContext& c, const OnnxValue& value, DType dtype, const std::string& what) {
  if (!value.tensor() || value.tensor()->dtype != dtype || value.tensor()->numElements() != 1)
    return makeError(what + " must be a tensor of one " + std::string(dtypeName(dtype)) + " element, found " +
                     typeToString(value.type));
  if (value.rank() == 0) return value;
  return c.call("reshape", {value}, {{"newshape", AttrValue::ints({})}});
}

/// The body of `node`, or the error for a node without one.
Result<const onnx::GraphProto*> bodyOf(const onnx::NodeProto& node) {
  const onnx::GraphProto* body = graphAttribute(node, "body");
  if (!body) return makeError("missing the graph attribute body");
  return body;
}

/// `axes[i]` (ONNX's, possibly negative) for a tensor of `rank`, with the error naming `attribute`.
Result<int64_t> axisIn(const std::vector<int64_t>& axes, std::size_t i, std::size_t rank, const std::string& attribute,
                       const std::string& tensor) {
  Result<int64_t> axis = onnxAxis(axes[i], rank);
  if (!axis) return makeError(attribute + "[" + std::to_string(i) + "] for " + tensor + ": " + axis.error().message);
  return axis;
}

/// The INTS attribute `name` with one value per scan input or output (`n` of them, zeros when
/// absent); `directions` limits the values to 0 and 1.
Result<std::vector<int64_t>> perScan(const OnnxNodeContext& c, const std::string& name, int n, bool directions) {
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> values, c.attrs.getInts(name, std::vector<int64_t>(static_cast<std::size_t>(n), 0)));
  if (values.size() != static_cast<std::size_t>(n))
    return makeError(name + " has " + counted(static_cast<int>(values.size()), "value") + "; expected " + std::to_string(n) +
                     ", one per scan " + (name.starts_with("scan_input") ? "input" : "output"));
  for (std::size_t i = 0; directions && i < values.size(); ++i)
    if (values[i] != 0 && values[i] != 1)
      return makeError(name + "[" + std::to_string(i) + "] is " + std::to_string(values[i]) +
                       "; expected 0 (forward) or 1 (reverse)");
  return values;
}

}  // namespace

Result<OnnxOutputs> importLoop(const OnnxNodeContext& c, SubgraphImporter& subgraphs) {
  const onnx::NodeProto& node = c.node;
  BYOC_ASSIGN_OR_RETURN(const onnx::GraphProto* body, bodyOf(node));
  if (node.input_size() < 2)
    return makeError("has " + counted(node.input_size(), "input") +
                     "; expected M and cond (empty names where absent), then the loop-carried values");
  const int carried = node.input_size() - 2;
  if (body->input_size() != 2 + carried)
    return makeError("body has " + counted(body->input_size(), "input") + "; expected " + std::to_string(2 + carried) +
                     ": the iteration number, the condition and the " + counted(carried, "loop-carried value"));
  if (body->output_size() < 1 + carried)
    return makeError("body has " + counted(body->output_size(), "output") + "; expected at least " +
                     std::to_string(1 + carried) + ": the condition and the " + counted(carried, "loop-carried value") +
                     ", then the scan outputs");
  const int scans = body->output_size() - 1 - carried;
  if (node.output_size() != carried + scans)
    return makeError("has " + counted(node.output_size(), "output") + "; expected " + std::to_string(carried + scans) +
                     ": the " + counted(carried, "final loop-carried value") + " and the " + counted(scans, "scan output") +
                     " of its body");
  if (!c.hasInput(0) && !c.hasInput(1))
    return makeError("has neither M nor cond, so it would never end; expected at least one of them");

  OnnxValue maxCount = c.scalar(DType::Int64, static_cast<double>(std::numeric_limits<int64_t>::max()));
  if (c.hasInput(0)) {
    BYOC_ASSIGN_OR_RETURN(OnnxValue m, c.input(0));
    BYOC_ASSIGN_OR_RETURN(maxCount, scalarOf(c, m, DType::Int64, "M (the trip count)"));
  }
  OnnxValue cond = c.scalar(DType::Bool, 1);
  if (c.hasInput(1)) {
    BYOC_ASSIGN_OR_RETURN(OnnxValue given, c.input(1));
    BYOC_ASSIGN_OR_RETURN(cond, scalarOf(c, given, DType::Bool, "cond"));
  }

  LoopSpec spec;
  spec.variables = {{body->input(0).name(), c.scalar(DType::Int64, 0)}, {"max_count", maxCount}, {body->input(1).name(), cond}};
  for (int i = 0; i < carried; ++i) {
    BYOC_ASSIGN_OR_RETURN(OnnxValue initial, c.input(static_cast<std::size_t>(2 + i)));
    spec.variables.push_back({body->input(2 + i).name(), initial});
  }
  for (int j = 0; j < scans; ++j) spec.scans.push_back({body->output(1 + carried + j).name()});
  const bool bounded = c.hasInput(0);
  const bool conditional = c.hasInput(1);
  spec.condition = [&](const std::vector<OnnxValue>& v) -> Result<OnnxValue> {
    std::optional<OnnxValue> more;
    if (conditional) {
      BYOC_ASSIGN_OR_RETURN(more, c.call("equal", {v[2], c.scalar(DType::Bool, 1)}));
    }
    if (bounded) {
      BYOC_ASSIGN_OR_RETURN(OnnxValue below, c.call("less", {v[0], v[1]}));
      if (!more) return below;
      return c.call("logical_and", {*more, below});
    }
    return *more;
  };
  spec.body = [&](const std::vector<OnnxValue>& v) -> Result<std::vector<OnnxValue>> {
    std::vector<OnnxValue> inputs = {v[0], v[2]};
    inputs.insert(inputs.end(), v.begin() + 3, v.end());
    Result<std::vector<OnnxValue>> outputs = subgraphs.import(*body, inputs);
    if (!outputs) return makeError("body: " + outputs.error().message);
    BYOC_ASSIGN_OR_RETURN(OnnxValue next, c.call("add", {v[0], c.scalar(DType::Int64, 1)}));
    BYOC_ASSIGN_OR_RETURN(OnnxValue condOut, scalarOf(c, (*outputs)[0], DType::Bool, bodyOutput(*body, 0)));
    std::vector<OnnxValue> updates = {next, v[1], condOut};
    updates.insert(updates.end(), outputs->begin() + 1, outputs->end());
    return updates;
  };
  // The counts pass on int64 scalars; only the body's outputs can change a variable's type.
  spec.describeUpdate = [&](std::size_t i) { return i < 2 ? "the loop" : bodyOutput(*body, static_cast<int>(i) - 2); };
  BYOC_ASSIGN_OR_RETURN(OnnxValue loop, whileLoop(c, spec, subgraphs));
  OnnxOutputs outputs;
  for (int k = 0; k < carried + scans; ++k) {
    BYOC_ASSIGN_OR_RETURN(OnnxValue output, c.getItem(loop, 3 + k));
    outputs.push_back(output);
  }
  return outputs;
}

Result<OnnxOutputs> importScan(const OnnxNodeContext& c, SubgraphImporter& subgraphs) {
  const onnx::NodeProto& node = c.node;
  BYOC_ASSIGN_OR_RETURN(const onnx::GraphProto* body, bodyOf(node));
  BYOC_ASSIGN_OR_RETURN(int64_t scanInputs, c.attrs.getInt("num_scan_inputs"));
  if (scanInputs < 1 || scanInputs > node.input_size())
    return makeError("num_scan_inputs is " + std::to_string(scanInputs) + "; expected 1 to " +
                     std::to_string(node.input_size()) + ", the number of inputs");
  const int inputs = static_cast<int>(scanInputs);
  const int states = node.input_size() - inputs;
  if (body->input_size() != states + inputs)
    return makeError("body has " + counted(body->input_size(), "input") + "; expected " + std::to_string(states + inputs) +
                     ": the " + counted(states, "state variable") + " and a slice of each of the " +
                     counted(inputs, "scan input"));
  if (body->output_size() < states)
    return makeError("body has " + counted(body->output_size(), "output") + "; expected at least " +
                     std::to_string(states) + ": the " + counted(states, "state variable") + ", then the scan outputs");
  const int scans = body->output_size() - states;
  if (node.output_size() != states + scans)
    return makeError("has " + counted(node.output_size(), "output") + "; expected " + std::to_string(states + scans) +
                     ": the " + counted(states, "final state variable") + " and the " + counted(scans, "scan output") +
                     " of its body");
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> inputAxes, perScan(c, "scan_input_axes", inputs, false));
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> inputDirections, perScan(c, "scan_input_directions", inputs, true));
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> outputAxes, perScan(c, "scan_output_axes", scans, false));
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> outputDirections, perScan(c, "scan_output_directions", scans, true));

  LoopSpec spec;
  spec.variables.push_back({"iter", c.scalar(DType::Int64, 0)});
  for (int i = 0; i < states; ++i) {
    BYOC_ASSIGN_OR_RETURN(OnnxValue initial, c.input(static_cast<std::size_t>(i)));
    spec.variables.push_back({body->input(i).name(), initial});
  }
  int64_t length = 0;
  for (int i = 0; i < inputs; ++i) {
    const std::size_t index = static_cast<std::size_t>(states + i);
    BYOC_ASSIGN_OR_RETURN(OnnxValue input, c.input(index));
    const std::string name = "scan input " + std::to_string(i) + " ('" + node.input(states + i) + "')";
    BYOC_ASSIGN_OR_RETURN(inputAxes[static_cast<std::size_t>(i)],
                          axisIn(inputAxes, static_cast<std::size_t>(i), input.rank(), "scan_input_axes", name));
    const int64_t extent = input.shape()[static_cast<std::size_t>(inputAxes[static_cast<std::size_t>(i)])];
    if (extent == kAnyDim)
      return makeError(name + " has a length known only at run time along axis " +
                       std::to_string(inputAxes[static_cast<std::size_t>(i)]) + "; expected a static length");
    if (i > 0 && extent != length)
      return makeError(name + " has " + std::to_string(extent) + " slices along axis " +
                       std::to_string(inputAxes[static_cast<std::size_t>(i)]) + " where scan input 0 ('" +
                       node.input(states) + "') has " + std::to_string(length) + "; expected the same length");
    length = extent;
    spec.variables.push_back({node.input(states + i), input});
  }
  for (int j = 0; j < scans; ++j)
    spec.scans.push_back({body->output(states + j).name(), outputAxes[static_cast<std::size_t>(j)],
                          outputDirections[static_cast<std::size_t>(j)] == 1});
  spec.condition = [&](const std::vector<OnnxValue>& v) {
    return c.call("less", {v[0], c.scalar(DType::Int64, static_cast<double>(length))});
  };
  spec.body = [&](const std::vector<OnnxValue>& v) -> Result<std::vector<OnnxValue>> {
    std::vector<OnnxValue> bodyInputs(v.begin() + 1, v.begin() + 1 + states);
    for (int i = 0; i < inputs; ++i) {
      OnnxValue position = v[0];
      if (inputDirections[static_cast<std::size_t>(i)] == 1) {
        BYOC_ASSIGN_OR_RETURN(position, c.call("subtract", {c.scalar(DType::Int64, static_cast<double>(length - 1)), v[0]}));
      }
      BYOC_ASSIGN_OR_RETURN(OnnxValue slice, c.call("take", {v[static_cast<std::size_t>(1 + states + i)], position},
                                                    {{"axis", inputAxes[static_cast<std::size_t>(i)]}}));
      bodyInputs.push_back(slice);
    }
    Result<std::vector<OnnxValue>> outputs = subgraphs.import(*body, bodyInputs);
    if (!outputs) return makeError("body: " + outputs.error().message);
    BYOC_ASSIGN_OR_RETURN(OnnxValue next, c.call("add", {v[0], c.scalar(DType::Int64, 1)}));
    std::vector<OnnxValue> updates = {next};
    updates.insert(updates.end(), outputs->begin(), outputs->begin() + states);
    updates.insert(updates.end(), v.begin() + 1 + states, v.end());
    updates.insert(updates.end(), outputs->begin() + states, outputs->end());
    return updates;
  };
  // The count and the scan inputs are passed on as they are; only the body's outputs can change a type.
  spec.describeUpdate = [&](std::size_t i) {
    return i == 0 || i > static_cast<std::size_t>(states) ? "the loop" : bodyOutput(*body, static_cast<int>(i) - 1);
  };
  BYOC_ASSIGN_OR_RETURN(OnnxValue loop, whileLoop(c, spec, subgraphs));
  OnnxOutputs outputs;
  for (int k = 0; k < states + scans; ++k) {
    BYOC_ASSIGN_OR_RETURN(OnnxValue output, c.getItem(loop, k < states ? 1 + k : 1 + states + inputs + (k - states)));
    outputs.push_back(output);
  }
  return outputs;
}

}  // namespace byoc::onnx_import
