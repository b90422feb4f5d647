// Starts bin/agent-analysis (make conformance builds it) for the scripts
// beside this file. Whatever ends the script that started it, an
// exception thrown from a callback included, the process ends with it.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const binary = new URL("../../bin/agent-analysis", import.meta.url).pathname;

// start runs agent-analysis with args and resolves once a line of its
// standard output gives what listening finds in it (the address it took):
// { child, address, output }, output every line it writes, as it comes.
export const start = (args, listening) => new Promise((resolve, reject) => {
  const child = spawn(binary, args, { stdio: ["ignore", "pipe", "inherit"] });
  process.on("exit", () => child.kill("SIGTERM"));
  const output = [];
  createInterface({ input: child.stdout }).on("line", (line) => {
    output.push(line);
    const address = listening(line);
    if (address !== undefined) resolve({ child, address, output });
  });
  child.on("error", reject);
  child.on("exit", (code) => reject(new Error(`agent-analysis ${args[0]} exited ${code} before listening`)));
});

// serve starts the server on a free loopback port, with the extra args,
// and resolves with its base URL, http://127.0.0.1:PORT, and the process.
export const serve = async (...args) => {
  const { child, address } = await start(["serve", "-addr", "127.0.0.1:0", "-log-json", "-web", "/nonexistent", ...args], (line) => {
    let entry;
    try { entry = JSON.parse(line); } catch { return undefined; } // not a log line of ours
    return entry.msg === "listening" ? entry.url.replace(/\/agent-analysis$/, "") : undefined;
  });
  return { base: address, server: child };
};
