// A Node stack (node:http and @ag-ui/encoder), doing the Go server's work
// with delays zeroed: read and check a RunAgentInput, then stream the
// scenario with @ag-ui/encoder.
import { createServer } from "node:http";
import { readFileSync, readdirSync } from "node:fs";
import { EventEncoder } from "@ag-ui/encoder";

const dir = new URL("../../../fixtures/", import.meta.url);
const scripts = Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(new URL(f, dir))))
  // A script's stream holds events, or {afterMs, event}, or {comment}.
  .map((s) => [s.name, s.stream.map((step) => ("afterMs" in step || "comment" in step ? step.event : step)).filter(Boolean)]));

createServer((req, res) => {
  if (req.method !== "POST" || req.url !== "/api/agent-analysis") return res.writeHead(405).end();
  const chunks = [];
  let size = 0;
  req.on("data", (c) => { size += c.length; if (size > 16384) req.destroy(); else chunks.push(c); });
  req.on("end", () => {
    let input;
    try { input = JSON.parse(Buffer.concat(chunks)); } catch { return res.writeHead(400).end(); }
    const steps = scripts[input?.forwardedProps?.scenario];
    if (typeof input.threadId !== "string" || typeof input.runId !== "string") return res.writeHead(400).end();
    if (!steps) return res.writeHead(422).end();
    const encoder = new EventEncoder({ accept: req.headers.accept });
    res.writeHead(200, { "Content-Type": encoder.getContentType(), "Cache-Control": "no-cache" });
    for (const event of steps) {
      const ids = event.type === "RUN_STARTED" || event.type === "RUN_FINISHED" ? { threadId: input.threadId, runId: input.runId } : {};
      res.write(encoder.encode({ ...event, ...ids }));
    }
    res.end();
  });
}).listen(Number(process.env.PORT ?? 0), "127.0.0.1", function () { console.log(`listening ${this.address().port}`); });
