// An agent built on the official AG-UI SDK packages alone: @ag-ui/core's
// event types and @ag-ui/encoder's EventEncoder over a plain node:http
// server. Not a framework: its "model" is the script below.
//
//   PORT=8123 node server.mjs   ->  POST http://127.0.0.1:8123/
//
// The script is chosen by the last user message's first word; a request
// with a resume list continues the interrupted run it answers.
import http from "node:http";
import { randomUUID } from "node:crypto";
import { EventType } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";

const port = Number(process.env.PORT || process.argv[2]);
if (!Number.isInteger(port) || port <= 0) {
  console.error("usage: PORT=N node server.mjs");
  process.exit(2);
}

const text = (messageId, ...deltas) => [
  { type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" },
  ...deltas.map((delta) => ({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta })),
  { type: EventType.TEXT_MESSAGE_END, messageId },
];
const call = (toolCallId, toolCallName, args, parentMessageId) => [
  { type: EventType.TOOL_CALL_START, toolCallId, toolCallName, parentMessageId },
  { type: EventType.TOOL_CALL_ARGS, toolCallId, delta: JSON.stringify(args) },
  { type: EventType.TOOL_CALL_END, toolCallId },
];

const approval = {
  id: "approve-deploy",
  reason: "tool_approval",
  message: "Deploy the api?",
  toolCallId: "call-deploy",
  responseSchema: { type: "object", properties: { approved: { type: "boolean" } }, required: ["approved"] },
};

// Each script: the events between RUN_STARTED and the run's end, and how
// it ends: finished (with an outcome) or an error.
const scripts = {
  text: () => ({ events: text(randomUUID(), "Hello", " from", " the SDK.") }),
  tool: () => {
    const m = randomUUID();
    return {
      events: [
        ...text(m, "Looking it up."),
        ...call("call-weather", "weather", { city: "Oslo" }, m),
        { type: EventType.TOOL_CALL_RESULT, messageId: randomUUID(), toolCallId: "call-weather", role: "tool", content: '{"celsius":21}' },
        ...text(randomUUID(), "It is 21 degrees in Oslo."),
      ],
    };
  },
  frontend: () => ({
    events: call("call-confirm", "confirm", { question: "Deploy?" }),
    outcome: { type: "success", pendingToolCallIds: ["call-confirm"] },
  }),
  state: () => ({
    events: [
      { type: EventType.STATE_SNAPSHOT, snapshot: { services: [{ name: "api", status: "up" }] } },
      { type: EventType.STATE_DELTA, delta: [{ op: "replace", path: "/services/0/status", value: "down" }] },
      ...text(randomUUID(), "The api is down."),
    ],
  }),
  reasoning: () => {
    const r = randomUUID();
    return {
      events: [
        { type: EventType.REASONING_START, messageId: r },
        { type: EventType.REASONING_MESSAGE_START, messageId: r, role: "reasoning" },
        { type: EventType.REASONING_MESSAGE_CONTENT, messageId: r, delta: "The user greets me." },
        { type: EventType.REASONING_MESSAGE_END, messageId: r },
        { type: EventType.REASONING_END, messageId: r },
        ...text(randomUUID(), "Hello."),
      ],
    };
  },
  error: () => ({ events: [], error: { message: "the scripted model failed", code: "model_error" } }),
  // 40 words 100 ms apart: time for a client to cancel mid-stream.
  slow: () => ({ events: text(randomUUID(), ...Array.from({ length: 40 }, (_, i) => `word${i} `)), delay: 100 }),
  interrupt: () => {
    const m = randomUUID();
    return {
      events: [...text(m, "I need your approval to deploy."), ...call("call-deploy", "deploy", { service: "api" }, m)],
      outcome: { type: "interrupt", interrupts: [approval] },
    };
  },
};

// resumed answers a resume list that answers the interrupt above.
function resumed(resume) {
  const entry = resume.find((r) => r.interruptId === approval.id);
  const approved = entry?.status === "resolved" && entry.payload?.approved === true;
  return {
    events: [
      { type: EventType.TOOL_CALL_RESULT, messageId: randomUUID(), toolCallId: "call-deploy", role: "tool", content: approved ? "deployed" : "not deployed" },
      ...text(randomUUID(), approved ? "Deployed." : "Not deployed."),
    ],
  };
}

function firstWord(messages) {
  const user = messages.findLast((m) => m.role === "user");
  const content = typeof user?.content === "string" ? user.content : "";
  return content.trim().split(/\s+/)[0].toLowerCase();
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(req, res, input) {
  const encoder = new EventEncoder({ accept: req.headers.accept });
  let gone = false;
  res.on("close", () => { gone = !res.writableFinished; });
  res.writeHead(200, { "Content-Type": encoder.getContentType(), "Cache-Control": "no-cache" });
  const send = (event) => res.write(encoder.encode(event));
  const { threadId, runId } = input;
  const script = Array.isArray(input.resume) && input.resume.length > 0
    ? resumed(input.resume)
    : (scripts[firstWord(input.messages ?? [])] ?? scripts.text)();
  send({ type: EventType.RUN_STARTED, threadId, runId });
  for (const event of script.events) {
    if (script.delay) await sleep(script.delay);
    if (gone) return; // the client left: the run stops here
    send(event);
  }
  if (script.error) send({ type: EventType.RUN_ERROR, ...script.error });
  else send({ type: EventType.RUN_FINISHED, threadId, runId, ...(script.outcome ? { outcome: script.outcome } : {}) });
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
