// The few pieces of the wasm binary format that scripts/wasm-sizes.mjs reads and
// tests/e2e/glue.test.mjs writes its modules with: LEB128 numbers, names, and the sections.
// (The build edits modules through crates/wasm-post: wasmparser and wasm-encoder.)

/** Unsigned LEB128 at `at` in `bytes`: [value, next offset]. Throws on a malformed number. */
export function readU32(bytes, at) {
  let value = 0;
  for (let shift = 0; ; shift += 7) {
    if (at >= bytes.length || shift > 28) throw new Error('a malformed LEB128 number');
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, at];
  }
}

/** `value` as unsigned LEB128. */
export function writeU32(value) {
  const out = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return Buffer.from(out);
}

/** A name as the binary format writes it: its length in bytes, then its UTF-8. */
export const name = (text) => Buffer.concat([writeU32(Buffer.byteLength(text)), Buffer.from(text)]);

/** The sections of `wasm` (after checking its magic number): { id, body, end, bytes }. */
export function* sections(wasm) {
  if (wasm.length < 8 || wasm.readUInt32LE(0) !== 0x6d736100) throw new Error('not a wasm module');
  for (let at = 8; at < wasm.length; ) {
    const id = wasm[at];
    const [size, body] = readU32(wasm, at + 1);
    const end = body + size;
    yield { id, body, end, bytes: wasm.subarray(at, end) };
    at = end;
  }
}

/** A section made of `id` and its content. */
export const section = (id, content) => Buffer.concat([Buffer.from([id]), writeU32(content.length), content]);
