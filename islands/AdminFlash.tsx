import { useEffect } from "react";
import { showFlash } from "@/lib/client/admin/flash.ts";

/** Shows the toast an admin action left for this page (e.g. 'Competition Created'); renders nothing. */
export default function AdminFlash() {
  useEffect(() => showFlash(), []);
  return null;
}
