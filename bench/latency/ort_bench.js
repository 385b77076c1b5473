#!/usr/bin/env node
// Times one ONNX model on ONNX Runtime's CPU execution provider (the onnxruntime-node package).
//
// Usage: node bench/latency/ort_bench.js MODEL.onnx INPUT.npy RUNS THREADS
//
// The model's first input is fed INPUT.npy (float32, C order). One warm-up run, then RUNS timed
// runs of `session.run`; prints one line `median <ms> p90 <ms>`. All graph optimisations are on,
// execution is sequential with THREADS intra-op threads. Errors print one `error:` line and exit 1.
// The package is installed by bench/latency/run.sh into bench/latency/node (see bench/README.md).
'use strict';

const {fail, loadOrt, readNpy} = require('./ort_common');

/// The value at fraction `q` of the sorted times, as byoc's --bench reports it.
function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

async function main(argv) {
  if (argv.length !== 4) fail('usage: ort_bench.js MODEL.onnx INPUT.npy RUNS THREADS');
  const [model, inputFile] = argv;
  const runs = Number(argv[2]);
  const threads = Number(argv[3]);
  if (!Number.isInteger(runs) || runs < 1) fail(`RUNS: expected a positive integer, got '${argv[2]}'`);
  if (!Number.isInteger(threads) || threads < 1) fail(`THREADS: expected a positive integer, got '${argv[3]}'`);
  const ort = loadOrt();
  const input = readNpy(inputFile);
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
  });
  const feeds = {[session.inputNames[0]]: new ort.Tensor('float32', input.data, input.shape)};
  await session.run(feeds);
  const times = [];
  for (let i = 0; i < runs; ++i) {
    const start = process.hrtime.bigint();
    await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  console.log(`median ${times[Math.floor(times.length / 2)].toFixed(3)} p90 ${quantile(times, 0.9).toFixed(3)}`);
}

main(process.argv.slice(2)).catch(error => {
  console.log(`error: ${error.message}`);
  process.exit(1);
});
