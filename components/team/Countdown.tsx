import { useEffect, useState } from "react";
import { formatCountdown } from "@/lib/domain/format.ts";

export interface CountdownProps {
  deadline: string;
  /** ISO time of the server render, so the first client render matches it. */
  renderedAt: string;
  /** Called once when the deadline passes while the page is open. */
  onExpire?: () => void;
}

/** Time left to the deadline as HH:MM:SS, ticking every second. */
export function Countdown({ deadline, renderedAt, onExpire }: CountdownProps) {
  const target = new Date(deadline).getTime();
  const [now, setNow] = useState(() => new Date(renderedAt).getTime());
  const left = target - now;

  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

  useEffect(() => {
    if (!(left > 0)) onExpire?.();
  }, [left > 0]);

  return (
    <span role="timer" className="font-mono text-lg font-bold tabular-nums" data-countdown="">
      {formatCountdown(left)}
    </span>
  );
}
