import assert from "node:assert/strict";
import { consume, getSheet, stringify, twind } from "@twind/core";
import config from "@/twind.config.ts";

function cssFor(classes: string): string {
  const tw = twind(config, getSheet(false, true));
  consume(`<div class="${classes}"></div>`, tw);
  return stringify(tw.target);
}

Deno.test("[fresh] the app's twind theme", async (t) => {
  await t.step("token colours resolve to CSS variables, with opacity modifiers", () => {
    const css = cssFor("bg-primary text-primary-foreground bg-primary/90 text-muted-foreground");
    assert.match(
      css,
      /\.bg-primary\{--tw-bg-opacity:1;background-color:hsl\(var\(--primary\) \/ var\(--tw-bg-opacity\)\)\}/,
    );
    assert.match(css, /\.bg-primary\\\/90\{--tw-bg-opacity:0\.9;/);
    assert.match(css, /\.text-muted-foreground\{[^}]*hsl\(var\(--muted-foreground\)/);
  });

  await t.step("every token has a value in :root", () => {
    const css = cssFor("bg-background");
    const tokens = [
      "background",
      "foreground",
      "primary",
      "secondary",
      "muted",
      "accent",
      "destructive",
      "success",
      "card",
      "popover",
      "border",
      "input",
      "ring",
    ];
    for (const token of tokens) assert.match(css, new RegExp(`--${token}:\\d+ \\d+% \\d+%`), token);
  });

  await t.step("the preflight and defaults never leak <alpha-value>", () => {
    const css = cssFor("border ring divide-y border-border ring-ring bg-success text-destructive");
    assert.ok(!css.includes("<alpha-value>"));
    assert.match(css, /border-color:hsl\(var\(--border\)\)/);
    assert.match(css, /\.ring-ring\{--tw-ring-opacity:1;/);
  });
});
