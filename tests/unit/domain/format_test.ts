import assert from "node:assert/strict";
import {
  closesIn,
  currencySymbol,
  displayName,
  formatCountdown,
  formatMoney,
  formatPrice,
  formatSalary,
  formatWhole,
  lastName,
  leagueLabel,
  ordinal,
  POSITION_NAMES,
  possessive,
  prizeText,
  roundMoney,
  searchText,
  toCents,
  toNumber,
} from "@/lib/domain/format.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

Deno.test("[format] toNumber converts numbers and numeric strings, everything else is 0", async (t) => {
  await t.step("numbers pass through", () => {
    assert.equal(toNumber(12.5), 12.5);
    assert.equal(toNumber(-3), -3);
    assert.equal(toNumber(0), 0);
  });
  await t.step("numeric strings become numbers", () => {
    assert.equal(toNumber("12.50"), 12.5);
    assert.equal(toNumber(" 7 "), 7);
    assert.equal(toNumber("-2.5"), -2.5);
  });
  await t.step("empty, invalid and non-numbers become 0", () => {
    for (const v of ["", "   ", "abc", "12abc", null, undefined, NaN, Infinity, {}, [], true]) {
      assert.equal(toNumber(v), 0, `toNumber(${String(v)})`);
    }
  });
});

Deno.test("[format] money is rounded to cents without float noise", async (t) => {
  await t.step("toCents", () => {
    assert.equal(toCents(1.005), 101);
    assert.equal(toCents(0.1 + 0.2), 30);
    assert.equal(toCents(-1.005), -100);
    assert.equal(toCents(1234.5), 123450);
  });
  await t.step("roundMoney", () => {
    assert.equal(roundMoney(10.005), 10.01);
    assert.equal(roundMoney(0.1 + 0.2), 0.3);
    assert.equal(roundMoney(99.999), 100);
  });
});

Deno.test("[format] formatMoney shows 2 decimals with thousands separators", async (t) => {
  const cases: [number | string | null | undefined, string][] = [
    [0, "0.00"],
    [5, "5.00"],
    [10.5, "10.50"],
    [1234.5, "1,234.50"],
    [1000000, "1,000,000.00"],
    [999.999, "1,000.00"],
    [1.005, "1.01"],
    [0.1 + 0.2, "0.30"],
    [-1234.5, "-1,234.50"],
    [-0.001, "0.00"],
    ["250", "250.00"],
    ["12.345", "12.35"],
    ["", "0.00"],
    ["abc", "0.00"],
    [null, "0.00"],
    [undefined, "0.00"],
  ];
  for (const [input, expected] of cases) {
    await t.step(`${JSON.stringify(input)} → ${expected}`, () => {
      assert.equal(formatMoney(input), expected);
    });
  }
});

Deno.test("[format] formatWhole shows 0 decimals with thousands separators", () => {
  assert.equal(formatWhole(50000), "50,000");
  assert.equal(formatWhole(5000), "5,000");
  assert.equal(formatWhole(999), "999");
  assert.equal(formatWhole(1234567), "1,234,567");
  assert.equal(formatWhole(1200.4), "1,200");
  assert.equal(formatWhole(1200.5), "1,201");
  assert.equal(formatWhole(-1200), "-1,200");
  assert.equal(formatWhole("45000"), "45,000");
  assert.equal(formatWhole(null), "0");
  assert.equal(formatWhole(0), "0");
});

Deno.test("[format] currency symbol is $ for USD and £ for anything else", async (t) => {
  await t.step("USD", () => {
    assert.equal(currencySymbol("USD"), "$");
    assert.equal(currencySymbol("usd"), "$");
  });
  await t.step("GBP and unknown currencies", () => {
    assert.equal(currencySymbol("GBP"), "£");
    assert.equal(currencySymbol("EUR"), "£");
  });
  await t.step("missing currency is the default USD", () => {
    assert.equal(currencySymbol(null), "$");
    assert.equal(currencySymbol(undefined), "$");
    assert.equal(currencySymbol(""), "$");
  });
  await t.step("formatPrice", () => {
    assert.equal(formatPrice(10, "USD"), "$10.00");
    assert.equal(formatPrice(5, "GBP"), "£5.00");
    assert.equal(formatPrice("1234.5", "GBP"), "£1,234.50");
    assert.equal(formatPrice(null, "USD"), "$0.00");
  });
  await t.step("formatSalary in the contest's currency, whole units", () => {
    assert.equal(formatSalary(40000, "GBP"), "£40,000");
    assert.equal(formatSalary(9000.4, "USD"), "$9,000");
    assert.equal(formatSalary(-500, "GBP"), "-£500");
    assert.equal(formatSalary(0.2), "$0");
  });
});

Deno.test("[format] ordinal 1..113 and beyond", async (t) => {
  await t.step("the irregular ones", () => {
    const expected: Record<number, string> = {
      1: "1st",
      2: "2nd",
      3: "3rd",
      4: "4th",
      10: "10th",
      11: "11th",
      12: "12th",
      13: "13th",
      14: "14th",
      21: "21st",
      22: "22nd",
      23: "23rd",
      24: "24th",
      100: "100th",
      101: "101st",
      102: "102nd",
      103: "103rd",
      111: "111th",
      112: "112th",
      113: "113th",
      1001: "1001st",
    };
    for (const [n, text] of Object.entries(expected)) assert.equal(ordinal(Number(n)), text);
  });
  await t.step("every number from 1 to 113 follows the English rule", () => {
    for (let n = 1; n <= 113; n++) {
      const teen = n % 100 >= 11 && n % 100 <= 13;
      const suffix = teen
        ? "th"
        : n % 10 === 1
        ? "st"
        : n % 10 === 2
        ? "nd"
        : n % 10 === 3
        ? "rd"
        : "th";
      assert.equal(ordinal(n), `${n}${suffix}`);
    }
  });
});

Deno.test("[format] closesIn shows days above 24 h, hours above 1 h, minutes in the last hour", async (t) => {
  const now = new Date("2030-01-01T12:00:00.000Z");
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
  await t.step("no deadline → Coming soon", () => {
    assert.equal(closesIn(null, now), "Coming soon");
    assert.equal(closesIn(undefined, now), "Coming soon");
    assert.equal(closesIn("", now), "Coming soon");
    assert.equal(closesIn("not a date", now), "Coming soon");
  });
  await t.step("past or exactly now → Closed", () => {
    assert.equal(closesIn(at(0), now), "Closed");
    assert.equal(closesIn(at(-1000), now), "Closed");
    assert.equal(closesIn(at(-3 * DAY), now), "Closed");
  });
  await t.step("exactly 24 h is not more than 24 h → 24h", () => {
    assert.equal(closesIn(at(DAY), now), "Closes in 24h");
  });
  await t.step("one second more than 24 h → 1d", () => {
    assert.equal(closesIn(at(DAY + 1000), now), "Closes in 1d");
  });
  await t.step("days are floored", () => {
    assert.equal(closesIn(at(2 * DAY - 1000), now), "Closes in 1d");
    assert.equal(closesIn(at(2 * DAY), now), "Closes in 2d");
    assert.equal(closesIn(at(7 * DAY + 5 * HOUR), now), "Closes in 7d");
  });
  await t.step("hours are floored", () => {
    assert.equal(closesIn(at(DAY - 1000), now), "Closes in 23h");
    assert.equal(closesIn(at(5 * HOUR + 59 * 60_000), now), "Closes in 5h");
    assert.equal(closesIn(at(HOUR), now), "Closes in 1h");
  });
  await t.step("the last hour counts floored minutes, and never says 0m", () => {
    assert.equal(closesIn(at(HOUR - 1000), now), "Closes in 59m");
    assert.equal(closesIn(at(45 * 60_000), now), "Closes in 45m");
    assert.equal(closesIn(at(45 * 60_000 + 59_000), now), "Closes in 45m");
    assert.equal(closesIn(at(1), now), "Closes in 1m");
  });
});

Deno.test("[format] searchText ignores case and accents", () => {
  assert.equal(searchText("Peña"), "pena");
  assert.ok(searchText("Thomas MÜLLER, Bayern München").includes(searchText("muller")));
  assert.ok(searchText("Kylian Mbappé").includes(searchText("MBAPPE")));
  assert.equal(searchText("Ødegaard"), "ødegaard", "letters that are not decomposed stay");
});

Deno.test("[format] formatCountdown is HH:MM:SS, days first past 24 hours", async (t) => {
  await t.step("passed or zero → 00:00:00", () => {
    assert.equal(formatCountdown(0), "00:00:00");
    assert.equal(formatCountdown(-5000), "00:00:00");
    assert.equal(formatCountdown(NaN), "00:00:00");
  });
  await t.step("pads and floors to the second", () => {
    assert.equal(formatCountdown(999), "00:00:00");
    assert.equal(formatCountdown(1000), "00:00:01");
    assert.equal(formatCountdown(59_999), "00:00:59");
    assert.equal(formatCountdown(60_000), "00:01:00");
    assert.equal(formatCountdown(HOUR + 2 * 60_000 + 3000), "01:02:03");
    assert.equal(formatCountdown(DAY - 1000), "23:59:59");
  });
  await t.step("past 24 hours the days come first, as on the contest card", () => {
    assert.equal(formatCountdown(DAY), "24:00:00");
    assert.equal(formatCountdown(DAY + 1000), "1d 00:00:01");
    assert.equal(formatCountdown(100 * HOUR + 5000), "4d 04:00:05");
    assert.equal(formatCountdown(7 * DAY - 3 * 60_000 - 8000), "6d 23:56:52");
    assert.equal(formatCountdown(3 * DAY - 10 * 60_000 - 1000), "2d 23:49:59");
  });
});

Deno.test("[format] displayName falls back to 'Entry ' + characters 4 to 9 of the team ID", async (t) => {
  await t.step("a team name is shown as is (trimmed)", () => {
    assert.equal(displayName("The Gaffers", "FFT-7K2QD9XM"), "The Gaffers");
    assert.equal(displayName("  Spaced  ", "FFT-7K2QD9XM"), "Spaced");
  });
  await t.step("blank names use teamId.slice(4, 10)", () => {
    assert.equal(displayName(null, "ABCDEFGHIJKL"), "Entry EFGHIJ");
    assert.equal(displayName(undefined, "FFT-7K2QD9XM"), "Entry 7K2QD9");
    assert.equal(displayName("", "123456789012"), "Entry 567890");
    assert.equal(displayName("   ", "123456789012"), "Entry 567890");
  });
  await t.step("a short team ID gives what exists", () => {
    assert.equal(displayName(null, "ABCDEF"), "Entry EF");
    assert.equal(displayName(null, "AB"), "Entry ");
  });
});

Deno.test("[format] prizeText shows the custom description for NON_CASH, money otherwise", async (t) => {
  await t.step("NON_CASH with a description", () => {
    assert.equal(
      prizeText({
        prizeType: "NON_CASH",
        customPrizeDescription: "Signed shirt",
        prizePool: 100,
        currency: "USD",
      }),
      "Signed shirt",
    );
  });
  await t.step("NON_CASH without a description falls back to money", () => {
    assert.equal(
      prizeText({
        prizeType: "NON_CASH",
        customPrizeDescription: null,
        prizePool: 100,
        currency: "GBP",
      }),
      "£100.00",
    );
    assert.equal(
      prizeText({
        prizeType: "NON_CASH",
        customPrizeDescription: "  ",
        prizePool: 100,
        currency: "USD",
      }),
      "$100.00",
    );
  });
  await t.step("CASH ignores a description", () => {
    assert.equal(
      prizeText({
        prizeType: "CASH",
        customPrizeDescription: "Signed shirt",
        prizePool: "1500.5",
        currency: "USD",
      }),
      "$1,500.50",
    );
  });
  await t.step("GBP uses £", () => {
    assert.equal(
      prizeText({
        prizeType: "CASH",
        customPrizeDescription: null,
        prizePool: 250,
        currency: "GBP",
      }),
      "£250.00",
    );
  });
});

Deno.test("[format] lastName is the last word", () => {
  assert.equal(lastName("Mohamed Salah"), "Salah");
  assert.equal(lastName("Virgil van Dijk"), "Dijk");
  assert.equal(lastName("Alisson"), "Alisson");
  assert.equal(lastName("  Kevin   De Bruyne  "), "Bruyne");
  assert.equal(lastName(""), "");
  assert.equal(lastName(null), "");
  assert.equal(lastName(undefined), "");
});

Deno.test("[format] leagueLabel and POSITION_NAMES read as words", () => {
  assert.equal(leagueLabel("PREMIER_LEAGUE"), "Premier League");
  assert.equal(leagueLabel("LA_LIGA"), "La Liga");
  assert.equal(leagueLabel("CHAMPIONS_LEAGUE"), "Champions League");
  assert.equal(leagueLabel(""), "—");
  assert.equal(leagueLabel(null), "—");
  assert.deepEqual(Object.values(POSITION_NAMES), [
    "Goalkeeper",
    "Defender",
    "Midfielder",
    "Forward",
  ]);
});

Deno.test("[format] formatSalary puts the sign before the dollar", () => {
  assert.equal(formatSalary(9000), "$9,000");
  assert.equal(formatSalary(50000), "$50,000");
  assert.equal(formatSalary(0), "$0");
  assert.equal(formatSalary(-500), "-$500");
  assert.equal(formatSalary("1234.6"), "$1,235");
  assert.equal(formatSalary(null), "$0");
});

Deno.test("[format] a display name's possessive: a bare apostrophe after a final s", () => {
  assert.equal(possessive("Jane"), "Jane's");
  assert.equal(possessive("False Nine Lives"), "False Nine Lives'");
  assert.equal(possessive("BOSS"), "BOSS'");
  assert.equal(possessive("Team 2"), "Team 2's");
});
