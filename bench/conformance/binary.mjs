// Holds this project's server to the official packages over AG-UI's
// binary transport, side by side with SSE, script by script:
//
//  1. @ag-ui/client 1.0.0 (HttpAgent.runAgent, which reads whichever
//     content type comes back) plays every script of fixtures/, and every
//     continuation, twice: over SSE, and asking for the binary transport
//     (Accept: application/vnd.ag-ui.event+proto). It must end the same
//     both ways: how runAgent ends, every event its subscriber is given,
//     the state and messages it ends with.
//  2. @ag-ui/proto 1.0.0 decodes every frame of every script's binary
//     stream to the event the SSE stream carries at the same place.
//
// A script the binary transport cannot carry (agui/proto refuses one of
// its events) is answered 406 when binary alone is asked for: it is
// listed, and must be one of those the guide lists. One line a script or
// continuation; the exit status is 1 on any difference.
//
// Each script plays with its delays, as run.mjs explains.
import { isDeepStrictEqual } from "node:util";
import { HttpAgent, buildResumeArray } from "@ag-ui/client";
import * as proto from "@ag-ui/proto";
import { scripts } from "./fixtures.mjs";
import { serve } from "./start.mjs";

// The scripts the binary transport cannot carry, as the guide lists them.
const sseOnly = new Set(["malformed-field", "unknown-event", "unknown-patch-op", "unknown-property"]);

const { base, server } = await serve();
const url = `${base}/api/agent-analysis`;

// What the client sees of one runAgent call.
const watch = async (agent, params) => {
  const seen = { events: [] };
  const { warn, error } = console;
  console.warn = console.error = () => {};
  try {
    await agent.runAgent(params, { onEvent: ({ event }) => { seen.events.push(event); } });
    seen.ending = "resolves";
  } catch (err) {
    seen.ending = `throws: ${String(err?.message ?? err)}`;
  } finally {
    Object.assign(console, { warn, error });
  }
  seen.state = agent.state;
  seen.messages = agent.messages;
  return seen;
};

// A client on thread, asking for accept; it keeps the content types it gets.
const client = (threadId, accept) => {
  const got = [];
  const agent = new HttpAgent({
    url, threadId,
    fetch: async (to, init) => {
      const resp = await fetch(to, { ...init, headers: { ...init.headers, Accept: accept } });
      got.push(resp.headers.get("content-type"));
      return resp;
    },
  });
  return { agent, got };
};

// play runs a script, and a continuation of it when given, as proxy.mjs does.
const play = async (script, c, accept) => {
  const { agent, got } = client(`binary-${script.name}${c ? `-${c.name}` : ""}`, accept);
  const forwardedProps = { scenario: script.name };
  const runs = [await watch(agent, { runId: `run-${script.name}-1`, forwardedProps })];
  if (c) {
    const responses = {};
    for (const i of agent.pendingInterrupts) {
      const w = c.when.find((w) => w.interruptId === i.id.replace(/@[^@]*$/, ""));
      responses[i.id] = w?.status === "resolved" ? { status: "resolved", payload: w.payload } : { status: "cancelled" };
    }
    runs.push(await watch(agent, { runId: `run-${script.name}-2`, forwardedProps, resume: buildResumeArray(agent.pendingInterrupts, responses) }));
  }
  return { runs, got };
};

// difference is the first place two plays differ, in words; "" for none.
const difference = (text, binary) => {
  for (const [n, t] of text.runs.entries()) {
    const b = binary.runs[n];
    const run = text.runs.length > 1 ? `run ${n + 1}: ` : "";
    if (t.ending !== b.ending) return `${run}${t.ending} over SSE, ${b.ending} over binary`;
    const at = t.events.findIndex((e, i) => !isDeepStrictEqual(e, b.events[i]));
    if (at >= 0 || t.events.length !== b.events.length) {
      const i = at >= 0 ? at : Math.min(t.events.length, b.events.length);
      return `${run}event ${i + 1}: ${JSON.stringify(t.events[i])} over SSE, ${JSON.stringify(b.events[i])} over binary`;
    }
    for (const what of ["state", "messages"]) {
      if (!isDeepStrictEqual(t[what], b[what])) return `${run}${what}: ${JSON.stringify(t[what])} over SSE, ${JSON.stringify(b[what])} over binary`;
    }
  }
  return "";
};

// The raw answer to a script's input, asking for accept.
const raw = async (script, accept) => {
  const body = JSON.stringify({ threadId: "thread-1", runId: "run-1", messages: [], state: { services: [] }, forwardedProps: { scenario: script.name } });
  const resp = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", Accept: accept }, body });
  return { status: resp.status, type: resp.headers.get("content-type"), bytes: Buffer.from(await resp.arrayBuffer()) };
};

// The SSE stream's events, parsed.
const sseEvents = (bytes) => bytes.toString().split("\n\n").filter((f) => f.startsWith("data: ")).map((f) => JSON.parse(f.slice(6)));

// The binary stream's events, as @ag-ui/proto decodes them.
const binaryEvents = (bytes) => {
  const out = [];
  for (let at = 0; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    out.push(proto.decode(bytes.subarray(at + 4, at + 4 + length)));
    at += 4 + length;
  }
  return out;
};

let plays = 0, differ = 0;
const fail = (line) => { differ++; console.log(line); };
for (const script of scripts) {
  // 2. @ag-ui/proto decodes what the server sends in binary.
  const bin = await raw(script, proto.AGUI_MEDIA_TYPE);
  if (bin.status === 406) {
    plays++;
    if (sseOnly.has(script.name)) console.log(`sse-only ${script.name} · 406: ${JSON.parse(bin.bytes).detail.split(":").slice(1, 2).join(":").trim()}`);
    else fail(`DIFF ${script.name}: 406 to a binary request, and the guide lists it as carried`);
    continue;
  }
  const text = await raw(script, "text/event-stream");
  const decoded = binaryEvents(bin.bytes), parsed = sseEvents(text.bytes);
  const at = parsed.findIndex((e, i) => !isDeepStrictEqual(e, decoded[i]));
  if (bin.type !== proto.AGUI_MEDIA_TYPE || at >= 0 || parsed.length !== decoded.length) {
    const i = at >= 0 ? at : Math.min(parsed.length, decoded.length);
    fail(`DIFF ${script.name}: @ag-ui/proto decodes event ${i + 1} as ${JSON.stringify(decoded[i])}; over SSE it is ${JSON.stringify(parsed[i])}`);
  }
  // 1. The official client ends the same over both.
  for (const c of [undefined, ...(script.continuations ?? [])]) {
    const name = c ? `${script.name} → ${c.name}` : script.name;
    const overSSE = await play(script, c, "text/event-stream");
    const overBinary = await play(script, c, proto.AGUI_MEDIA_TYPE);
    plays++;
    const why = overBinary.got.some((t) => t !== proto.AGUI_MEDIA_TYPE) ? `answered ${overBinary.got.join(", ")} to a binary request` : difference(overSSE, overBinary);
    if (why) fail(`DIFF ${name}: ${why}`);
    else console.log(`same ${name} · ${overSSE.runs.map((r) => r.events.length).join(" + ")} events · ${overSSE.runs.map((r) => r.ending.split(":")[0]).join(", ")}`);
  }
}
server.kill("SIGTERM");
console.log(`${plays - differ} passed, ${differ} failed`);
process.exitCode = differ ? 1 : 0;
