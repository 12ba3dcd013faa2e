/**
 * The live hub's transport over Deno's own WebSocket (`Deno.upgradeWebSocket`: routes/ws.ts when
 * the app's handler is served by `Deno.serve`, tests): Deno pings on its own (`idleTimeout`) and
 * sends text through its own framing. The other transport, a `ws` socket over a `node:http`
 * upgrade (every served port), is in ws_node.ts with everything else the app takes from `ws`.
 */
import type { LiveHub } from "./hub.ts";
import {
  CLOSE,
  CLOSE_WAIT_MS,
  type LiveSocket,
  type LiveSocketEvents,
  MAX_BUFFERED_BYTES,
  type Outgoing,
  PING,
  RESTART_REASON,
} from "./socket_io.ts";

/** Hands a Deno WebSocket to `hub` (the hub refuses it with a close when full or closed). */
export function serveDenoSocket(hub: LiveHub, ws: WebSocket): void {
  const closed = new Promise<void>((resolve) => ws.addEventListener("close", () => resolve()));
  const close = (code: number, reason: string) => {
    try {
      ws.close(code, reason);
    } catch {
      // Already closing; its close event follows.
    }
  };
  const socket: LiveSocket = {
    send(message: Outgoing) {
      if (ws.readyState !== WebSocket.OPEN) return;
      if (ws.bufferedAmount > MAX_BUFFERED_BYTES) return close(CLOSE.policy, "Too slow");
      try {
        for (const text of message.texts) ws.send(text);
      } catch {
        // The peer went away between the state check and the send; its close event cleans up.
      }
    },
    close,
    closeAndWait() {
      if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
      close(CLOSE.restart, RESTART_REASON);
      return waitAtMost(closed, CLOSE_WAIT_MS);
    },
    beat() {
      this.send(PING);
    },
  };
  ws.binaryType = "arraybuffer";
  let events: LiveSocketEvents | null = null;
  const open = () => events = hub.accept(socket);
  if (ws.readyState === WebSocket.OPEN) open();
  else ws.addEventListener("open", open);
  ws.addEventListener("message", (event) => {
    const data = event.data;
    if (typeof data === "string") return events?.message(data);
    if (data instanceof ArrayBuffer) return events?.message(new Uint8Array(data));
  });
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    events?.closed();
  };
  ws.addEventListener("close", end);
  ws.addEventListener("error", end);
}

/** Resolves when `done` does or after `ms`, whichever comes first. */
export function waitAtMost(done: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => timer = setTimeout(resolve, ms));
  return Promise.race([done, timeout]).finally(() => clearTimeout(timer));
}
