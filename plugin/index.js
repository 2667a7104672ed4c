// complex-memory-manager plugin shim
// Zero logic, like hooks/*/handler.js: after each agent turn run
// <bundle>/scripts/hook.py with an "agent:end" event as JSON on stdin, carrying the
// usage and context budget the model reported for the turn (llm_output), bounded to
// 2 s (hooks.timeout_seconds), its log lines forwarded to the Gateway log. It never
// throws: the turn goes on whatever happens here. Protocol: references/formats.md,
// "OpenClaw plugin (cmm-plugin)".
//
// The only state is a join: OpenClaw 2026.9.6 runs a turn's agent_end hooks *before*
// its llm_output hooks (both keyed by runId), so agent_end waits here for llm_output up
// to JOIN_MS, then hook.py runs once with whatever arrived.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const ID = "complex-memory-manager";
const DEFAULT_TIMEOUT_MS = 2000;
const TAG = "[complex-memory-manager]";
// runId -> {end, call}: half-joined turns. Bounded, so runs whose other half never
// comes (llm_output is skipped for a blocked prompt) cannot pile up.
const pending = new Map();
const MAX_RUNS = 64;
const JOIN_MS = 5000;

function target() {
  // init writes bundle-path.json beside this file (where the bundle lives, its Python).
  try {
    const info = JSON.parse(readFileSync(join(HERE, "bundle-path.json"), "utf8"));
    const python = typeof info.python === "string" && existsSync(info.python) ? info.python : "python3";
    const timeout = Number.isFinite(info.timeoutMs) && info.timeoutMs > 0 ? info.timeoutMs : DEFAULT_TIMEOUT_MS;
    return { bundle: info.bundle, python, timeout };
  } catch {
    return { bundle: join(HERE, ".."), python: "python3", timeout: DEFAULT_TIMEOUT_MS };
  }
}

function pick(obj, keys) {
  const out = {};
  for (const key of keys) if (obj && obj[key] !== undefined) out[key] = obj[key];
  return out;
}

// Run hook.py with one event; resolves when it is done (never rejects).
export function runHook(event, log = console) {
  return new Promise((resolve) => {
    let settled = false;
    const done = () => { if (!settled) { settled = true; resolve(); } };
    try {
      const { bundle, python, timeout } = target();
      const child = spawn(python, [join(bundle, "scripts", "hook.py")], {
        stdio: ["pipe", "pipe", "pipe"], timeout, killSignal: "SIGKILL",
      });
      let out = "";
      let err = "";
      child.stdout.on("data", (chunk) => { out += chunk; });
      child.stderr.on("data", (chunk) => { err += chunk; });
      child.stdin.on("error", () => {});
      child.on("error", (error) => { log.error(`${TAG} ${error.message}`); done(); });
      child.on("close", (code, signal) => {
        try {
          if (signal) log.error(`${TAG} hook.py stopped by ${signal} (over ${timeout} ms)`);
          for (const line of err.split("\n")) if (line.trim()) log.error(`${TAG} ${line}`);
          const last = out.trim().split("\n").pop();
          if (last) for (const line of JSON.parse(last).log ?? []) log.info(`${TAG} ${line}`);
        } catch (error) {
          log.error(`${TAG} ${error.message}`);
        }
        done();
      });
      child.stdin.end(JSON.stringify(event));
    } catch (error) {
      log.error(`${TAG} ${error?.message ?? error}`);
      done();
    }
  });
}

const CTX_KEYS = ["agentId", "sessionKey", "sessionId", "workspaceDir", "trigger", "channelId"];

function remember(runId, part) {
  const slot = pending.get(runId) ?? {};
  pending.delete(runId);
  Object.assign(slot, part);
  pending.set(runId, slot);
  while (pending.size > MAX_RUNS) {
    const [oldest, stale] = pending.entries().next().value;
    pending.delete(oldest);
    if (stale.timer) clearTimeout(stale.timer);
  }
  return slot;
}

function fire(runId, log) {
  const slot = pending.get(runId);
  if (!slot?.end) return Promise.resolve();
  pending.delete(runId);
  if (slot.timer) clearTimeout(slot.timer);
  // Only what hook.py needs: never the turn's messages, prompt or reply.
  return runHook({ type: "agent", action: "end", sessionKey: slot.end.sessionKey,
                   context: { ...slot.end, ...(slot.call ?? {}), runId } }, log);
}

export default {
  id: ID,
  name: "Memory manager (complex-memory-manager)",
  description: "Records the context usage after each turn and starts the memory upkeep.",
  register(api) {
    const log = api.logger ?? console;
    api.on("agent_end", (event, ctx) => {
      try {
        const runId = ctx?.runId ?? event?.runId;
        if (!runId) return runHook({ type: "agent", action: "end", sessionKey: ctx?.sessionKey,
                                     context: { ...pick(ctx, CTX_KEYS), success: event?.success } }, log);
        const slot = remember(runId, { end: { ...pick(ctx, CTX_KEYS), success: event?.success } });
        if (slot.call) return fire(runId, log);
        slot.timer = setTimeout(() => { fire(runId, log).catch(() => {}); }, JOIN_MS);
        slot.timer.unref?.();
      } catch {}
    });
    api.on("llm_output", (event, ctx) => {
      try {
        const runId = event?.runId ?? ctx?.runId;
        if (!runId) return;
        // lastCallUsage: the turn's last model call (what the context holds now);
        // usage: the sum over the turn's calls (a fallback only).
        const slot = remember(runId, { call: { ...pick(event, ["usage", "contextTokenBudget", "contextWindowSource", "provider", "model"]),
                                               lastCallUsage: event?.lastAssistant?.usage } });
        if (slot.end) return fire(runId, log);
      } catch {}
    });
  },
};
