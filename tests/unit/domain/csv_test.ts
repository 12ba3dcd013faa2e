import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { defuseCell, restoreCell, toCsv } from "@/lib/domain/csv.ts";

const FORMULAS = [
  '=HYPERLINK("https://evil.example","Click")',
  "@SUM(A1:A9)",
  "+1+2",
  "-2+3",
  "\t=1+1",
  "\r=1+1",
];

Deno.test("[csv] a cell starting = + - @ tab or CR is written behind a ', and reads back as it was", () => {
  for (const text of FORMULAS) {
    assert.equal(defuseCell(text), `'${text}`, JSON.stringify(text));
    assert.equal(restoreCell(defuseCell(text)), text);
  }
  for (const text of ["Riverside Rovers", "O'Neil", "'quoted'", "", "5000", "a=b"]) {
    assert.equal(defuseCell(text), text);
    assert.equal(restoreCell(text), text);
  }
  // A cell that already starts with ' before a formula keeps its ' through the round trip.
  assert.equal(restoreCell(defuseCell("'=1+1")), "'=1+1");
});

Deno.test("[csv] toCsv: header first, CRLF, quoting where needed (or everywhere), formulas defused", () => {
  const csv = toCsv(["name", "salary", "note"], [
    ['=HYPERLINK("x")', 5000, null],
    ["Ann, the keeper", -1, "@SUM(A1)"],
  ]);
  assert.equal(
    csv,
    'name,salary,note\r\n"\'=HYPERLINK(""x"")",5000,\r\n"Ann, the keeper",-1,\'@SUM(A1)\r\n',
  );
  const rows = parse(csv, { columns: true });
  assert.deepEqual(rows[0], { name: '\'=HYPERLINK("x")', salary: "5000", note: "" });
  assert.equal(
    toCsv(["a", "b"], [["1", null]], { quoteAll: true }),
    'a,b\r\n"1",""\r\n',
  );
});
