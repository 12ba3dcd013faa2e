/**
 * The browser side of the live push: while `enabled`, keeps a WebSocket to /ws joined to
 * one competition, reconnecting with jittered backoff (reconnect.ts: spread over a few seconds
 * after a server's restart hint, else 1 s doubling to 30 s). Reports whether it is up so the page
 * can fall back to polling while it is down.
 */
import { useEffect, useRef, useState } from "react";
import type { LiveEvent, LiveServerMessage } from "@/lib/domain/live.ts";
import { reconnectDelay } from "./reconnect.ts";

export interface LiveSocketHandlers {
  onEvents(events: LiveEvent[]): void;
  onLeaderboard(): void;
}

/** The server pings every 25 s; this long without any message means the link is dead. */
const SILENCE_MS = 60_000;

/** /ws of this page's host, on `port` when the feed has its own (LIVE_WS_PORT). */
function socketUrl(port: number | null): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${port ? `${location.hostname}:${port}` : location.host}/ws`;
}

/**
 * Follows `competitionId` over /ws (on `port` when given) while `enabled`; returns true while the
 * socket is joined.
 */
export function useLiveSocket(
  competitionId: number,
  enabled: boolean,
  handlers: LiveSocketHandlers,
  port: number | null = null,
): boolean {
  const [connected, setConnected] = useState(false);
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;

  useEffect(() => {
    if (!enabled || typeof WebSocket === "undefined") return;
    let socket: WebSocket | null = null;
    /** Reconnects tried since the last socket that got a message. */
    let attempt = 0;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let silenceTimer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;

    const watchSilence = () => {
      clearTimeout(silenceTimer);
      silenceTimer = setTimeout(() => socket?.close(), SILENCE_MS);
    };
    const onMessage = (event: MessageEvent) => {
      watchSilence();
      attempt = 0;
      let message: LiveServerMessage;
      try {
        message = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (message.type === "game_events_update" && message.competitionId === competitionId) {
        handlersRef.current.onEvents(message.data);
      } else if (message.type === "leaderboard_update" && message.competitionId === competitionId) {
        handlersRef.current.onLeaderboard();
      }
    };
    const connect = () => {
      const ws = new WebSocket(socketUrl(port));
      socket = ws;
      ws.onopen = () => {
        ws.send(JSON.stringify({ type: "join", competitionId }));
        setConnected(true);
        watchSilence();
        handlersRef.current.onLeaderboard();
      };
      ws.onmessage = onMessage;
      ws.onclose = (event) => {
        clearTimeout(silenceTimer);
        setConnected(false);
        if (stopped) return;
        retryTimer = setTimeout(connect, reconnectDelay(attempt++, event.code));
      };
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retryTimer);
      clearTimeout(silenceTimer);
      socket?.close();
      setConnected(false);
    };
  }, [competitionId, enabled, port]);

  return connected;
}
