import assert from "node:assert/strict";
import { competitionCardSvg, escapeXml, fitText, teamCardSvg } from "@/lib/og/cards.ts";
import { formatDeadlineUtc } from "@/lib/og/previews.ts";

const HOSTILE = `</text><script>alert("x")</script> & 'co'\u0000\u0008`;

Deno.test("[og cards] escapeXml escapes markup and drops the characters XML forbids", () => {
  assert.equal(
    escapeXml(`<a href="x">'&'</a>`),
    "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;",
  );
  assert.equal(escapeXml("a\u0000b\u001Fc\tok\n"), "abc\tok\n");
  assert.equal(escapeXml("half \uD83D surrogate"), "half \uFFFD surrogate");
});

Deno.test("[og cards] fitText cuts long names with an ellipsis, never inside an emoji", () => {
  assert.equal(fitText("  Rovers   FC ", 20), "Rovers FC");
  assert.equal(fitText("Abcdefghij", 5), "Abcd…");
  assert.equal(fitText("⚽⚽⚽⚽⚽⚽", 3), "⚽⚽…");
});

Deno.test("[og cards] a hostile team or competition name stays text in the SVG", () => {
  const svg = teamCardSvg({
    teamName: HOSTILE,
    teamId: "FFT-TEST1234",
    competitionName: HOSTILE,
    points: "12.5",
    players: [{ name: HOSTILE, position: "GK", club: HOSTILE, points: "4" }],
  });
  assert.ok(!svg.includes("<script"), "no element from the name");
  assert.ok(!svg.includes("\u0000") && !svg.includes("\u0008"), "no forbidden control characters");
  assert.ok(svg.includes("&lt;/text&gt;&lt;script&gt;"), "the name is shown escaped");
  assert.equal(svg.match(/<text /g)?.length, svg.match(/<\/text>/g)?.length, "balanced texts");
  const card = competitionCardSvg({
    name: HOSTILE,
    league: "Premier League",
    facts: [{ label: "Entry fee", value: "$10.00" }],
  });
  assert.ok(!card.includes("<script"));
  assert.match(card, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="1200" height="630"/);
});

Deno.test("[og cards] the captain and vice-captain wear a C and a V badge", () => {
  const svg = teamCardSvg({
    teamName: "Armband FC",
    teamId: "FFT-TEST1234",
    competitionName: "Cup",
    points: "20",
    players: [
      { name: "Ann Keeper", position: "GK", club: "Rovers", points: "4", role: "V" },
      { name: "Cap Tain", position: "MID", club: "Rovers", points: "14", role: "C" },
      { name: "Plain Jo", position: "DEF", club: "Rovers", points: "2" },
    ],
  });
  assert.equal(svg.match(/<circle cx="686"/g)?.length, 2, "one badge each, none for the rest");
  assert.match(svg, />C<\/text>/);
  assert.match(svg, />V<\/text>/);
});

Deno.test("[og cards] the deadline reads the same in every time zone", () => {
  assert.equal(formatDeadlineUtc("2030-12-06T15:00:00.000Z"), "6 Dec 2030, 15:00 UTC");
  assert.equal(formatDeadlineUtc("2030-12-06T00:05:00.000Z", true), "6 Dec, 00:05");
  assert.equal(formatDeadlineUtc("not a date"), "To be announced");
});
