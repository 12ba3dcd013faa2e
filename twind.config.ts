/**
 * twind configuration (Tailwind class names). Colours are shadcn/ui-style tokens backed by CSS
 * variables defined in the preflight, so `bg-primary`, `text-muted-foreground`, `border-border`
 * and opacity modifiers (`bg-primary/90`) all work.
 */
import { defineConfig } from "@twind/core";
import presetTailwind from "@twind/preset-tailwind";

/** `hsl(var(--name) / <alpha-value>)` for a token. */
const token = (name: string) => `hsl(var(--${name}) / <alpha-value>)`;

const palette = (name: string) => ({
  DEFAULT: token(name),
  foreground: token(`${name}-foreground`),
});

/** Token values (HSL triples) for light mode. */
const variables = {
  "--background": "0 0% 100%",
  "--foreground": "222 47% 11%",
  "--primary": "142 72% 29%",
  "--primary-foreground": "210 40% 98%",
  // Darker on hover: a lighter green (bg-primary/90) leaves white text at 4.0:1, under 4.5:1.
  "--primary-hover": "142 72% 25%",
  "--secondary": "210 40% 96%",
  "--secondary-foreground": "222 47% 11%",
  "--muted": "210 40% 96%",
  "--muted-foreground": "215 16% 40%",
  "--accent": "210 40% 94%",
  "--accent-foreground": "222 47% 11%",
  "--destructive": "0 72% 45%",
  "--destructive-foreground": "0 0% 100%",
  "--success": "142 72% 24%",
  "--success-foreground": "0 0% 100%",
  "--card": "0 0% 100%",
  "--card-foreground": "222 47% 11%",
  "--popover": "0 0% 100%",
  "--popover-foreground": "222 47% 11%",
  "--border": "214 32% 88%",
  "--input": "214 32% 80%",
  "--ring": "142 72% 29%",
};

/**
 * Component classes: one short class in the HTML for the class lists repeated on every row of the
 * 300-player team builder (twind expands each into its utilities, in the page's inline CSS).
 */
const components: [string, string][] = [
  [
    "player-row",
    "flex w-full min-w-0 flex-1 items-center gap-2.5 rounded-lg border px-2 py-2 text-left " +
    "transition-colors " +
    "sm:gap-3 sm:px-3 scroll-mb-24 scroll-mt-20 focus-visible:outline-none focus-visible:ring-2 " +
    "focus-visible:ring-ring",
  ],
  ["chosen-row", "border-primary bg-primary/5"],
  ["open-row", "border-transparent hover:border-border hover:bg-muted/60"],
  ["player-name", "block truncate text-sm font-semibold sm:text-base"],
  ["player-meta", "flex items-center gap-1.5 text-xs text-muted-foreground"],
  ["player-salary", "shrink-0 text-right text-sm font-semibold tabular-nums sm:w-16"],
  ["player-line", "flex items-center gap-1"],
  ["player-stats", "block truncate text-[11px] text-muted-foreground tabular-nums"],
  [
    "player-info",
    "flex h-8 w-8 shrink-0 items-center justify-center rounded-full text-xs font-bold " +
    "scroll-mb-24 scroll-mt-20 " +
    "text-muted-foreground hover:bg-muted focus-visible:outline-none focus-visible:ring-2 " +
    "focus-visible:ring-ring",
  ],
  [
    "pick-mark",
    "flex h-7 w-7 shrink-0 items-center justify-center rounded-full border text-sm font-bold",
  ],
  ["chosen-mark", "border-primary bg-primary text-primary-foreground"],
  ["open-mark", "border-border text-muted-foreground"],
  ["avatar", "inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full"],
  ["avatar-img", "h-full w-full object-contain p-0.5"],
  [
    "position-badge",
    "inline-flex w-10 shrink-0 justify-center rounded px-1.5 py-0.5 text-[11px] font-bold no-underline",
  ],
];

export default {
  ...defineConfig({
    presets: [presetTailwind()],
    hash: false,
    rules: components,
    theme: {
      extend: {
        colors: {
          background: token("background"),
          foreground: token("foreground"),
          primary: { ...palette("primary"), hover: token("primary-hover") },
          secondary: palette("secondary"),
          muted: palette("muted"),
          accent: palette("accent"),
          destructive: palette("destructive"),
          success: palette("success"),
          card: palette("card"),
          popover: palette("popover"),
          border: token("border"),
          input: token("input"),
          ring: token("ring"),
        },
        // Used raw by the preflight, where `<alpha-value>` would not be replaced.
        borderColor: { DEFAULT: "hsl(var(--border))" },
        ringColor: { DEFAULT: "hsl(var(--ring))" },
        ringOpacity: { DEFAULT: "1" },
        fontFamily: {
          sans: [
            "Inter",
            "ui-sans-serif",
            "system-ui",
            "-apple-system",
            "Segoe UI",
            "Roboto",
            "Helvetica Neue",
            "Arial",
            "sans-serif",
          ],
          mono: ["ui-monospace", "SFMono-Regular", "Menlo", "Consolas", "monospace"],
        },
        borderRadius: { lg: "0.5rem", md: "0.375rem", sm: "0.25rem" },
      },
    },
    preflight: {
      ":root": variables,
      body: { "@apply": "bg-background text-foreground font-sans antialiased" },
    },
  }),
  selfURL: import.meta.url,
};
