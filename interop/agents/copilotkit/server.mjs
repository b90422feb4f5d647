// CopilotKit's runtime (@copilotkitnext/runtime, its Express endpoint) serving
// its BuiltInAgent (@copilotkitnext/agent) over AG-UI, with the AI SDK's mock
// language model in place of a provider: no API key, no network.
//
//   PORT=8123 node server.mjs   ->  POST http://127.0.0.1:8123/agent/default/run
//
// The model's script is chosen by the last user message's first word (see
// scripts below); a run after a tool result gets the script's follow-up.
import express from "express";
import { CopilotRuntime } from "@copilotkitnext/runtime";
import { createCopilotEndpointExpress } from "@copilotkitnext/runtime/express";
import { BuiltInAgent, defineTool } from "@copilotkitnext/agent";
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
  text: { chunks: [...text("t1", "Hello", " from", " CopilotKit."), finish("stop")] },
  tool: {
    chunks: [call("call-weather", "weather", { city: "Oslo" }), finish("tool-calls")],
    then: [...text("t2", "It is 21 degrees in Oslo."), finish("stop")],
  },
  // A tool of the client's (the request's tools): the run ends with the call pending.
  frontend: { chunks: [call("call-confirm", "confirm", { question: "Deploy?" }), finish("tool-calls")] },
  state: {
    chunks: [
      call("call-snapshot", "AGUISendStateSnapshot", { snapshot: { services: [{ name: "api", status: "up" }] } }),
      call("call-delta", "AGUISendStateDelta", { delta: [{ op: "replace", path: "/services/0/status", value: "down" }] }),
      finish("tool-calls"),
    ],
    then: [...text("t3", "The api is down."), finish("stop")],
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

const agent = new BuiltInAgent({
  model,
  maxSteps: 3,
  maxRetries: 0,
  tools: [
    defineTool({
      name: "weather",
      description: "The weather in a city",
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => ({ city, celsius: 21 }),
    }),
  ],
});

const runtime = new CopilotRuntime({ agents: { default: agent } });
const app = express();
app.use(createCopilotEndpointExpress({ runtime, basePath: "/" }));
app.listen(port, "127.0.0.1", () => {
  console.log(`ready http://127.0.0.1:${port}/agent/default/run`);
});
