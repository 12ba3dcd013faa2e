/**
 * Small WebSocket helpers of the live hub: the fixed messages, safe sends and closes, and the
 * close codes it uses (RFC 6455 §7.4.1; 1013 "Try Again Later" is IANA-registered).
 */

export const PING = JSON.stringify({ type: "ping" });
export const PONG = JSON.stringify({ type: "pong" });
export const CLOSE = { goingAway: 1001, policy: 1008, tooBig: 1009, tryLater: 1013 } as const;
/** How long `closeAndWait` waits for the peer's close frame. */
const CLOSE_WAIT_MS = 1000;

/** The `{type: "error"}` message with this text. */
export function errorMessage(message: string): string {
  return JSON.stringify({ type: "error", message });
}

/** Size of a received message: characters of text, bytes of binary. */
export function messageSize(data: unknown): number {
  if (typeof data === "string") return data.length;
  if (data instanceof ArrayBuffer) return data.byteLength;
  if (data instanceof Blob) return data.size;
  return 0;
}

/** Sends when the socket is open; a peer gone meanwhile is cleaned up by its close event. */
export function send(socket: WebSocket, message: string): void {
  if (socket.readyState !== WebSocket.OPEN) return;
  try {
    socket.send(message);
  } catch {
    // The peer went away between the state check and the send; its close event cleans up.
  }
}

/** Closes without throwing (a socket already closing ignores it). */
export function close(socket: WebSocket, code: number, reason: string): void {
  try {
    socket.close(code, reason);
  } catch {
    // Already closing; its close event cleans up.
  }
}

/** Closes with 1001 and resolves once the peer answered (or after CLOSE_WAIT_MS). */
export function closeAndWait(socket: WebSocket): Promise<void> {
  if (socket.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, CLOSE_WAIT_MS);
    socket.addEventListener("close", () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      socket.close(CLOSE.goingAway, "Server shutting down");
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}
