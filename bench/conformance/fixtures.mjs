// Every script of fixtures/, as the demo's select lists them: the
// scenarios, then the faults 1.0 rejects, warns about, and allows.
import { readFileSync, readdirSync } from "node:fs";

const dir = new URL("../../fixtures/", import.meta.url);
export const groups = ["demo", "fatal", "warn", "legal"];
const scenarios = ["normal", "invalid", "slow", "approval"];

export const scripts = readdirSync(dir).filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(new URL(f, dir))))
  .sort((a, b) => groups.indexOf(a.group) - groups.indexOf(b.group)
    || (a.group === "demo" ? scenarios.indexOf(a.name) - scenarios.indexOf(b.name) : a.name.localeCompare(b.name)));
