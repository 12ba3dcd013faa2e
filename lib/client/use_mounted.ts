/** A hook for what may only show once the island runs in the browser. */
import { useEffect, useState } from "react";

/** False during server rendering and hydration, true once mounted in the browser. */
export function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}
