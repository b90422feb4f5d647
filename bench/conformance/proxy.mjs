// Plays every script of fixtures/ to the official @ag-ui/client
// (HttpAgent.runAgent) twice: straight from this project's server, and
// through `agent-analysis proxy -upstream <server>`. The proxy only
// watches, so the client must see the same both ways: how runAgent ends,
// every event its subscriber is given, what it logs (console.warn and
// console.error), the state and messages it ends with, and the bodies it
// sends. A script that continues
// is resumed with each continuation's answers too, both ways. One line a
// script or continuation, then the proxy's own summary of the runs it
// judged; the exit status is 1 on any difference, or if the proxy did not
// judge every run.
//
// Each script plays with its delays, as run.mjs explains: under -no-delay
// what the client has applied when it throws depends on how the bytes were
// cut into reads, which the proxy, flushing each read as it arrives, may
// cut otherwise.
import { isDeepStrictEqual } from "node:util";
import { HttpAgent, buildResumeArray } from "@ag-ui/client";
import { scripts } from "./fixtures.mjs";
import { serve, start } from "./start.mjs";

const { base, server } = await serve();
const upstream = `${base}/api/agent-analysis`;
const proxy = await start(["proxy", "-upstream", upstream, "-addr", "127.0.0.1:0"],
  (line) => line.match(/^proxy: listening on (http:\/\/\S+),/)?.[1]);

// What the client sees of one runAgent call. What it logs is compared
// without stack frames, which name the client's code, not the stream.
const watch = async (agent, params) => {
  const seen = { events: [], logged: [] };
  const { warn, error } = console;
  const log = (...args) => seen.logged.push(args.map(String).join(" ").split("\n").filter((l) => !/^\s+at /.test(l)).join("\n"));
  console.warn = console.error = log;
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

// A client of url on thread, keeping the bodies it sends.
const client = (url, threadId) => {
  const sent = [];
  const agent = new HttpAgent({
    url, threadId,
    fetch: (to, init) => { sent.push(init.body); return fetch(to, init); },
  });
  return { agent, sent };
};

// play runs a script as run.mjs does, from url: once, or, with a
// continuation, once and then resumed with its answers, built by the
// client's own buildResumeArray.
const play = async (url, script, c) => {
  const { agent, sent } = client(url, `conformance-${script.name}${c ? `-${c.name}` : ""}`);
  const forwardedProps = { scenario: script.name };
  const runs = [await watch(agent, { runId: `run-${script.name}-1`, forwardedProps })];
  if (c) {
    const responses = {};
    for (const i of agent.pendingInterrupts) {
      const w = c.when.find((w) => w.interruptId === i.id.replace(/@[^@]*$/, ""));
      responses[i.id] = w?.status === "resolved" ? { status: "resolved", payload: w.payload } : { status: "cancelled" };
    }
    const resume = buildResumeArray(agent.pendingInterrupts, responses);
    runs.push(await watch(agent, { runId: `run-${script.name}-2`, forwardedProps, resume }));
  }
  return { runs, sent };
};

// difference is the first place two plays differ, in words; "" for none.
const difference = (direct, proxied) => {
  for (const [n, d] of direct.runs.entries()) {
    const p = proxied.runs[n];
    const run = direct.runs.length > 1 ? `run ${n + 1}: ` : "";
    if (d.ending !== p.ending) return `${run}${d.ending} directly, ${p.ending} through the proxy`;
    const at = d.events.findIndex((e, i) => !isDeepStrictEqual(e, p.events[i]));
    if (at >= 0 || d.events.length !== p.events.length) {
      const i = at >= 0 ? at : Math.min(d.events.length, p.events.length);
      return `${run}event ${i + 1}: ${JSON.stringify(d.events[i])} directly, ${JSON.stringify(p.events[i])} through the proxy`;
    }
    for (const what of ["logged", "state", "messages"]) {
      if (!isDeepStrictEqual(d[what], p[what])) return `${run}${what}: ${JSON.stringify(d[what])} directly, ${JSON.stringify(p[what])} through the proxy`;
    }
  }
  if (!isDeepStrictEqual(direct.sent, proxied.sent)) return `the bodies sent: ${direct.sent.join(" ")} directly, ${proxied.sent.join(" ")} through the proxy`;
  return "";
};

let plays = 0, differ = 0, proxiedRuns = 0;
for (const script of scripts) {
  for (const c of [undefined, ...(script.continuations ?? [])]) {
    const name = c ? `${script.name} → ${c.name}` : script.name;
    const direct = await play(upstream, script, c);
    const proxied = await play(proxy.address, script, c);
    proxiedRuns += proxied.runs.length;
    plays++;
    const why = difference(direct, proxied);
    if (why) differ++;
    const events = direct.runs.map((r) => r.events.length).join(" + ");
    console.log(why ? `DIFF ${name}: ${why}` : `same ${name} · ${events} events · ${direct.runs.map((r) => r.ending.split(":")[0]).join(", ")}`);
  }
}

// The proxy prints its summary when it stops: it must have judged every run.
const stopped = new Promise((resolve) => proxy.child.on("exit", resolve));
proxy.child.kill("SIGTERM");
await stopped;
server.kill("SIGTERM");
const summary = proxy.output.at(-1) ?? "";
const judged = Number(summary.match(/^(\d+) runs?:/)?.[1]);
console.log(`the proxy: ${summary}`);
if (judged !== proxiedRuns) console.log(`FAIL the proxy judged ${judged} runs, not the ${proxiedRuns} it passed`);
console.log(`${plays - differ} passed, ${differ} failed`);
process.exitCode = differ || judged !== proxiedRuns ? 1 : 0;
