import { Button } from "@/components/ui/Button.tsx";
import { copyText, shareLink } from "@/lib/client/share.ts";
import { toast, toastError } from "@/lib/client/toast.ts";
import { cn } from "@/lib/client/cn.ts";

export interface ShareButtonsProps {
  teamId: string;
  /** The link to share: absolute, or a path on this site. */
  url: string;
  /** The share sheet's title and text (e.g. the team and competition names). */
  title: string;
  text: string;
  className?: string;
}

const COPY_FAILED = "Your browser did not allow copying. Select the text and copy it yourself.";

function CopyIcon() {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
      <rect
        x="9"
        y="9"
        width="11"
        height="11"
        rx="2"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      />
      <path d="M5 15V5a2 2 0 0 1 2-2h8" fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}

function ShareIcon() {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
      <path
        d="M12 3v12M7 8l5-5 5 5M5 13v6a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-6"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/**
 * "Copy team ID" and "Share": the share sheet where the device has one (phones), else the link
 * is copied. Used on the confirmation page and in the leaderboard's team dialog.
 */
export default function ShareButtons({ teamId, url, title, text, className }: ShareButtonsProps) {
  const copyTeamId = async () => {
    if (await copyText(teamId)) toast({ title: "Team ID copied", description: teamId });
    else toastError(COPY_FAILED);
  };
  const share = async () => {
    const link = new URL(url, location.href).href;
    if (await shareLink({ title, text, url: link }) === "shared") return;
    if (await copyText(link)) toast({ title: "Link copied", description: link });
    else toastError(COPY_FAILED);
  };
  return (
    <div className={cn("flex flex-wrap gap-2", className)} data-share-buttons="">
      <Button variant="outline" className="flex-1" onClick={copyTeamId}>
        <CopyIcon />
        Copy team ID
      </Button>
      <Button variant="outline" className="flex-1" onClick={share}>
        <ShareIcon />
        Share
      </Button>
    </div>
  );
}
