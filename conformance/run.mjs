// Runs every scenario and fault of fixtures/ against the official
// @ag-ui/client 1.0 (HttpAgent) and prints, per script, what it ends
// with beside what this project's client ends with (the fixture's
// outcome). It starts the server itself: make conformance builds it.
import { spawn } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { createInterface } from "node:readline";
import { HttpAgent } from "@ag-ui/client";

const root = new URL("../", import.meta.url);
const scripts = readdirSync(new URL("fixtures/", root)).filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(new URL(`fixtures/${f}`, root))))
  .sort((a, b) => (a.group === b.group ? a.scenario.localeCompare(b.scenario) : a.group === "scenario" ? -1 : 1));

const server = spawn(new URL("bin/agent-analysis", root).pathname, ["-addr", "127.0.0.1:0", "-no-delay", "-log-json", "-web", "/nonexistent"], { stdio: ["ignore", "pipe", "inherit"] });
const base = await new Promise((resolve, reject) => {
  createInterface({ input: server.stdout }).on("line", (line) => {
    const entry = JSON.parse(line);
    if (entry.msg === "listening") resolve(entry.url.replace(/\/agent-analysis$/, ""));
  });
  server.on("exit", (code) => reject(new Error(`server exited ${code}`)));
});

// What a state looks like in one line: each service's id and p95.
const describe = (state) => (state?.services ?? []).map((s) => `${s.id} ${s.latency}`).join(", ") || "empty";

const rows = [];
for (const script of scripts) {
  const warnings = [];
  const warn = console.warn;
  console.warn = (...args) => warnings.push(args.map(String).join(" "));
  const agent = new HttpAgent({ url: `${base}/api/agent-analysis`, threadId: "conformance" });
  let ending;
  try {
    await agent.runAgent({ runId: `run-${script.scenario}`, forwardedProps: { scenario: script.scenario } });
    ending = "resolves";
  } catch (err) {
    let message = String(err.message ?? err);
    try { message = JSON.parse(message)[0].message; } catch {} // a schema error lists its issues as JSON
    ending = `throws: ${message.split("\n")[0].slice(0, 100)}`;
  } finally {
    console.warn = warn;
  }
  const ours = script.outcome;
  rows.push(`| \`${script.scenario}\` | ${ours.status}, ${ours.accepted} accepted | ${ending}${warnings.length ? ` (${warnings.length} warning${warnings.length > 1 ? "s" : ""})` : ""} | ${describe(agent.state)} |`);
}
server.kill("SIGTERM");

console.log("| script | this client ends | @ag-ui/client 1.0 `runAgent` | its final state (id p95) |");
console.log("|---|---|---|---|");
for (const row of rows) console.log(row);
