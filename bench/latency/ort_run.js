#!/usr/bin/env node
// Runs one ONNX model on ONNX Runtime's CPU execution provider and reports its outputs.
//
// Usage: node bench/latency/ort_run.js ranges MODEL.onnx INPUT.npy ...
//        node bench/latency/ort_run.js outputs MODEL.onnx INPUT.npy OUT_PREFIX
//
// `ranges` runs the model on each input (fed to its first input, float32 C order) and prints one
// JSON object mapping every output name to its [min, max] over all runs (what static calibration
// reads). `outputs` runs it once and writes OUT_PREFIX.npy, or OUT_PREFIX_<i>.npy for each of
// several outputs. All graph optimisations are on, one thread. Errors print one `error:` line and
// exit 1.
'use strict';

const {fail, loadOrt, readNpy, writeNpy} = require('./ort_common');

async function session(ort, model) {
  return ort.InferenceSession.create(model, {executionProviders: ['cpu'], graphOptimizationLevel: 'all',
                                             intraOpNumThreads: 1, interOpNumThreads: 1});
}

async function run(ort, model, inputFile) {
  const input = readNpy(inputFile);
  return model.run({[model.inputNames[0]]: new ort.Tensor('float32', input.data, input.shape)});
}

async function ranges(ort, modelFile, inputFiles) {
  const model = await session(ort, modelFile);
  const found = {};
  for (const inputFile of inputFiles) {
    const outputs = await run(ort, model, inputFile);
    for (const name of model.outputNames) {
      let [lo, hi] = found[name] || [Infinity, -Infinity];
      for (const value of outputs[name].data) {
        if (value < lo) lo = value;
        if (value > hi) hi = value;
      }
      found[name] = [lo, hi];
    }
  }
  console.log(JSON.stringify(found));
}

async function outputs(ort, modelFile, inputFile, prefix) {
  const model = await session(ort, modelFile);
  const results = await run(ort, model, inputFile);
  const names = model.outputNames;
  names.forEach((name, i) => writeNpy(names.length === 1 ? `${prefix}.npy` : `${prefix}_${i}.npy`, results[name]));
}

async function main(argv) {
  const [mode, model, ...rest] = argv;
  if (mode === 'ranges' && rest.length >= 1) return ranges(loadOrt(), model, rest);
  if (mode === 'outputs' && rest.length === 2) return outputs(loadOrt(), model, rest[0], rest[1]);
  fail('usage: ort_run.js ranges MODEL.onnx INPUT.npy ... | ort_run.js outputs MODEL.onnx INPUT.npy OUT_PREFIX');
}

main(process.argv.slice(2)).catch(error => {
  console.log(`error: ${error.message}`);
  process.exit(1);
});
