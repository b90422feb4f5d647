// Holds agui/proto (this project's binary transport) to the official
// @ag-ui/proto and @ag-ui/encoder 1.0.0, pinned in package-lock.json, both
// ways, over the events of agui/proto/testdata/events.jsonl:
//
//  1. @ag-ui/encoder writes each event as a frame (EventEncoder.encodeProtobuf);
//     the frames are testdata/official.bin, and what @ag-ui/proto's decode
//     gives for each, JSON.stringify'd, is testdata/official.jsonl. The Go
//     tests decode official.bin with agui/proto and must get official.jsonl.
//  2. @ag-ui/proto decodes testdata/ours.bin, the frames agui/proto's
//     encoder wrote (go test ./agui/proto -run TestOurFrames -update
//     remakes it), and must get back each event of events.jsonl.
//
// `node bench/conformance/proto.mjs` checks both and that official.bin and
// official.jsonl are what 1.0.0 writes today, failing on any difference
// (make conformance runs it); `node bench/conformance/proto.mjs --write`
// remakes them. The Go tests need neither Node nor this script.
//
// Compared as JSON values (member order aside), without encryptedValueType:
// AG-UI 1.1 added it, and @ag-ui/proto 1.0.0 neither writes nor reads it.
import { readFileSync, writeFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import * as proto from "@ag-ui/proto";
import { EventEncoder } from "@ag-ui/encoder";

// events.jsonl holds shapes 1.0.0 warns about on purpose (a role from a
// later version, an outcome it does not know): its warnings say nothing here.
process.env.SUPPRESS_TRANSFORMATION_WARNINGS = "1";
console.warn = () => {};

const testdata = new URL("../../agui/proto/testdata/", import.meta.url);
const read = (name) => readFileSync(new URL(name, testdata));
const write = process.argv.includes("--write");

const events = read("events.jsonl").toString().split("\n").filter((l) => l.trim() !== "");

// Without the members 1.0.0 does not know, recursively.
const as10 = (value) => {
  if (Array.isArray(value)) return value.map(as10);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== "encryptedValueType").map(([k, v]) => [k, as10(v)]));
};

// The messages of a stream's frames.
const frames = (bytes) => {
  const out = [];
  for (let at = 0; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    out.push(bytes.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return out;
};

let failures = 0;
const fail = (what) => { failures++; console.log(`FAIL ${what}`); };

// 1. What the official encoder writes, and what the official decoder reads back.
const encoder = new EventEncoder({ accept: proto.AGUI_MEDIA_TYPE });
const official = [], decoded = [];
let skipped = 0;
for (const line of events) {
  let frame;
  try {
    frame = encoder.encodeProtobuf(JSON.parse(line));
  } catch (err) {
    skipped++;
    console.log(`skip (@ag-ui/proto cannot encode it: ${err.message}): ${line.slice(0, 100)}`);
    continue;
  }
  official.push(Buffer.from(frame));
  decoded.push(JSON.stringify(proto.decode(frame.subarray(4))));
}
const officialBin = Buffer.concat(official);
const officialJSONL = decoded.join("\n") + "\n";
if (write) {
  writeFileSync(new URL("official.bin", testdata), officialBin);
  writeFileSync(new URL("official.jsonl", testdata), officialJSONL);
  console.log(`wrote official.bin and official.jsonl: ${official.length} events, ${skipped} skipped`);
} else {
  if (!officialBin.equals(read("official.bin"))) fail("testdata/official.bin is not what @ag-ui/encoder 1.0.0 writes: node bench/conformance/proto.mjs --write");
  if (officialJSONL !== read("official.jsonl").toString()) fail("testdata/official.jsonl is not what @ag-ui/proto 1.0.0 decodes: node bench/conformance/proto.mjs --write");
}

// 2. What agui/proto's encoder wrote, read by the official decoder.
const ours = frames(read("ours.bin"));
if (ours.length !== events.length) fail(`testdata/ours.bin has ${ours.length} frames for ${events.length} events: go test ./agui/proto -run TestOurFrames -update`);
ours.forEach((msg, i) => {
  const want = as10(JSON.parse(events[i]));
  let got;
  try {
    got = as10(proto.decode(msg));
  } catch (err) {
    fail(`@ag-ui/proto cannot decode our frame ${i} (${err.message}): ${events[i]}`);
    return;
  }
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(got)), want)) {
    fail(`our frame ${i} decodes to\n  ${JSON.stringify(got)}\nnot\n  ${events[i]}`);
  }
});

console.log(`agui/proto against @ag-ui/proto 1.0.0: ${official.length} frames of @ag-ui/encoder read, ${ours.length} of ours read by @ag-ui/proto, ${failures} failed`);
process.exit(failures > 0 ? 1 : 0);
