import { competitionInputSchema, entryCreateSchema } from "../../lib/domain/schemas.ts";
Deno.test("p", () => {
  const base = { name: "a", league: "PREMIER_LEAGUE", entryFee: "10", prizePool: 100, deadline: "2030-01-01T00:00:00Z" };
  for (const salaryCap of [undefined, "", null, "1e3", 0.004, "0x10", 1e308]) {
    const r = competitionInputSchema.safeParse({ ...base, salaryCap });
    console.log(salaryCap, r.success ? r.data.salaryCap : r.error.issues[0].message);
  }
  for (const entryFee of [0.004, 0.005, 1000000, "10.555"]) {
    const r = competitionInputSchema.safeParse({ ...base, entryFee });
    console.log(entryFee, r.success ? r.data.entryFee : r.error.issues[0].message);
  }
  for (const deadline of ["+275760-09-13T00:00:00.000Z", "1960-01-01", 0]) {
    const r = competitionInputSchema.safeParse({ ...base, deadline });
    console.log(deadline, r.success ? r.data.deadline : r.error.issues[0].message);
  }
});
