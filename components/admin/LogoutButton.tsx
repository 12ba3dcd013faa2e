import { useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { Icon } from "./Icons.tsx";
import { logout } from "@/lib/client/admin/session.ts";

/** The Logout button of the admin screens. */
export function LogoutButton() {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="outline"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        void logout();
      }}
    >
      <Icon name="logout" />
      Logout
    </Button>
  );
}
