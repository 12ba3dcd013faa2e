/**
 * The link-preview cards (1200×630, the size Open Graph and Twitter's large card expect) as SVG
 * text: one for a competition, one for a team. Every text is user input somewhere (competition
 * and team names), so each goes through `escapeXml`; lengths are cut to fit since SVG text does
 * not wrap or clip by itself.
 */
import type { Position } from "@/lib/domain/types.ts";
import { pointsText } from "@/lib/domain/format.ts";

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
/** The family the PNG renderer loads (lib/og/png.ts); browsers showing the SVG fall back. */
const FONT = "Inter, 'Helvetica Neue', Arial, sans-serif";

export interface CompetitionCard {
  name: string;
  /** The league in words ("Premier League"). */
  league: string;
  /** Up to three label/value pairs: fee, prize pool, deadline or status. */
  facts: { label: string; value: string }[];
}

export interface TeamCardPlayer {
  name: string;
  position: Position;
  club: string;
  points: string;
  /** "C" captain, "V" vice-captain (contests with captains); absent or null: neither. */
  role?: "C" | "V" | null;
}

export interface TeamCard {
  teamName: string;
  teamId: string;
  competitionName: string;
  points: string;
  players: TeamCardPlayer[];
  /** Picks not shown until they lock (a row each says so). */
  hiddenPicks?: number;
}

/** Text made safe inside SVG/XML: markup characters escaped, characters XML forbids dropped. */
export function escapeXml(text: string): string {
  return text.toWellFormed()
    // deno-lint-ignore no-control-regex -- XML 1.0 forbids these control characters outright
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/**
 * `text` cut to at most `max` characters (an ellipsis marks the cut), whitespace collapsed. The
 * cut counts code points, so an emoji or accented letter is never split in half.
 */
export function fitText(text: string, max: number): string {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length <= max ? chars.join("") : `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}

/** How many characters of Inter at `size` px fit in `width` px (average glyph ≈ 0.56 em, bold 0.62). */
function charsFor(width: number, size: number, bold = true): number {
  return Math.floor(width / (size * (bold ? 0.62 : 0.56)));
}

/** The largest size from `max` down to `min` at which `value` fits in `width` px, bold. */
function sizeToFit(value: string, width: number, max: number, min: number): number {
  const fitting = Math.floor(width / ([...value].length * 0.62));
  return Math.max(min, Math.min(max, fitting));
}

const POSITION_COLORS: Record<Position, { fill: string; text: string }> = {
  GK: { fill: "#fef3c7", text: "#78350f" },
  DEF: { fill: "#e0f2fe", text: "#0c4a6e" },
  MID: { fill: "#d1fae5", text: "#064e3b" },
  FWD: { fill: "#ffe4e6", text: "#881337" },
};

function text(
  x: number,
  y: number,
  size: number,
  content: string,
  attrs: { weight?: number; fill?: string; anchor?: "start" | "end" | "middle" } = {},
): string {
  const { weight = 400, fill = "#ffffff", anchor = "start" } = attrs;
  return `<text x="${x}" y="${y}" font-size="${size}" font-weight="${weight}" fill="${fill}" ` +
    `text-anchor="${anchor}">${escapeXml(content)}</text>`;
}

/** The frame shared by both cards: background, brand line at the top. */
function frame(body: string[], label: string): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" ` +
    `viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}" font-family="${FONT}" role="img" ` +
    `aria-label="${escapeXml(label)}">`,
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="#052e16"/><stop offset="1" stop-color="#15803d"/>` +
    `</linearGradient></defs>`,
    `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#bg)"/>`,
    `<circle cx="1090" cy="90" r="260" fill="#ffffff" fill-opacity="0.04"/>`,
    `<rect x="64" y="52" width="36" height="36" rx="8" fill="#22c55e"/>`,
    `<path d="m73 70 6 6 12-12" fill="none" stroke="#052e16" stroke-width="4" ` +
    `stroke-linecap="round" stroke-linejoin="round"/>`,
    text(114, 80, 26, "Fantasy Contests", { weight: 700, fill: "#bbf7d0" }),
    ...body,
    "</svg>",
  ].join("\n");
}

/** The competition card: name, league, and fee / prize pool / deadline or status. */
export function competitionCardSvg(card: CompetitionCard): string {
  const facts = card.facts.slice(0, 3);
  const boxWidth = (CARD_WIDTH - 128 - 24 * (facts.length - 1)) / Math.max(1, facts.length);
  const boxes = facts.flatMap((fact, i) => {
    const x = 64 + i * (boxWidth + 24);
    const size = sizeToFit(fact.value, boxWidth - 56, 40, 28);
    return [
      `<rect x="${x}" y="420" width="${boxWidth}" height="140" rx="20" fill="#ffffff" ` +
      `fill-opacity="0.1"/>`,
      text(x + 28, 468, 22, fitText(fact.label.toUpperCase(), charsFor(boxWidth - 56, 22)), {
        weight: 600,
        fill: "#bbf7d0",
      }),
      text(x + 28, 522, size, fitText(fact.value, charsFor(boxWidth - 56, size)), {
        weight: 700,
      }),
    ];
  });
  const [first, second] = twoLines(card.name, charsFor(CARD_WIDTH - 128, 72));
  return frame([
    text(64, 210, 72, first, { weight: 800 }),
    ...(second ? [text(64, 296, 72, second, { weight: 800 })] : []),
    text(64, second ? 360 : 282, 32, fitText(card.league, 60), { fill: "#dcfce7" }),
    ...boxes,
  ], card.name);
}

/** A pick not locked yet, in place of the player (as pick_privacy.ts words it). */
const HIDDEN_PICK_TEXT = "Hidden until kick-off";

/** The team card: team name and points, its five players with position, club and points. */
export function teamCardSvg(card: TeamCard): string {
  const shown = card.players.slice(0, 5);
  const hiddenRows = Array.from(
    { length: Math.min(card.hiddenPicks ?? 0, 5 - shown.length) },
    (_, k) => {
      const y = 214 + (shown.length + k) * 70;
      return [
        `<rect x="64" y="${y}" width="1072" height="60" rx="14" fill="#ffffff" fill-opacity="0.06"/>`,
        text(188, y + 40, 28, HIDDEN_PICK_TEXT, { weight: 600, fill: "#bbf7d0" }),
      ];
    },
  ).flat();
  const rows = shown.flatMap((player, i) => {
    const y = 214 + i * 70;
    const colors = POSITION_COLORS[player.position] ?? POSITION_COLORS.MID;
    return [
      `<rect x="64" y="${y}" width="1072" height="60" rx="14" fill="#ffffff" ` +
      `fill-opacity="${i % 2 ? 0.06 : 0.11}"/>`,
      `<rect x="84" y="${y + 13}" width="80" height="34" rx="17" fill="${colors.fill}"/>`,
      text(124, y + 38, 20, player.position, {
        weight: 700,
        fill: colors.text,
        anchor: "middle",
      }),
      text(188, y + 40, 28, fitText(player.name, charsFor(player.role ? 470 : 520, 28)), {
        weight: 700,
      }),
      ...(player.role
        ? [
          `<circle cx="686" cy="${y + 30}" r="18" fill="#facc15"/>`,
          text(686, y + 39, 22, player.role, { weight: 800, fill: "#052e16", anchor: "middle" }),
        ]
        : []),
      text(730, y + 39, 20, fitText(player.club, charsFor(235, 20, false)), { fill: "#bbf7d0" }),
      text(1112, y + 40, 28, pointsText(player.points), { weight: 700, anchor: "end" }),
    ];
  });
  return frame([
    text(1136, 80, 26, fitText(card.competitionName, charsFor(660, 26)), {
      weight: 600,
      fill: "#dcfce7",
      anchor: "end",
    }),
    text(64, 176, 60, fitText(card.teamName, charsFor(800, 60)), { weight: 800 }),
    `<rect x="896" y="124" width="240" height="68" rx="34" fill="#22c55e"/>`,
    text(1016, 170, 34, pointsText(card.points), {
      weight: 800,
      fill: "#052e16",
      anchor: "middle",
    }),
    ...rows,
    ...hiddenRows,
    text(64, 600, 22, `Team ID ${card.teamId}`, { fill: "#bbf7d0" }),
  ], `${card.teamName}, ${card.competitionName}`);
}

/** `text` over at most two lines of `max` characters, broken at a space where possible. */
function twoLines(text: string, max: number): [string, string | null] {
  const clean = text.replace(/\s+/g, " ").trim();
  const chars = [...clean];
  if (chars.length <= max) return [clean, null];
  const head = chars.slice(0, max + 1).join("");
  const cut = head.lastIndexOf(" ");
  const firstLine = cut > max / 2 ? head.slice(0, cut) : chars.slice(0, max).join("");
  return [firstLine, fitText(clean.slice(firstLine.length), max)];
}
