// Runs every script of fixtures/ against the official @ag-ui/client 1.0
// (HttpAgent.runAgent, with the request body it makes itself) and prints
// one table: what AG-UI 1.0 requires of a consumer (the script's group and
// "must"), what this project's client does (the script's "outcome"), and
// what @ag-ui/client does, measured: whether runAgent resolves or throws,
// the terminal events its subscriber was given, its console warnings, and
// the state it ends with.
//
// It starts the server itself (make conformance builds it) and plays each
// script with its delays, as an agent would send it: under -no-delay a
// whole stream arrives in one read, and @ag-ui/client throws on a bad
// event before it has applied the good ones before it, so its final state
// would say more about timing than about the client.
import { HttpAgent, buildResumeArray } from "@ag-ui/client";
import { scripts } from "./fixtures.mjs";
import { serve } from "./start.mjs";

const { base, server } = await serve();

// What 1.0 says of a script: its group, as the demo's select names them.
const said = { demo: "scenario", fatal: "rejects", warn: "warns", legal: "legal" };

// What 1.0 requires of a consumer: the script's "must"; a scenario without
// one is a stream its expect calls valid and quiet.
const requires = (s) => s.must ?? (s.expect?.outcome === "completed" && s.expect?.noWarnings ? "Accept it: a valid 1.0 stream." : "");

// What this client does: the script's outcome, which the Go tests hold it to.
const ours = ({ status, who, accepted }) => `${status}${who ? ` (${who})` : ""}, ${accepted} accepted`;

// A state in one line: each service's id and p95, or the JSON.
const describe = (state) => Array.isArray(state?.services)
  ? state.services.map((s) => `${s.id} ${s.latency}`).join(", ") || "no services"
  : JSON.stringify(state);

// A console warning in one line: its first line, and the error it reports.
const shortWarning = (text) => {
  const lines = text.split("\n");
  const error = lines.find((l) => l.startsWith("Error: "));
  return cut(lines[0].replace(/:$/, "") + (error ? `: ${error.slice(7)}` : ""), 90);
};

// An error's message in one line; a schema error lists its issues as JSON.
const shortError = (err) => {
  let message = String(err?.message ?? err);
  try {
    const [issue] = JSON.parse(message);
    message = `${issue.path.join("/")}: ${issue.message}`;
  } catch {}
  return cut(message.split("\n")[0], 110);
};

const cut = (s, n) => (s.length > n ? s.slice(0, n - 1) + "…" : s);
const cell = (s) => s.replaceAll("|", "\\|");

const rows = [];
const statuses = new Set();
let body, resumeBody;

// One runAgent call, measured: how it ended, the terminal events its
// subscriber saw, its console warnings.
const measure = async (agent, params) => {
  const warnings = [];
  const warn = console.warn;
  console.warn = (...args) => warnings.push(args.map(String).join(" "));
  const terminal = [];
  const subscriber = {
    onRunFinishedEvent: ({ outcome }) => { terminal.push(`RUN_FINISHED ${outcome}`); }, // the outcome as the client reads it
    onRunErrorEvent: () => { terminal.push("RUN_ERROR"); },
  };
  let ending;
  try {
    await agent.runAgent(params, subscriber);
    ending = "resolves";
  } catch (err) {
    ending = `throws: ${shortError(err)}`;
  } finally {
    console.warn = warn;
  }
  const parts = [ending];
  if (!ending.startsWith("throws") || terminal.length) parts.push(`saw ${terminal.join(", ") || "no terminal event"}`);
  if (warnings.length) parts.push(`${warnings.length} warning${warnings.length > 1 ? "s" : ""}: ${warnings.map(shortWarning).join("; ")}`);
  return parts.join("; ");
};

const newAgent = () => new HttpAgent({
  url: `${base}/api/agent-analysis`,
  threadId: "conformance",
  // Only watches: the request goes out as HttpAgent made it.
  fetch: async (url, init) => {
    if (JSON.parse(init.body).resume) resumeBody ??= init.body;
    else body ??= init.body;
    const response = await fetch(url, init);
    statuses.add(response.status);
    return response;
  },
});

for (const script of scripts) {
  const agent = newAgent();
  const did = await measure(agent, { runId: `run-${script.name}`, forwardedProps: { scenario: script.name } });
  rows.push([`\`${script.name}\``, said[script.group], requires(script), ours(script.outcome), did, describe(agent.state)].map(cell));
  // A script that continues: run it again, and resume it with each
  // continuation's answers, built by the client's own buildResumeArray
  // from the interrupts it holds (the server names them for the thread:
  // "rollback-api@conformance" answers the script's "rollback-api").
  for (const c of script.continuations ?? []) {
    const agent = newAgent();
    await measure(agent, { runId: `run-${script.name}-${c.name}-1`, forwardedProps: { scenario: script.name } });
    const responses = {};
    for (const i of agent.pendingInterrupts) {
      const w = c.when.find((w) => w.interruptId === i.id.replace(/@[^@]*$/, ""));
      responses[i.id] = w?.status === "resolved" ? { status: "resolved", payload: w.payload } : { status: "cancelled" };
    }
    const resume = buildResumeArray(agent.pendingInterrupts, responses);
    const did = await measure(agent, { runId: `run-${script.name}-${c.name}-2`, forwardedProps: { scenario: script.name }, resume });
    rows.push([`\`${script.name}\` → ${c.name}`, said[script.group], "Send a resume answering every open interrupt; apply the resumed run to the same state.",
      ours(c.outcome ?? script.outcome), did, describe(agent.state)].map(cell));
  }
}
server.kill("SIGTERM");

console.log("| script | 1.0 | what 1.0 requires of a consumer | this client ends | `@ag-ui/client` 1.0 `runAgent` | its final state (id p95) |");
console.log("|---|---|---|---|---|---|");
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
console.log();
console.log(`Every request was HttpAgent's own body, answered ${[...statuses].join(", ")}: ${body}`);
if (resumeBody) console.log(`A resume, as HttpAgent built it: ${resumeBody}`);
