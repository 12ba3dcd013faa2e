/** Loading state for admin screens: fetch once on mount, reload on demand, no background refetch. */
import { useCallback, useEffect, useRef, useState } from "react";
import { adminFetch } from "@/lib/client/admin/admin_api.ts";

export interface AdminData<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  /** Fetches again; resolves when done (errors are kept in `error`). */
  reload: () => Promise<void>;
  /** Replaces the loaded value locally (optimistic edits). */
  setData: (next: T | null) => void;
}

/**
 * Loads `path` from the admin API (a 401 redirects to login); `path` null waits.
 * @example const { data, loading, error, reload } = useAdminData<Match[]>("/api/admin/matches");
 */
export function useAdminData<T>(path: string | null): AdminData<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(path !== null);
  const latest = useRef(path);
  latest.current = path;

  const reload = useCallback(async () => {
    if (path === null) return;
    setLoading(true);
    try {
      const value = await adminFetch<T>(path);
      if (latest.current !== path) return;
      setData(value);
      setError(null);
    } catch (err) {
      if (latest.current === path) setError(err);
    } finally {
      if (latest.current === path) setLoading(false);
    }
  }, [path]);

  useEffect(() => {
    setData(null);
    void reload();
  }, [reload]);

  return { data, error, loading, reload, setData };
}
