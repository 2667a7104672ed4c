// complex-memory-manager hook handler (the same file in every hook folder).
// Zero logic: run <bundle>/scripts/hook.py with the event as JSON on stdin, bounded
// to 2 s (hooks.timeout_seconds), forward its log lines to the Gateway log and its bootstrap files to
// event.context.bootstrapFiles (agent:bootstrap only). It never throws: a hook
// fails open. Protocol: references/formats.md, "Hook output (cmm-hook v1)".
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const DEFAULT_TIMEOUT_MS = 2000;
const TAG = "[complex-memory-manager]";
// Never pass the Gateway config, service handles or file contents to the script.
const DROP = new Set(["cfg", "deps", "bootstrapFiles"]);

function target() {
  // init writes bundle-path.json beside this file: where the bundle lives and
  // the Python that init ran with (it has the bundle's packages). Without it
  // (a hook run from inside the bundle itself) use two folders up and python3.
  try {
    const info = JSON.parse(readFileSync(join(HERE, "bundle-path.json"), "utf8"));
    const python = typeof info.python === "string" && existsSync(info.python) ? info.python : "python3";
    const timeout = Number.isFinite(info.timeoutMs) && info.timeoutMs > 0 ? info.timeoutMs : DEFAULT_TIMEOUT_MS;
    return { bundle: info.bundle, python, timeout };
  } catch {
    return { bundle: join(HERE, "..", ".."), python: "python3", timeout: DEFAULT_TIMEOUT_MS };
  }
}

function payload(event) {
  const seen = new WeakSet();
  return JSON.stringify(event, (key, value) => {
    if (DROP.has(key)) return undefined;
    if (typeof value === "bigint") return String(value);
    if (value && typeof value === "object") {
      if (seen.has(value)) return undefined;
      seen.add(value);
    }
    return value;
  });
}

export default function handler(event) {
  return new Promise((resolve) => {
    let settled = false;
    const done = () => {
      if (!settled) {
        settled = true;
        resolve();
      }
    };
    try {
      const { bundle, python, timeout } = target();
      const child = spawn(python, [join(bundle, "scripts", "hook.py")], {
        stdio: ["pipe", "pipe", "pipe"],
        timeout,
        killSignal: "SIGKILL",
      });
      let out = "";
      let err = "";
      child.stdout.on("data", (chunk) => { out += chunk; });
      child.stderr.on("data", (chunk) => { err += chunk; });
      child.stdin.on("error", () => {});
      child.on("error", (error) => {
        console.error(`${TAG} ${error.message}`);
        done();
      });
      child.on("close", (code, signal) => {
        try {
          if (signal) console.error(`${TAG} hook.py stopped by ${signal} (over ${timeout} ms)`);
          for (const line of err.split("\n")) if (line.trim()) console.error(`${TAG} ${line}`);
          const last = out.trim().split("\n").pop();
          if (last) {
            const reply = JSON.parse(last);
            for (const line of reply.log ?? []) console.log(`${TAG} ${line}`);
            const files = event?.context?.bootstrapFiles;
            if (Array.isArray(files) && Array.isArray(reply.bootstrapFiles)) files.push(...reply.bootstrapFiles);
          }
        } catch (error) {
          console.error(`${TAG} ${error.message}`);
        }
        done();
      });
      child.stdin.end(payload(event));
    } catch (error) {
      console.error(`${TAG} ${error?.message ?? error}`);
      done();
    }
  });
}
