#!/usr/bin/python3
"""Exports the model zoo used to benchmark BYOC Studio's ONNX import and partitioning.

Every model is built with fixed random weights (seed 0; nothing is downloaded), its batch-norm
statistics measured on random images (as training would leave them, so activations keep the scale
of a trained network instead of growing layer after layer), put in eval mode and exported with
opset 13 and batch 1. Each model gets a directory:

    <out>/<name>/model.onnx      the exported model
    <out>/<name>/input.npy       the one input it was exported with
    <out>/<name>/output.npy      PyTorch's output for that input (output_<i>.npy when several)

Dependencies are Debian's own packages, installed with:

    sudo apt-get install -y python3-torch python3-torchvision python3-onnx python3-numpy

Usage:

    /usr/bin/python3 bench/zoo/export_zoo.py [OUT_DIR] [--only NAME ...]

OUT_DIR defaults to ~/.cache/byoc-zoo; it should be outside the repository.

scripted_if and scripted_loop are small models with data-dependent control flow, exported through
torch.jit.script: a branch on the sum of a convolution's result (an If), and a layer repeated as
many times as the input's absolute sum says, at most 8 (a Loop whose trip count is computed from
the input).

gpt_decoder is a small GPT-style decoder (4 pre-norm blocks of width 256 with 4 heads, a causal
mask, GELU MLPs, a language-model head tied to the token embedding) reading 64 token ids (int64):
the prefill of a sequence, as decoders are exported to ONNX.

transformer_encoder_dynamic is transformer_encoder exported with a dynamic sequence axis (the
input's and output's first dimension is the symbolic "seq"). Its directory holds, instead of the
one input, an input and PyTorch's output for each sequence length of DYNAMIC_LENGTHS:

    <out>/transformer_encoder_dynamic/input_<n>.npy, output_<n>.npy

ssdlite320_mobilenet_v3_large is exported as the network a backend runs, its backbone and
detection head on a normalised 320x320 image, returning the box regressions and class logits;
torchvision's pre-processing and non-maximum-suppression post-processing stay in Python, as they
do when such a model is deployed.

ssdlite320_mobilenet_v3_large_full is the whole detector, pre- and post-processing included, at
opset 13: one 3x320x320 image with values in [0, 1] → boxes (n, 4), scores (n) and labels (n) of
its n detections (at most 300), saved as output_0.npy, output_1.npy and output_2.npy. Its graph
resizes and normalises the image, pads it to a multiple of 32, generates the anchors, and after
the network keeps, per class, the scores above 0.001 (NonZero, GatherND), the 300 best of them
(TopK with a K computed at run time), decodes and clips their boxes and suppresses overlaps with
NonMaxSuppression inside an If. With random weights every class score is close to 1/91, so a
last-bit difference in a logit would reorder detections and the comparison would mean nothing:
the classification head's last convolutions are scaled by HEAD_LOGIT_SCALE, which spreads the
logits (and so the scores) apart, as a trained head's are. With seed 0 (the input is drawn after
the weights), the scores then range from 0.15 to 0.51, the 300th lies 5e-4 (relative) above the
301st that survives suppression, so which detections are kept does not hang on rounding, and
neighbouring scores differ by at least 1e-5 (relative). bench/zoo/compare_detections.py checks
labels, boxes and scores against PyTorch's, accepting two detections in the other order only when
their scores are within its tolerance.
"""

import argparse
import os
import sys
import time

import numpy as np
import torch
import torchvision


class Mlp(torch.nn.Module):
    """784-128-10 perceptron on a flattened 28x28 image."""

    def __init__(self):
        super().__init__()
        self.hidden = torch.nn.Linear(784, 128)
        self.out = torch.nn.Linear(128, 10)

    def forward(self, x):
        return self.out(torch.relu(self.hidden(torch.flatten(x, 1))))


class TransformerEncoder(torch.nn.Module):
    """Four encoder layers, d_model 256, 4 heads, sequence 128 (sequence-first layout)."""

    def __init__(self):
        super().__init__()
        layer = torch.nn.TransformerEncoderLayer(d_model=256, nhead=4, dim_feedforward=1024, dropout=0.1,
                                                 activation="gelu")
        self.encoder = torch.nn.TransformerEncoder(layer, num_layers=4, enable_nested_tensor=False)

    def forward(self, x):
        return self.encoder(x)


class SsdliteNetwork(torch.nn.Module):
    """The backbone and head of torchvision's SSDlite, without pre- and post-processing."""

    def __init__(self):
        super().__init__()
        detector = torchvision.models.detection.ssdlite320_mobilenet_v3_large(weights=None, weights_backbone=None)
        self.backbone = detector.backbone
        self.head = detector.head

    def forward(self, x):
        features = list(self.backbone(x).values())
        result = self.head(features)
        return result["bbox_regression"], result["cls_logits"]


# How much the full detector's classification logits are scaled (see the module docstring).
HEAD_LOGIT_SCALE = 4.0


class SsdliteFull(torch.nn.Module):
    """torchvision's whole SSDlite detector on one image: boxes, scores and labels."""

    def __init__(self):
        super().__init__()
        self.detector = torchvision.models.detection.ssdlite320_mobilenet_v3_large(weights=None, weights_backbone=None)
        with torch.no_grad():
            for block in self.detector.head.classification_head.module_list:
                block[-1].weight.mul_(HEAD_LOGIT_SCALE)
                block[-1].bias.mul_(HEAD_LOGIT_SCALE)
        # The backbone and head alone, sharing the detector's modules, for batch-norm calibration.
        self.network = SsdliteNetwork.__new__(SsdliteNetwork)
        torch.nn.Module.__init__(self.network)
        self.network.backbone = self.detector.backbone
        self.network.head = self.detector.head

    def forward(self, image):
        detections = self.detector([image])[0]
        return detections["boxes"], detections["scores"], detections["labels"]


class ScriptedIf(torch.nn.Module):
    """A convolution whose result is kept through a ReLU or negated, as the sum of its values says:
    a data-dependent branch, which torch.jit.script exports as an ONNX If."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)

    def forward(self, x):
        y = self.conv(x)
        if bool(y.sum() > 0):
            y = torch.relu(y)
        else:
            y = -y
        return y


class ScriptedLoop(torch.nn.Module):
    """A linear layer and tanh applied as many times as the input's values say (its absolute sum,
    at most 8): a data-dependent trip count, which torch.jit.script exports as an ONNX Loop."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(16, 16)

    def forward(self, x):
        steps = int(torch.clamp(x.abs().sum(), max=8.0).long())
        h = x
        for _ in range(steps):
            h = torch.tanh(self.linear(h))
        return h


class DecoderBlock(torch.nn.Module):
    """A GPT-style pre-norm block: causal multi-head self-attention, then a GELU MLP."""

    def __init__(self, width, heads):
        super().__init__()
        self.heads = heads
        self.norm1 = torch.nn.LayerNorm(width)
        self.qkv = torch.nn.Linear(width, 3 * width)
        self.proj = torch.nn.Linear(width, width)
        self.norm2 = torch.nn.LayerNorm(width)
        self.up = torch.nn.Linear(width, 4 * width)
        self.down = torch.nn.Linear(4 * width, width)

    def forward(self, x, mask):
        batch, length, width = x.shape
        q, k, v = (part.view(batch, length, self.heads, -1).transpose(1, 2)
                   for part in self.qkv(self.norm1(x)).split(width, dim=2))
        scores = (q @ k.transpose(-2, -1)) / (width // self.heads) ** 0.5 + mask
        attended = (scores.softmax(-1) @ v).transpose(1, 2).reshape(batch, length, width)
        x = x + self.proj(attended)
        return x + self.down(torch.nn.functional.gelu(self.up(self.norm2(x))))


class GptDecoder(torch.nn.Module):
    """A small GPT-style decoder over token ids: learned token and position embeddings, pre-norm
    blocks with a causal mask, and a language-model head tied to the token embedding (the prefill
    of a sequence of DECODER_LENGTH tokens)."""

    def __init__(self, width=256, heads=4, blocks=4):
        super().__init__()
        self.tokens = torch.nn.Embedding(DECODER_VOCABULARY, width)
        self.positions = torch.nn.Embedding(DECODER_LENGTH, width)
        self.blocks = torch.nn.ModuleList(DecoderBlock(width, heads) for _ in range(blocks))
        self.norm = torch.nn.LayerNorm(width)
        causal = torch.full((DECODER_LENGTH, DECODER_LENGTH), float("-inf")).triu(1)
        self.register_buffer("mask", causal.view(1, 1, DECODER_LENGTH, DECODER_LENGTH))

    def forward(self, ids):
        x = self.tokens(ids) + self.positions(torch.arange(ids.shape[1]))
        for block in self.blocks:
            x = block(x, self.mask)
        return self.norm(x) @ self.tokens.weight.t()


# The decoder's vocabulary and the number of tokens it reads.
DECODER_VOCABULARY = 4096
DECODER_LENGTH = 64


def vision(name, **kwargs):
    return lambda: getattr(torchvision.models, name)(weights=None, **kwargs)


# name → (model factory, input shape)
MODELS = {
    "mlp": (Mlp, (1, 1, 28, 28)),
    "resnet18": (vision("resnet18"), (1, 3, 224, 224)),
    "resnet50": (vision("resnet50"), (1, 3, 224, 224)),
    "mobilenet_v2": (vision("mobilenet_v2"), (1, 3, 224, 224)),
    "vgg16": (vision("vgg16"), (1, 3, 224, 224)),
    "squeezenet1_0": (vision("squeezenet1_0"), (1, 3, 224, 224)),
    "inception_v3": (vision("inception_v3", aux_logits=False, init_weights=True), (1, 3, 299, 299)),
    "densenet121": (vision("densenet121"), (1, 3, 224, 224)),
    "efficientnet_b0": (vision("efficientnet_b0"), (1, 3, 224, 224)),
    "ssdlite320_mobilenet_v3_large": (SsdliteNetwork, (1, 3, 320, 320)),
    "ssdlite320_mobilenet_v3_large_full": (SsdliteFull, (3, 320, 320)),
    "transformer_encoder": (TransformerEncoder, (128, 1, 256)),
    "transformer_encoder_dynamic": (TransformerEncoder, (128, 1, 256)),
    "scripted_if": (ScriptedIf, (1, 3, 16, 16)),
    "scripted_loop": (ScriptedLoop, (1, 16)),
    "gpt_decoder": (GptDecoder, (1, DECODER_LENGTH)),
}

# Models exported through torch.jit.script, which keeps their data-dependent control flow as ONNX
# If and Loop instead of tracing the one path the example input takes.
SCRIPTED = {"scripted_if", "scripted_loop"}

# name → the dynamic axes of its ONNX export (torch.onnx.export's dynamic_axes)
DYNAMIC_AXES = {
    "transformer_encoder_dynamic": {"input": {0: "seq"}, "output": {0: "seq"}},
}

# name → (the part of the model whose batch norms are calibrated, the input shape it takes), for
# models whose input is not a batch.
CALIBRATED_PART = {
    "ssdlite320_mobilenet_v3_large_full": (lambda model: model.network, (1, 3, 320, 320)),
}

# Models whose input is drawn uniformly from [0, 1] (an image) rather than normally.
UNIFORM_INPUT = {"ssdlite320_mobilenet_v3_large_full"}

# Models whose input is token ids (int64), drawn uniformly from their vocabulary.
TOKEN_INPUT = {"gpt_decoder": DECODER_VOCABULARY}

# The sequence lengths whose inputs and outputs a dynamic model's directory holds.
DYNAMIC_LENGTHS = (16, 128, 384)


def calibrate_batch_norm(model, shape, batches=4, batch_size=4):
    """Sets every batch norm's running mean and variance to those of random inputs."""
    norms = [m for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    if not norms:
        return
    for norm in norms:
        norm.reset_running_stats()
        norm.momentum = None  # a plain average over the calibration batches
        norm.train()
    generator = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for _ in range(batches):
            model(torch.randn(batch_size, *shape[1:], generator=generator))
    model.eval()


def build_model(name):
    """The zoo model `name` as exported: seeded random weights, calibrated, in eval mode."""
    factory, shape = MODELS[name]
    torch.manual_seed(0)
    model = factory().eval()
    part, calibration_shape = CALIBRATED_PART.get(name, (lambda m: m, shape))
    calibrate_batch_norm(part(model), calibration_shape)
    model.eval()
    return model


def export_dynamic(name, model, example, model_dir):
    """Exports `model` with its dynamic axes, and an input and output per sequence length."""
    with torch.no_grad():
        torch.onnx.export(model, (example,), os.path.join(model_dir, "model.onnx"), opset_version=13,
                          input_names=["input"], output_names=["output"], dynamic_axes=DYNAMIC_AXES[name],
                          do_constant_folding=True)
        generator = torch.Generator().manual_seed(2)
        for length in DYNAMIC_LENGTHS:
            x = torch.randn(length, *example.shape[1:], generator=generator)
            np.save(os.path.join(model_dir, "input_%d.npy" % length), x.numpy())
            np.save(os.path.join(model_dir, "output_%d.npy" % length), model(x).numpy())


def export(name, out_dir):
    _, shape = MODELS[name]
    model = build_model(name)
    if name in TOKEN_INPUT:
        example = torch.randint(0, TOKEN_INPUT[name], shape)
    else:
        example = torch.rand(*shape) if name in UNIFORM_INPUT else torch.randn(*shape)
    model_dir = os.path.join(out_dir, name)
    os.makedirs(model_dir, exist_ok=True)
    if name in DYNAMIC_AXES:
        export_dynamic(name, model, example, model_dir)
        return
    with torch.no_grad():
        outputs = model(example)
        if name in SCRIPTED:
            model = torch.jit.script(model)
        torch.onnx.export(model, (example,), os.path.join(model_dir, "model.onnx"), opset_version=13,
                          input_names=["input"], do_constant_folding=True)
    np.save(os.path.join(model_dir, "input.npy"), example.numpy())
    if isinstance(outputs, torch.Tensor):
        np.save(os.path.join(model_dir, "output.npy"), outputs.numpy())
    else:
        for index, output in enumerate(outputs):
            np.save(os.path.join(model_dir, "output_%d.npy" % index), output.numpy())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", nargs="?", default=os.path.expanduser("~/.cache/byoc-zoo"))
    parser.add_argument("--only", nargs="+", choices=sorted(MODELS), help="export only these models")
    args = parser.parse_args()
    failures = 0
    for name in args.only or MODELS:
        start = time.time()
        try:
            export(name, args.out_dir)
            print("%-32s exported in %.1f s" % (name, time.time() - start))
        except Exception as error:  # report every model, then fail at the end
            failures += 1
            print("%-32s FAILED: %s" % (name, error), file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
