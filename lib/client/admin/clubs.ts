/** The club form of the Clubs screen, validated by the shared team schema. */
import { teamInputSchema } from "@/lib/domain/schemas/catalog.ts";
import type { Team } from "@/lib/domain/types.ts";
import { toast, toastError } from "@/lib/client/toast.ts";
import { adminFetch, errorText } from "@/lib/client/admin/admin_api.ts";
import { ApiError } from "@/lib/client/api.ts";
import { type FieldErrors, issuesToErrors } from "@/lib/client/form_errors.ts";

export interface ClubFormValues {
  name: string;
  shortName: string;
  league: string;
  logoUrl: string;
}

/** A new club: Premier League, no logo. */
export function emptyClubValues(): ClubFormValues {
  return { name: "", shortName: "", league: "PREMIER_LEAGUE", logoUrl: "" };
}

/** The form values of a saved club. */
export function clubToValues(club: Team): ClubFormValues {
  return {
    name: club.name,
    shortName: club.shortName,
    league: club.league,
    logoUrl: club.logoUrl ?? "",
  };
}

/** Field errors of the values (the server's own schema), or null when they are valid. */
export function validateClub(values: ClubFormValues): FieldErrors | null {
  const parsed = teamInputSchema.safeParse(values);
  return parsed.success ? null : issuesToErrors(parsed.error.issues);
}

/**
 * Saves a club (POST, or PUT when `clubId` is given) with the 'Club Created/Updated' toast;
 * resolves the saved club, or the field errors (the server's issues) when refused.
 */
export async function saveClub(
  values: ClubFormValues,
  clubId: number | null,
): Promise<{ club: Team } | { errors: FieldErrors }> {
  const problems = validateClub(values);
  if (problems) return { errors: problems };
  const editing = clubId !== null;
  try {
    const club = await adminFetch<Team>(
      editing ? `/api/admin/teams/${clubId}` : "/api/admin/teams",
      { method: editing ? "PUT" : "POST", body: teamInputSchema.parse(values) },
    );
    toast({
      title: editing ? "Club Updated" : "Club Created",
      description: `${club.name} has been saved.`,
    });
    return { club };
  } catch (err) {
    toastError(errorText(err, editing ? "Failed to update club" : "Failed to create club"));
    return { errors: err instanceof ApiError ? issuesToErrors(err.issues) : {} };
  }
}
