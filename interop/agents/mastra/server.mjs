// A Mastra agent (@mastra/core, with @mastra/memory's working memory and
// Mastra's in-memory store) behind AG-UI's Mastra integration (@ag-ui/mastra's
// MastraAgent), with the AI SDK's mock language model: no API key, no network.
//
//   PORT=8123 node server.mjs   ->  POST http://127.0.0.1:8123/
//
// MastraAgent is an AG-UI AbstractAgent: run(input) is an Observable of AG-UI
// events. This file is the transport around it, as @ag-ui/mastra leaves
// serving to its host: each event is written with @ag-ui/encoder; an error the
// Observable ends with is written as RUN_ERROR (the adapter signals a failed
// run that way, not with an event); a client that leaves unsubscribes.
//
// The model's script is chosen by the last user message's first word; a
// model call that follows a tool result gets the script's follow-up.
import http from "node:http";
import { Mastra } from "@mastra/core";
import { Agent } from "@mastra/core/agent";
import { createTool } from "@mastra/core/tools";
import { InMemoryStore } from "@mastra/core/storage";
import { Memory } from "@mastra/memory";
import { MastraAgent } from "@ag-ui/mastra";
import { EventEncoder } from "@ag-ui/encoder";
import { MockLanguageModelV3, simulateReadableStream } from "ai/test";
import { z } from "zod";

const port = Number(process.env.PORT || process.argv[2]);
if (!Number.isInteger(port) || port <= 0) {
  console.error("usage: PORT=N node server.mjs");
  process.exit(2);
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const finish = (unified) => ({ type: "finish", finishReason: { unified, raw: unified }, usage });
const text = (id, ...deltas) => [
  { type: "text-start", id },
  ...deltas.map((delta) => ({ type: "text-delta", id, delta })),
  { type: "text-end", id },
];
const call = (toolCallId, toolName, input) => ({ type: "tool-call", toolCallId, toolName, input: JSON.stringify(input) });

// What the model streams, by the user's first word; "then" is what it
// streams once the tools it called have answered.
const scripts = {
  text: { chunks: [...text("t1", "Hello", " from", " Mastra."), finish("stop")] },
  tool: {
    chunks: [call("call-weather", "weather", { city: "Oslo" }), finish("tool-calls")],
    then: [...text("t2", "It is 21 degrees in Oslo."), finish("stop")],
  },
  // A tool of the client's (the request's tools): the run ends with the call pending.
  frontend: { chunks: [call("call-confirm", "confirm", { question: "Deploy?" }), finish("tool-calls")] },
  // Mastra's working memory tool: @ag-ui/mastra turns its updates into state events.
  state: {
    chunks: [
      call("call-memory", "updateWorkingMemory", { memory: JSON.stringify({ services: [{ name: "api", status: "down" }] }) }),
      finish("tool-calls"),
    ],
    then: [...text("t3", "Noted: the api is down."), finish("stop")],
  },
  reasoning: {
    chunks: [
      { type: "reasoning-start", id: "r1" },
      { type: "reasoning-delta", id: "r1", delta: "The user greets me." },
      { type: "reasoning-end", id: "r1" },
      ...text("t4", "Hello."),
      finish("stop"),
    ],
  },
  // A tool that suspends for approval: an AG-UI interrupt.
  interrupt: {
    chunks: [call("call-deploy", "deploy", { service: "api" }), finish("tool-calls")],
    then: [...text("t6", "Done."), finish("stop")],
  },
  // Long enough (40 chunks, 100 ms apart) for a client to cancel mid-stream.
  slow: { chunks: [...text("t5", ...Array.from({ length: 40 }, (_, i) => `word${i} `)), finish("stop")], delay: 100 },
};

function lastUserWord(prompt) {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const m = prompt[i];
    if (m.role !== "user") continue;
    const t = m.content.filter((p) => p.type === "text").map((p) => p.text).join(" ");
    return t.trim().split(/\s+/)[0].toLowerCase();
  }
  return "";
}

const model = new MockLanguageModelV3({
  doStream: async ({ prompt }) => {
    const word = lastUserWord(prompt);
    if (word === "error") throw new Error("the mock model failed, as scripted");
    const script = scripts[word] ?? scripts.text;
    const answered = prompt.at(-1)?.role === "tool";
    const chunks = answered && script.then ? script.then : script.chunks;
    return {
      stream: simulateReadableStream({
        chunks: [{ type: "stream-start", warnings: [] }, ...chunks],
        chunkDelayInMs: script.delay ?? 0,
      }),
    };
  },
});

const weather = createTool({
  id: "weather",
  description: "The weather in a city",
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, celsius: 21 }),
});

const deploy = createTool({
  id: "deploy",
  description: "Deploy a service, once a person approves",
  inputSchema: z.object({ service: z.string() }),
  suspendSchema: z.object({ question: z.string() }),
  resumeSchema: z.object({ approved: z.boolean() }),
  execute: async ({ service }, context) => {
    const answer = context?.agent?.resumeData ?? context?.resumeData;
    if (answer) return { service, deployed: answer.approved === true };
    const suspend = context?.agent?.suspend ?? context?.suspend;
    await suspend({ question: `Deploy ${service}?` });
  },
});

const storage = new InMemoryStore();
const agent = new Agent({
  id: "demo",
  name: "demo",
  instructions: "You answer from a script.",
  model,
  tools: { weather, deploy },
  memory: new Memory({ storage, options: { workingMemory: { enabled: true, scope: "thread" } } }),
});
const mastra = new Mastra({ agents: { demo: agent }, storage, logger: false });

async function run(req, res, input) {
  const encoder = new EventEncoder({ accept: req.headers.accept });
  res.writeHead(200, { "Content-Type": encoder.getContentType(), "Cache-Control": "no-cache" });
  const ag = new MastraAgent({ agent: mastra.getAgent("demo"), resourceId: "interop" });
  await new Promise((resolve) => {
    const sub = ag.run(input).subscribe({
      next: (event) => res.write(encoder.encode(event)),
      error: (err) => {
        res.write(encoder.encode({ type: "RUN_ERROR", message: err instanceof Error ? err.message : String(err) }));
        resolve();
      },
      complete: resolve,
    });
    res.on("close", () => {
      sub.unsubscribe();
      resolve();
    });
  });
  res.end();
}

const server = http.createServer((req, res) => {
  if (req.method !== "POST") {
    res.writeHead(req.method === "GET" ? 200 : 405, { "Content-Type": "text/plain" });
    res.end(req.method === "GET" ? "ok\n" : "POST a RunAgentInput\n");
    return;
  }
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    let input;
    try {
      input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      res.writeHead(400, { "Content-Type": "text/plain" });
      res.end("the body is not JSON\n");
      return;
    }
    run(req, res, input).catch((err) => {
      console.error(err);
      res.destroy(err);
    });
  });
});
server.listen(port, "127.0.0.1", () => {
  console.log(`ready http://127.0.0.1:${port}/`);
});
