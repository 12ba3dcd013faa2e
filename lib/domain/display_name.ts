/**
 * When two display names are the same name to a reader: the leaderboard must tell its entries
 * apart, so a competition holds each name once, whatever its case, compatibility form or
 * look-alike letters ("Commit Probe", "COMMIT PROBE", "Соmmit Probe" with Cyrillic О).
 */
import unhomoglyph from "unhomoglyph";

/** Why a display name is refused in a competition. */
export const DISPLAY_NAME_TAKEN =
  "This display name is already taken in this competition. Please choose another.";

/**
 * The skeleton of a display name: NFKC, case-folded, every confusable character replaced by its
 * prototype (Unicode's confusables data, through `unhomoglyph`), runs of spaces as one. Two
 * names with the same skeleton look alike.
 * @example nameSkeleton("Соmmit  Probe") === nameSkeleton("commit probe") // true
 */
export function nameSkeleton(name: string): string {
  const folded = name.normalize("NFKC").toLowerCase();
  return unhomoglyph(folded).normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}
