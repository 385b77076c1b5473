// What the ONNX Runtime scripts of the benchmarks share: loading onnxruntime-node from
// bench/latency/node (installed by bench/latency/run.sh) and reading and writing .npy files.
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

/// The .npy element type of each ONNX Runtime tensor type the scripts write.
const NPY_TYPES = {float32: ['<f4', Float32Array], int8: ['|i1', Int8Array], uint8: ['|u1', Uint8Array],
                   int32: ['<i4', Int32Array], int64: ['<i8', BigInt64Array]};

/// Writes an onnxruntime-node tensor to `file` as a version 1.0 C-order .npy file.
function writeNpy(file, tensor) {
  const type = NPY_TYPES[tensor.type];
  if (!type) fail(`${file}: cannot write a tensor of type ${tensor.type}`);
  const shape = tensor.dims.length === 1 ? `${tensor.dims[0]},` : tensor.dims.join(', ');
  let header = `{'descr': '${type[0]}', 'fortran_order': False, 'shape': (${shape}), }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const prefix = Buffer.alloc(10);
  prefix.write('\x93NUMPY', 0, 'latin1');
  prefix[6] = 1;
  prefix[7] = 0;
  prefix.writeUInt16LE(header.length, 8);
  const data = Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength);
  const temporary = `${file}.tmp`;
  fs.writeFileSync(temporary, Buffer.concat([prefix, Buffer.from(header, 'latin1'), data]));
  fs.renameSync(temporary, file);
}

module.exports = {fail, loadOrt, readNpy, writeNpy};
