import { z } from "zod";
const n = z.number();
for (const v of [Infinity, NaN, 1e308, 9007199254740993, -0]) console.log(v, n.safeParse(v).success, n.int().safeParse(v).success);
console.log("date", z.date().safeParse(new Date("x")).success, z.date().safeParse(new Date(8.64e15+1)).success);
console.log(z.email().safeParse("a@b.c").success, z.email().safeParse("é@例え.jp").success, z.email().safeParse("a@b").success);
