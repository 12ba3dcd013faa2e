/**
 * The live hub's side of a socket: the one small interface both transports implement (Deno's
 * WebSocket and the `ws` package's, see transports.ts), the messages it sends and the close codes
 * it uses (RFC 6455 §7.4.1; 1013 "Try Again Later" is IANA-registered).
 */
import { constants as zlibConstants, deflateRawSync } from "node:zlib";

/**
 * One or more messages to send, serialised once. A broadcast builds one `Outgoing` and hands the
 * same object to every socket: a transport that writes raw frames takes `frame`, built on first
 * use and shared by all sockets, so a message costs one JSON and one frame per competition, and
 * messages that go out together (`Outgoing.join`) cost each socket one write. `deflatedFrame` is
 * the same messages compressed (permessage-deflate, RFC 7692, each message compressed alone, so
 * one compressed frame serves every socket that negotiated the extension): a match day's 10 KB
 * events list crosses the network as about 1 KB.
 */
export class Outgoing {
  #frame: Uint8Array | null = null;
  #deflatedFrame: Uint8Array | null = null;
  readonly texts: readonly string[];

  constructor(...texts: string[]) {
    this.texts = texts;
  }

  /** The messages of `a` then `b`, sent together. */
  static join(a: Outgoing, b: Outgoing): Outgoing {
    return new Outgoing(...a.texts, ...b.texts);
  }

  /** The text of the (first) message. */
  get text(): string {
    return this.texts[0];
  }

  /** The whole unmasked text frames of these messages (RFC 6455 §5.2), one after the other. */
  get frame(): Uint8Array {
    return this.#frame ??= concat(this.texts.map((text) => textFrame(encoder.encode(text))));
  }

  /**
   * The frames for a socket that negotiated permessage-deflate with server_no_context_takeover
   * and the full 15-bit window: messages of at least `DEFLATE_MIN_BYTES` compressed (RSV1 set),
   * shorter ones as they are (the extension lets each message choose).
   */
  get deflatedFrame(): Uint8Array {
    return this.#deflatedFrame ??= concat(this.texts.map((text) => {
      const payload = encoder.encode(text);
      if (payload.length < DEFLATE_MIN_BYTES) return textFrame(payload);
      // RFC 7692 §7.2.1: compress, end with an empty stored block (a sync flush), drop its
      // 4 bytes 00 00 ff ff; the receiver puts them back.
      const deflated = deflateRawSync(payload, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
      return textFrame(deflated.subarray(0, deflated.length - 4), true);
    }));
  }
}

/** Messages shorter than this (in bytes) are sent uncompressed: deflate would not pay. */
export const DEFLATE_MIN_BYTES = 256;

const encoder = new TextEncoder();

function concat(frames: Uint8Array[]): Uint8Array {
  if (frames.length === 1) return frames[0];
  const all = new Uint8Array(frames.reduce((size, frame) => size + frame.length, 0));
  let offset = 0;
  for (const frame of frames) (all.set(frame, offset), offset += frame.length);
  return all;
}

/** One unmasked text frame of `payload` (RFC 6455 §5.2); `deflated` sets RSV1. */
function textFrame(payload: Uint8Array, deflated = false): Uint8Array {
  const size = payload.length;
  const head = size < 126 ? 2 : size < 65_536 ? 4 : 10;
  const frame = new Uint8Array(head + size);
  frame[0] = deflated ? 0xc1 : 0x81; // FIN (+ RSV1) + text
  const view = new DataView(frame.buffer);
  if (head === 2) frame[1] = size;
  if (head === 4) (frame[1] = 126, view.setUint16(2, size));
  if (head === 10) (frame[1] = 127, view.setBigUint64(2, BigInt(size)));
  frame.set(payload, head);
  return frame;
}

/** What the hub needs of a connected socket, whatever serves it. */
export interface LiveSocket {
  /**
   * Sends `message` while the socket is open. A peer that lets more than `MAX_BUFFERED_BYTES`
   * pile up unread is cut instead: a slow socket is dropped, never buffered without bound.
   */
  send(message: Outgoing): void;
  /** Closes with `code` (no-op when already closing). */
  close(code: number, reason: string): void;
  /**
   * Closes with the restart hint (`CLOSE.restart`, 1012 "Service restart": pages reconnect,
   * spread out, to another isolate) and resolves once the peer answered (or after
   * `CLOSE_WAIT_MS`).
   */
  closeAndWait(): Promise<void>;
  /**
   * One heartbeat: sends `PING` and checks the link is alive; a transport without its own
   * dead-peer detection cuts a socket that sent nothing (not even a pong) since the last beat.
   */
  beat(): void;
}

/** What the hub does with a socket's events; the transport calls these. */
export interface LiveSocketEvents {
  /** A message came: text as a string, binary as bytes. */
  message(data: string | Uint8Array): void;
  /** The socket closed (called once, whatever the cause). */
  closed(): void;
}

export const PING = new Outgoing(JSON.stringify({ type: "ping" }));
export const PONG = new Outgoing(JSON.stringify({ type: "pong" }));
export const CLOSE = { policy: 1008, tooBig: 1009, restart: 1012, tryLater: 1013 } as const;
/** The reason sent with `CLOSE.restart`. */
export const RESTART_REASON = "Service restart";
/** How long `closeAndWait` waits for the peer's close frame. */
export const CLOSE_WAIT_MS = 1000;
/** Unsent bytes a socket may hold before it counts as unable to keep up and is cut. */
export const MAX_BUFFERED_BYTES = 1 << 20;

/** The `{type: "error"}` message with this text. */
export function errorMessage(message: string): Outgoing {
  return new Outgoing(JSON.stringify({ type: "error", message }));
}
