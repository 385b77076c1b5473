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

const fs = require('fs');
const path = require('path');

/// Throws an error whose message is printed as the one `error:` line.
function fail(message) {
  throw new Error(message);
}

/// Loads onnxruntime-node from the benchmark's own install folder.
function loadOrt() {
  const modulePath = path.join(__dirname, 'node', 'node_modules', 'onnxruntime-node');
  if (!fs.existsSync(modulePath))
    fail(`onnxruntime-node is not installed in ${path.dirname(modulePath)}; run: ` +
         'ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix bench/latency/node onnxruntime-node');
  return require(modulePath);
}

/// Reads a little-endian float32 C-order .npy file (versions 1.0 to 3.0) into {shape, data}.
function readNpy(file) {
  const bytes = fs.readFileSync(file);
  if (bytes.length < 10 || bytes.toString('latin1', 0, 6) !== '\x93NUMPY') fail(`${file}: not a .npy file`);
  const major = bytes[6];
  const headerLength = major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = bytes.toString('latin1', start, start + headerLength);
  const descr = /'descr':\s*'([^']*)'/.exec(header);
  const fortran = /'fortran_order':\s*(True|False)/.exec(header);
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !fortran || !shapeText) fail(`${file}: malformed .npy header: ${header.trim()}`);
  if (descr[1] !== '<f4') fail(`${file}: expected float32 ('<f4'), found '${descr[1]}'`);
  if (fortran[1] === 'True') fail(`${file}: expected C order, found Fortran order`);
  const shape = shapeText[1].split(',').map(s => s.trim()).filter(s => s.length > 0).map(Number);
  const count = shape.reduce((a, b) => a * b, 1);
  const offset = start + headerLength;
  if (bytes.length - offset !== 4 * count)
    fail(`${file}: float32 (${shape.join(', ')}) needs ${4 * count} data bytes, found ${bytes.length - offset}`);
  const data = new Float32Array(count);
  for (let i = 0; i < count; ++i) data[i] = bytes.readFloatLE(offset + 4 * i);
  return {shape, data};
}

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
