/** The visible "C"/"V" badge of a captain or vice-captain, named for screen readers. */
export function RoleBadge({ role, className = "ml-1.5" }: { role: "C" | "V"; className?: string }) {
  return (
    <span
      className={`${className} inline-flex h-5 w-5 shrink-0 items-center justify-center rounded-full bg-primary align-text-bottom text-[11px] font-bold text-primary-foreground`}
      title={role === "C" ? "Captain" : "Vice-captain"}
      data-role-badge={role}
    >
      <span aria-hidden="true">{role}</span>
      <span className="sr-only">{role === "C" ? "(captain)" : "(vice-captain)"}</span>
    </span>
  );
}

/** The captain and vice-captain of a team, by player id (absent: none named). */
export interface TeamRoles {
  captainId?: number;
  viceCaptainId?: number;
}

/** A pick's role in `roles`: "C", "V" or null. */
export function roleIn(roles: TeamRoles | null | undefined, playerId: number): "C" | "V" | null {
  if (!roles) return null;
  if (roles.captainId === playerId) return "C";
  return roles.viceCaptainId === playerId ? "V" : null;
}
