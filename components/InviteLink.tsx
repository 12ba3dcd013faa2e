import { useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Label } from "@/components/ui/Label.tsx";
import { copyText } from "@/lib/client/share.ts";

/** A league's invite link: a read-only field (selected on focus) and "Copy invite link". */
export function InviteLink({ id, url }: { id: string; url: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>Invite link</Label>
      <div className="flex flex-wrap gap-2">
        <Input
          id={id}
          readOnly
          value={url}
          className="min-w-0 flex-1 font-mono text-xs"
          onFocus={(e) => (e.target as HTMLInputElement).select()}
        />
        <Button variant="outline" onClick={async () => setCopied(await copyText(url))}>
          Copy invite link
        </Button>
      </div>
      {copied !== null && (
        <p role="status" className="text-sm text-muted-foreground">
          {copied
            ? "Invite link copied."
            : "Your browser did not allow copying. Copy the link yourself."}
        </p>
      )}
    </div>
  );
}
