// Streams every script of bench/conformance/streams/ (its .json and .jsonl
// files) to the official @ag-ui/client (HttpAgent, pinned in
// package-lock.json) from this project's server, started with
// `-fixtures bench/conformance/streams`, and compares how runAgent ends with the
// file's "expect": outcome "completed" resolves, "failed" throws; an
// expected state must be part of the agent's final state. A file that
// expects nothing must resolve, as check passes only a valid stream. One
// line a file; exit status 1 on any difference; the server is stopped
// however the run ends. make conformance builds the server first.
import { readFileSync, readdirSync } from "node:fs";
import { basename, extname } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { HttpAgent } from "@ag-ui/client";
import { serve } from "./start.mjs";

const root = new URL("../../", import.meta.url);
const dir = new URL("bench/conformance/streams/", root);

// A file's script as the server reads it (package script): named by its
// "name", or else by its file's name without the extension; only an
// object with a "stream" has an "expect". A .jsonl file of events, or an
// array, is played and must resolve.
const readScript = (file) => {
  const text = readFileSync(new URL(file, dir), "utf8");
  const named = { file, name: basename(file, extname(file)) };
  let doc;
  try { doc = JSON.parse(text); } catch { return named; } // JSON Lines
  if (doc === null || typeof doc !== "object" || Array.isArray(doc) || !("stream" in doc)) return named;
  return { ...named, name: doc.name ?? named.name, expect: doc.expect };
};
const files = readdirSync(dir).filter((f) => f.endsWith(".json") || f.endsWith(".jsonl")).sort().map(readScript);

// The corpus's match: objects on the keys expected, arrays item by item.
const subset = (got, want) => {
  if (Array.isArray(want)) return Array.isArray(got) && got.length === want.length && want.every((w, i) => subset(got[i], w));
  if (want !== null && typeof want === "object") return got !== null && typeof got === "object" && Object.keys(want).every((k) => subset(got[k], want[k]));
  return isDeepStrictEqual(got, want);
};

// The server refuses to start on a bad file, naming it: that is a failure too.
const { base, server } = await serve("-no-delay", "-fixtures", dir.pathname);

let failed = 0;
try {
  for (const script of files) {
    const agent = new HttpAgent({ url: `${base}/api/agent-analysis`, threadId: "corpus" });
    const { warn, error } = console;
    console.warn = console.error = () => {}; // the client's own logging is not what is compared
    let ending;
    try {
      await agent.runAgent({ runId: `run-${script.name}`, forwardedProps: { scenario: script.name } });
      ending = { outcome: "completed", text: "resolves" };
    } catch (err) {
      let message = String(err.message ?? err);
      try { message = JSON.parse(message)[0].message; } catch {} // a schema error lists its issues as JSON
      ending = { outcome: "failed", text: `throws: ${message.split("\n")[0].slice(0, 100)}` };
    } finally {
      Object.assign(console, { warn, error });
    }
    const want = script.expect ?? { outcome: "completed" };
    const why = [];
    if (want.outcome && ending.outcome !== want.outcome) why.push(`${ending.text}, want ${want.outcome}`);
    if (want.state && ending.outcome === "completed" && !subset(agent.state, want.state)) {
      why.push(`state ${JSON.stringify(agent.state)}, want ${JSON.stringify(want.state)}`);
    }
    if (why.length) failed++;
    console.log(why.length ? `FAIL ${script.file}: ${why.join("; ")}` : `ok   ${script.file} (${ending.text})`);
  }
  console.log(`${files.length - failed} passed, ${failed} failed`);
} finally {
  server.kill("SIGTERM");
}
process.exitCode = failed ? 1 : 0;
